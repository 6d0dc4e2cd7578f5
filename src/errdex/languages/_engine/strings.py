"""String decoders shared by the C-like grammars: one escape sequence, one literal's pieces.

Each grammar says which single-character escapes it has and how it spells a code point
(``\\xHH``, ``\\uHHHH``, ``\\u{H…}``); the decoding is one function. A literal's text is
read from between its delimiters, its ``escape_sequence`` children decoded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from tree_sitter import Node

from errdex.languages.base import text

# The escapes every C-like language shares; a grammar's table adds to these.
C_ESCAPES: Mapping[str, str] = {
    "n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "0": "\0",
}


@dataclass(frozen=True)
class Escapes:
    """How one grammar spells escapes.

    ``simple``: ``\\n`` and friends. ``exact_hex``: ``\\x`` needs exactly two digits
    (otherwise the next two characters are read, the lexer having checked them).
    ``braced``: ``\\u{1F600}``, ``underscores`` if it may hold ``_``.
    ``short_unicode``: ``\\uHHHH``. ``unknown``: what an escape the table lacks
    becomes: ``"body"`` (the character after the backslash, JavaScript's identity
    escape) or ``"sequence"`` (kept as written). ``continuations``: the characters
    after a backslash that continue the line. ``long_hex``: ``\\x`` takes every digit
    the lexer gave it (C, C#, PHP). ``long_unicode``: ``\\uHHHH`` and ``\\UHHHHHHHH``
    take every digit given (C, C#). ``octal``: ``\\0``..``\\777``, ``octal_mask`` keeping
    what the language keeps of the value (PHP: one byte).
    """

    simple: Mapping[str, str]
    exact_hex: bool = False
    braced: bool = True
    underscores: bool = False
    short_unicode: bool = False
    unknown: str = "sequence"
    continuations: str = "\r\n"
    long_hex: bool = False
    long_unicode: bool = False
    octal: bool = False
    octal_mask: int = 0x1FFFFF


def unescape(sequence: str, escapes: Escapes) -> str | None:
    """One escape sequence's text; None for a backslash-newline (a line continuation)."""
    body = sequence[1:]
    if not body or body[0] in escapes.continuations:
        return None
    if body in escapes.simple:
        return escapes.simple[body]
    try:
        if body[0] == "x" and escapes.long_hex:
            return chr(int(body[1:], 16))
        if body[0] == "x" and (not escapes.exact_hex or len(body) == 3):
            return chr(int(body[1:3], 16))
        if escapes.braced and body.startswith("u{"):
            digits = body[2:-1].replace("_", "") if escapes.underscores else body[2:-1]
            return chr(int(digits, 16))
        if escapes.short_unicode and body[0] == "u" and len(body) == 5:
            return chr(int(body[1:], 16))
        if escapes.long_unicode and body[0] in "uU":
            return chr(int(body[1:], 16))
        if escapes.octal and all(c in "01234567" for c in body):
            return chr(int(body, 8) & escapes.octal_mask)
    except (ValueError, OverflowError):
        return sequence
    return body if escapes.unknown == "body" else sequence


def raw_text(node: Node, start: int, end: int) -> str:
    """The source between two byte offsets inside ``node``, CRLF read as LF."""
    chunk = (node.text or b"")[start - node.start_byte : end - node.start_byte]
    return chunk.decode("utf-8", errors="replace").replace("\r\n", "\n")


def literal_pieces(
    node: Node, decode: Callable[[str], str | None], holes: frozenset[str] = frozenset()
) -> Iterator[tuple[str, Node | None]]:
    """Decoded text between a literal's delimiters, up to each child whose type is in
    ``holes`` (an interpolation), then that child; the last piece comes with None.

    Escape sequences go through ``decode`` (None: a continuation, printing nothing);
    other children are kept as written.
    """
    start = node.children[0].end_byte if node.children else node.start_byte
    end = node.children[-1].start_byte if len(node.children) > 1 else node.end_byte
    pos = start
    out: list[str] = []
    for child in node.children[1:-1]:
        out.append(raw_text(node, pos, child.start_byte))
        pos = child.end_byte
        if child.type == "escape_sequence":
            out.append(decode(text(child)) or "")
        elif child.type in holes:
            yield "".join(out), child
            out = []
        else:
            out.append(text(child))
    out.append(raw_text(node, pos, end))
    yield "".join(out), None
