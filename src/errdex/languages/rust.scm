; Rust error sites. rust.py dispatches on the outer capture name of each match.

; Any macro call, bare or path-qualified (`panic!`, `std::panic!`, `anyhow::bail!`, `format!`).
; rust.py keeps the macros it knows by the last path segment.
(macro_invocation
  macro: [
    (identifier) @macro.name
    (scoped_identifier name: (identifier) @macro.name)
  ]
  (token_tree) @macro.args) @macro

; `.expect("message")` with a literal message.
(call_expression
  function: (field_expression
    field: (field_identifier) @expect.method (#eq? @expect.method "expect"))
  arguments: (arguments . [(string_literal) (raw_string_literal)] @expect.message .)) @expect

; `Err(value)`: rust.py keeps the values that carry a message (literals, `format!`, conversions).
(call_expression
  function: (identifier) @err.function (#eq? @err.function "Err")
  arguments: (arguments . (_) @err.value .)) @err

; thiserror `#[error("...", args)]` on an enum variant or a struct.
(attribute_item
  (attribute
    (identifier) @thiserror.name (#eq? @thiserror.name "error")
    arguments: (token_tree) @thiserror.args)) @thiserror
