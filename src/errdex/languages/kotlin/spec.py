"""Kotlin sites: ``throw X("…")``, stdlib ``require``/``check``/``error``/``TODO``, loggers.

What is a site (``errorType``):

* ``exception``: ``throw X(msg)`` (any class), ``…Exception(msg)`` / ``…Error(msg)`` created
  anywhere else, ``class E(..) : RuntimeException(msg)`` and ``constructor(..) : super(msg)``
  in an exception class, ``require``/``check``/``requireNotNull``/``checkNotNull``/``assert``
  with or without a lazy message, ``error(msg)``, ``TODO()``/``TODO(reason)``, and gRPC
  ``Status.CODE.withDescription(msg)`` turned into an exception.
* ``log``: ``logger.error(msg, ..)`` / ``log.fatal(..)`` on a receiver whose name contains
  ``log`` (SLF4J ``{}`` arguments; kotlin-logging's ``logger.error { msg }`` lambda), JUL
  ``severe(msg)``, and ``System.err.println(msg)``.

Runtime text (the pattern matches the message, not ``Exception in thread "main" X: ``):

* ``require(c)`` without a message prints ``Failed requirement.``, ``check(c)``
  ``Check failed.``, ``requireNotNull``/``checkNotNull`` ``Required value was null.``,
  ``assert(c)`` ``Assertion failed``. These are sites with that fixed text: a stack frame
  pointing at the line is then enough to find the record and the condition it guards.
* ``requireNotNull`` throws ``IllegalArgumentException`` and ``checkNotNull``
  ``IllegalStateException`` (not ``NullPointerException``).
* ``TODO(reason)`` throws ``NotImplementedError`` with ``An operation is not implemented: ``
  before the reason; ``TODO()`` says ``An operation is not implemented.``.
* A message loses its trailing newline.

Messages are read from string templates (``$name`` and ``${expr}`` become holes named
after the expression; ``errorMessage`` keeps the template as written), ``+``
concatenations, ``String.format``/``"…".format(..)`` (printf dialect ``java``),
``.trimIndent()``/``.trimMargin()``, and ``val``s holding one of those. ``exitProcess``
is no site (no message).

Symbols: ``Class.method``, ``Class.Companion.method`` (or the companion's own name),
``Object.method``, top-level functions by name; constructors and ``init`` blocks are
``Class.<init>``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import Captures, FileIndex, LanguageSpec, Message, language
from errdex.languages._engine.evidence import EvidenceRules
from errdex.languages._engine.extract import extract as extract_with
from errdex.languages._jvm.compose import JDK_EXCEPTIONS
from errdex.languages._jvm.libraries import (
    grpc_status,
    is_exception_name,
    literal_message,
    simple_name,
    slf4j_message,
)
from errdex.languages.base import FileSites, Site, ancestors, line_of, text
from errdex.languages.facts import Call, Composer, has_text
from errdex.languages.java.pastes import PASTES as JVM_PASTES
from errdex.languages.kotlin.compose import call_to, enclosing_class, producers
from errdex.languages.kotlin.headers import split_header
from errdex.languages.kotlin.messages import (
    BODY_TYPES,
    FUNCTION_TYPES,
    STRINGS,
    TYPE_TYPES,
    alternatives,
    arguments,
    callee_of,
    lambda_value,
    name_of,
    read,
)
from errdex.languages.kotlin.snippets import SNIPPETS
from errdex.languages.logs import level_of
from errdex.records.model import ErrorType
from errdex.templates.template import Literal, Template

CANDIDATE = Template("", ())  # a site whose message only composition can tell


@dataclass(frozen=True)
class _Check:
    """A stdlib check: what it throws, and what it says without a lazy message."""

    error_class: str
    default: str


_CHECKS: dict[str, _Check] = {
    "require": _Check("IllegalArgumentException", "Failed requirement."),
    "check": _Check("IllegalStateException", "Check failed."),
    "requireNotNull": _Check("IllegalArgumentException", "Required value was null."),
    "checkNotNull": _Check("IllegalStateException", "Required value was null."),
    "assert": _Check("AssertionError", "Assertion failed"),
}


@dataclass(frozen=True)
class _Call:
    """One call: callee name, receiver, value arguments and trailing lambda."""

    node: Node
    name: str
    receiver: Node | None
    args: list[Node]
    lambda_body: Node | None  # the last expression of a lambda argument


# --- site kinds ------------------------------------------------------------------------


def _call_site(caps: Captures, file: FileIndex) -> Site | None:
    call = _call(caps["call"][0], text(caps["call.name"][0]),
                 caps.get("call.receiver", [None])[0], caps["call.suffix"][0])
    if call.receiver is None and call.name in _CHECKS:
        return _check_site(call, file)
    if call.receiver is None and call.name in ("error", "TODO"):
        return _error_site(call, file)
    if call.name[:1].isupper():
        return _constructor_site(call, file)
    if call.receiver is None:
        return None
    receiver = text(call.receiver)
    if call.name == "severe" or (  # every level (``languages.logs``)
        level_of(call.name) is not None and "log" in receiver.rsplit(".", 1)[-1].lower()
    ):
        return _log_site(call, file)
    if call.name in ("println", "print") and receiver == "System.err" and len(call.args) == 1:
        return _site(call, read(call.args[0], file), "log", None)
    if call.name == "withDescription":
        return _grpc_site(call, file)
    return None


def _check_site(call: _Call, file: FileIndex) -> Site | None:
    """``require(c) { msg }``; without a message the stdlib's fixed text."""
    check = _CHECKS[call.name]
    message: Message | None
    if call.lambda_body is None:
        message = literal_message(check.default)
    else:
        message = read(call.lambda_body, file)
    return _site(call, message, "exception", check.error_class)


