"""Go sites: ``errors.New``/``fmt.Errorf``, sentinels, ``panic``, fatal and error-level logs,
``http.Error``, gRPC ``status.Errorf``, pkg/errors ``Wrap``, custom ``Error() string``.

What is a site (``errorType``):

* ``error``: ``errors.New("…")``, ``fmt.Errorf("…", …)`` (``%w`` too), ``errors.Errorf``
  / ``errors.Newf`` / ``xerrors.Errorf``, pkg/errors ``Wrap``/``Wrapf``/``WithMessage[f]``
  (printed ``msg: <inner>``, so the pattern ends in ``: (.+?)``), and the ``return``
  values of a ``func (e *T) Error() string`` method (``errorClass`` ``T``). A package-level
  ``var ErrX = errors.New("…")`` (alone or in a ``var ( … )`` block) is a sentinel:
  ``errorClass`` and ``symbol`` are the variable's name.
* ``error`` with ``errorCode``: gRPC ``status.Error(codes.X, "…")``, ``status.Errorf``,
  ``status.New[f]``. gRPC prints ``rpc error: code = X desc = <msg>`` from ``err.Error()``
  but a client reads ``status.Message()``, the bare message: the pattern is the message,
  the code is ``errorCode``.
* ``panic``: ``panic("…")``, ``panic(fmt.Sprintf(…))``, ``panic(errors.New(…))`` (one
  site, the panic's), and ``log.Panic``/``Panicf``/``Panicln`` (they log, then panic with
  the same text). Go prints ``panic: <msg>`` (plus ``goroutine …`` frames): that is the
  runtime's wrapper, the pattern is the message. ``panic(err)`` says nothing: no site.
* ``log`` with severity ``fatal``: ``log.Fatal``/``Fatalf``/``Fatalln`` (and any logger's,
  klog/glog ``Exit*``): the process exits. With severity ``error``: a logger's error level,
  ``logger.Error``, ``log.Errorf`` (logrus, zap sugared, klog/glog), ``slog.Error``,
  ``ErrorContext``, klog ``ErrorS``, logr ``log.Error(err, "msg")``, zerolog
  ``log.Error().Err(err).Msg("…")``. ``log.Print*`` and other levels are not sites. A
  logger is a receiver whose text says ``log``/``zap``/``sugar``, one named ``l``/``lg``, or
  any receiver of ``Error("msg", "key", value…)`` (only structured loggers take that).
* ``http``: ``http.Error(w, "msg", http.StatusNotFound)`` (``httpStatus`` from the
  ``net/http`` constant or an int literal; ``http.StatusText(code)`` messages are known
  text) and echo's ``NewHTTPError(code, "msg")``.
* ``exit``: ``fmt.Fprint*(os.Stderr, …)`` or ``fmt.Print*(…)`` directly followed by
  ``os.Exit(n)``, n ≠ 0; kingpin's ``Fatalf`` (printed ``<app>: error: <msg>``). A logger's
  error level directly followed by ``os.Exit`` has severity ``fatal``.

Composed (``compose.py``): the last value a function returning an ``error`` returns, and
the value ``panic`` is given, when it is an error type's literal (``&NotFoundError{Key:
k}``) or a call of the repository's factory (``newErr("open", err)``), and a call statement
passing text to a helper that panics with it: each a site only when a producer of the
repository tells its message.

Not sites: a message with no letters in its literal text (``fmt.Errorf("%s: %w", op, err)``,
``e.Op + ": " + e.Err.Error()``): its pattern would match nearly any message.

Runtime rules: ``fmt.Errorf`` removes nothing; ``log.Fatalln``/``Sprintln`` separate every
operand with a space and add a newline, ``log.Fatal``/``Sprint`` put a space only between
operands that are both non-strings, ``http.Error`` adds a newline; printed messages lose a
trailing newline, so it is not in the pattern. Which arguments a plain ``X.Error(…)``
prints depends on the logger: one argument is the message; ``slog`` and key/value or
zap-field arguments after a message print only the message; ``(err, "msg", …)`` is logr;
anything else follows Sprint (logrus, klog, std ``log``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import Captures, LanguageSpec, Message, language
from errdex.languages.base import Site, ancestors, line_of, text
from errdex.languages.go.calls import candidate, returned_error
from errdex.languages.go.compose import COMPOSER
from errdex.languages.go.evidence import EVIDENCE
from errdex.languages.go.messages import (
    FUNCTION_TYPES,
    SCOPE_TYPES,
    STRINGS,
    GoFile,
    Reader,
    call_parts,
    index_assigned,
    key,
)
from errdex.languages.go.pastes import PASTES
from errdex.languages.go.snippets import SNIPPETS
from errdex.languages.go.status import REASONS, status_code
from errdex.languages.go.strings import STRING_TYPES
from errdex.languages.logs import level_of
from errdex.records.log_statements import LogLevel
from errdex.records.model import ErrorType, Severity
from errdex.templates.template import Hole, Literal, Part, Template

_GRPC = ("status", "grpc")
# A logger's level method → (errorType, severity); the rest of the name says how the
# arguments print: "" Sprint, "f" printf, "ln" Sprintln, "w" message + fields,
# "S"/"Context" a leading err/ctx argument before the message.
_LEVELS: dict[str, tuple[ErrorType, Severity]] = {
    "Error": ("log", "error"), "Fatal": ("log", "fatal"), "Exit": ("log", "fatal"),
    "Panic": ("panic", "error"),
    # below error: warnings are records, the rest scan-only statements (``languages.logs``)
    "Warning": ("log", "warning"), "Warn": ("log", "warning"), "Info": ("log", "error"),
    "Debug": ("log", "error"), "Trace": ("log", "error"),
    "Print": ("log", "error"),  # the standard ``log.Printf``: no level, an info line
}
_STYLES = ("", "f", "ln", "w", "S", "Context")
_LOGGER_WORDS = ("log", "zap", "sugar")
_FIELD_PACKAGES = ("zap", "slog", "zapcore")
# zerolog: the level call in a chain ending in .Msg/.Msgf.
_ZEROLOG_LEVELS: dict[str, tuple[ErrorType, Severity]] = {
    "Error": ("log", "error"), "Err": ("log", "error"), "Fatal": ("log", "fatal"),
    "Panic": ("panic", "error"),
}


def _unconsumed(placed: list[tuple[int, Site]], file: GoFile) -> list[tuple[int, Site]]:
    """Each site at its own node, less those whose call an outer site's message has read
    (``panic(errors.New("x"))`` is the panic's site, not also an error's)."""
    return [(file.at[id(site)].start_byte, site) for _, site in placed
            if key(file.at[id(site)]) not in file.consumed]


def _built(
    file: GoFile, node: Node, message: Message | None, error_type: ErrorType, *,
    error_class: str | None = None, error_code: str | None = None,
    http_status: int | None = None, severity: Severity = "error", symbol: str | None = None,
    prefix: tuple[Part, ...] = (), level: LogLevel | None = None,
) -> list[Site]:
    """One site from a message, its trailing newline dropped (printed messages lose it)."""
    if message is None or not any(
        isinstance(p, Literal) and any(ch.isalpha() for ch in p.text) for p in message.parts
    ):
        return []  # `fmt.Errorf("%s: %w", op, err)` says nothing a reader could look up
    parts, suffix = list(message.parts), message.suffix
    if not suffix and parts and isinstance(parts[-1], Literal):
        stripped = parts[-1].text.rstrip("\n")
        parts[-1:] = [Literal(stripped)] if stripped else []
    template = Template(message.written, tuple(parts), prefix, suffix)
    site = Site(
        template, error_type, line_of(node), error_class, error_code, http_status, severity,
        symbol if symbol is not None else _symbol(node), level=level,
    )
    file.at[id(site)] = node
    file.consumed |= message.calls
    return [site]


# --- handlers, one per query pattern ----------------------------------------------------


def _call_sites(captured: Captures, file: GoFile) -> list[Site]:
    call = captured["call"][0]
    receiver, method, args = call_parts(call)
    for handler in (_grpc_site, _http_site, _exit_site, _zerolog_site, _error_site, _log_site):
        found = handler(call, receiver, method, args, file)
        if found:
            return found
    return []


def _panic_sites(captured: Captures, file: GoFile) -> list[Site]:
    """``panic(v)``: a site when v's message is known (``panic(err)`` is not)."""
    call = captured["panic"][0]
    _, _, args = call_parts(call)
    if len(args) != 1:
        return []
    found = _built(file, call, file.reader.read(args[0]), "panic")
    return found or _candidate(call, args[0], file, "panic")  # panic(&ParseError{…})


