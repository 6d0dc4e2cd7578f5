; errdex — Kotlin sites and the facts needed to read their messages.
; spec.py dispatches on the outer capture name of each match.

; f(...) { ... } — stdlib checks, constructor calls of exception classes, throw X(...)
(call_expression
  (simple_identifier) @call.name
  (call_suffix) @call.suffix
  (#match? @call.name "^(require|check|requireNotNull|checkNotNull|error|TODO|assert|[A-Z].*)$")) @call

; receiver.f(...) — loggers, System.err, qualified exception classes, gRPC statuses
(call_expression
  (navigation_expression
    (_) @call.receiver
    (navigation_suffix (simple_identifier) @call.name))
  (call_suffix) @call.suffix
  (#match? @call.name
    "^(error|fatal|severe|println|print|printf|withDescription|warn|info|debug|trace|[A-Z].*)$")) @call

; throw notFound(key) / throw Errors.create(..): a factory of the repository
(jump_expression
  (call_expression) @throwcall.call) @throwcall

; throw Gone / throw AuthError.InvalidToken: an error object of the repository
(jump_expression
  [(simple_identifier) (navigation_expression)] @throwobject.name) @throwobject

; fail("no config") as a statement: a helper of the repository that throws or logs it
(statements
  (call_expression
    (call_suffix
      (value_arguments
        (value_argument [(string_literal) (additive_expression)])))) @helper)

; if (bad) fail("…") / else fail("…") / 3 -> fail("…") / x ?: fail("…") / fun f() = fail("…"):
; the same helper call as a branch, an elvis fallback or an expression body
(control_structure_body
  (call_expression
    (call_suffix
      (value_arguments
        (value_argument [(string_literal) (additive_expression)])))) @helper)
(elvis_expression
  (call_expression
    (call_suffix
      (value_arguments
        (value_argument [(string_literal) (additive_expression)])))) @helper)
(function_body
  (call_expression
    (call_suffix
      (value_arguments
        (value_argument [(string_literal) (additive_expression)])))) @helper)

; checkRequirement(src, ok) { "year >= 1601" }: a helper given its message as a lambda
(statements
  (call_expression
    (call_suffix
      (annotated_lambda
        (lambda_literal (statements [(string_literal) (additive_expression)]))))) @lazyhelper)

; class FooException(id: String) : RuntimeException("no foo $id")
(delegation_specifier
  (constructor_invocation
    (user_type) @super.type
    (value_arguments) @super.args)) @super

; constructor(..) : super("message")
(constructor_delegation_call
  "super"
  (value_arguments) @super.args) @super

; val msg = "..." (message variables and constants)
(property_declaration
  (variable_declaration (simple_identifier) @assign.name)
  "="
  (_) @assign.value) @assign
