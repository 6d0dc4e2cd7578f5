; C# error sites. csharp.py dispatches on the outer capture name of each match.

; throw new X(...); and `x ?? throw new X(...)`
(throw_statement (object_creation_expression) @throw.value) @throw
(throw_expression (object_creation_expression) @throw.value) @throw

; new XException(...) made to be thrown elsewhere: returned by a factory, an arm of a switch,
; handed to a call (Task.FromException, SetException), kept in a local (var ex = new X(…);
; ex.Data… ; return ex;), either arm of a ternary. spec.py decides which.
(return_statement (object_creation_expression) @made)
(variable_declarator (object_creation_expression) @made)
(conditional_expression (object_creation_expression) @made)
(arrow_expression_clause (object_creation_expression) @made)
(switch_expression_arm (object_creation_expression) @made)
(argument (object_creation_expression) @made)

; throw Errors.Create(...), `x ?? throw Error.NotFound(key)`: a factory's error
(throw_statement (invocation_expression) @throwcall.value) @throwcall
(throw_expression (invocation_expression) @throwcall.value) @throwcall

; Fail("…") as a statement: a helper of the repository, maybe (composition decides); also
; a member's whole body (`void ThrowClosed() => ThrowHelper.ThrowInvalidOperation("…");`)
(expression_statement (invocation_expression) @helper.call) @helper
(arrow_expression_clause (invocation_expression) @helper.call) @helper

; receiver.Method(...): logger.LogError, Log.Fatal, log.ErrorFormat, Environment.FailFast,
; ArgumentNullException.ThrowIfNull and the other guards (guards.py). csharp.py checks the
; receiver.
(invocation_expression
  function: (member_access_expression
    expression: (_) @call.receiver
    name: (identifier) @call.method)
  arguments: (argument_list) @call.args
  (#any-of? @call.method
    "LogError" "LogCritical" "Error" "Fatal" "ErrorFormat" "FatalFormat" "FailFast"
    "ThrowIfNull" "ThrowIfNullOrEmpty" "ThrowIfNullOrWhiteSpace" "ThrowIf" "ThrowIfNegative"
    "ThrowIfNegativeOrZero" "ThrowIfZero" "ThrowIfGreaterThan" "ThrowIfGreaterThanOrEqual"
    "ThrowIfLessThan" "ThrowIfLessThanOrEqual" "ThrowIfEqual" "ThrowIfNotEqual"
    ; every other level (ILogger, Serilog, log4net, NLog): errdex.languages.logs
    "LogWarning" "LogInformation" "LogDebug" "LogTrace" "Warning" "Warn" "Information"
    "Info" "Debug" "Verbose" "Trace" "WarnFormat" "InfoFormat" "DebugFormat"
    ; a library's own diagnostic log: SelfLog.WriteLine("…{0}", x) (csharp.py: a *Log receiver)
    "WriteLine")) @call
