"""Warnings, assertions and logged errors of JavaScript/TypeScript: ``process.emitWarning``,
``util.deprecate``, Node's ``assert``, ``console.error``/``warn`` and
``logger.error|fatal|warn``.

Node prints a warning as ``(node:PID) [code] Type: msg`` (the pattern is the message) and
``console.error(fmt, …args)`` as ``util.format`` does (``messages.py``).
"""

from __future__ import annotations

from tree_sitter import Node

from errdex.languages.base import Site, text
from errdex.languages.javascript.classes import code_of
from errdex.languages.javascript.declared import imported_from
from errdex.languages.javascript.messages import (
    Reader,
    arguments,
    node_format,
    object_pairs,
    string_value,
)
from errdex.languages.javascript.where import statement_line, symbol
from errdex.languages.logs import level_of
from errdex.records.log_statements import LogLevel
from errdex.templates.template import Template


def log_level(method: str, console: bool) -> LogLevel | None:
    """The level of ``console.<method>`` / ``logger.<method>`` (``console.log``: info)."""
    if console and method == "log":
        return "info"
    if console and method == "trace":  # prints "Trace: …" and a stack: no log line
        return None
    return level_of(method)
# Node's assert: the argument that is the message (``assert(value, message)``,
# ``assert.equal(actual, expected, message)``); it throws AssertionError [ERR_ASSERTION].
_ASSERT_MESSAGE = {
    "": 1, "ok": 1, "equal": 2, "notEqual": 2, "strictEqual": 2, "notStrictEqual": 2,
    "deepEqual": 2, "deepStrictEqual": 2, "notDeepEqual": 2, "notDeepStrictEqual": 2,
    "fail": 0, "match": 2, "doesNotMatch": 2,
}
_ASSERT_MODULES = frozenset({"assert", "node:assert", "assert/strict", "node:assert/strict"})


def assert_site(node: Node, reader: Reader) -> Site | None:
    """``assert(typeof fn === 'function', 'fn must be a function')`` with ``assert`` from
    Node's ``assert`` module: an AssertionError of that message."""
    function = node.child_by_field_name("function")
    if function is None:
        return None
    head, _, method = text(function).partition(".")
    index = _ASSERT_MESSAGE.get(method)
    args = arguments(node)
    if index is None or index >= len(args) or imported_from(_root(node), head) not in (
            _ASSERT_MODULES):
        return None
    message = reader.read(args[index])
    if message is None or not message.has_text():
        return None
    return Site(Template(message.written, message.parts), "exception", statement_line(node),
                "AssertionError", "ERR_ASSERTION", symbol=symbol(node))


def _root(node: Node) -> Node:
    while node.parent is not None:
        node = node.parent
    return node


def warning_site(node: Node, deprecate: bool, reader: Reader) -> Site | None:
    """``process.emitWarning(msg, [type | { type, code }], [code])`` and
    ``util.deprecate(fn, msg, [code])``: Node prints ``(node:PID) [code] Type: msg``."""
    args = arguments(node)[1:] if deprecate else arguments(node)
    message = reader.read(args[0]) if args else None
    if message is None or not message.has_text():
        return None
    error_class = "DeprecationWarning" if deprecate else "Warning"
    code = None
    rest = [reader.read_or_hole(a) for a in args[1:]]
    options = object_pairs(args[1]) if len(args) > 1 else {}
    if deprecate:
        code = code_of(rest[0]) if rest else None
    elif options:
        error_class = string_value(options.get("type")) or error_class
        code = code_of(reader.read_or_hole(options["code"])) if "code" in options else None
    else:
        error_class = (rest[0].literal if rest else None) or error_class
        code = code_of(rest[1]) if len(rest) > 1 else None
    return Site(
        Template(message.written, message.parts), "warning", statement_line(node), error_class,
        code, severity="warning", symbol=symbol(node),
    )


def log_site(node: Node, method: str, console: bool, reader: Reader) -> Site | None:
    """``console.error(fmt, …args)`` prints ``util.format``; loggers take ``(obj, msg, …)`` too."""
    args = arguments(node)
    message = reader.read(args[0]) if args else None
    if message is None and not console and len(args) > 1:
        args = args[1:]  # pino: logger.error({ err }, "message")
        message = reader.read(args[0])
    if message is None:
        return None
    rest = [reader.read_or_hole(a) for a in args[1:]]
    message = node_format(message, rest, append=console)
    if not message.has_text():
        return None
    level = log_level(method, console) or "error"
    if level == "error" and _exits_next(node):
        level = "fatal"
    return Site(
        Template(message.written, message.parts), "log", statement_line(node),
        symbol=symbol(node), level=level,
    )


def _exits_next(node: Node) -> bool:
    """The statement after this one is ``process.exit(<non-zero literal>)``."""
    statement = node.parent
    if statement is None or statement.type != "expression_statement":
        return False
    following = statement.next_named_sibling
    call = following.named_children[0] if following is not None and (
        following.type == "expression_statement" and following.named_children
    ) else None
    if call is None or call.type != "call_expression":
        return False
    args = arguments(call)
    return text(call.child_by_field_name("function")) == "process.exit" and bool(args) and (
        text(args[0]) not in ("0", "")
    )


