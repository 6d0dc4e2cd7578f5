; errdex — PHP message variables alone, for the composition reader (compose.py): the
; same assignments as queries.scm indexes, without its site patterns.

(assignment_expression
  left: (variable_name) @assign.name
  right: (_)) @assign

(augmented_assignment_expression
  left: (variable_name) @assign.name
  operator: ".="
  right: (_)) @assign
