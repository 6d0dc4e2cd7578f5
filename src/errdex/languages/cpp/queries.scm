; C++ error sites. cpp.py dispatches on the outer capture name of each match.

; throw X("..."), throw ns::X{"..."}; `throw;` and `throw e;` are filtered in cpp.py.
(throw_statement (_) @throw.value) @throw

; Calls by name: printf-style C calls (c_family.py), fmt::print(stderr, ...),
; and throwing macros such as FMT_THROW(format_error("...")).
(call_expression
  function: [(identifier) (qualified_identifier)] @call.name
  arguments: (argument_list) @call.args
  (#match? @call.name
    "(THROW|THROW_EXCEPTION|^(::)?(std::)?(fprintf|fputs|dprintf|perror|err|errx|warn|warnx|die|fatal|die_errno|error|error_errno|warning|panic|syslog)|^(fmt|std)::(print|println))$")) @call

; Output streams: `std::cerr << "..." << x`, `LOG(ERROR) << "..."`; cpp.py keeps the
; outermost `<<` whose leftmost operand is an error stream.
(binary_expression operator: "<<") @stream

; Calls passing text to a project function (`yyerror("syntax error")`): candidates that
; composition keeps when the repository defines that function as a reporter.
(call_expression
  function: (identifier) @helper.name
  arguments: (argument_list [(string_literal) (concatenated_string)] @helper.text)) @helper

; A function named for throwing handed a constant (`ThrowParserException(ErrorMsg::EMPTY)`):
; a candidate too, the constant spelled out once the repository is read.
(call_expression
  function: (identifier) @helper.name
  arguments: (argument_list . (qualified_identifier) @helper.text .)
  (#match? @helper.name "[Tt]hrow|[Rr]aise|[Ff]ail")) @helper

; ... or a text joined with `+` (`ThrowScanError("unexpected token " + tok)`).
(call_expression
  function: (identifier) @helper.name
  arguments: (argument_list (binary_expression operator: "+") @helper.text)
  (#match? @helper.name "[Tt]hrow|[Rr]aise|[Ff]ail")) @helper

; A function named for throwing, templated on the error class it throws
; (`throw_or_mimic<exceptions::no_such_option>(name)`): composition reads its definition.
(call_expression
  function: (template_function
    name: (identifier) @typed.name
    arguments: (template_argument_list . (type_descriptor) @typed.class .))
  arguments: (argument_list) @typed.args
  (#match? @typed.name "[Tt]hrow|[Rr]aise|[Ff]ail")) @typed

; An error made by a factory of its class and handed on, not thrown where it is made
; (`sax->parse_error(pos, tok, parse_error::create(101, pos, msg, nullptr))`): cpp.py
; keeps those whose class is named for errors. A class named for errors may name its
; factories for their case (`current = BinderException::ColumnNotFound(name, candidates)`).
(call_expression
  function: (qualified_identifier) @made.name
  arguments: (argument_list) @made.args
  (#match? @made.name "(::(create|make|build|from|of|[Nn]ew|error)[A-Za-z0-9_]*|(Error|Exception)(<[^<>]*>)?::[A-Z][A-Za-z0-9_]*)$")) @made

; A project's error macros (`TORCH_CHECK(cond, "expected ", n, " dims")`,
; `MYLIB_THROW(ValueError, "bad value " << v)`): cpp.py reads the message they are given.
(call_expression
  function: (identifier) @macro.name
  arguments: (argument_list) @macro.args
  (#match? @macro.name "^[A-Z][A-Z0-9_]*(THROW|RAISE|CHECK|ENFORCE|FAIL|ERROR)[A-Z0-9_]*$")) @macro

; Assertions (`assert(n > 0 && "n must be positive")`, `IM_ASSERT(!"unreachable")`):
; c/asserts.py reads the string the condition holds, or the condition itself.
(call_expression
  function: (identifier) @assert.name
  arguments: (argument_list) @assert.args
  (#match? @assert.name "^(assert|[A-Z][A-Z0-9_]*ASSERT[A-Z0-9_]*)$")) @assert

; A status returned with its message (`absl::InvalidArgumentError(msg)`,
; `absl::Status(absl::StatusCode::kNotFound, msg)`, `grpc::Status(code, msg)`, LevelDB's
; `Status::Corruption(msg)`, RocksDB's `IOStatus::IOError(msg)`): status.py.
(call_expression
  function: (qualified_identifier) @status.name
  arguments: (argument_list) @status.args
  (#match? @status.name "^(::)?(absl::[A-Z][A-Za-z]*Error|absl::Status|grpc::Status|([A-Za-z_][A-Za-z0-9_]*::)*[A-Za-z]*Status::[A-Z][A-Za-z0-9]*)$")) @status

; glog's checks given no message (`CHECK(n > 0);`, `CHECK_EQ(a, b);`): glog.py (a check
; with a message streamed after it is the `<<` chain's site). Abseil's `ABSL_CHECK(n > 0)`
; is one of the error macros above, read by glog.py as well.
(call_expression
  function: (identifier) @macro.name
  arguments: (argument_list) @macro.args
  (#match? @macro.name "^(CHECK|CHECK_(EQ|NE|LT|LE|GT|GE))$")) @macro

; Error tables as X-macros (`#define ERRNO_MAP(XX) XX(EACCES, "permission denied") …`):
; c/xmacros.py reads each entry of the raw body.
(preproc_function_def) @xmacro

; spdlog (`spdlog::error("cannot open {}", p)`, `SPDLOG_WARN(...)`, `logger->error(...)`):
; spdlog.py reads the level and the format.
(call_expression
  function: [(qualified_identifier) (identifier) (field_expression)] @spd.name
  arguments: (argument_list) @spd.args
  (#match? @spd.name "(^(::)?spdlog::[a-z]+$|^SPDLOG_[A-Z_]+$|(->|[.])(trace|debug|info|warn|error|critical)$)")) @spd
