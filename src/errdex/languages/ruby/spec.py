"""Ruby sites: ``raise``/``fail``, ``logger.error``, ``Kernel#warn`` and ``abort``.

What is a site (``errorType``):

* ``exception``: ``raise X, "msg"``, ``raise X.new("msg")``, ``raise "msg"`` (a
  ``RuntimeError``), the same with ``fail`` or ``Kernel.raise``. ``errorClass`` is the
  class as written (``ArgumentError``, ``MyLib::NotFound``); a class given as a
  variable (``raise klass, "msg"``) leaves it null. ``XError.new("msg")`` (a class
  named ``…Error``/``…Exception``) built outside ``raise`` to be raised later is one too.
* ``log``: ``error``/``fatal`` on a receiver whose name says log (``logger``,
  ``@logger``, ``Rails.logger``, ``LOG``); the message is the first argument, or the
  block's value for ``logger.error { "msg" }`` (an argument then is the progname).
* ``warning``: ``warn "msg"`` (Kernel#warn), severity warning.
* ``exit``: ``abort("msg")`` prints the message and exits 1, severity fatal.

A message is read only when source says what it is: string literals (double-quoted
ones with ``#{expr}`` holes named after the expression; single-quoted and ``%q``
ones are plain text), adjacent literals, ``+`` concatenations that contain a
literal, ``format``/``sprintf`` and ``"fmt" % args`` with a literal format (C
printf conversions, and ``%<name>s``/``%{name}`` taken from a hash), and a local
variable assigned one of those earlier in the same method. ``raise X`` without a
message, ``raise e`` and ``raise X, e.message`` say nothing about the text: no site;
nor does ``fail(404, "…")``, a class's own ``fail`` (a literal can name no class).

Runtime rules (what the pattern leaves out or adds):

* An uncaught exception prints ``file:line:in 'meth': msg (X)``; the pattern is the
  message alone (``e.message``), which is what a traceback parser extracts.
* Logger's default format adds ``E, [time #pid] ERROR -- prog: `` before the message;
  log lines lose that prefix in lookup, so the pattern is the message alone.
* ``warn "msg", uplevel: n`` prints ``file:line: warning: msg``: that prefix is part
  of the pattern, the location a hole. Several ``warn`` arguments print one a line.
* A trailing newline is not part of a printed line, so a message's final ``\\n`` is
  dropped from the pattern (``warn`` and ``abort`` add one anyway).

``symbol`` is ``Module::Class.method`` — modules and classes joined with ``::`` as
Ruby writes them, the method (instance or ``def self.``) after a dot, like
``Store.open`` elsewhere; code in a class body outside any method is the class.
"""

from __future__ import annotations

import re
from pathlib import Path

from tree_sitter import Node

from errdex.languages.base import (
    FileAssignments,
    FileSites,
    Language,
    Site,
    ancestors,
    inside_error,
    line_of,
    load_query,
    matches,
    nearest_assignment,
    parse,
    plus_operands,
    text,
)
from errdex.languages.message import Message, joined
from errdex.records.model import ErrorType, Severity
from errdex.templates.formats import parse_printf
from errdex.templates.template import Hole, Literal, Part, Template, chomp, merge_literals

_QUERY_PATH = Path(__file__).with_name("queries.scm")
_MAX_DEPTH = 12  # variables that refer to variables; stops cycles
_CLASS_NODES = ("constant", "scope_resolution")
# What can name the class in ``raise klass, "msg"``: a constant or an expression.
_CLASS_VALUES = (*_CLASS_NODES, "identifier", "call", "instance_variable", "class_variable")
_SCOPES = ("method", "singleton_method", "class", "module", "program")
_FORMAT_FUNCTIONS = ("format", "sprintf")
_SIMPLE_ESCAPES = {
    "n": "\n", "t": "\t", "r": "\r", "e": "\x1b", "s": " ", "a": "\a", "b": "\b",
    "f": "\f", "v": "\v", "0": "\0",
}
_NAMED_FORMAT = re.compile(r"%%|%<(\w+)>|%\{(\w+)\}")


# --- entry point -----------------------------------------------------------------------


