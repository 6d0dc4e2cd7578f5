"""The word probe of a scan, cached by each message's shape to the index.

A log repeats a few messages with other values in them (ids, counts, paths, quoted
names). The probe (``Index._probe``) only ever asks whether a word is one of the
index's words (a key, a second key or a required word of some pattern); a word that
is none of these cannot change which patterns it finds. So a message's *shape* is
the set of its words that the index holds — numbers, hex ids and values in quotes
drop out on their own unless some template requires them — and two messages of one
shape get the same candidates: the probe runs once per shape, not once per line.
Each line is still verified against its candidates, so the matches (and their hole
values) are the ones the uncached lookup finds.

The records raising a verified set of patterns are cached the same way, by the
pattern ids verified. Both caches are bounded and belong to one index (one store
generation): a scan turns them on (``Index.cache_shapes``); a single lookup does not
pay for building the vocabulary.

Computing the shape is one regex pass (``findall``) and one set intersection, both
in C: an Aho-Corasick automaton over the vocabulary (pyahocorasick, ahocorasick-rs)
was measured slower for this (15-28 µs against 5-6 µs a line over 100k records),
since each of its matches must still be checked for word boundaries in Python.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence

from errdex.records.stored import CandidateRow

# (all required words present, most of them present: None when not asked for)
Probe = tuple[list[int], list[int] | None]
_MAX_SHAPES = 20_000  # shapes remembered (about 1 KB each); past this the cache starts over
_MAX_ROW_SETS = 50_000  # verified pattern sets whose rows are kept (a few rows each)
RowReader = Callable[[list[int], str | None], list[CandidateRow]]  # Store.candidate_rows


def index_words(
    by_key: Mapping[str, Sequence[int] | dict[str, Sequence[int]]],
    rest: Mapping[int, tuple[str, ...]],
) -> frozenset[str]:
    """Every word the probe can ask about: key words, second keys of split buckets and
    the other required words of every pattern."""
    words: set[str] = set(by_key)
    for entry in by_key.values():
        if isinstance(entry, dict):
            words.update(entry)
    words.update(itertools.chain.from_iterable(rest.values()))
    words.discard("")
    return frozenset(words)


def walk_bucket(bucket: Iterable[int], words: set[str], rest_of: Mapping[int, tuple[str, ...]],
                full: list[int], near: list[tuple[float, int]]) -> None:
    """The patterns of one bucket a message's ``words`` hold every required word of (added
    to ``full``), and those they hold most of (``near``: (share of words present, id))."""
    issuperset, intersection = words.issuperset, words.intersection
    for pid in bucket:
        rest = rest_of.get(pid)
        if rest is None or issuperset(rest):  # set methods: the loop runs in C
            full.append(pid)
            continue
        present = len(intersection(rest))
        # Most of the template's words must still be there: one shared word is chance.
        if 2 * (1 + present) >= 1 + len(rest):
            near.append(((1 + present) / (1 + len(rest)), pid))


class ShapeCache:
    """Probe results by message shape, and candidate rows by verified pattern ids."""

    def __init__(self, vocabulary: frozenset[str]):
        self.vocabulary = vocabulary
        self._probes: dict[frozenset[str], tuple[Probe, int]] = {}
        self._rows: dict[tuple[tuple[int, ...], str | None], list[CandidateRow]] = {}
        self.hits = 0
        self.misses = 0

    def shape(self, words: Iterable[str]) -> frozenset[str]:
        """The words of a message that the index holds: what its probe depends on."""
        return self.vocabulary.intersection(words)

    def probe(self, shape: frozenset[str], budget: int,
              close: bool = False) -> tuple[Probe, int] | None:
        """The cached probe of ``shape`` and the checks it cost, if it fits ``budget``
        (a probe cut short by its budget is never cached, so a hit is the whole probe) and
        holds the near misses when ``close`` asks for them."""
        found = self._probes.get(shape)
        if found is None or found[1] > budget or (close and found[0][1] is None):
            self.misses += 1
            return None
        self.hits += 1
        return found

    def keep_probe(self, shape: frozenset[str], result: Probe, spent: int) -> None:
        """Remember a whole probe (not one cut short by its budget)."""
        if len(self._probes) >= _MAX_SHAPES:
            self._probes.clear()
        self._probes[shape] = (result, spent)

    def rows(
        self, pids: Sequence[int], repo: str | None, read: RowReader
    ) -> list[CandidateRow]:
        """The records raising ``pids`` (of ``repo``), read once per such set."""
        key = (tuple(pids), repo)
        found = self._rows.get(key)
        if found is None:
            if len(self._rows) >= _MAX_ROW_SETS:
                self._rows.clear()
            found = self._rows[key] = read(list(pids), repo)
        return found


__all__ = ["Probe", "ShapeCache", "index_words", "walk_bucket"]
