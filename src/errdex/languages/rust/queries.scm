; Rust error sites. rust.py dispatches on the outer capture name of each match.

; Any macro call, bare or path-qualified (`panic!`, `std::panic!`, `anyhow::bail!`, `format!`).
; rust.py keeps the macros it knows by the last path segment.
(macro_invocation
  macro: [
    (identifier) @macro.name
    (scoped_identifier name: (identifier) @macro.name)
  ]
  (token_tree) @macro.args) @macro

; `.expect(msg)`, `.context(msg)`, `.with_context(|| msg)`, `.ok_or(msg)`, `.map_err(|_| msg)`.
(call_expression
  function: (field_expression
    field: (field_identifier) @method.name
    (#any-of? @method.name
      "expect" "context" "with_context" "wrap_err" "wrap_err_with" "ok_or" "ok_or_else"
      "map_err"))
  arguments: (arguments) @method.args) @method

; `Type::new(.., msg)`, `de::Error::custom(msg)`: rust.py keeps error types' constructors.
(call_expression
  function: (scoped_identifier
    path: (_) @ctor.type
    name: (identifier) @ctor.name
    (#any-of? @ctor.name "new" "custom" "msg" "other" "from" "new_spanned"))
  arguments: (arguments) @ctor.args) @ctor

; `Err(value)`: rust.py keeps the values that carry a message (literals, `format!`, conversions).
(call_expression
  function: (identifier) @err.function (#eq? @err.function "Err")
  arguments: (arguments . (_) @err.value .)) @err

; thiserror `#[error("...", args)]` on an enum variant or a struct.
(attribute_item
  (attribute
    (identifier) @thiserror.name (#eq? @thiserror.name "error")
    arguments: (token_tree) @thiserror.args)) @thiserror

; `fail("…");`: a call statement passing text, a candidate in case the callee is a helper
; of the repository's that panics with it (compose.py).
(expression_statement
  (call_expression
    function: (identifier)
    arguments: (arguments (string_literal)))) @helper
