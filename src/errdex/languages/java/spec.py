"""Java sites: ``throw new X("…")``, Guava/``Objects`` checks, loggers, ``System.err``.

What is a site (``errorType``):

* ``exception``: ``throw new X(msg, …)`` (any class), ``new …Exception(msg)`` /
  ``new …Error(msg)`` anywhere else (``orElseThrow(() -> new X(..))``, callbacks),
  ``super(msg)`` in the constructor of a class that extends a Throwable, ``assert c : msg``
  (``AssertionError``), Guava ``Preconditions.checkArgument/checkState/checkNotNull/
  checkElementIndex/checkPositionIndex`` and ``Verify.verify/verifyNotNull`` (also
  static-imported), ``Objects.requireNonNull(x, msg)`` (also with a ``() -> msg`` supplier),
  and helpers named ``report…``/``_report…`` given a message (``ctxt.reportBadDefinition(
  type, msg)``, Jackson's way of throwing; extra arguments format the literal). An
  exception's message is its first argument, or the second after a context object the
  first does not spell out (``new JsonMappingException(parser, msg)``).
* ``http``: Spring ``new ResponseStatusException(HttpStatus.NOT_FOUND, reason)``.
* ``error``: gRPC ``Status.CODE.withDescription(msg)`` (the code is ``errorCode``).
* ``log``: ``log.error/fatal(..)``, JUL ``logger.severe(..)`` on a receiver whose name
  contains ``log``, and ``System.err.println/print/printf``.

What is not a site: ``new X()`` and ``new X(cause)`` (no message of their own), messages
source does not spell out (``new X(e.getMessage())``), ``System.exit(1)`` (no message),
Guava checks without a message (the exception has none), anything under an ERROR node.

Messages are read from string literals and text blocks, ``+`` concatenations (each
non-literal operand a hole named after it, written ``{x}``), ``String.format`` /
``.formatted`` (printf dialect ``java``), ``MessageFormat.format``, and a local variable
or ``final`` field holding one of those.

Runtime text, and what the pattern covers:

* The JVM prints ``Exception in thread "main" a.b.X: msg``; the pattern is ``msg`` only.
* Guava formats with its own ``lenientFormat``: only ``%s`` is a placeholder and extra
  arguments print as `` [a, b]`` after the message; a lone message is not formatted at all.
* ``checkElementIndex(i, size, desc)`` can print two messages (negative index, index too
  large): it gives two sites on one line. Without ``desc`` Guava says ``index``.
* ``verifyNotNull(x)`` without a message prints ``expected a non-null reference``.
* SLF4J/Log4j ``{}`` take the arguments in order; a trailing Throwable (by its name:
  ``e``, ``ex``, ``cause``, ``…Exception``) is logged as a trace, not a value.
* ``ResponseStatusException`` prints ``404 NOT_FOUND "reason"``; a gRPC status prints
  ``NOT_FOUND: msg``.
* A message loses its trailing newline (``println``, a final ``%n``).

Symbols are ``Outer.Inner.method``; constructors and instance initializers are
``Class.<init>`` and static initializers ``Class.<clinit>``, as JVM stack frames name them.
"""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import Captures, LanguageSpec, Message, language, operand_hole
from errdex.languages._jvm.compose import JDK_EXCEPTIONS
from errdex.languages._jvm.libraries import (
    grpc_status,
    guava_message,
    is_exception_name,
    literal_message,
    printf_message,
    simple_name,
    slf4j_message,
)
from errdex.languages.base import Site, ancestors, line_of, text
from errdex.languages.facts import Call, Composer, has_text
from errdex.languages.java.compose import (
    call_to,
    enclosing_class,
    invocation,
    producers,
)
from errdex.languages.java.evidence import EVIDENCE
from errdex.languages.java.messages import (
    GUAVA_OWNERS,
    STRINGS,
    JavaFile,
    alternatives,
    arguments,
    format_arguments,
    index_import,
    read,
)
from errdex.languages.java.pastes import PASTES
from errdex.languages.java.scopes import (
    BODY_TYPES,
    CLASS_TYPES,
    FUNCTION_TYPES,
    declared_throwable,
)
from errdex.languages.java.snippets import SNIPPETS
from errdex.languages.logs import level_of, logger_names
from errdex.templates.template import Hole, Literal, Template