def extract(source: bytes) -> FileSites:
    """All sites in one Ruby file, in source order."""
    tree = parse("ruby", source)
    found = matches(load_query("ruby", _QUERY_PATH), tree.root_node)
    file = FileAssignments.of(found)
    sites: list[Site] = []
    for _, caps in found:
        if "call" in caps and not inside_error(caps["call"][0]):
            site = _site(caps["call"][0], text(caps["call.method"][0]), file)
        elif "new" in caps and not inside_error(caps["new"][0]):
            site = _new_site(caps["new"][0], text(caps["new.class"][0]), file)
        else:
            continue
        if site is not None:
            sites.append(site)
    sites.sort(key=lambda s: s.line)
    return FileSites(sites=sites, parse_errors=tree.root_node.has_error)


def _site(node: Node, method: str, file: FileAssignments) -> Site | None:
    receiver = node.child_by_field_name("receiver")
    if method in ("error", "fatal"):
        if receiver is None or not _names_a_logger(_last_name(receiver)):
            return None
        return _log_site(node, file)
    if receiver is not None and text(receiver) != "Kernel":
        return None
    if method in ("raise", "fail"):
        return _raise_site(node, file)
    if method == "warn":
        return _warn_site(node, file)
    return _abort_site(node, file)


# --- site kinds ------------------------------------------------------------------------


def _raise_site(node: Node, file: FileAssignments) -> Site | None:
    """``raise X, msg`` / ``raise X.new(msg)`` / ``raise msg`` (a RuntimeError)."""
    positional, _ = _arguments(node.child_by_field_name("arguments"))
    if not positional:
        return None
    first = positional[0]
    error_class: str | None
    if len(positional) >= 2:
        if first.type not in _CLASS_VALUES:
            return None  # fail(416, "…"): a method of the same name, not Kernel#raise
        error_class = text(first) if first.type in _CLASS_NODES else None
        message = _read(positional[1], file)
    elif _is_new_call(first):
        error_class = text(first.child_by_field_name("receiver"))
        inner, _ = _arguments(first.child_by_field_name("arguments"))
        message = _read(inner[0], file) if inner else None
    else:
        error_class = "RuntimeError"
        message = _read(first, file)
    if message is None:
        return None
    return _make(node, message, "exception", error_class)


def _new_site(node: Node, error_class: str, file: FileAssignments) -> Site | None:
    """``XError.new("msg")`` built outside ``raise`` (``raise X.new`` is the raise's site)."""
    if not error_class.endswith(("Error", "Exception")) or _raised(node):
        return None
    positional, _ = _arguments(node.child_by_field_name("arguments"))
    message = _read(positional[0], file) if positional else None
    return None if message is None else _make(node, message, "exception", error_class)


def _raised(node: Node) -> bool:
    args = node.parent
    call = args.parent if args is not None and args.type == "argument_list" else None
    return call is not None and call.type == "call" and (
        text(call.child_by_field_name("method")) in ("raise", "fail")
    )


def _log_site(node: Node, file: FileAssignments) -> Site | None:
    """``logger.error(msg)`` or ``logger.error(progname) { msg }``."""
    block = node.child_by_field_name("block")
    if block is not None:
        body = block.child_by_field_name("body")
        statements = body.named_children if body is not None else []
        message = _read(statements[-1], file) if statements else None
    else:
        positional, _ = _arguments(node.child_by_field_name("arguments"))
        message = _read(positional[0], file) if positional else None
    if message is None:
        return None
    return _make(node, message, "log")


def _warn_site(node: Node, file: FileAssignments) -> Site | None:
    """``warn "a", "b", uplevel: 1`` prints each message on its own line."""
    positional, keywords = _arguments(node.child_by_field_name("arguments"))
    if not positional:
        return None
    read = [_read(arg, file) for arg in positional]
    if any(m is None for m in read):
        return None
    lines = [m for m in read if m is not None]
    newline = Message("\n", (Literal("\n"),), "\n")
    pieces = [piece for m in lines for piece in (newline, m)][1:]
    message = joined(pieces)
    if message is None:
        return None
    prefix: tuple[Part, ...] = ()
    if "uplevel" in keywords:
        prefix = (Hole.of("location", "file:line"), Literal(": warning: "))
    return _make(node, message, "warning", severity="warning", prefix=prefix)


def _abort_site(node: Node, file: FileAssignments) -> Site | None:
    positional, _ = _arguments(node.child_by_field_name("arguments"))
    message = _read(positional[0], file) if positional else None
    if message is None:
        return None
    return _make(node, message, "exit", severity="fatal")


