"""Kotlin class headers whose primary constructor starts a line, made readable to the grammar.

``class Pool<T>\\nactual constructor(capacity: Int) : ObjectPool<T> {`` (or ``@Inject
constructor``, ``internal constructor``, after multi-line type parameters) is valid
Kotlin the tree-sitter grammar cannot parse: the whole class lands in an error node and
none of its sites is read. The line break is moved from before the constructor to just
after its ``(``, so every line keeps its number (the parameters and everything after them
stay where they were; only the modifiers and ``constructor(`` move up a line).
"""

from __future__ import annotations

import re

# A line holding only modifiers or annotations, then ``constructor(``.
_CONSTRUCTOR_LINE = re.compile(
    rb"\n(?P<start>[ \t]*(?:(?:@[\w.]+(?:\([^()\n]*\))?|public|private|protected|internal|"
    rb"actual|expect)[ \t]+)*constructor[ \t]*\()"
)
_CLASS_HEADER = re.compile(rb"(?:^|[\s(])(?:class|object)[ \t]+[\w`]+")


def split_header(source: bytes) -> bytes:
    """``source`` with each primary constructor that starts a line joined to its class
    header (the same object when there is none)."""
    if b"constructor" not in source:
        return source
    out: list[bytes] = []
    done = 0
    for match in _CONSTRUCTOR_LINE.finditer(source):
        head = source[source.rfind(b"\n", 0, match.start()) + 1 : match.start()]
        if not _ends_a_header(head):
            continue
        out += [source[done : match.start()], b" ", match.group("start"), b"\n"]
        done = match.end()
    if not out:
        return source
    out.append(source[done:])
    return b"".join(out)


def _ends_a_header(line: bytes) -> bool:
    """The line before: a class header not yet opened (``class Pool<T>``) or the ``>``
    closing its type parameters."""
    stripped = line.strip()
    if stripped == b">":
        return True
    return (_CLASS_HEADER.search(line) is not None and b"{" not in line
            and not stripped.endswith((b",", b"(", b"=")))