_GUAVA: dict[str, tuple[str, int]] = {  # method → (exception, index of the message argument)
    "checkArgument": ("IllegalArgumentException", 1),
    "checkState": ("IllegalStateException", 1),
    "checkNotNull": ("NullPointerException", 1),
    "verify": ("VerifyException", 1),
    "verifyNotNull": ("VerifyException", 1),
}
_INDEX_CHECKS = {  # method → the message when the index is too large
    "checkElementIndex": " must be less than size ",
    "checkPositionIndex": " must not be greater than size ",
}
_NOT_HELPERS = frozenset({"println", "print", "printf", "format", "append", "put", "add",
                          "set"})
_JDK_CLASSES = frozenset({"String", "MessageFormat", "Objects", "Arrays", "Collections",
                          "Integer", "Long", "Math", "System", "Thread", "Locale", "List"})
CANDIDATE = Template("", ())  # a site whose message only composition can tell


# --- site kinds ------------------------------------------------------------------------


def _new_site(caps: Captures, file: JavaFile) -> list[Site]:
    """``new X(msg, …)``: thrown, or an exception class created to be thrown elsewhere."""
    node = caps["new"][0]
    error_class = simple_name(text(caps["new.class"][0]))
    thrown = node.parent is not None and node.parent.type == "throw_statement"
    if not error_class[:1].isupper() or not (thrown or is_exception_name(error_class)):
        return []
    at = node.parent if thrown and node.parent is not None else node
    args = arguments(caps["new.args"][0])
    if error_class == "ResponseStatusException":
        return _http_site(at, args, file)
    return _exception_sites(at, error_class, args, file)


def _exception_sites(at: Node, error_class: str, args: list[Node], file: JavaFile
                     ) -> list[Site]:
    """The site, with the call composition follows when the class is the repository's
    (``compose.py``); a candidate when only that class (or the method giving the message)
    can tell."""
    message = _message_argument(args, file)
    index = 1 if message is not None and len(args) > 1 and read(args[0], file) is None else 0
    call = _producer_call(error_class, args, index, file, at)
    if message is None and at.parent is not None and at.parent.type == "return_statement":
        return []  # a factory's: its callers' sites print what it makes
    if message is None:  # the branches of a ternary are the call's alternatives
        return [Site(CANDIDATE, "exception", line_of(at), error_class, symbol=_symbol(at),
                     call=call)] if call is not None else []
    return [Site(message.template(), "exception", line_of(at), error_class,
                 symbol=_symbol(at), call=call)]


def _producer_call(error_class: str, args: list[Node], index: int, file: JavaFile,
                   at: Node) -> Call | None:
    """The method or constant the message comes from when source does not spell it
    (``new IllegalStateException(notFound(key))``: what ``notFound`` returns is printed,
    through any class that passes it on), else the class's constructor (a JDK exception's
    only when composition can say more than the site: the branches of its message)."""
    owner = enclosing_class(at)
    given = args[index] if index < len(args) else None
    if given is not None and read(given, file) is None:
        if given.type == "method_invocation" and _message_method(given):
            return invocation(given, file, owner)
        last = text(given.child_by_field_name("field")) if given.type == "field_access" else (
            text(given))
        if given.type in ("identifier", "field_access") and last.isupper():
            return Call(text(given), owner=owner)
    if error_class in JDK_EXCEPTIONS and (given is None or read(given, file) is not None):
        return None  # the site's own message is the JDK exception's
    return call_to(error_class, args, file, owner)  # a JDK one's: its first argument's branches


def _message_method(node: Node) -> bool:
    """A method of the repository that may return a message: a bare or ``this.`` call, or a
    static one of a class that is not the JDK's (``Errors.missing(key)``)."""
    receiver = node.child_by_field_name("object")
    name = text(node.child_by_field_name("name"))
    return _static_or_own(receiver) and name[:1].islower() and text(receiver) not in _JDK_CLASSES


def _static_or_own(receiver: Node | None) -> bool:
    """A receiver a producer is found on: none, ``this``, or a class (``Errors.create``)."""
    return receiver is None or receiver.type == "this" or text(receiver)[:1].isupper()