def _error_method_sites(captured: Captures, file: GoFile) -> list[Site]:
    """``func (e *T) Error() string``: each ``return`` with a known message is a ``T`` error."""
    if captured["method.params"][0].named_child_count:
        return []
    type_name = _receiver_type(captured["method.receiver"][0])
    sites: list[Site] = []
    for statement in _returns(captured["method.body"][0]):
        values = statement.named_children[0].named_children if statement.named_children else []
        if len(values) == 1:
            sites += _built(file, statement, file.reader.read(values[0]), "error",
                            error_class=type_name or None, symbol=f"{type_name}.Error")
    return sites


def _return_sites(captured: Captures, file: GoFile) -> list[Site]:
    """``return …, &NotFoundError{Key: k}`` / ``newErr("open", err)``: a candidate whose
    message the repository's producers tell (``compose.py``)."""
    node = captured["return"][0]
    value = returned_error(node)
    return _candidate(node, value, file, "error") if value is not None else []


def _helper_sites(captured: Captures, file: GoFile) -> list[Site]:
    """``fail("no store configured")``: a panic candidate, kept when the callee is a helper
    of the repository's that panics with what it is given (``compose.py``)."""
    node = captured["helper"][0]
    if text(captured["helper.function"][0]) in ("panic", "print", "println"):
        return []
    return _candidate(node, captured["helper.call"][0], file, "panic")