def _error_site(call: _Call, file: FileIndex) -> Site | None:
    """``error(msg)`` → IllegalStateException; ``TODO(reason)`` → NotImplementedError."""
    if call.name == "error":
        message = read(call.args[0], file) if call.args else None
        producer = _message_call(call.args[0], file, enclosing_class(call.node)) if (
            call.args and message is None) else None
        if producer is not None:
            return Site(CANDIDATE, "exception", line_of(call.node), "IllegalStateException",
                        symbol=_symbol(call.node), call=producer)
        return _site(call, message, "exception", "IllegalStateException")
    if not call.args:
        return _site(call, literal_message("An operation is not implemented."), "exception",
                     "NotImplementedError")
    site = _site(call, read(call.args[0], file), "exception", "NotImplementedError")
    if site is None:
        return None
    prefix = (Literal("An operation is not implemented: "),)
    return Site(site.template.with_wrapper(prefix), site.error_type, site.line,
                site.error_class, symbol=site.symbol)


def _constructor_site(call: _Call, file: FileIndex) -> Site | None:
    """``throw X(msg)``, or ``XException(msg)`` created to be thrown elsewhere; with the
    call composition follows when the class is the repository's (``compose.py``), a
    candidate when only that class (or the function giving the message) can tell."""
    thrown = _thrown(call.node)
    if not (thrown or is_exception_name(call.name)):
        return None
    at = call.node.parent if thrown and call.node.parent is not None else call.node
    args, named = _split(call)
    message = read(args[0], file) if args else None
    owner = enclosing_class(at)
    # the function or constant the message comes from, through any class that passes it
    # on; else the class's constructor (not the JDK's)
    producer = _message_call(args[0], file, owner) if args and message is None else None
    if producer is None and (call.name not in JDK_EXCEPTIONS or message is None):
        producer = call_to(call.name, args, file, owner, named=named)  # a JDK one's: branches
    if message is None and _returned(call.node):
        return None  # a factory's: its callers' sites print what it makes
    if message is None:  # the branches of an ``if``/``when`` are the call's alternatives
        return Site(CANDIDATE, "exception", line_of(at), call.name, symbol=_symbol(at),
                    call=producer) if producer is not None else None
    return Site(message.template(), "exception", line_of(at), call.name, symbol=_symbol(at),
                call=producer)


def _split(call: _Call) -> tuple[list[Node], list[tuple[str, Node]]]:
    """A call's positional and named arguments (``SseError(r, message = "…")``: the
    message is no positional one), all positional when it names none."""
    found = callee_of(call.node)
    if found is None or not found[3]:
        return call.args, []
    return found[2], found[3]


def _returned(node: Node) -> bool:
    """Whether a call is what its function returns (``= X(..)``, ``return X(..)``)."""
    parent = node.parent
    return parent is not None and (parent.type == "function_body" or (
        parent.type == "jump_expression" and text(parent).startswith("return")))


def _message_call(node: Node | None, file: FileIndex, owner: str | None) -> Call | None:
    """The function or constant a JDK exception's message comes from
    (``IllegalStateException(notFound(key))``, ``error(Messages.GONE)``)."""
    if node is None:
        return None
    found = callee_of(node)
    if found is not None and found[0].rsplit(".", 1)[-1][:1].islower() and _static_or_own(
            found[1]) and text(found[1]) not in ("String", "MessageFormat"):
        return call_to(found[0], found[2], file, owner, named=found[3])
    last = text(node).rsplit(".", 1)[-1]
    if node.type in ("simple_identifier", "navigation_expression") and last.isupper():
        return Call(text(node), owner=owner)
    return None