def _make(
    node: Node, message: Message, error_type: ErrorType, error_class: str | None = None,
    severity: Severity = "error", prefix: tuple[Part, ...] = (),
) -> Site | None:
    parts = chomp(message.parts)
    if not parts:
        return None
    template = Template(message.written, parts).with_wrapper(prefix=prefix)
    return Site(
        template, error_type, line_of(node), error_class, severity=severity,
        symbol=_symbol(node),
    )


def _arguments(args: Node | None) -> tuple[list[Node], dict[str, Node]]:
    """Positional argument nodes, and keyword (``key: value``) name → value node."""
    positional: list[Node] = []
    keywords: dict[str, Node] = {}
    for child in args.named_children if args is not None else ():
        if child.type == "pair":
            key, value = child.child_by_field_name("key"), child.child_by_field_name("value")
            if key is not None and value is not None:
                keywords[text(key).lstrip(":").strip("\"'")] = value
        elif child.type not in ("splat_argument", "hash_splat_argument", "block_argument",
                                "comment"):
            positional.append(child)
    return positional, keywords


def _is_new_call(node: Node) -> bool:
    receiver = node.child_by_field_name("receiver")
    return (
        node.type == "call"
        and text(node.child_by_field_name("method")) == "new"
        and receiver is not None
        and receiver.type in _CLASS_NODES
    )


def _last_name(node: Node) -> str:
    """``Rails.logger`` → ``logger``; ``@logger`` → ``@logger``."""
    if node.type == "call":
        return text(node.child_by_field_name("method"))
    return text(node)

def _names_a_logger(name: str) -> bool:
    """``logger``, ``@log``, ``errorLogger``, ``LOG``; not ``catalog`` or ``dialog``."""
    words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name)
    return any(w.lower() in ("log", "logger", "logging") for w in words)


def _symbol(node: Node) -> str | None:
    """``Module::Class.method``; the class path alone in a class body; None at top level."""
    method: str | None = None
    owners: list[str] = []
    for ancestor in ancestors(node):
        if ancestor.type in ("method", "singleton_method") and method is None and not owners:
            method = text(ancestor.child_by_field_name("name"))
        elif ancestor.type in ("class", "module"):
            owners.append(text(ancestor.child_by_field_name("name")))
    owner = "::".join(reversed(owners))
    if method is None:
        return owner or None
    return f"{owner}.{method}" if owner else method


# --- messages --------------------------------------------------------------------------


def _read(node: Node | None, file: FileAssignments, depth: int = 0) -> Message | None:
    """The message an expression prints, when source says what it is."""
    if node is None or depth > _MAX_DEPTH:
        return None
    kind = node.type
    if kind == "parenthesized_statements" and node.named_child_count == 1:
        return _read(node.named_children[0], file, depth + 1)
    if kind == "string":
        return _string(node)
    if kind == "chained_string":
        return joined([_string(part) for part in node.named_children])
    if kind == "binary":
        return _binary(node, file, depth)
    if kind == "call":
        return _format_call(node, file, depth)
    if kind == "identifier":
        return _variable(node, file, depth)
    return None


def _binary(node: Node, file: FileAssignments, depth: int) -> Message | None:
    operator = text(node.child_by_field_name("operator"))
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if operator == "%":
        fmt = _read(left, file, depth + 1)
        if fmt is None or fmt.literal is None or right is None:
            return None
        if right.type == "array":
            items = [a for a in right.named_children if a.type != "comment"]
            return _format(fmt.literal, items, {})
        if right.type == "hash":
            _, keywords = _arguments(right)
            return _format(fmt.literal, [], keywords)
        return _format(fmt.literal, [right], {})
    if operator != "+":
        return None
    operands = list(_plus_operands(node))
    read = [_read(op, file, depth + 1) for op in operands]
    if all(m is None for m in read):
        return None  # no text known: a + b may well be arithmetic
    pieces = zip(operands, read, strict=True)
    return joined([m if m is not None else _hole(text(op)) for op, m in pieces])


def _plus_operands(node: Node) -> list[Node]:
    return plus_operands(node, "binary")


def _hole(expression: str) -> Message:
    """A value printed with ``to_s``; ``x.to_s`` is named ``x``."""
    name = expression.removesuffix(".to_s") if expression.endswith(".to_s") else expression
    return Message("#{" + name + "}", (Hole.of(name, "#{" + name + "}"),))


