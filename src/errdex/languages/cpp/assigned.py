"""Assign-or-return macros read as the declarations they expand to.

``ARROW_ASSIGN_OR_RAISE(const auto unit, GetMemberString(obj, "unit"));`` declares ``unit``
from a result, or returns its error (Arrow's ``*_ASSIGN_OR_RAISE``, Abseil-style
``ASSIGN_OR_RETURN``). tree-sitter reads a declaration as no call argument: the statement
is a parse error that swallows the lines after it, up to the function's end, and every
error site there goes unread (``family.unsure``). Such a statement is rewritten as what it
stands for, ``const auto unit= GetMemberString(obj, "unit") ;``, on the same lines and
bytes: the name and its parenthesis blanked, the comma that ends the declaration an ``=``,
the closing parenthesis a space.
"""

from __future__ import annotations

import re

# a statement opening with the macro: at the start of a line, or after ``{``/``;``/``)``
_OPENER = re.compile(rb"(?:^|(?<=[{};)]))[ \t]*([A-Z][A-Z0-9_]*ASSIGN_OR_[A-Z0-9_]*)[ \t]*\(",
                     re.MULTILINE)
# what the scan steps over (strings, characters, comments) and the brackets it counts
_TOKEN = re.compile(rb'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|//[^\n]*|/\*.*?\*/|[(),]',
                    re.DOTALL)


def assigned(source: bytes) -> bytes | None:
    """The source with each assign-or-return statement written as its declaration (module
    docstring), or None when it has none."""
    if b"ASSIGN_OR_" not in source:
        return None
    out = bytearray(source)
    for match in _OPENER.finditer(source):
        found = _split(source, match.end())
        if found is None:
            continue
        comma, close = found
        if b"\\\n" in source[match.start():close]:
            continue  # a macro's own definition: not a statement of the file
        start, open_ = match.start(1), match.end() - 1
        out[start:open_ + 1] = b" " * (open_ + 1 - start)
        out[comma] = ord("=")
        out[close] = ord(" ")
    return bytes(out) if out != source else None


def _split(source: bytes, at: int) -> tuple[int, int] | None:
    """The top-level comma ending the macro's first argument and its closing parenthesis
    (``at`` just past the opening one); None when there are not two arguments followed
    by ``;``."""
    depth, comma = 0, -1
    for token in _TOKEN.finditer(source, at):
        word = token.group(0)
        if word == b"(":
            depth += 1
        elif word == b")":
            if depth == 0:
                close = token.start()
                after = source[close + 1:close + 40].lstrip()
                ok = comma > at and bool(source[at:comma].strip()) and after.startswith(b";")
                return (comma, close) if ok else None
            depth -= 1
        elif word == b"," and depth == 0:
            if comma >= 0:
                return None  # a third argument: not the two-argument form
            comma = token.start()
    return None
