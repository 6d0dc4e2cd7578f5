; errdex — what Ruby composition reads: classes, methods, constants and local variables.
(class) @class
(method) @method
(singleton_method) @method
(assignment) @assign
(operator_assignment) @assign
