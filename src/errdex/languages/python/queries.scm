; errdex — Python sites and the facts needed to read their messages.
; spec.py dispatches on the capture names; every pattern names its outer node.

; raise X(...) / raise pkg.X(...) / raise X(...) from e
(raise_statement
  .
  (call
    function: [(identifier) (attribute)] @raise.class
    arguments: (argument_list) @raise.args)) @raise

; raise X / raise pkg.X: a class raised without arguments (it may write its own message)
(raise_statement
  .
  [(identifier) (attribute)] @raise.bare) @raise

; receiver.method(...): logger.error, logging.critical, warnings.warn, sys.exit
(call
  function: (attribute
    object: (_) @call.receiver
    attribute: (identifier) @call.method)
  arguments: (argument_list) @call.args
  (#any-of? @call.method "error" "exception" "critical" "warn" "exit"
    ; log calls at every level: errdex.languages.logs
    "warning" "info" "debug" "fatal" "log")) @call

; warn(...) after `from warnings import warn`
(call
  function: (identifier) @call.method
  arguments: (argument_list) @call.args
  (#eq? @call.method "warn")) @call

; web calls: flask/werkzeug abort(...), Django and Starlette error responses
(call
  function: [
    (identifier) @web.name
    (attribute attribute: (identifier) @web.name)
  ] @web.function
  arguments: (argument_list) @web.args
  (#any-of? @web.name
    "abort" "HttpResponse" "JsonResponse" "JSONResponse" "HttpResponseBadRequest"
    "HttpResponseForbidden" "HttpResponseNotFound" "HttpResponseGone"
    "HttpResponseServerError")) @web

; msg = "..." and msg += "..." (message variables)
(assignment
  left: (identifier) @assign.name
  right: (_) @assign.value) @assign

(augmented_assignment
  left: (identifier) @assign.name
  operator: "+="
  right: (_) @assign.value) @assign.add

; imports: which framework a name comes from, `from warnings import warn`
[(import_statement) (import_from_statement)] @import

; f("text …") as a statement: a candidate call to a repository's own raising helper
(block
  (call
    function: [(identifier) (attribute)] @helper.function
    arguments: (argument_list) @helper.args) @helper)

(module
  (call
    function: [(identifier) (attribute)] @helper.function
    arguments: (argument_list) @helper.args) @helper)
