"""Whether a message is one a stored pattern produces, and with which hole values.

The one check every stage uses (lookup, and enrichment verifying a model's quoted
messages): plain patterns (only ``(.+?)`` holes, the common case) by placing their
literal fragments, others on RE2 — linear in the message whatever the pattern.
"""

from __future__ import annotations

from functools import lru_cache

from errdex.templates.analysis import PatternShape, shape_of
from errdex.templates.template import CompiledPattern, PatternError, compile_pattern, utf8


@lru_cache(maxsize=8192)
def _compiled(pattern: str) -> CompiledPattern | None:
    """The pattern on RE2; None for one RE2 refuses (such a pattern never matches)."""
    try:
        return compile_pattern(pattern)
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
    found = _verify(pattern, message, encoded)
    if (found is None and pattern.endswith(" ") and not message.endswith(" ")
            and pattern.strip(" ")):
        # A template's trailing blank (``"ERROR IN CONTACTING RM. "``): the line it printed
        # is read, or was written, trimmed.
        blanks = len(pattern) - len(pattern.rstrip(" "))
        found = _verify(pattern, message + " " * blanks, None)
    return found


def _verify(
    pattern: str, message: str, encoded: list[bytes] | None
) -> tuple[str | None, ...] | None:
    shape = _shape(pattern)
    if shape.plain:
        return shape.match(message)
    regex = _compiled(pattern)
    if regex is None:
        return None
    if encoded is None:
        encoded = []
    if not encoded:
        encoded.append(utf8(message))
    match = regex.fullmatch(encoded[0])
    return match.groups() if match else None


__all__ = ["verify"]