def _static_or_own(receiver: Node | None) -> bool:
    """A receiver a producer is found on: none, ``this``, or a class (``Errors.create``)."""
    return receiver is None or receiver.type == "this_expression" or text(receiver)[:1].isupper()


def _throw_call_site(caps: Captures, file: FileIndex) -> Site | None:
    """``throw notFound(key)`` / ``throw Errors.create(..)``: a candidate, kept when the
    function is a factory of the repository (a class is ``_constructor_site``'s; on an
    object, ``throw lexer.fail(..)``, when the repository has one such factory)."""
    node, called = caps["throwcall"][0], caps["throwcall.call"][0]
    found = callee_of(called)
    if not text(node).startswith("throw") or found is None:
        return None
    if found[0].rsplit(".", 1)[-1][:1].isupper():
        return None
    return Site(CANDIDATE, "exception", line_of(node), symbol=_symbol(node),
                call=call_to(found[0], found[2], file, enclosing_class(node), named=found[3]))


def _throw_object_site(caps: Captures, file: FileIndex) -> Site | None:
    """``throw AuthError.InvalidToken``: an ``object`` of the repository that extends an
    exception, a candidate kept when it is one."""
    node, name = caps["throwobject"][0], text(caps["throwobject.name"][0])
    last = name.rsplit(".", 1)[-1]
    if not text(node).startswith("throw") or not last[:1].isupper() or "(" in name:
        return None
    return Site(CANDIDATE, "exception", line_of(node), last, symbol=_symbol(node),
                call=Call(name, owner=enclosing_class(node), path=""))


def _helper_site(caps: Captures, file: FileIndex) -> Site | None:
    """``fail("no config")`` as a statement: a candidate, kept when ``fail`` is a helper
    of the repository that throws or logs what it is given."""
    node = caps["helper"][0]
    found = callee_of(node)
    if found is None or not _static_or_own(found[1]):
        return None
    name = found[0].rsplit(".", 1)[-1]
    if name[:1].isupper() or name in _CHECKS or name in ("error", "TODO", "println", "print"):
        return None
    args = found[2]
    lazy = lambda_value(node)  # ``ensure(ok) { "…" }``: the lambda is its last argument
    if lazy is not None and any(has_text(t) for t in alternatives(lazy, file)):
        args = [*args, lazy]
    if not any(has_text(t) for a in args for t in alternatives(a, file)):
        return None  # ``a - b`` is no message
    return Site(CANDIDATE, "exception", line_of(node), symbol=_symbol(node),
                call=call_to(found[0], args, file, enclosing_class(node), named=found[3]))


def _lazy_helper_site(caps: Captures, file: FileIndex) -> Site | None:
    """``checkRequirement(src, ok) { "year >= 1601" }``: a helper whose message is its
    trailing lambda (``_helper_site`` reads a call with a text argument already)."""
    node = caps["lazyhelper"][0]
    found = callee_of(node)
    if found is None or any(a.type in ("string_literal", "additive_expression")
                            for a in found[2]):
        return None
    return _helper_site({"helper": [node]}, file)


def _log_site(call: _Call, file: FileIndex) -> Site | None:
    """``logger.error("a {} b", x, e)`` or kotlin-logging's ``logger.error(e) { "…" }``."""
    if call.lambda_body is not None:
        found = _site(call, read(call.lambda_body, file), "log", None)
    else:
        first = read(call.args[0], file) if call.args else None
        message = None if first is None else slf4j_message(
            first, [text(a) for a in call.args[1:]])
        found = _site(call, message, "log", None)
    return dataclasses.replace(found, level=level_of(call.name)) if found else None


def _grpc_site(call: _Call, file: FileIndex) -> Site | None:
    """``Status.NOT_FOUND.withDescription(msg)`` prints ``NOT_FOUND: msg``."""
    receiver = call.receiver
    if receiver is None or receiver.type != "navigation_expression":
        return None
    owner, code = text(receiver.named_children[0]), text(receiver.named_children[-1])[1:]
    message = read(call.args[0], file) if len(call.args) == 1 else None
    if simple_name(owner) != "Status" or not code.isupper() or message is None:
        return None
    after = call.node.parent
    suffix = after.named_children[-1] if after is not None and after.named_child_count else None
    then = text(suffix)[1:] if text(suffix).startswith(".") else ""  # .asRuntimeException
    template, error_type, error_class = grpc_status(code, message, then)
    return Site(template, error_type, line_of(call.node), error_class, code,
                symbol=_symbol(call.node))


