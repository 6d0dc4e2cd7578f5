"""Ruby string literals → message parts: what a literal prints, and how it is written.

``'…'`` and ``%q`` literals know two escapes; ``"…"``, ``%Q`` and ``%()`` decode escapes
and turn ``#{expr}`` into holes named after the expression. A symbol (``:"…"``) is no
message. Kept apart from ``spec.py`` so that the spec holds the sites.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from errdex.languages._engine.message import Message
from errdex.languages._engine.strings import Escapes, unescape
from errdex.languages._engine.walk import nodes_from
from errdex.languages.base import ancestors, text
from errdex.templates.template import Hole, Literal, Part, merge_literals

_ESCAPES = Escapes(
    {
        "n": "\n", "t": "\t", "r": "\r", "e": "\x1b", "s": " ", "a": "\a", "b": "\b",
        "f": "\f", "v": "\v", "0": "\0",
    },
    unknown="body", long_hex=True, octal=True,
)


def string(node: Node) -> Message | None:
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
    """One double-quoted escape sequence's text. ``\\u0041`` and ``\\u{41 42}`` (one code
    point or several) are Ruby's own; the rest is C-like."""
    if sequence.startswith("\\u"):
        try:
            return "".join(chr(int(p, 16)) for p in sequence[2:].strip("{}").split())
        except (ValueError, OverflowError):
            return sequence
    return unescape(sequence, _ESCAPES) or ""


def heredoc(beginning: Node) -> Message | None:
    """``<<~MSG`` … ``MSG``: the body tree-sitter keeps after the statement (the n-th body
    for the n-th opener of the line). ``<<~`` strips the lines' common indentation;
    ``<<'MSG'`` is plain text; ``<<-``/``<<`` keep each line as written."""
    opener = text(beginning)
    body = _heredoc_body(beginning)
    if body is None:
        return None
    quoted = opener.lstrip("<~-").startswith("'")
    written: list[str] = []
    parts: list[Part] = []
    for child in body.named_children:
        if child.type == "heredoc_content":
            piece = text(child)
        elif child.type == "escape_sequence" and not quoted:
            piece = _unescape(text(child))
        elif child.type == "escape_sequence":
            piece = text(child)
        elif child.type == "interpolation" and not quoted:
            name = _interpolated(child)
            written.append("#{" + name + "}")
            parts.append(Hole.of(name, "#{" + name + "}"))
            continue
        elif child.type == "heredoc_end":
            continue
        else:
            return None
        written.append(piece)
        parts.append(Literal(piece))
    last = parts[-1] if parts else None
    if isinstance(last, Literal) and "\n" in last.text:  # the end marker's indentation
        head, _, tail = last.text.rpartition("\n")
        if not tail.strip():
            parts[-1], written[-1] = Literal(head + "\n"), head + "\n"
    if parts and isinstance(parts[0], Literal):  # the body starts on the line after
        first = parts[0].text.removeprefix("\n")
        parts[0], written[0] = Literal(first), first
    if opener.startswith("<<~"):
        parts = _dedented(parts)
        written = [p.text if isinstance(p, Literal) else p.spec for p in parts]
    value = "".join(written)
    plain = all(isinstance(p, Literal) for p in parts)
    return Message(value, merge_literals([p for p in parts if not (
        isinstance(p, Literal) and not p.text)]), value if plain else None)


def _heredoc_body(beginning: Node) -> Node | None:
    """The body of ``beginning``: after the statement holding it, in opening order."""
    statement = beginning
    while statement.next_named_sibling is None or (
            statement.next_named_sibling.type != "heredoc_body"):
        if statement.parent is None:
            return None
        statement = statement.parent
    openers = [n for n in nodes_from(statement, ()) if n.type == "heredoc_beginning"]
    bodies: list[Node] = []
    sibling: Node | None = statement.next_named_sibling
    while sibling is not None and sibling.type == "heredoc_body":
        bodies.append(sibling)
        sibling = sibling.next_named_sibling
    index = next((i for i, n in enumerate(openers) if n == beginning), None)
    return bodies[index] if index is not None and index < len(bodies) else None


def _dedented(parts: list[Part]) -> list[Part]:
    """``<<~``: the least indentation of the lines that are not blank, taken off each line
    (an interpolation at a line's start counts as text there)."""
    source = "".join(p.text if isinstance(p, Literal) else "x" for p in parts)
    lines = [line for line in source.split("\n") if line.strip()]
    indent = min((len(line) - len(line.lstrip(" \t")) for line in lines), default=0)
    if not indent:
        return parts
    out: list[Part] = []
    at_line_start = True
    for part in parts:
        if not isinstance(part, Literal):
            out.append(part)
            at_line_start = False
            continue
        pieces = part.text.split("\n")
        fixed = [piece[indent:] if (i > 0 or at_line_start) and piece[:indent].strip() == ""
                 else piece for i, piece in enumerate(pieces)]
        out.append(Literal("\n".join(fixed)))
        at_line_start = part.text.endswith("\n")
    return out


def constant_value(node: Node | None) -> Node | None:
    """The string a constant of this file holds (``LIMIT = "…".freeze``): ``LIMIT`` looked
    up in the classes and modules around the use, then the file's top level;
    ``Errors::LIMIT`` in the class or module of this file named ``Errors``."""
    if node is None or node.type not in ("constant", "scope_resolution"):
        return None
    if node.type == "constant":
        name = text(node)
        scopes = [a for a in list(ancestors(node)) if a.type in ("class", "module", "program")]
    else:
        scope, name_node = node.child_by_field_name("scope"), node.child_by_field_name("name")
        if scope is None or name_node is None:
            return None
        name, owner = text(name_node), text(scope).rsplit("::", 1)[-1]
        root = next(a for a in [node, *list(ancestors(node))] if a.parent is None)
        scopes = [n for n in nodes_from(root, ()) if n.type in ("class", "module")
                  and text(n.child_by_field_name("name")).rsplit("::", 1)[-1] == owner]
    for scope_node in scopes:
        body = scope_node if scope_node.type == "program" else scope_node.child_by_field_name(
            "body")
        for statement in body.named_children if body is not None else ():
            left, right = statement.child_by_field_name("left"), statement.child_by_field_name(
                "right")
            if statement.type != "assignment" or left is None or right is None or text(
                    left) != name:
                continue
            if right.type == "call" and text(right.child_by_field_name("method")) == "freeze":
                right = right.child_by_field_name("receiver")
            return right if right is not None and right.type == "string" else None
    return None
