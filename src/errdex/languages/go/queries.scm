; errdex — Go sites and the facts needed to read their messages.
; spec.py dispatches on the outer capture name of each match.

; pkg.Fn(...) / recv.Method(...): errors.New, fmt.Errorf, log.Fatal, http.Error,
; status.Errorf, logger.Error, zerolog's .Msg, fmt.Fprintln(os.Stderr, ...) ...
; spec.py keeps the receivers it knows for each name.
(call_expression
  function: (selector_expression
    operand: (_) @call.receiver
    field: (field_identifier) @call.method)
  arguments: (argument_list) @call.args
  (#any-of? @call.method
    "New" "Newf" "Errorf" "Wrap" "Wrapf" "WithMessage" "WithMessagef"
    "Error" "Errorln" "Errorw" "ErrorS" "ErrorContext"
    "Fatal" "Fatalf" "Fatalln" "Fatalw" "FatalContext"
    "Panic" "Panicf" "Panicln" "Panicw"
    "Exit" "Exitf" "Exitln"
    "Msg" "Msgf" "NewHTTPError" "Fprint" "Fprintf" "Fprintln" "Print" "Printf" "Println"
    ; log calls below error (logrus, zap, slog, klog/glog, logr): errdex.languages.logs
    "Warn" "Warnf" "Warnln" "Warnw" "WarnContext" "Warning" "Warningf" "Warningln" "WarningS"
    "Info" "Infof" "Infoln" "Infow" "InfoS" "InfoContext"
    "Debug" "Debugf" "Debugln" "Debugw" "DebugContext"
    "Trace" "Tracef" "Traceln")) @call

; panic(...)
(call_expression
  function: (identifier) @panic.function (#eq? @panic.function "panic")
  arguments: (argument_list) @panic.args) @panic

; func (e *T) Error() string { return "..." }: the messages of a custom error type.
(method_declaration
  receiver: (parameter_list) @method.receiver
  name: (field_identifier) @method.name (#eq? @method.name "Error")
  parameters: (parameter_list) @method.params
  result: (type_identifier) @method.result (#eq? @method.result "string")
  body: (block) @method.body) @method

; return ..., &NotFoundError{...} / newErr(...): a producer's call (compose.py).
(return_statement (expression_list)) @return

; fail("..."): a call statement passing text, a helper's call if the callee panics with it.
(expression_statement
  (call_expression
    function: (identifier) @helper.function
    arguments: (argument_list (interpreted_string_literal))) @helper.call) @helper

; Message constants and variables: const msg = "...", var msg = "...", msg := "...", msg = "...".
(const_spec
  name: (identifier) @assign.name
  value: (expression_list . (_) @assign.value .)) @assign

(var_spec
  name: (identifier) @assign.name
  value: (expression_list . (_) @assign.value .)) @assign

(short_var_declaration
  left: (expression_list . (identifier) @assign.name .)
  right: (expression_list . (_) @assign.value .)) @assign

(assignment_statement
  left: (expression_list . (identifier) @assign.name .)
  operator: "="
  right: (expression_list . (_) @assign.value .)) @assign

; Every name assigned anywhere: a variable assigned more than once has no single message.
(assignment_statement left: (expression_list (identifier) @assigned))
(short_var_declaration left: (expression_list (identifier) @assigned))
(range_clause left: (expression_list (identifier) @assigned))
(var_spec name: (identifier) @assigned)