def _format_call(node: Node, file: FileAssignments, depth: int) -> Message | None:
    """``format("…%s", x)`` / ``sprintf`` / ``Kernel.format``."""
    receiver = node.child_by_field_name("receiver")
    if text(node.child_by_field_name("method")) not in _FORMAT_FUNCTIONS:
        return None
    if receiver is not None and text(receiver) != "Kernel":
        return None
    positional, keywords = _arguments(node.child_by_field_name("arguments"))
    fmt = _read(positional[0], file, depth + 1) if positional else None
    if fmt is None or fmt.literal is None:
        return None
    return _format(fmt.literal, positional[1:], keywords)


def _format(fmt: str, args: list[Node], keywords: dict[str, Node]) -> Message:
    """Ruby ``format``: C conversions, or ``%<name>d`` / ``%{name}`` from a hash."""
    if any(m.group(0) != "%%" for m in _NAMED_FORMAT.finditer(fmt)):
        python_style = _NAMED_FORMAT.sub(_to_python_key, fmt)
        kwargs = {k: text(v) for k, v in keywords.items()}
        return Message(fmt, parse_printf(python_style, (), kwargs, dialect="python"))
    return Message(fmt, parse_printf(fmt, [text(a) for a in args], dialect="c"))


def _to_python_key(match: re.Match[str]) -> str:
    if match.group(1):
        return f"%({match.group(1)})"
    if match.group(2):
        return f"%({match.group(2)})s"
    return "%%"


def _variable(node: Node, file: FileAssignments, depth: int) -> Message | None:
    """A local variable: its nearest assignment above, in the same method."""
    assignment = nearest_assignment(node, file.assignments, _SCOPES)
    if assignment is None:
        return None
    value = _read(assignment.child_by_field_name("right"), file, depth + 1)
    if assignment.type == "operator_assignment":
        left = assignment.child_by_field_name("left")
        return joined([_variable(left, file, depth + 1) if left else None, value])
    return value


# --- string literals -------------------------------------------------------------------


def _string(node: Node) -> Message | None:
    """A string literal: ``'…'``/``%q`` as plain text, ``"…"``/``%Q``/``%()`` with holes."""
    opening = text(node.child(0)) if node.child_count else ""
    if opening.startswith(":"):
        return None  # a symbol
    if opening.startswith(("'", "%q")):
        value = "".join(
            _single_quoted(text(c)) for c in node.named_children if c.type == "string_content"
        )
        return Message(value, (Literal(value),), value)
    written: list[str] = []
    parts: list[Part] = []
    plain = True
    for child in node.named_children:
        if child.type == "string_content":
            piece = text(child)
        elif child.type == "escape_sequence":
            piece = _unescape(text(child))
        elif child.type == "interpolation":
            name = _interpolated(child)
            written.append("#{" + name + "}")
            parts.append(Hole.of(name, "#{" + name + "}"))
            plain = False
            continue
        else:
            return None
        written.append(piece)
        parts.append(Literal(piece))
    value = "".join(written)
    return Message(value, merge_literals(parts), value if plain else None)


def _interpolated(node: Node) -> str:
    """The expression of ``#{expr}`` (or ``#@ivar``) as written."""
    inner = [c for c in node.children if c.type not in ("#{", "}")]
    if not inner:
        return text(node)
    source = node.text or b""
    start, end = inner[0].start_byte - node.start_byte, inner[-1].end_byte - node.start_byte
    return source[start:end].decode("utf-8", errors="replace").strip()


def _single_quoted(content: str) -> str:
    """Single quotes know two escapes: ``\\\\`` and ``\\'``."""
    return re.sub(r"\\([\\'])", r"\1", content)


def _unescape(sequence: str) -> str:
    """One double-quoted escape sequence's text."""
    body = sequence[1:]
    if not body or body[0] in "\r\n":
        return ""  # line continuation
    if body[0] in _SIMPLE_ESCAPES and len(body) == 1:
        return _SIMPLE_ESCAPES[body[0]]
    try:
        if body[0] == "u":
            digits = body[1:].strip("{}").split()
            return "".join(chr(int(d, 16)) for d in digits)
        if body[0] == "x":
            return chr(int(body[1:], 16))
        if body[0] in "01234567":
            return chr(int(body, 8))
    except ValueError:
        return sequence
    return body if len(body) == 1 else sequence


LANGUAGE = Language("ruby", "ruby", (".rb", ".rake", ".gemspec"), extract)