def _candidate(node: Node, value: Node, file: GoFile, error_type: ErrorType) -> list[Site]:
    site = candidate(node, value, file, _symbol(node), error_type)
    if site is None:
        return []
    file.at[id(site)] = node
    return [site]


# --- call kinds ------------------------------------------------------------------------


def _error_site(call: Node, receiver: str, method: str, args: list[Node],
                file: GoFile) -> list[Site]:
    """``errors.New``, ``fmt.Errorf``, ``errors.Wrap``…; a package-level var is a sentinel."""
    sentinel = _sentinel_name(call)
    return _built(file, call, file.reader.error_value(call), "error",
                  error_class=sentinel, symbol=sentinel)


def _grpc_site(call: Node, receiver: str, method: str, args: list[Node],
               file: GoFile) -> list[Site]:
    """``status.Errorf(codes.NotFound, "…", …)``: the message is the status description."""
    if receiver not in _GRPC or method not in ("Error", "Errorf", "New", "Newf") or not args:
        return []
    message = file.reader.printf(args, 1) if method.endswith("f") else (
        file.reader.read(args[1]) if len(args) == 2 else None
    )
    code = args[0]
    operand = code.child_by_field_name("operand") if code.type == "selector_expression" else None
    error_code = text(code.child_by_field_name("field")) if text(operand) == "codes" else None
    return _built(file, call, message, "error", error_code=error_code,
                  error_class=_sentinel_name(call))


def _http_site(call: Node, receiver: str, method: str, args: list[Node],
               file: GoFile) -> list[Site]:
    """``http.Error(w, msg, code)`` and echo's ``NewHTTPError(code, msg)``."""
    if receiver == "http" and method == "Error" and len(args) == 3:
        message, status = _http_message(args[1], file), status_code(args[2])
    elif method == "NewHTTPError" and args:
        status = status_code(args[0])
        if len(args) == 2:
            message = _http_message(args[1], file)
        elif len(args) == 1 and status in REASONS:  # echo's default message
            message = Message(REASONS[status], (Literal(REASONS[status]),))
        else:
            message = None
    else:
        return []
    return _built(file, call, message, "http", http_status=status)


def _http_message(node: Node, file: GoFile) -> Message | None:
    """A message argument; ``http.StatusText(http.StatusNotFound)`` is known text."""
    if node.type == "call_expression":
        receiver, name, args = call_parts(node)
        if (receiver, name) == ("http", "StatusText") and len(args) == 1:
            reason = REASONS.get(status_code(args[0]) or 0)
            return Message(reason, (Literal(reason),), reason) if reason else None
    return file.reader.read(node)