def _throw_call_site(caps: Captures, file: JavaFile) -> list[Site]:
    """``throw Errors.create(r, "…", tok)``: a candidate, kept when ``create`` is a
    factory of the repository (on an object, ``throw reader.unexpectedTokenError(..)``,
    when the repository has one such factory)."""
    node, called = caps["throwcall"][0], caps["throwcall.call"][0]
    call = invocation(called, file, enclosing_class(node))
    return [Site(CANDIDATE, "exception", line_of(node), symbol=_symbol(node), call=call)]


def _helper_site(caps: Captures, file: JavaFile) -> list[Site]:
    """``fail("no config")`` as a statement: a candidate, kept when ``fail`` is a helper
    of the repository that throws or logs what it is given."""
    node, called = caps["helper"][0], caps["helper.call"][0]
    method = text(called.child_by_field_name("name"))
    receiver = called.child_by_field_name("object")
    owner = simple_name(text(receiver)) if receiver is not None else file.owner(method)
    if method in _NOT_HELPERS or method.startswith(("report", "_report")) or not (
            _static_or_own(receiver)) or _call_handler(method, receiver, owner) is not None:
        return []  # a site of its own (Guava's checkNotNull, Objects.requireNonNull)
    args = arguments(called.child_by_field_name("arguments"))
    if not any(has_text(t) for a in args for t in alternatives(a, file)):
        return []
    call = invocation(called, file, enclosing_class(node))
    return [Site(CANDIDATE, "exception", line_of(node), symbol=_symbol(node), call=call)]


def _message_argument(args: list[Node], file: JavaFile) -> Message | None:
    """The message among an exception's arguments: the first, or the second after a
    context object the first does not spell out (Jackson's ``new X(parser, msg, …)``)."""
    first = read(args[0], file) if args else None
    if first is None and len(args) > 1 and args[0].type in ("identifier", "field_access",
                                                             "this", "method_invocation"):
        return read(args[1], file)
    return first


def _report_site(caps: Captures, file: JavaFile) -> list[Site]:
    """``ctxt.reportInputMismatch(type, "Cannot deserialize %s", name)``: a helper named
    ``report…`` that throws with the message it is given (Jackson's convention, and a
    common one). The message is its first readable argument among the first two; more
    arguments after a literal with ``%`` format it (``String.format``)."""
    node = caps["report"][0]
    args = arguments(caps["report.args"][0])
    for index in range(min(2, len(args))):
        message = read(args[index], file)
        if message is None:
            continue
        rest = args[index + 1:]
        if rest and message.literal is not None and "%" in message.literal:
            message = printf_message(message, [text(a) for a in rest]) or message
        if not any(isinstance(p, Literal) and p.text.strip() for p in message.parts):
            return []
        return [Site(message.template(), "exception", line_of(node), symbol=_symbol(node))]
    return []


def _http_site(node: Node, args: list[Node], file: JavaFile) -> list[Site]:
    """Spring's ``ResponseStatusException(HttpStatus.X, reason)`` → ``404 X "reason"``."""
    status = text(args[0]).rsplit(".", 1)[-1] if args else ""
    code = HTTPStatus.__members__.get(status)
    message = read(args[1], file) if len(args) > 1 else None
    if code is None or message is None:
        return []
    template = message.template().with_wrapper(
        (Literal(f'{code.value} {status} "'),), (Literal('"'),)
    )
    return [Site(template, "http", line_of(node), "ResponseStatusException",
                 http_status=code.value, symbol=_symbol(node))]


def _super_site(caps: Captures, file: JavaFile) -> list[Site]:
    """``super(msg)`` in a constructor of ``class X extends …Exception``."""
    node = caps["super"][0]
    owner = next((a for a in ancestors(node) if a.type == "class_declaration"), None)
    superclass = owner.child_by_field_name("superclass") if owner is not None else None
    if owner is None or superclass is None:
        return []
    if not is_exception_name(simple_name(text(superclass.named_children[-1]))):
        return []
    args = arguments(caps["super.args"][0])
    message = _message_argument(args, file)
    if message is None:
        return []
    error_class = text(owner.child_by_field_name("name"))
    return [Site(message.template(), "exception", line_of(node), error_class,
                 symbol=_symbol(node))]


