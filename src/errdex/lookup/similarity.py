"""How alike a template's literal text and a pasted message are, bounded for any input.

Approximate matches (a reworded message) are scored here: RapidFuzz's Indel ratio, like
difflib's but compiled and linear in memory, on texts cut to ``FUZZY_CHARS``.
"""

from __future__ import annotations

from functools import lru_cache

from rapidfuzz.distance import Indel

from errdex.templates.analysis import shape_of

APPROXIMATE_MIN_RATIO = 0.6
# Similarity is scored on at most this many characters of each text: a template
# reworded is short, and the score's cost grows with the product of the lengths.
FUZZY_CHARS = 4_000


def similarity(template_text: str, message: str) -> float:
    """How alike a template's literal text and a message are, 0 to 1 (Indel, like difflib's
    ratio: twice the common subsequence over the total length).

    Both are cut to ``FUZZY_CHARS`` first, and texts whose lengths alone rule out
    ``APPROXIMATE_MIN_RATIO`` are not compared at all.
    """
    short, long = sorted((len(template_text), len(message)))
    if not long or 2 * short / (short + long) < APPROXIMATE_MIN_RATIO:
        return 0.0
    return float(Indel.normalized_similarity(
        template_text[:FUZZY_CHARS], message[:FUZZY_CHARS],
        score_cutoff=APPROXIMATE_MIN_RATIO,
    ))


@lru_cache(maxsize=4096)
def literal_text(pattern: str) -> str:
    """``literal_of``, remembered: the same candidate patterns come back query after query."""
    return literal_of(pattern)


def literal_of(pattern: str) -> str:
    """A pattern's literal text, its fragments joined by a space."""
    return " ".join(f for f in shape_of(pattern).fragments if f)
