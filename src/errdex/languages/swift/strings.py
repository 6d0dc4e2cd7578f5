"""Swift string literals → message parts: what a literal prints, and how it is written.

``"…"`` and ``\"\"\"…\"\"\"`` literals decode escapes and turn ``\\(expr)`` into holes named
after the expression (os.Logger's ``\\(x, privacy: .public)`` too); multi-line literals
lose the closing delimiter's indentation and a backslash-newline continues the line;
raw ``#"…"#`` literals keep backslashes and interpolate ``\\#(expr)``.
Kept apart from ``swift.py`` so that each module stays one job.
"""

from __future__ import annotations

from tree_sitter import Node

from errdex.languages._engine.message import Message as Message
from errdex.languages._engine.strings import C_ESCAPES, Escapes, unescape
from errdex.languages.base import text
from errdex.templates.template import Hole, Literal, Part, merge_literals

_ESCAPES = Escapes(C_ESCAPES)


def string(node: Node) -> Message:
    """A ``"…"`` or ``\"\"\"…\"\"\"`` literal: text, escapes and ``\\(expr)`` holes."""
    pieces: list[tuple[str, str]] = []  # (kind, value): text / escape / hole
    pending = False
    for index, child in enumerate(node.children):
        fieldname = node.field_name_for_child(index)
        if child.type == "\\(":
            pending = True
        elif fieldname == "interpolation" and pending:
            value = child.child_by_field_name("value")
            pieces.append(("hole", text(value) if value is not None else text(child)))
            pending = False
        elif fieldname == "text":
            kind = "escape" if child.type == "str_escaped_char" else "text"
            pieces.append((kind, text(child)))
    if node.type == "multi_line_string_literal":
        closing = node.children[-1]
        pieces = _dedent(pieces, closing.start_point[1])
    return _assemble(pieces)


def raw_string(node: Node) -> Message | None:
    """``#"…\\#(x)…"#``: no escapes; the interpolation needs as many ``#`` as the quotes."""
    source = text(node)
    hashes = len(source) - len(source.lstrip("#"))
    if source[hashes:].startswith('"""'):
        return None
    pieces: list[tuple[str, str]] = []
    for child in node.named_children:
        if child.type == "raw_str_interpolation":
            inner = child.child_by_field_name("interpolation")
            value = inner.child_by_field_name("value") if inner is not None else None
            pieces.append(("hole", text(value) if value is not None else text(child)))
        else:
            pieces.append(("text", text(child)))
    if not pieces or pieces[0][0] != "text":
        return None
    opening, closing = "#" * hashes + '"', '"' + "#" * hashes
    pieces[0] = ("text", pieces[0][1].removeprefix(opening))
    if pieces[-1][0] == "text":
        pieces[-1] = ("text", pieces[-1][1].removesuffix(closing))
    return _assemble(pieces, "\\" + "#" * hashes + "(")


def _assemble(pieces: list[tuple[str, str]], opener: str = "\\(") -> Message:
    """Pieces → message; holes are written ``\\(expr)`` (``\\#(expr)`` in raw literals)."""
    parts: list[Part] = []
    for kind, value in pieces:
        if kind == "hole":
            parts.append(Hole.of(value, opener + value + ")"))
        else:
            parts.append(Literal(_unescape(value) if kind == "escape" else value))
    merged = merge_literals(parts)
    written = "".join(p.text if isinstance(p, Literal) else p.spec for p in merged)
    plain = all(isinstance(p, Literal) for p in merged)
    return Message(written, merged, written if plain else None)


def _dedent(pieces: list[tuple[str, str]], indent: int) -> list[tuple[str, str]]:
    """Multi-line literal: drop the newline after the opening quotes and the one before
    the closing quotes, and the closing quotes' indentation from every line."""
    out: list[tuple[str, str]] = []
    at_line_start = False
    last = len(pieces) - 1
    for index, (kind, value) in enumerate(pieces):
        if kind == "text":
            if index == 0:
                value = value.removeprefix("\r").removeprefix("\n")
                at_line_start = True
            if index == last:
                value = value.rstrip(" \t").removesuffix("\n").removesuffix("\r")
            value = "\n".join(
                line[min(indent, len(line) - len(line.lstrip(" \t"))):]
                if (i > 0 or at_line_start) else line
                for i, line in enumerate(value.split("\n"))
            )
        out.append((kind, value))
        at_line_start = kind != "hole" and value.endswith("\n")
    return out


def _unescape(sequence: str) -> str:
    """One escape: ``\\n``, ``\\u{e9}``; a backslash before a newline continues the line."""
    return unescape(sequence, _ESCAPES) or ""