def _assert_site(caps: Captures, file: JavaFile) -> list[Site]:
    node = caps["assert"][0]
    message = read(caps["assert.message"][0], file)
    if message is None:
        return []
    return [Site(message.template(), "exception", line_of(node), "AssertionError",
                 symbol=_symbol(node))]


def _call_site(caps: Captures, file: JavaFile) -> list[Site]:
    node = caps["call"][0]
    method = text(caps["call.method"][0])
    receiver = caps.get("call.receiver", [None])[0]
    owner = simple_name(text(receiver)) if receiver is not None else file.owner(method)
    args = arguments(caps["call.args"][0])
    handler = _call_handler(method, receiver, owner)
    return handler(node, method, args, file) if handler is not None else []


CallHandler = Callable[[Node, str, list[Node], JavaFile], list[Site]]


def _call_handler(method: str, receiver: Node | None, owner: str | None) -> CallHandler | None:
    if method in _GUAVA and owner in GUAVA_OWNERS:
        return _guava_site
    if method in _INDEX_CHECKS and owner == "Preconditions":
        return _index_sites
    if method == "requireNonNull" and owner == "Objects":
        return _require_non_null_site
    if receiver is None:
        return None
    if method == "severe" or (level_of(method) is not None and (
            "log" in _last_name(receiver).lower())):
        return _log_site
    if method == "log" and "log" in _last_name(receiver).lower():  # JUL log(Level.X, msg)
        return _leveled_log_site
    if method in ("println", "print", "printf") and text(receiver) == "System.err":
        return _stderr_site
    if method == "withDescription" and receiver.type == "field_access":
        return _grpc_site
    return None


def _guava_site(node: Node, method: str, args: list[Node], file: JavaFile) -> list[Site]:
    error_class, index = _GUAVA[method]
    if len(args) <= index:
        if method != "verifyNotNull":
            return []
        message: Message | None = literal_message("expected a non-null reference")
    else:
        first = read(args[index], file)
        message = None if first is None else guava_message(
            first, [text(a) for a in args[index + 1 :]]
        )
    if message is None:
        return []
    return [Site(message.template(), "exception", line_of(node), error_class,
                 symbol=_symbol(node))]


def _index_sites(node: Node, method: str, args: list[Node], file: JavaFile) -> list[Site]:
    """``checkElementIndex(i, size, desc)``: one site per message Guava can print."""
    if len(args) < 2:
        return []
    desc = read(args[2], file) if len(args) > 2 else literal_message("index")
    if desc is None:
        desc = operand_hole(text(args[2]))
    index = Hole.of(text(args[0]), "%s", "int")
    size = Hole.of(text(args[1]), "%s", "int")
    endings = [
        (" must not be negative", (Literal(" ("), index, Literal(") must not be negative"))),
        (_INDEX_CHECKS[method] + "(%s)", (
            Literal(" ("), index, Literal(")" + _INDEX_CHECKS[method] + "("), size, Literal(")"),
        )),
    ]
    return [
        Site(Message(desc.written + " (%s)" + written, (*desc.parts, *parts)).template(),
             "exception", line_of(node), "IndexOutOfBoundsException", symbol=_symbol(node))
        for written, parts in endings
    ]


def _require_non_null_site(node: Node, method: str, args: list[Node], file: JavaFile) -> list[Site]:
    """``Objects.requireNonNull(x, msg)`` or with a ``() -> msg`` supplier."""
    if len(args) < 2:
        return []
    argument = args[1]
    if argument.type == "lambda_expression":
        argument = argument.child_by_field_name("body") or argument
    message = read(argument, file)
    if message is None:
        return []
    return [Site(message.template(), "exception", line_of(node), "NullPointerException",
                 symbol=_symbol(node))]


