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
from errdex.languages.base import text
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
