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

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tree_sitter import Node

from errdex.languages.base import (
    FileSites,
    Language,
    Site,
    ancestors,
    inside_error,
    line_of,
    load_query,
    matches,
    parse,
    text,
)
from errdex.languages.jvm_messages import (
    Message,
    is_exception_name,
    joined,
    kotlin_string,
    literal_message,
    map_text,
    operand_hole,
    simple_name,
    slf4j_message,
    trim_indent,
    trim_margin,
)
from errdex.records.model import ErrorType
from errdex.templates.formats import parse_message_format, parse_printf
from errdex.templates.template import Literal

_QUERY_PATH = Path(__file__).with_name("kotlin.scm")
_MAX_DEPTH = 12


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
_SCOPES = frozenset({
    "function_declaration", "lambda_literal", "anonymous_initializer", "secondary_constructor",
    "getter", "setter", "anonymous_function",
})
_TYPES = frozenset({"class_declaration", "object_declaration", "companion_object"})
_BODIES = frozenset({"class_body", "enum_class_body", "source_file"})

Captures = dict[str, list[Node]]


@dataclass
class _File:
    """Message variables of one file: ``val``/``var`` declarations by name."""

    assignments: dict[str, list[Node]] = field(default_factory=dict)


@dataclass(frozen=True)
class _Call:
    """One call: callee name, receiver, value arguments and trailing lambda."""

    node: Node
    name: str
    receiver: Node | None
    args: list[Node]
    lambda_body: Node | None  # the last expression of a lambda argument


# --- entry point -----------------------------------------------------------------------


def extract(source: bytes) -> FileSites:
    """All sites of one Kotlin file, in source order."""
    tree = parse("kotlin", source)
    found = matches(load_query("kotlin", _QUERY_PATH), tree.root_node)
    file = _File()
    for _, caps in found:
        if "assign" in caps:
            file.assignments.setdefault(text(caps["assign.name"][0]), []).append(caps["assign"][0])
    sites: list[tuple[int, Site]] = []
    for _, caps in found:
        for kind, handler in _HANDLERS.items():
            if kind in caps and not inside_error(caps[kind][0]):
                site = handler(caps, file)
                if site is not None:
                    sites.append((caps[kind][0].start_byte, site))
    sites.sort(key=lambda item: item[0])
    return FileSites([s for _, s in sites], parse_errors=tree.root_node.has_error)


# --- site kinds ------------------------------------------------------------------------


def _call_site(caps: Captures, file: _File) -> Site | None:
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
        return _site(call, _read(call.args[0], file), "log", None)
    if call.name == "withDescription":
        return _grpc_site(call, file)
    return None


def _check_site(call: _Call, file: _File) -> Site | None:
    """``require(c) { msg }``; without a message the stdlib's fixed text."""
    check = _CHECKS[call.name]
    message: Message | None
    if call.lambda_body is None:
        message = literal_message(check.default)
    else:
        message = _read(call.lambda_body, file)
    return _site(call, message, "exception", check.error_class)


def _error_site(call: _Call, file: _File) -> Site | None:
    """``error(msg)`` → IllegalStateException; ``TODO(reason)`` → NotImplementedError."""
    if call.name == "error":
        return _site(call, _read(call.args[0], file) if call.args else None, "exception",
                     "IllegalStateException")
    if not call.args:
        return _site(call, literal_message("An operation is not implemented."), "exception",
                     "NotImplementedError")
    site = _site(call, _read(call.args[0], file), "exception", "NotImplementedError")
    if site is None:
        return None
    prefix = (Literal("An operation is not implemented: "),)
    return Site(site.template.with_wrapper(prefix), site.error_type, site.line,
                site.error_class, symbol=site.symbol)


def _constructor_site(call: _Call, file: _File) -> Site | None:
    """``throw X(msg)``, or ``XException(msg)`` created to be thrown elsewhere."""
    thrown = _thrown(call.node)
    if not (thrown or is_exception_name(call.name)) or not call.args:
        return None
    return _site(call, _read(call.args[0], file), "exception", call.name,
                 at=call.node.parent if thrown else call.node)


def _log_site(call: _Call, file: _File) -> Site | None:
    """``logger.error("a {} b", x, e)`` or kotlin-logging's ``logger.error(e) { "…" }``."""
    if call.lambda_body is not None:
        return _site(call, _read(call.lambda_body, file), "log", None)
    first = _read(call.args[0], file) if call.args else None
    message = None if first is None else slf4j_message(first, [text(a) for a in call.args[1:]])
    return _site(call, message, "log", None)


