; errdex — Python sites and the facts needed to read their messages.
; python.py dispatches on the capture names; every pattern names its outer node.

; raise X(...) / raise pkg.X(...) / raise X(...) from e
(raise_statement
  .
  (call
    function: [(identifier) (attribute)] @raise.class
    arguments: (argument_list) @raise.args)) @raise

; receiver.method(...): logger.error, logging.critical, warnings.warn, sys.exit
(call
  function: (attribute
    object: (_) @call.receiver
    attribute: (identifier) @call.method)
  arguments: (argument_list) @call.args
  (#any-of? @call.method "error" "exception" "critical" "warn" "exit")) @call

; warn(...) after `from warnings import warn`
(call
  function: (identifier) @call.method
  arguments: (argument_list) @call.args
  (#eq? @call.method "warn")) @call

; msg = "..." and msg += "..." (message variables)
(assignment
  left: (identifier) @assign.name
  right: (_) @assign.value) @assign

(augmented_assignment
  left: (identifier) @assign.name
  operator: "+="
  right: (_) @assign.value) @assign.add

; from warnings import warn
(import_from_statement
  module_name: (dotted_name) @import.module
  name: (dotted_name) @import.name
  (#eq? @import.module "warnings")
  (#eq? @import.name "warn")) @import
