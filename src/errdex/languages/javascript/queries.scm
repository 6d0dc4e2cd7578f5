; errdex — JavaScript / TypeScript / TSX sites and the facts needed to read their messages.
; Only node types the three grammars share, so one query serves all of them;
; javascript.py dispatches on the capture names.

; throw <expression>
(throw_statement) @throw

; every call: Promise.reject, reject, console.error, res.status(..).send, createError, ...
(call_expression
  function: (_) @call.function
  arguments: (arguments) @call.args) @call

; new X(...): errors passed to callbacks, returned, emitted
(new_expression
  constructor: (_) @new.class) @new

; class bodies: Error subclasses and what their constructors say
(class_body) @class

; message and error variables: const msg = "..."; err = new Error(...); msg += "..."
(variable_declarator
  name: (identifier) @var.name
  value: (_)) @var

(assignment_expression
  left: (identifier) @var.name
  right: (_)) @var

(augmented_assignment_expression
  left: (identifier) @var.name
  right: (_)) @var

; err.code = 'ERR_X' / err.status = 404 after an error variable is built
(assignment_expression
  left: (member_expression
    object: (identifier) @member.object
    property: (property_identifier) @member.property)
  right: (_) @member.value) @member

; import { format } from 'util' / const { format } = require('node:util')
(import_specifier
  name: (identifier) @import.name
  (#eq? @import.name "format")) @import

(variable_declarator
  name: (object_pattern
    (shorthand_property_identifier_pattern) @import.name)
  value: (call_expression
    function: (identifier) @import.require
    arguments: (arguments (string) @import.source))
  (#eq? @import.name "format")
  (#eq? @import.require "require")) @import
