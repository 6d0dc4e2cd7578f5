; errdex — what Rust composition reads in a function body that holds a `return` or a
; `panic!`: the closures and nested functions whose own these are not, the `return`s
; and the panics.
(function_item) @scope
(closure_expression) @scope

(return_expression) @return

(macro_invocation
  macro: [
    (identifier) @panic.name
    (scoped_identifier name: (identifier) @panic.name)
  ]
  (#eq? @panic.name "panic")) @panic
