"""Java string literals and text blocks: their value, from their source text.

A text block loses its incidental indentation and trailing spaces before its escapes
are decoded (``\\<newline>`` joins lines, ``\\s`` is a space), as ``javac`` does.
"""

from __future__ import annotations

import re

_JAVA_ESCAPES = {
    "b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", "s": " ",
    '"': '"', "'": "'", "\\": "\\",
}
_JAVA_ESCAPE = re.compile(r"\\(?:u+([0-9a-fA-F]{4})|([0-3][0-7]{0,2}|[4-7][0-7]?)|(\n)|(.))")


def decode_java_string(source: str) -> str | None:
    """The value of a Java string literal or text block, from its source text."""
    if source.startswith('"""'):
        return _text_block(source)
    if len(source) < 2 or not source.startswith('"') or not source.endswith('"'):
        return None
    return _java_escapes(source[1:-1])


def _java_escapes(body: str) -> str | None:
    def one(match: re.Match[str]) -> str:
        unicode, octal, newline, other = match.groups()
        if unicode:
            return chr(int(unicode, 16))
        if octal:
            return chr(int(octal, 8))
        if newline:
            return ""  # text-block line continuation
        return _JAVA_ESCAPES.get(other, "\\" + other)

    return _JAVA_ESCAPE.sub(one, body)


def _text_block(source: str) -> str | None:
    """A text block: incidental indentation and trailing spaces stripped, then escapes."""
    body = source[3:-3].replace("\r\n", "\n").replace("\r", "\n")
    head, newline, body = body.partition("\n")
    if not newline or head.strip():
        return None  # the opening delimiter must end its line
    lines = body.split("\n")
    closing_alone = not lines[-1].strip()
    significant = [ln for ln in lines if ln.strip()] + ([lines[-1]] if closing_alone else [])
    indent = min((len(ln) - len(ln.lstrip(" \t")) for ln in significant), default=0)
    stripped = [ln[indent:].rstrip(" \t") if ln.strip() else "" for ln in lines]
    return _java_escapes("\n".join(stripped))