def _log_site(node: Node, method: str, args: list[Node], file: JavaFile) -> list[Site]:
    """``log.error(msg, args…)`` at any level (``log.info``, JUL's ``fine``); an SLF4J
    ``Marker`` before the message is skipped."""
    if len(args) > 1 and read(args[0], file) is None and read(args[1], file) is not None:
        args = args[1:]
    first = read(args[0], file) if args else None
    rest = args[1:]
    throwable = declared_throwable(rest[-1]) if rest else None
    message = None if first is None else slf4j_message(first, [text(a) for a in rest], throwable)
    if message is None:
        return []
    receiver = node.child_by_field_name("object")
    if receiver is not None and file.loggers is None:
        file.loggers = logger_names(_root(node).text or b"")
    logger = file.loggers.get(_last_name(receiver)) if receiver and file.loggers else None
    return [Site(message.template(), "log", line_of(node), symbol=_symbol(node),
                 level=level_of(method) or "error", logger=logger)]


def _root(node: Node) -> Node:
    while node.parent is not None:
        node = node.parent
    return node


def _leveled_log_site(node: Node, method: str, args: list[Node], file: JavaFile
                      ) -> list[Site]:
    """JUL's ``logger.log(Level.WARNING, msg[, thrown])``: the level names the method."""
    if len(args) < 2 or args[0].type != "field_access":
        return []
    level = text(args[0].child_by_field_name("field"))
    if level_of(level) is None:
        return []
    return _log_site(node, level.lower(), args[1:], file)


def _stderr_site(node: Node, method: str, args: list[Node], file: JavaFile) -> list[Site]:
    message = format_arguments(args, file) if method == "printf" else (
        read(args[0], file) if len(args) == 1 else None
    )
    if message is None:
        return []
    return [Site(message.template(), "log", line_of(node), symbol=_symbol(node))]


def _grpc_site(node: Node, method: str, args: list[Node], file: JavaFile) -> list[Site]:
    """``Status.NOT_FOUND.withDescription(msg)`` prints ``NOT_FOUND: msg``."""
    receiver = node.child_by_field_name("object")
    owner = receiver.child_by_field_name("object") if receiver is not None else None
    if receiver is None or owner is None or simple_name(text(owner)) != "Status":
        return []
    code = text(receiver.child_by_field_name("field"))
    message = read(args[0], file) if len(args) == 1 else None
    if message is None or not code.isupper():
        return []
    after = node.parent
    then = text(after.child_by_field_name("name")) if after is not None else ""
    template, error_type, error_class = grpc_status(code, message, then)
    return [Site(template, error_type, line_of(node), error_class, code, symbol=_symbol(node))]


# --- arguments and names ---------------------------------------------------------------


def _last_name(node: Node) -> str:
    """``this.log`` → ``log``; ``getLogger()`` → ``getLogger``."""
    if node.type == "field_access":
        return text(node.child_by_field_name("field"))
    if node.type == "method_invocation":
        return text(node.child_by_field_name("name"))
    return text(node)


def _symbol(node: Node) -> str | None:
    """``Outer.Inner.method``; constructors ``<init>``, static blocks ``<clinit>``."""
    names: list[str] = []
    for a in ancestors(node):
        if a.type in CLASS_TYPES or a.type == "method_declaration":
            names.append(text(a.child_by_field_name("name")))
        elif a.type in ("constructor_declaration", "compact_constructor_declaration"):
            names.append("<init>")
        elif a.type == "static_initializer":
            names.append("<clinit>")
        elif a.type == "block" and a.parent is not None and a.parent.type in BODY_TYPES:
            names.append("<init>")
    return ".".join(reversed(names)) or None


SPEC: LanguageSpec[JavaFile] = LanguageSpec(
    strings=STRINGS, name="java", grammar="java", extensions=(".java",),
    query=Path(__file__).with_name("queries.scm"),
    handlers=(("new", _new_site), ("super", _super_site), ("assert", _assert_site),
              ("call", _call_site), ("report", _report_site),
              ("throwcall", _throw_call_site), ("helper", _helper_site)),
    new_index=JavaFile, index=index_import,
    function_types=FUNCTION_TYPES, scope_types=FUNCTION_TYPES | BODY_TYPES,
    evidence=EVIDENCE, snippets=SNIPPETS,
    pastes=PASTES,
    compose=Composer(producers=producers, triggers=(b"extends", b"return", b"throw", b"final",
                                                    b"interface")),
)
LANGUAGE = language(SPEC)
extract = LANGUAGE.extract  # all sites of one file, in source order
