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

; msg = f"…" / msg += "…": a function's message variables
(assignment left: (identifier)) @assign
(augmented_assignment left: (identifier)) @assign