def _grpc_site(call: _Call, file: _File) -> Site | None:
    """``Status.NOT_FOUND.withDescription(msg)`` prints ``NOT_FOUND: msg``."""
    receiver = call.receiver
    if receiver is None or receiver.type != "navigation_expression":
        return None
    owner, code = text(receiver.named_children[0]), text(receiver.named_children[-1])[1:]
    message = _read(call.args[0], file) if len(call.args) == 1 else None
    if simple_name(owner) != "Status" or not code.isupper() or message is None:
        return None
    after = call.node.parent
    suffix = after.named_children[-1] if after is not None and after.named_child_count else None
    error_class = {".asRuntimeException": "StatusRuntimeException",
                   ".asException": "StatusException"}.get(text(suffix))
    template = message.template().with_wrapper((Literal(code + ": "),))
    error_type: ErrorType = "exception" if error_class else "error"
    return Site(template, error_type, line_of(call.node), error_class, code,
                symbol=_symbol(call.node))


def _super_site(caps: Captures, file: _File) -> Site | None:
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
    args = _arguments(caps["super.args"][0])
    message = _read(args[0], file) if args else None
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


_HANDLERS: dict[str, Callable[[Captures, _File], Site | None]] = {
    "call": _call_site,
    "super": _super_site,
}


# --- calls and names -------------------------------------------------------------------


def _call(node: Node, name: str, receiver: Node | None, suffix: Node) -> _Call:
    args: list[Node] = []
    lambda_body = None
    for child in suffix.named_children:
        if child.type == "value_arguments":
            args = _arguments(child)
        elif child.type == "annotated_lambda":
            lambda_body = _lambda_result(child)
    if lambda_body is None and args and args[-1].type == "lambda_literal":
        lambda_body = _lambda_result(args.pop())
    return _Call(node, name, receiver, args, lambda_body)


def _arguments(value_arguments: Node) -> list[Node]:
    """The expression of each value argument (``name = value`` gives ``value``)."""
    return [
        arg.named_children[-1] for arg in value_arguments.named_children
        if arg.type == "value_argument" and arg.named_child_count
    ]


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


def _name_of(node: Node) -> str | None:
    """The declared name of a class, object, companion or function."""
    kind = "simple_identifier" if node.type == "function_declaration" else "type_identifier"
    child = next((c for c in node.named_children if c.type == kind), None)
    if child is None:
        return "Companion" if node.type == "companion_object" else None
    return text(child)


def _symbol(node: Node) -> str | None:
    """``Outer.Inner.method``; top-level functions by name; constructors ``<init>``."""
    names: list[str] = []
    for a in ancestors(node):
        if a.type in _TYPES or a.type == "function_declaration":
            name = _name_of(a)
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


# --- messages --------------------------------------------------------------------------


def _read(node: Node | None, file: _File, depth: int = 0) -> Message | None:
    """The message an expression prints, when source says what it is."""
    if node is None or depth > _MAX_DEPTH:
        return None
    kind = node.type
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return _read(node.named_children[0], file, depth + 1)
    if kind == "string_literal":
        return kotlin_string(node)
    if kind == "additive_expression" and text(node.children[1]) == "+":
        return _concatenation(node, file, depth)
    if kind == "call_expression":
        return _text_call(node, file, depth)
    if kind == "simple_identifier":
        return _variable(node, file, depth)
    if kind == "navigation_expression":
        return _qualified_constant(node, file, depth)
    return None


def _concatenation(node: Node, file: _File, depth: int) -> Message | None:
    """``"bad " + x``: ``String.plus`` joins text; other operands are holes named after them."""
    left, right = node.named_children[0], node.named_children[-1]
    known = [_read(left, file, depth + 1), _read(right, file, depth + 1)]
    if known == [None, None]:
        return None
    message = joined([k or _operand(op) for k, op in zip(known, (left, right), strict=True)])
    if message is None or not any(isinstance(p, Literal) for p in message.parts):
        return None
    return message


def _operand(node: Node) -> Message:
    if node.type == "integer_literal" and text(node).isdigit():
        return literal_message(text(node))
    name = text(node)[1:-1].strip() if node.type == "parenthesized_expression" else text(node)
    return operand_hole(name)


