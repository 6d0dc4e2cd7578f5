"""PHP string literals → message parts: what a literal prints, and how it is written.

Single-quoted strings know two escapes; double-quoted strings and heredocs decode
escapes and turn ``$var``/``{$expr}``/``${name}`` into holes named after the
expression; heredocs and nowdocs lose the closing marker's indentation (PHP 7.3+).
Kept apart from ``php.py`` so that each module stays one job.
"""

from __future__ import annotations

from tree_sitter import Node

from errdex.languages._engine.message import Message as Message
from errdex.languages._engine.strings import Escapes, unescape
from errdex.languages.base import text
from errdex.templates.template import Hole, Literal, Part, merge_literals

_ESCAPES = Escapes(
    {
        "n": "\n", "t": "\t", "r": "\r", "v": "\v", "e": "\x1b", "f": "\f",
        "\\": "\\", "$": "$", '"': '"',
    },
    continuations="", long_hex=True, octal=True, octal_mask=0xFF,
)


def plain(node: Node) -> Message:
    """A single-quoted string: only ``\\'`` and ``\\\\`` are escapes."""
    value = "".join(
        text(c)[1:] if c.type == "escape_sequence" else text(c)
        for c in node.named_children
    )
    return Message(value, (Literal(value),), value)


def nowdoc(node: Node) -> Message | None:
    body = node.child_by_field_name("value")
    end = node.child_by_field_name("end_tag")
    if body is None or end is None:
        return None
    raw = _gap(node, _opening_end(node), end.start_byte)
    value = _dedent_text(raw, end.start_point[1])
    return Message(value, (Literal(value),), value)


def interpolated(node: Node) -> Message | None:
    """A double-quoted string or heredoc: text, escapes and ``$x`` / ``{$expr}`` holes."""
    body = node.child_by_field_name("value") if node.type == "heredoc" else node
    if body is None:
        return None
    pieces: list[Part] = []
    pos = _opening_end(node) if node.type == "heredoc" else node.children[0].end_byte
    for child in body.children:
        if child.start_byte > pos:  # heredoc text between nodes (its newlines)
            pieces.append(Literal(_gap(node, pos, child.start_byte)))
        pos = child.end_byte
        if child.type in ('"', "{", "}"):
            continue
        if child.type == "string_content":
            pieces.append(Literal(text(child)))
        elif child.type == "escape_sequence":
            pieces.append(Literal(_unescape(text(child))))
        else:
            name = _hole_name(child)
            pieces.append(Hole.of(name, _written_hole(child)))
    if node.type == "heredoc":
        end = node.child_by_field_name("end_tag")
        if end is None:
            return None
        pieces.append(Literal(_gap(node, pos, end.start_byte)))
        pieces = _dedent(list(merge_literals(pieces)), end.start_point[1])
    parts = merge_literals(pieces)
    written = "".join(p.text if isinstance(p, Literal) else p.spec for p in parts)
    plain = all(isinstance(p, Literal) for p in parts)
    return Message(written, parts, written if plain else None)


def _opening_end(node: Node) -> int:
    """End of a heredoc's ``<<<TAG`` line (the body starts on the next line)."""
    start = node.child_by_field_name("identifier")
    last = start if start is not None else node.children[0]
    after = last.next_sibling
    if after is not None and after.type == "'":
        last = after
    return last.end_byte


def _gap(node: Node, start: int, end: int) -> str:
    source = node.text or b""
    return source[start - node.start_byte : end - node.start_byte].decode(
        "utf-8", errors="replace"
    )


def _dedent(pieces: list[Part], indent: int) -> list[Part]:
    """Heredoc text: drop the newline after the opening line and before the closing
    marker, and the closing marker's indentation from the start of every line."""
    out: list[Part] = []
    at_line_start = False
    for index, piece in enumerate(pieces):
        if not isinstance(piece, Literal):
            out.append(piece)
            at_line_start = False
            continue
        value = piece.text
        if index == 0:
            value = value.removeprefix("\r").removeprefix("\n")
            at_line_start = True
        if index == len(pieces) - 1:
            value = value.rstrip(" \t")
            value = value.removesuffix("\n").removesuffix("\r")
        out.append(Literal(_dedent_lines(value, indent, at_line_start)))
        at_line_start = value.endswith("\n")
    return out


def _dedent_text(raw: str, indent: int) -> str:
    parts = _dedent([Literal(raw)], indent)
    return parts[0].text if parts and isinstance(parts[0], Literal) else ""


def _dedent_lines(value: str, indent: int, at_line_start: bool) -> str:
    lines = value.split("\n")
    return "\n".join(
        line[min(indent, len(line) - len(line.lstrip(" \t"))):]
        if (i > 0 or at_line_start) else line
        for i, line in enumerate(lines)
    )


def _hole_name(node: Node) -> str:
    """``$x`` → ``$x``; ``${x}`` → ``$x``; ``{$a['k']}`` → ``$a['k']``."""
    if node.type == "dynamic_variable_name":
        inner = next((c for c in node.named_children), None)
        return "$" + text(inner) if inner is not None else text(node)
    return text(node)


def _written_hole(node: Node) -> str:
    """How the hole reads in source: ``{$expr}`` keeps its braces."""
    before = node.prev_sibling
    if before is not None and before.type == "{":
        return "{" + text(node) + "}"
    return text(node)


def _unescape(sequence: str) -> str:
    """One double-quoted escape sequence's text (an octal one keeps its low byte)."""
    return unescape(sequence, _ESCAPES) or sequence
