; errdex — what Python composition reads: classes, and the errors functions return or raise.
(class_definition) @class

(return_statement
  .
  (call
    function: [(identifier) (attribute)] @made.class) @made.call) @made

(raise_statement
  .
  (call
    function: [(identifier) (attribute)] @made.class) @made.call) @made

; exc = Error(…); …; return exc: an error built into a variable first
(return_statement
  .
  (identifier) @made.var) @made

; msg = f"…" / msg += "…": a function's message variables
(assignment left: (identifier)) @assign
(augmented_assignment left: (identifier)) @assign

; NAME = "text" at module or class level: constants other files' messages print; in a
; class, any name, its text translated or not (``invalid_page_message = _("…")``)
(module
  (assignment
    left: (identifier) @const.name
    right: [(string) (concatenated_string)] @const.value) @const)

(class_definition
  body: (block
    (assignment
      left: (identifier) @const.name
      right: [(string) (concatenated_string) (call)] @const.value) @const))

; return <text>: what a message method or property builds
(return_statement
  [(string) (concatenated_string) (binary_operator) (call) (identifier)] @text.value) @text

; MESSAGES = {"locked": "resource is locked"} at module level: messages looked up by key
(module
  (assignment
    left: (identifier) @table.name
    right: (dictionary) @table.value) @table)

; error_messages = {"invalid": "Not a valid date."} in a class: messages looked up by key
(class_definition
  body: (block
    (assignment
      left: (identifier) @table.name
      right: (dictionary) @table.value) @table))
