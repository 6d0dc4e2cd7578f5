; errdex — Ruby sites and the message variables they may print.
; ruby.py dispatches on the capture names and reads receivers, arguments and blocks itself.

; raise / fail / Kernel.raise, warn, abort, logger.error / logger.fatal
(call
  method: (identifier) @call.method
  (#any-of? @call.method "raise" "fail" "warn" "abort" "error" "fatal" "info" "debug")) @call

; msg = "..." and msg += "..." (message variables)
(assignment
  left: (identifier) @assign.name
  right: (_)) @assign

(operator_assignment
  left: (identifier) @assign.name
  operator: "+="
  right: (_)) @assign

; XError.new("…") outside a raise: returned, stored or handed on to be raised later
(call
  receiver: [(constant) (scope_resolution)] @new.class
  method: (identifier) @new.method
  (#eq? @new.method "new")) @new

; fail_with "no config": a call statement passing text, in case the callee is a helper
(call
  method: (identifier) @helper.method
  arguments: (argument_list
    .
    [(string) (chained_string) (binary) (identifier) (parenthesized_statements)])
  (#not-any-of? @helper.method
    "raise" "fail" "warn" "abort" "puts" "print" "p" "pp" "require" "require_relative"
    "describe" "it" "context" "let" "include" "extend" "attr_reader" "attr_accessor"
    "error" "fatal" "info" "debug" "format" "sprintf" "send" "public_send")) @helper
