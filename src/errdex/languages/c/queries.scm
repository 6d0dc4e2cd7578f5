; C error sites: printf-style calls by name. c_family.py knows what each one prints.
(call_expression
  function: (identifier) @call.name
  arguments: (argument_list) @call.args
  (#any-of? @call.name
    "fprintf" "fputs" "dprintf" "perror" "err" "errx" "warn" "warnx" "die" "fatal"
    "die_errno" "error" "error_errno" "warning" "panic" "syslog")) @call

; Calls passing text to a project function (`yyerror("syntax error")`): candidates that
; composition keeps when the repository defines that function as a reporter (compose.py).
(call_expression
  function: (identifier) @helper.name
  arguments: (argument_list [(string_literal) (concatenated_string)] @helper.text)) @helper

; A call whose text is a choice (`logit(quiet ? "a %s" : "b %s", x)`): logs.py makes a
; text per branch; any other conditional argument is no text and yields nothing.
(call_expression
  function: (identifier) @helper.name
  arguments: (argument_list (conditional_expression) @helper.text)) @helper

; Logging macros handed their format and arguments as one parenthesized list
; (`LOG_ERROR(("no port in %s", host))`): logs.py reads the level from the macro's name.
(call_expression
  function: (identifier) @logmacro.name
  arguments: (argument_list . (parenthesized_expression) @logmacro.inner .)) @logmacro

; Assertions (`assert(n > 0 && "n must be positive")`, `IM_ASSERT(!"unreachable")`):
; asserts.py reads the string the condition holds, or the condition itself.
(call_expression
  function: (identifier) @assert.name
  arguments: (argument_list) @assert.args
  (#match? @assert.name "^(assert|[A-Z][A-Z0-9_]*ASSERT[A-Z0-9_]*)$")) @assert

; GLib's checks (`g_return_if_fail(w != NULL)`, `g_assert(n > 0)`, `g_assert_not_reached()`):
; glib.py words them as GLib prints them.
(call_expression
  function: (identifier) @glib.name
  arguments: (argument_list) @glib.args
  (#any-of? @glib.name
    "g_return_if_fail" "g_return_val_if_fail" "g_assert" "g_assert_not_reached")) @glib

; Error tables as X-macros (`#define ERRNO_MAP(XX) XX(EACCES, "permission denied") …`):
; c/xmacros.py reads each entry of the raw body.
(preproc_function_def) @xmacro
