"""Text sites: string literals of source that no record's template holds, kept for lookup only.

errdex cannot model every way a message is built (a literal kept in a dict and looked up,
a helper several calls away). A paste that matches no record should still land on the
line whose text it contains, as a plain search would; these are those lines. They are
never records: not exported, not counted, no explanation.

A text is filed under its first word windows of ``KEY_WORDS`` normalized words (its
*leads*), so a lookup probes the message's word windows instead of scanning every text,
and a paste holding only part of a literal (cut short, or reworded at its end) still
finds it, as grepping a few of its words would.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MIN_WORDS = 3  # fewer words than this is too common to point at one line
KEY_WORDS = 3
LEADS_PER_TEXT = 8  # windows a text is filed under: its first words, where pastes agree most
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


def windows(found: list[str]) -> list[str]:
    """Every run of ``KEY_WORDS`` adjacent words, in order, each once."""
    out: dict[str, None] = {}
    for start in range(max(len(found) - KEY_WORDS + 1, 0)):
        out.setdefault(" ".join(found[start:start + KEY_WORDS]), None)
    return list(out)


def leads(value: str) -> list[str]:
    """The keys a text is filed under: its first ``LEADS_PER_TEXT`` word windows, so a paste
    holding only part of it (a truncated or reworded message) still finds it, as grep does."""
    return leads_of(words(value))


def leads_of(found: list[str]) -> list[str]:
    """:func:`leads` of a text's words, read once by a caller that needs them too."""
    return windows(found)[:LEADS_PER_TEXT]


def spaced(found: list[str]) -> str:
    """Words joined for :func:`contained`, a space at each end: built once per message or
    template, then searched for every text."""
    return " " + " ".join(found) + " "


def contained(text_words: list[str], haystack: str) -> bool:
    """Whether ``text_words`` appear, in order and adjacent, in a :func:`spaced` haystack."""
    return bool(text_words) and spaced(text_words) in haystack


__all__ = ["KEY_WORDS", "LEADS_PER_TEXT", "MAX_CHARS", "MIN_WORDS", "TextSite", "contained",
           "is_worded", "lead", "leads", "leads_of", "spaced", "windows", "words"]
