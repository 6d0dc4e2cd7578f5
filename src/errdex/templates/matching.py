"""Whether a message is one a stored pattern produces, and with which hole values.

The one check every stage uses (lookup, and enrichment verifying a model's quoted
messages): plain patterns (only ``(.+?)`` holes, the common case) by placing their
literal fragments, others on RE2 — linear in the message whatever the pattern.
A final hole may print nothing (``… by both '{}' and '{}'{}`` given an empty last
value): the message then ends where the text before that hole ends, its blanks trimmed.
"""

from __future__ import annotations

import re
from functools import lru_cache

from errdex.templates.analysis import PatternShape, shape_of
from errdex.templates.template import CompiledPattern, PatternError, compile_pattern, utf8
from errdex.templates.typed import typed_shape


@lru_cache(maxsize=8192)
def _compiled(pattern: str) -> CompiledPattern | None:
    """The pattern on RE2; None for one RE2 refuses (such a pattern never matches)."""
    try:
        return compile_pattern(pattern)
    except PatternError:
        return None


@lru_cache(maxsize=8192)
def _compiled_ascii(pattern: str) -> CompiledPattern | None:
    """The pattern on RE2 for texts that are all ASCII (most messages): the same matches
    there, compiled several times faster (``to_re2``). None where RE2 refuses it."""
    try:
        return compile_pattern(pattern, ascii_only=True)
    except PatternError:
        return None


@lru_cache(maxsize=65536)
def _shape(pattern: str) -> PatternShape:
    return shape_of(pattern)


def verify(
    pattern: str, message: str, encoded: list[bytes] | None = None
) -> tuple[str | None, ...] | None:
    """The hole values if ``message`` fullmatches ``pattern``, else None.

    Plain patterns (only ``(.+?)`` holes, the common case) are checked by placing
    their literal fragments; others run on RE2, compiled on first use — linear in
    the message whatever the pattern, so no stored pattern can backtrack.
    ``encoded`` carries the message's UTF-8 from one call to the next (the
    candidates of one message share it).
    """
    found = _trimmed(pattern, message, encoded)
    if found is None and pattern.endswith(_END_HOLE) and (end := _head(pattern)) is not None:
        head, last = end
        message = message.rstrip()
        if message.endswith(last):  # the cheap refusal, before any placing or regex
            empty = _verify(head, message, None)
            found = None if empty is None else (*empty, "")
    return found


def _trimmed(
    pattern: str, message: str, encoded: list[bytes] | None
) -> tuple[str | None, ...] | None:
    found = _verify(pattern, message, encoded)
    if (found is None and pattern.endswith(" ") and not message.endswith(" ")
            and pattern.strip(" ")):
        # A template's trailing blank (``"ERROR IN CONTACTING RM. "``): the line it printed
        # is read, or was written, trimmed.
        blanks = len(pattern) - len(pattern.rstrip(" "))
        found = _verify(pattern, message + " " * blanks, None)
    return found


_END_HOLE = "(.+?)"
# The text before an empty final hole says this many words at least: ``Error: {}`` read as
# ``Error:`` would match too much; ``Command {}: Short option names … '{}'{}`` would not.
_HEAD_WORDS = 2
_WORD = re.compile(r"[^\W_]+")
_BLANKS = (" ", "\\t", "\\n", "\\r")  # spelled as ``escape`` spells them


@lru_cache(maxsize=8192)
def _head(pattern: str) -> tuple[str, str] | None:
    """``pattern`` without its final ``(.+?)`` hole and the blanks written before it, and
    the text it ends with; None when that ``(`` is escaped, or the rest is not plain text
    and holes, or says too little. A message it matches (its final hole printing nothing)
    is read without trailing blanks: they are not that hole's value either."""
    head = pattern[: -len(_END_HOLE)]
    if _escaped(head):
        return None
    while True:
        for blank in _BLANKS:
            if not head.endswith(blank):
                continue
            cut = head[: -len(blank)]
            if _escaped(cut):
                if blank != " ":  # ``\\n``: a backslash, then the letter
                    continue
                cut = cut[:-1]  # ``\ ``: an escaped space
            head = cut
            break
        else:
            break
    shape = _shape(head)
    if shape.opaque or sum(len(_WORD.findall(f)) for f in shape.fragments) < _HEAD_WORDS:
        return None
    return head, shape.fragments[-1].rstrip()


def _escaped(text: str) -> bool:
    """Whether the character after ``text`` is escaped (an odd run of backslashes ends it)."""
    return (len(text) - len(text.rstrip("\\"))) % 2 == 1


def _verify(
    pattern: str, message: str, encoded: list[bytes] | None
) -> tuple[str | None, ...] | None:
    shape = _shape(pattern)
    if shape.plain:
        return shape.match(message)
    typed = typed_shape(pattern)  # integer holes: placed without compiling, when it can say
    if typed is not None:
        sure, found = typed.match(message)
        if sure:
            return found
    regex = _compiled_ascii(pattern) if message.isascii() else _compiled(pattern)
    if regex is None:
        return None
    if encoded is None:
        encoded = []
    if not encoded:
        encoded.append(utf8(message))
    match = regex.fullmatch(encoded[0])
    return match.groups() if match else None


__all__ = ["verify"]