def _exit_site(call: Node, receiver: str, method: str, args: list[Node],
               file: GoFile) -> list[Site]:
    """``fmt.Fprintln(os.Stderr, …)`` or ``fmt.Printf(…)`` right before ``os.Exit(n)``, n ≠ 0,
    and kingpin's ``Fatalf``: a message, then the process exits."""
    if receiver == "kingpin" and method == "Fatalf":
        prefix = (Hole.of("app", "{app}"), Literal(": error: "))  # kingpin's a.Name + ": error: "
        return _built(file, call, file.reader.printf(args, 0), "exit", severity="fatal",
                      prefix=prefix)
    if receiver != "fmt" or not method.startswith(("Fprint", "Print")) or not _exits_next(call):
        return []
    if method.startswith("F"):
        if not args or text(args[0]) not in ("os.Stderr", "os.Stdout"):
            return []
        args = args[1:]
    message = file.reader.printf(args, 0) if method.endswith("f") else file.reader.sprint(
        args, line=method.endswith("ln")
    )
    return _built(file, call, message, "exit", severity="fatal")


def _exits_next(call: Node) -> bool:
    statement = call.parent
    if statement is None or statement.type != "expression_statement":
        return False
    following = statement.next_named_sibling
    while following is not None and following.type == "comment":
        following = following.next_named_sibling
    if following is None or following.type != "expression_statement":
        return False
    exit_call = following.named_children[0] if following.named_children else None
    if exit_call is None or exit_call.type != "call_expression":
        return False
    receiver, name, args = call_parts(exit_call)
    return (receiver, name) == ("os", "Exit") and len(args) == 1 and text(args[0]) != "0"


def _log_site(call: Node, receiver: str, method: str, args: list[Node],
              file: GoFile) -> list[Site]:
    """A logger's error, fatal or panic level (``log.Fatalf``, ``logger.Error``, …)."""
    level = next((name for name in _LEVELS if method.startswith(name)), None)
    if level is None or method[len(level):] not in _STYLES:
        return []
    if not _is_logger(receiver, level, args):
        return []
    style = method[len(level):]
    error_type, severity = _LEVELS[level]
    word = {"Exit": "fatal", "Print": "info"}.get(level, level)
    leveled = level_of(word) if error_type == "log" else None
    if leveled == "error" and _exits_next(call):
        severity, leveled = "fatal", "fatal"  # logger.Error(…); os.Exit(1)
    message = _log_message(style, level, receiver, args, file.reader)
    return _built(file, call, message, error_type, severity=severity, level=leveled)


def _is_logger(receiver: str, level: str, args: list[Node]) -> bool:
    """A receiver named like a logger (``log``, ``logger``, ``zap.S()``, ``l``), or an
    ``Error("msg", "key", value, …)`` call, which only a structured logger takes."""
    if any(word in receiver.lower() for word in _LOGGER_WORDS):
        return True
    if receiver.rsplit(".", 1)[-1] in ("l", "lg"):
        return True
    return (level == "Error" and len(args) >= 3 and len(args) % 2 == 1
            and all(a.type in STRING_TYPES for a in args[:2]))


def _log_message(style: str, level: str, receiver: str, args: list[Node],
                 reader: Reader) -> Message | None:
    if not args:
        return None
    if style == "f":
        return reader.printf(args, 0)
    if style == "ln":
        return reader.sprint(args, line=True)
    if style == "w":
        return reader.read(args[0])
    if style == "S" and level != "Error":  # klog's InfoS(msg, kv…): no error first
        return reader.read(args[0])
    if style in ("S", "Context"):
        return reader.read(args[1]) if len(args) > 1 else None
    first = reader.read(args[0])
    if len(args) == 1 or "slog" in receiver.lower():
        return first
    keyed = args[1].type in STRING_TYPES  # slog/zap key-value, logr msg
    if first is None and keyed:
        return reader.read(args[1])  # logr: Error(err, "msg", kv...)
    if first is not None and (keyed or _is_field(args[1])):
        return first
    return reader.sprint(args)


def _is_field(node: Node) -> bool:
    """``zap.Error(err)``, ``slog.String("k", v)``: a structured field, not printed text."""
    if node.type != "call_expression":
        return False
    receiver, _, _ = call_parts(node)
    return receiver in _FIELD_PACKAGES


