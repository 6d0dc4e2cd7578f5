"""``classify``'s prefilter (``needs``) only skips patterns that cannot match: the families
found are those every pattern, tried in full, finds."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from errdex.enrich.taxonomy import FAMILIES, _classified, classify, needs

# pieces of the families' own words, so that generated texts hit them often
PIECES = sorted({piece for f in FAMILIES
                 for piece in re.split(r"[\\()|?*+.\[\]^$]", f.words) if piece.strip()})
SENTENCES = [
    "index 5 out of bounds for length 3",
    "Connection refused: could not connect to the database at localhost",
    "the given shape [2, 3] does not match the expected dimension",
    "Returns the JSON element for the given member, or null if no such member exists.",
    "usage: tool --flag <value>; unknown subcommand",
    "",
]


def _full(text: str) -> list[str]:
    """Every family whose pattern, tried in full, matches (no prefilter)."""
    lowered = text.lower()
    return [f.name for f in FAMILIES if re.search(f.words, lowered)]


def test_needed_strings_are_in_every_match_of_the_sentences() -> None:
    for text in SENTENCES + PIECES:
        _classified.cache_clear()
        assert [f.name for f in classify(text)] == _full(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=6)), max_size=8))
def test_prefilter_never_changes_the_answer(parts: list[str]) -> None:
    text = " ".join(parts)
    _classified.cache_clear()
    assert [f.name for f in classify(text)] == _full(text)
    assert [f.name for f in classify(text, limit=2)] == _full(text)[:2]


def test_needs_reads_groups_branches_and_repeats() -> None:
    assert needs(r"\bsql|database") == ("sql", "database")
    assert needs(r"\b(read|write)\b.*\bfailed") == ("failed",)
    assert needs(r"(?i)abc") is None  # case-insensitive: no plain substring is needed
    assert needs(r"$^") is None
    assert needs(r"x?") is None
