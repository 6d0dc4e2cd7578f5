"""Text sites: string literals of source that no record's template holds, kept for lookup only.

errdex cannot model every way a message is built (a literal kept in a dict and looked up,
a helper several calls away). A paste that matches no record should still land on the
line whose text it contains, as a plain search would; these are those lines. They are
never records: not exported, not counted, no explanation.

A text is filed under its first ``KEY_WORDS`` normalized words (its *lead*), so a lookup
probes the leads of the message's word windows instead of scanning every text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MIN_WORDS = 3  # fewer words than this is too common to point at one line
KEY_WORDS = 3
MAX_CHARS = 300  # a text site keeps this much of a long literal

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


@dataclass(frozen=True)
class TextSite:
    """One literal's text at one line of one file."""

    file_path: str
    line_number: int
    text: str
    github_url: str | None = None


def words(value: str) -> list[str]:
    """The lowercase words of ``value`` (letters and digits; punctuation separates)."""
    return [w.lower() for w in _WORD.findall(value)]


def is_worded(value: str) -> bool:
    """Whether ``value`` has enough words, some of them with letters, to be a text site."""
    found = words(value)
    return len(found) >= MIN_WORDS and sum(any(c.isalpha() for c in w) for w in found) >= 2


def lead(value: str) -> str:
    """The key a text is filed under: its first ``KEY_WORDS`` words."""
    return " ".join(words(value)[:KEY_WORDS])


def spaced(found: list[str]) -> str:
    """Words joined for :func:`contained`, a space at each end: built once per message or
    template, then searched for every text."""
    return " " + " ".join(found) + " "


def contained(text_words: list[str], haystack: str) -> bool:
    """Whether ``text_words`` appear, in order and adjacent, in a :func:`spaced` haystack."""
    return bool(text_words) and spaced(text_words) in haystack


__all__ = ["KEY_WORDS", "MAX_CHARS", "MIN_WORDS", "TextSite", "contained", "is_worded",
           "lead", "spaced", "words"]
