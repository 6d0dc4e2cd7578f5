; errdex — Swift sites and the facts needed to read their messages.
; swift.py dispatches on the capture names and reads arguments itself.

; fatalError("…"), precondition(c, "…"), preconditionFailure("…"), assert(c, "…"), assertionFailure("…")
(call_expression
  (simple_identifier) @trap.name
  (call_suffix (value_arguments) @trap.args)
  (#any-of? @trap.name
    "fatalError" "precondition" "preconditionFailure" "assert" "assertionFailure")) @trap

; throw MyError(message: "…"), throw NSError(domain: …, userInfo: [NSLocalizedDescriptionKey: "…"])
(control_transfer_statement
  (throw_keyword)
  (call_expression) @throw.call) @throw

; os.Logger: logger.error("…"), log.fault("…"), Self.logger.critical("…")
(call_expression
  (navigation_expression
    target: (_) @log.receiver
    suffix: (navigation_suffix suffix: (simple_identifier) @log.method))
  (call_suffix (value_arguments) @log.args)
  (#any-of? @log.method "error" "fault" "critical"
    "warning" "notice" "info" "debug" "trace")) @log

; LocalizedError: var errorDescription: String? { … return "…" … }; also a reason enum's
; var localizedDescription: String { switch self { case .x: "…" } }
(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @describe.name)
  computed_value: (computed_property) @describe.body
  (#any-of? @describe.name "errorDescription" "localizedDescription")) @describe

; let message = "…" (message variables)
(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @assign.name)
  value: (_)) @assign

; throw StoreError.closed: an enum case without values (its text is the error type's)
(control_transfer_statement
  (throw_keyword)
  (navigation_expression) @throwcase.value) @throwcase

; try fail("no config"): a call statement passing text, in case the callee is a helper
(call_expression
  [(simple_identifier) (navigation_expression)] @helper.function
  (call_suffix (value_arguments) @helper.args)) @helper

; promise.fail(E.x), makeFailedFuture(E.x), .failure(E.x), resume(throwing: E.x)
(call_expression
  [(simple_identifier) (navigation_expression) (prefix_expression)] @deliver.function
  (call_suffix (value_arguments (value_argument value: (_) @deliver.value)))) @deliver
