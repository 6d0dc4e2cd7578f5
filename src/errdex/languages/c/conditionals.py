"""Conditional compilation inside an expression, read as its first branch.

``if (archive_entry_pathname(entry) == NULL`` / ``#if defined(_WIN32)`` / ``&&
archive_entry_pathname_w(entry) == NULL`` / ``#endif`` / ``) {``: tree-sitter reads
directives only between statements, so one inside parentheses leaves the whole function one
parse error, and every error site in it unread (``family.unsure``). Such directives are
blanked to spaces (the lines and bytes stay where they were), and an ``#elif``/``#else``
branch inside parentheses with them, so the expression reads as the first branch's: a site
of the other branch is seldom in a condition. Directives between statements are the
grammar's, untouched.
"""

from __future__ import annotations

import re

# what the scan steps over: strings, characters, comments, directives (with continuation
# lines), and the parentheses it counts
_TOKEN = re.compile(rb'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|//[^\n]*|/\*.*?\*/'
                    rb"|^[ \t]*#(?:[^\n\\]|\\.)*|[()]", re.DOTALL | re.MULTILINE)
_WORD = re.compile(rb"[ \t]*#[ \t]*(\w+)")
_OPENS = (b"if", b"ifdef", b"ifndef")


def unconditioned(source: bytes) -> bytes | None:
    """The source with conditional directives inside parentheses blanked (module
    docstring), or None when it has none."""
    if b"#" not in source:
        return None
    out = bytearray(source)
    depth = 0
    frames: list[bool] = []  # per open conditional: whether it opened inside parentheses
    skipping = 0  # conditionals open in a blanked branch, its own included
    skip_from = 0
    for match in _TOKEN.finditer(source):
        token = match.group(0)
        if token in (b"(", b")"):
            depth = depth if skipping else max(0, depth + (1 if token == b"(" else -1))
            continue
        word = _WORD.match(token)
        if word is None or token[:2] in (b"//", b"/*"):
            continue  # a string, a character, a comment
        name = word.group(1)
        if skipping:
            skipping += 1 if name in _OPENS else -1 if name == b"endif" else 0
            if not skipping:  # the blanked branch's own ``#endif``
                frames.pop()
                _blank(out, skip_from, match.end())
            continue
        if name in _OPENS:
            frames.append(depth > 0)
            blank = depth > 0
        elif name == b"endif":
            blank = frames.pop() if frames else False
        elif name in (b"elif", b"else", b"elifdef", b"elifndef"):
            blank = bool(frames and frames[-1])
            skipping, skip_from = (1, match.start()) if blank else (0, 0)
        else:
            continue
        if blank:
            _blank(out, match.start(), match.end())
    return bytes(out) if out != source else None


def _blank(out: bytearray, start: int, end: int) -> None:
    """Spaces for a line's text (its newline, and a continuation's, kept)."""
    for i in range(start, end):
        if out[i] not in (0x0A, 0x0D):
            out[i] = 0x20