def _super_site(caps: Captures, file: FileIndex) -> Site | list[Site] | None:
    """An exception class passing its message to its superclass constructor."""
    node = caps["super"][0]
    owner = next((a for a in ancestors(node) if a.type in ("class_declaration",
                                                          "object_declaration")), None)
    if owner is None:
        return None
    if "super.type" in caps:
        superclass = simple_name(text(caps["super.type"][0]))
    else:
        specifier = next((c for c in owner.named_children if c.type == "delegation_specifier"),
                         None)
        superclass = simple_name(text(specifier))
    if not is_exception_name(superclass.split("(", 1)[0]):
        return None
    args = arguments(caps["super.args"][0])
    message = read(args[0], file) if args else None
    name = text(next((c for c in owner.named_children if c.type == "type_identifier"), None))
    symbol = ".".join(filter(None, [_symbol(owner), name, "<init>"]))
    if message is None:  # ``type?.let { "…$it…" } ?: "…"``: a site per branch
        branches = [t for t in alternatives(args[0], file) if has_text(t)] if args else []
        return [Site(t, "exception", line_of(node), name, symbol=symbol) for t in branches]
    return Site(message.template(), "exception", line_of(node), name, symbol=symbol)


def _site(
    call: _Call, message: Message | None, error_type: ErrorType, error_class: str | None,
    at: Node | None = None,
) -> Site | None:
    if message is None:
        return None
    node = at or call.node
    return Site(message.template(), error_type, line_of(node), error_class,
                symbol=_symbol(node))


# --- calls and names -------------------------------------------------------------------


def _call(node: Node, name: str, receiver: Node | None, suffix: Node) -> _Call:
    args: list[Node] = []
    lambda_body = None
    for child in suffix.named_children:
        if child.type == "value_arguments":
            args = arguments(child)
        elif child.type == "annotated_lambda":
            lambda_body = _lambda_result(child)
    if lambda_body is None and args and args[-1].type == "lambda_literal":
        lambda_body = _lambda_result(args.pop())
    return _Call(node, name, receiver, args, lambda_body)


def _lambda_result(node: Node) -> Node | None:
    """The last expression of a lambda: its value."""
    literal = node if node.type == "lambda_literal" else next(
        (c for c in node.named_children if c.type == "lambda_literal"), None
    )
    statements = next((c for c in literal.named_children if c.type == "statements"), None) if (
        literal is not None
    ) else None
    return statements.named_children[-1] if statements and statements.named_child_count else None


def _thrown(node: Node) -> bool:
    parent = node.parent
    return parent is not None and parent.type == "jump_expression" and (
        text(parent.children[0]) == "throw"
    )


def _symbol(node: Node) -> str | None:
    """``Outer.Inner.method``; top-level functions by name; constructors ``<init>``."""
    names: list[str] = []
    for a in ancestors(node):
        if a.type in TYPE_TYPES or a.type == "function_declaration":
            name = name_of(a)
            if name:
                names.append(name)
        elif a.type in ("secondary_constructor", "anonymous_initializer"):
            names.append("<init>")
        elif a.type in ("getter", "setter"):
            names.append(_property_name(a) or a.type)
    return ".".join(reversed(names)) or None


def _property_name(accessor: Node) -> str | None:
    """The property a getter or setter belongs to: its parent, or the declaration before it."""
    owner: Node | None = accessor.parent
    if owner is None or owner.type != "property_declaration":
        owner = accessor.prev_named_sibling
        while owner is not None and owner.type in ("getter", "setter", "modifiers"):
            owner = owner.prev_named_sibling
    if owner is None or owner.type != "property_declaration":
        return None
    declaration = next((c for c in owner.named_children if c.type == "variable_declaration"), None)
    return text(declaration.named_children[0]) if declaration is not None else None


SPEC: LanguageSpec[FileIndex] = LanguageSpec(
    strings=STRINGS, name="kotlin", grammar="kotlin", extensions=(".kt", ".kts"),
    query=Path(__file__).with_name("queries.scm"),
    handlers=(("call", _call_site), ("super", _super_site), ("throwcall", _throw_call_site),
              ("helper", _helper_site), ("lazyhelper", _lazy_helper_site),
              ("throwobject", _throw_object_site)),
    new_index=FileIndex, function_types=FUNCTION_TYPES, scope_types=FUNCTION_TYPES | BODY_TYPES,
    evidence=EvidenceRules(frozenset({"function_declaration", "secondary_constructor"})),
    snippets=SNIPPETS,
    pastes=JVM_PASTES,  # Kotlin's runtime prints JVM stacks, read once with Java's
    compose=Composer(producers=producers, triggers=(b"class", b"fun", b"val")),
)


def extract(source: bytes) -> FileSites:
    """All sites of one file, in source order (a primary constructor that starts a line
    joined to its header first: ``headers.py``)."""
    return extract_with(SPEC, split_header(source))


LANGUAGE = dataclasses.replace(language(SPEC), extract=extract)
