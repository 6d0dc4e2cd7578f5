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

from dataclasses import dataclass
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import Captures, FileIndex, LanguageSpec, Message, language
from errdex.languages._engine.evidence import EvidenceRules
from errdex.languages._jvm.libraries import (
    grpc_status,
    is_exception_name,
    literal_message,
    simple_name,
    slf4j_message,
)
from errdex.languages.base import Site, ancestors, line_of, text
from errdex.languages.java.pastes import PASTES as JVM_PASTES
from errdex.languages.kotlin.messages import (
    BODY_TYPES,
    FUNCTION_TYPES,
    STRINGS,
    TYPE_TYPES,
    arguments,
    name_of,
    read,
)
from errdex.languages.kotlin.snippets import SNIPPETS
from errdex.records.model import ErrorType
from errdex.templates.template import Literal


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
    if call.name == "severe" or (
        call.name in ("error", "fatal") and "log" in receiver.rsplit(".", 1)[-1].lower()
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
        return _site(call, read(call.args[0], file) if call.args else None, "exception",
                     "IllegalStateException")
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
    """``throw X(msg)``, or ``XException(msg)`` created to be thrown elsewhere."""
    thrown = _thrown(call.node)
    if not (thrown or is_exception_name(call.name)) or not call.args:
        return None
    return _site(call, read(call.args[0], file), "exception", call.name,
                 at=call.node.parent if thrown else call.node)


def _log_site(call: _Call, file: FileIndex) -> Site | None:
    """``logger.error("a {} b", x, e)`` or kotlin-logging's ``logger.error(e) { "…" }``."""
    if call.lambda_body is not None:
        return _site(call, read(call.lambda_body, file), "log", None)
    first = read(call.args[0], file) if call.args else None
    message = None if first is None else slf4j_message(first, [text(a) for a in call.args[1:]])
    return _site(call, message, "log", None)


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


def _super_site(caps: Captures, file: FileIndex) -> Site | None:
    """An exception class passing its message to its superclass constructor."""
    node = caps["super"][0]
    owner = next((a for a in ancestors(node) if a.type == "class_declaration"), None)
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
    if message is None:
        return None
    name = text(next((c for c in owner.named_children if c.type == "type_identifier"), None))
    symbol = ".".join(filter(None, [_symbol(owner), name, "<init>"]))
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
    handlers=(("call", _call_site), ("super", _super_site)),
    new_index=FileIndex, function_types=FUNCTION_TYPES, scope_types=FUNCTION_TYPES | BODY_TYPES,
    evidence=EvidenceRules(frozenset({"function_declaration", "secondary_constructor"})),
    snippets=SNIPPETS,
    pastes=JVM_PASTES,  # Kotlin's runtime prints JVM stacks, read once with Java's
)
LANGUAGE = language(SPEC)
extract = LANGUAGE.extract  # all sites of one file, in source order
