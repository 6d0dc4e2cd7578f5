; errdex — PHP sites and the message variables they may print.
; php.py dispatches on the capture names and reads arguments itself.

; throw new X(...), as a statement or an expression (`?? throw new X(...)`, `fn() => throw ...`)
(throw_expression
  (object_creation_expression) @throw.new) @throw

; throw FetchError::create($request, $response), throw $this->error(…), throw fail(…)
(throw_expression
  [(scoped_call_expression) (member_call_expression) (function_call_expression)]
  @throwcall.value) @throwcall

; fail("…"), self::fail("…"), $this->fail("…") as a statement: a helper, maybe
(expression_statement
  [(function_call_expression) (scoped_call_expression) (member_call_expression)]
  @helper.call) @helper

; new XException("…") outside a throw: returned, passed to a promise rejection, stored
(object_creation_expression) @new

; trigger_error, error_log, die, Laravel's abort helpers
(function_call_expression
  function: (name) @call.name
  arguments: (arguments) @call.args
  (#any-of? @call.name
    "trigger_error" "user_error" "error_log" "die" "exit" "abort" "abort_if" "abort_unless")) @call

; exit("message")
(exit_statement) @exit

; PSR-3 loggers: $this->logger->error(...), Log::error(...), logger()->critical(...)
(member_call_expression
  name: (name) @log.method
  arguments: (arguments) @log.args
  (#any-of? @log.method "error" "critical" "alert" "emergency"
    "warning" "notice" "info" "debug")) @log

(nullsafe_member_call_expression
  name: (name) @log.method
  arguments: (arguments) @log.args
  (#any-of? @log.method "error" "critical" "alert" "emergency"
    "warning" "notice" "info" "debug")) @log

(scoped_call_expression
  name: (name) @log.method
  arguments: (arguments) @log.args
  (#any-of? @log.method "error" "critical" "alert" "emergency"
    "warning" "notice" "info" "debug")) @log

; $msg = "..." and $msg .= "..." (message variables)
(assignment_expression
  left: (variable_name) @assign.name
  right: (_)) @assign

(augmented_assignment_expression
  left: (variable_name) @assign.name
  operator: ".="
  right: (_)) @assign

; Symfony Console output: $output->writeln('<error>…</error>'), $io->writeError(…)
(member_call_expression
  name: (name) @console.method
  arguments: (arguments) @console.args
  (#any-of? @console.method "write" "writeln" "writeError" "overwrite" "overwriteError")) @console