def _zerolog_site(call: Node, receiver: str, method: str, args: list[Node],
                  file: GoFile) -> list[Site]:
    """zerolog ``log.Error().Err(err).Msg("…")``: the chain's level call says the kind."""
    if method not in ("Msg", "Msgf") or not args:
        return []
    level = _chain_level(call.child_by_field_name("function"))
    if level is None or not any(word in receiver.lower() for word in _LOGGER_WORDS):
        return []
    message = file.reader.printf(args, 0) if method == "Msgf" else file.reader.read(args[0])
    error_type, severity = _ZEROLOG_LEVELS[level]
    return _built(file, call, message, error_type, severity=severity)


def _chain_level(function: Node | None) -> str | None:
    """The level method in a builder chain ``log.Error().Str(…).Msg``, if any."""
    node = function.child_by_field_name("operand") if function is not None else None
    while node is not None and node.type == "call_expression":
        selector = node.child_by_field_name("function")
        if selector is None or selector.type != "selector_expression":
            return None
        name = text(selector.child_by_field_name("field"))
        if name in _ZEROLOG_LEVELS:
            return name
        node = selector.child_by_field_name("operand")
    return None


# --- where a site is: enclosing symbol, sentinel variables ------------------------------


def _sentinel_name(call: Node) -> str | None:
    """``ErrX`` for ``var ErrX = errors.New(…)`` at package level (alone or in a block)."""
    values = call.parent
    spec = values.parent if values is not None else None
    if values is None or spec is None or values.type != "expression_list":
        return None
    if spec.type != "var_spec" or any(a.type in FUNCTION_TYPES for a in ancestors(spec)):
        return None
    names = spec.children_by_field_name("name")
    index = [key(v) for v in values.named_children].index(key(call))
    return text(names[index]) if index < len(names) else None


def _symbol(node: Node) -> str | None:
    """``Server.Serve`` for methods, ``Open`` for functions, the var name at package level."""
    for ancestor in ancestors(node):
        if ancestor.type == "method_declaration":
            name = text(ancestor.child_by_field_name("name"))
            owner = _receiver_type(ancestor.child_by_field_name("receiver"))
            return f"{owner}.{name}" if owner else name
        if ancestor.type == "function_declaration":
            return text(ancestor.child_by_field_name("name"))
    spec = next((a for a in ancestors(node) if a.type in ("var_spec", "const_spec")), None)
    names = spec.children_by_field_name("name") if spec is not None else []
    return text(names[0]) if names else None


def _receiver_type(receiver: Node | None) -> str:
    """``Server`` for ``(s *Server)``, ``(Server)``, ``(s *Server[T])``."""
    declaration = receiver.named_children[0] if receiver and receiver.named_children else None
    node = declaration.child_by_field_name("type") if declaration is not None else None
    while node is not None and node.type != "type_identifier":
        if node.type in ("pointer_type", "parenthesized_type"):
            node = node.named_children[0] if node.named_children else None
        elif node.type == "generic_type":
            node = node.child_by_field_name("type")
        else:
            return text(node)
    return text(node)


def _returns(body: Node) -> Iterator[Node]:
    """The ``return`` statements of a function body, not those of nested closures."""
    for child in body.named_children:
        if child.type == "return_statement":
            yield child
        elif child.type != "func_literal":
            yield from _returns(child)


SPEC: LanguageSpec[GoFile] = LanguageSpec(
    strings=STRINGS, name="go", grammar="go", extensions=(".go",),
    query=Path(__file__).with_name("queries.scm"),
    handlers=(("call", _call_sites), ("panic", _panic_sites), ("method", _error_method_sites),
              ("return", _return_sites), ("helper", _helper_sites)),
    new_index=GoFile, index=index_assigned, finish=_unconsumed,
    function_types=frozenset(FUNCTION_TYPES), scope_types=frozenset(SCOPE_TYPES),
    evidence=EVIDENCE, snippets=SNIPPETS,
    pastes=PASTES, compose=COMPOSER,
)
LANGUAGE = language(SPEC)
extract = LANGUAGE.extract  # all sites of one file, in source order
