; errdex — what Ruby composition reads: classes, methods, constants and local variables.
(class) @class
(method) @method
(singleton_method) @method
(assignment) @assign
(operator_assignment) @assign
; a method's returns, raises and log calls (its factories, helpers and log helpers)
(return) @inner
(call
  method: (identifier) @inner.method
  (#any-of? @inner.method "raise" "fail" "warn" "error" "fatal" "puts")) @inner
