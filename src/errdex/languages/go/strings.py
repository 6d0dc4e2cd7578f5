"""Go string literals: interpreted strings with their escapes decoded, raw strings as written.

Go escapes are bytes (``\\xhh`` and ``\\ooo`` are single bytes, ``\\u`` a code point in
UTF-8), so a literal is decoded to bytes first and read as UTF-8 at the end.
"""

from __future__ import annotations

from tree_sitter import Node

from errdex.languages.base import text

STRING_TYPES = ("interpreted_string_literal", "raw_string_literal")
_SIMPLE_ESCAPES = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11,
                   "\\": 92, "'": 39, '"': 34}


def string_value(node: Node) -> str | None:
    """The value of a Go string literal (escapes decoded; raw strings lose ``\\r``)."""
    if node.type == "raw_string_literal":
        return text(node)[1:-1].replace("\r", "")
    if node.type != "interpreted_string_literal":
        return None
    out = bytearray()
    for child in node.named_children:
        if child.type == "escape_sequence":
            out += _unescape(text(child))
        else:
            out += (child.text or b"")
    return out.decode("utf-8", errors="replace")


def _unescape(sequence: str) -> bytes:
    """One escape's bytes: ``\\xhh`` and ``\\ooo`` are single bytes, ``\\u`` a code point."""
    body = sequence[1:]
    try:
        if body in _SIMPLE_ESCAPES:
            return bytes([_SIMPLE_ESCAPES[body]])
        if body[:1] == "x":
            return bytes([int(body[1:3], 16)])
        if body[:1] in "uU":
            return chr(int(body[1:], 16)).encode("utf-8", errors="replace")
        if body[:1].isdigit():
            return bytes([int(body[:3], 8) & 0xFF])
    except ValueError:
        pass
    return sequence.encode("utf-8")  # not valid Go; keep as written
