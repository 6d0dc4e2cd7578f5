; errdex — Java sites and the facts needed to read their messages.
; spec.py dispatches on the outer capture name of each match.

; new X(...): thrown directly, or any `new …Exception(…)` / `new …Error(…)` (orElseThrow
; suppliers, callbacks); spec.py decides which.
(object_creation_expression
  type: (_) @new.class
  arguments: (argument_list) @new.args) @new

; Guava checks, Objects.requireNonNull, loggers, System.err.println (receiver optional:
; static imports).
(method_invocation
  object: (_)? @call.receiver
  name: (identifier) @call.method
  arguments: (argument_list) @call.args
  (#any-of? @call.method
    "checkArgument" "checkState" "checkNotNull" "checkElementIndex" "checkPositionIndex"
    "verify" "verifyNotNull" "requireNonNull"
    "error" "fatal" "severe" "println" "print" "printf" "withDescription"
    ; log calls at every level (SLF4J/log4j/commons-logging, JUL): errdex.languages.logs
    "warn" "warning" "info" "debug" "trace" "fine" "finer" "finest" "config" "log")) @call

; ctxt.reportInputMismatch(..), reportBadDefinition(..): helpers that throw the message
(method_invocation
  name: (identifier) @report.method
  arguments: (argument_list) @report.args
  (#match? @report.method "^_?report[A-Z][A-Za-z]*$")) @report

; throw Errors.create(..): a factory of the repository (composition tells its message)
(throw_statement
  (method_invocation) @throwcall.call) @throwcall

; fail("no config"); — a helper of the repository that throws or logs what it is given
(expression_statement
  (method_invocation
    arguments: (argument_list [(string_literal) (binary_expression)])) @helper.call) @helper

; super("message") in the constructor of an exception class
(explicit_constructor_invocation
  constructor: (super)
  arguments: (argument_list) @super.args) @super

; assert cond : "message";
(assert_statement
  .
  (_)
  .
  ":"
  .
  (_) @assert.message) @assert

; String msg = "..."; msg = "..."; msg += "..." (message variables and constants)
(variable_declarator
  name: (identifier) @assign.name
  value: (_) @assign.value) @assign

(assignment_expression
  left: (identifier) @assign.name
  operator: "="
  right: (_) @assign.value) @assign

(assignment_expression
  left: (identifier) @assign.name
  operator: "+="
  right: (_) @assign.value) @assign.add

; import static com.google.common.base.Preconditions.checkArgument; (or .*)
(import_declaration
  "static"
  (scoped_identifier) @import.name
  (asterisk)? @import.all) @import
