"""Kotlin strings: string templates (``$x``, ``${expr}``) and the text functions run on them
(``trimIndent``, ``trimMargin``), as the stdlib does."""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from errdex.languages._engine import Message
from errdex.languages._engine.strings import Escapes, unescape
from errdex.languages.base import text
from errdex.templates.template import Hole, Literal, Part, merge_literals

_ESCAPES = Escapes(
    simple={"t": "\t", "b": "\b", "n": "\n", "r": "\r", "'": "'", '"': '"', "\\": "\\", "$": "$"},
    exact_hex=True, braced=False, short_unicode=True, continuations="",
)
_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{4}|.)", re.S)


def kotlin_string(node: Node) -> Message:
    """A string template: literal text decoded, ``$x`` and ``${expr}`` holes (a raw
    string's line break in a file saved with CRLF is one ``\n``, as the compiler reads
    the file and as it is pasted)."""
    source = text(node)
    raw = source.startswith('"""')
    written = source[3:-3].replace("\r\n", "\n") if raw else source[1:-1]
    parts: list[Part] = []
    for child in node.named_children:
        if child.type == "string_content":
            parts.append(Literal(text(child).replace("\r\n", "\n") if raw
                                 else _unescape(text(child))))
        elif child.type == "interpolated_identifier":
            parts.append(Hole.of(text(child), "$" + text(child)))
        elif child.type == "interpolated_expression":
            parts.append(_interpolation(child))
    merged = merge_literals(parts)
    if all(isinstance(p, Literal) for p in merged):
        value = "".join(p.text for p in merged if isinstance(p, Literal))
        return Message(value if not raw else written, merged, value)
    return Message(written, merged)


def _interpolation(node: Node) -> Part:
    """``${expr}``; ``${'$'}`` and ``${"text"}`` are literal text."""
    expression = node.named_children[0] if node.named_child_count == 1 else None
    if expression is not None and expression.type == "character_literal":
        return Literal(_unescape(text(expression)[1:-1]))
    if expression is not None and expression.type == "string_literal":
        message = kotlin_string(expression)
        if message.literal is not None:
            return Literal(message.literal)
    name = text(node.named_children[0]) if node.named_child_count else ""
    return Hole.of(name, "${" + name + "}")


def _unescape(value: str) -> str:
    """Kotlin escapes: ``\\n \\t \\$ \\uXXXX`` …; one Kotlin lacks stays as written."""
    return _ESCAPE.sub(lambda match: unescape(match.group(), _ESCAPES) or "", value)


_MARK = 0xE000  # private-use characters stand for holes while text functions run


def map_text(message: Message, function: Callable[[str], str]) -> Message:
    """Apply a text function (``trimIndent``) to a message whose holes are single marks.

    A hole counts as one non-blank character, which is what it is unless its value
    spans lines. The written form is trimmed too: placeholders are non-blank text.
    """
    holes = [p for p in message.parts if isinstance(p, Hole)]
    marked = "".join(
        p.text if isinstance(p, Literal) else chr(_MARK + holes.index(p)) for p in message.parts
    )
    parts: list[Part] = []
    for ch in function(marked):
        index = ord(ch) - _MARK
        parts.append(holes[index] if 0 <= index < len(holes) else Literal(ch))
    literal = function(message.literal) if message.literal is not None else None
    return Message(function(message.written), merge_literals(parts), literal)


def trim_indent(value: str) -> str:
    """Kotlin ``String.trimIndent()``."""
    lines = value.split("\n")
    widths = [len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()]
    indent = min(widths, default=0)
    return _reindent(lines, lambda ln: ln[indent:])


def trim_margin(value: str, prefix: str = "|") -> str:
    """Kotlin ``String.trimMargin(prefix)``: lines without the margin are kept as they are."""
    def cut(line: str) -> str:
        stripped = line.lstrip()
        return stripped[len(prefix):] if stripped.startswith(prefix) and stripped else line

    return _reindent(value.split("\n"), cut)


def _reindent(lines: list[str], cut: Callable[[str], str]) -> str:
    last = len(lines) - 1
    kept = [
        cut(line) for i, line in enumerate(lines) if not ((i in (0, last)) and not line.strip())
    ]
    return "\n".join(kept)