def _text_call(node: Node, file: _File, depth: int) -> Message | None:
    """``String.format(..)``, ``"…".format(..)``, ``.trimIndent()``, ``.trimMargin()``."""
    callee, suffix = node.named_children[0], node.named_children[-1]
    if callee.type != "navigation_expression" or suffix.type != "call_suffix":
        return None
    receiver, method = callee.named_children[0], text(callee.named_children[-1])[1:]
    value_arguments = next((c for c in suffix.named_children if c.type == "value_arguments"), None)
    args = _arguments(value_arguments) if value_arguments is not None else []
    if method == "format" and text(receiver) in ("String", "java.lang.String") and args:
        if len(args) > 1 and _read(args[0], file, depth + 1) is None:
            args = args[1:]  # String.format(Locale.ROOT, "…", …)
        return _formatted(_read(args[0], file, depth + 1), args[1:])
    if method == "format" and text(receiver) == "MessageFormat" and args:
        base = _read(args[0], file, depth + 1)
        if base is None or base.literal is None:
            return None
        return Message(base.literal, parse_message_format(base.literal,
                                                          [text(a) for a in args[1:]]))
    base = _read(receiver, file, depth + 1)
    if method == "format":
        return _formatted(base, args)
    if base is not None and method == "trimIndent" and not args:
        return map_text(base, trim_indent)
    if base is not None and method == "trimMargin":
        margin = _read(args[0], file, depth + 1) if args else literal_message("|")
        if margin is not None and margin.literal:
            prefix = margin.literal
            return map_text(base, lambda value: trim_margin(value, prefix))
    return None


def _formatted(base: Message | None, args: list[Node]) -> Message | None:
    if base is None or base.literal is None:
        return None
    return Message(base.literal, parse_printf(base.literal, [text(a) for a in args],
                                              dialect="java"))


# --- message variables -----------------------------------------------------------------


def _variable(node: Node, file: _File, depth: int) -> Message | None:
    """A ``val`` (or a local ``var`` above) holding a message in an enclosing scope."""
    name = text(node)
    candidates = file.assignments.get(name, [])
    for scope in ancestors(node):
        if scope.type in _SCOPES:
            above = [a for a in candidates if _scope(a) == scope and a.end_byte <= node.start_byte]
            if above:
                return _read(above[-1].named_children[-1], file, depth + 1)
            if name in _parameters(scope):
                return None
        elif scope.type in _BODIES:
            fields = [a for a in candidates if _scope(a) == scope and _is_val(a)]
            if fields:
                return _read(fields[-1].named_children[-1], file, depth + 1)
    return None


def _qualified_constant(node: Node, file: _File, depth: int) -> Message | None:
    """``Messages.GONE``: a ``val`` of an object, or a companion's, declared in this file."""
    owner, suffix = node.named_children[0], node.named_children[-1]
    if owner.type != "simple_identifier" or suffix.type != "navigation_suffix":
        return None
    for declaration in file.assignments.get(text(suffix)[1:], []):
        holder = next((a for a in ancestors(declaration) if a.type in _TYPES or
                       a.type in _SCOPES), None)
        if holder is not None and holder.type == "companion_object":
            holder = next((a for a in ancestors(holder) if a.type in _TYPES), None)
        if holder is not None and holder.type in _TYPES and _name_of(holder) == text(owner) and (
            _is_val(declaration)
        ):
            return _read(declaration.named_children[-1], file, depth + 1)
    return None


def _scope(node: Node) -> Node | None:
    return next((a for a in ancestors(node) if a.type in _SCOPES or a.type in _BODIES), None)


def _is_val(declaration: Node) -> bool:
    kind = next((c for c in declaration.named_children if c.type == "binding_pattern_kind"), None)
    return text(kind) == "val"


def _parameters(scope: Node) -> set[str]:
    holders = [c for c in scope.named_children
               if c.type in ("function_value_parameters", "lambda_parameters")]
    if scope.type == "setter":
        holders = [scope]  # set(value) { .. }: its parameter_with_optional_type
    names = set()
    for holder in holders:
        for param in holder.named_children:
            if param.type not in ("parameter", "variable_declaration",
                                  "parameter_with_optional_type"):
                continue
            ident = next((c for c in param.named_children if c.type == "simple_identifier"), None)
            if ident is not None:
                names.add(text(ident))
    if scope.type == "lambda_literal" and not holders:
        names.add("it")
    return names


LANGUAGE = Language("kotlin", "kotlin", (".kt", ".kts"), extract)
