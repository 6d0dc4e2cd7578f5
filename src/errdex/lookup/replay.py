"""A scan's whole-lookup cache: the ranking of one log line replayed for the next line of
the same shape, so most lines of a log cost a regex pass and one or two pattern checks.

A line's *shape* keeps every word the index holds (which decides the probe's candidates,
``prefilter``), every word with a capital letter (class names, codes such as ``ENOENT`` or
``ERR_X``), every word of letters alone and all punctuation; it masks the values: numbers
(by their length), hex ids and identifiers with digits or underscores (by their kind).

The first line of a shape is ranked as ever (``Index.rank_event``) and traced. Its ranking
is kept only when nothing in it depends on the masked values but the hole values: every
record found fullmatched the message itself (not a wrapped part, whose text the reason
quotes), no approximate or class search ran, the paste named no code and no package or
program. A later line of the shape is checked again against every candidate the first
one was checked against (compiled fullmatch): the same ones must match, and the records
are then the first line's, with this line's hole values. Any difference, and the line is
ranked as ever. tests/test_scan_cache.py compares cached and uncached scans line by line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from errdex.lookup.ranking import Ranked
from errdex.lookup.variants import _lost_period
from errdex.templates.matching import verify

__all__ = ["Replays", "Trace", "check"]

_TOKEN = re.compile(r"[A-Za-z0-9_]+")
_HEX = re.compile(r"(?:0x)?[0-9a-f]+")
_MAX_SHAPES = 100_000  # shapes remembered (a few hundred bytes each), then starts over
_MAX_DIGITS = 12  # a longer number is masked as one this long
# Thresholds on a message's length that ``Index._full_matches`` decides by (a bare template
# against a longer message, a one-word one, a sentence that lost its final period).
_LENGTHS = (15, 40, 1_000)
Groups = tuple[str | None, ...]
Verifier = Callable[[str, str, list[bytes]], Groups | None]  # ``templates.matching.verify``


def check(pattern: str, message: str, encoded: list[bytes], period: bool,
          with_period: list[bytes], verifier: Verifier = verify) -> Groups | None:
    """The hole values if ``message`` fullmatches ``pattern`` (read with a final period when
    it lost one, ``period``, and the template ends in one), else None."""
    groups = verifier(pattern, message, encoded)
    if groups is None and period and pattern.endswith("\\."):
        groups = verifier(pattern, message + ".", with_period)
    return groups


@dataclass
class Trace:
    """What one ranking depended on, gathered while it ran (``Index.rank_event``)."""

    # (pattern id, pattern, matched) of every candidate checked against the message itself
    checked: list[tuple[int, str, bool]] = field(default_factory=list)
    origin: dict[str, tuple[int, int]] = field(default_factory=dict)  # record → (pid, reading)
    literal: dict[str, int] = field(default_factory=dict)  # record → its template's literal
    searched: bool = False  # the approximate or class search ran: the text decided
    plain: bool = True  # no code, no package or program read from the text
    scored: set[str] = field(default_factory=set)  # the records the full matches found


@dataclass(frozen=True)
class _Replay:
    ranked: tuple[Ranked, ...]
    pids: tuple[int, ...]  # each ranked record's pattern (a template's line: negative)
    checked: tuple[tuple[int, str, bool], ...]
    longest: int  # a longer message would make the full matches weak (``retrieval.weak``)


class Replays:
    """Rankings by line shape, replayed when a line of that shape checks the same."""

    def __init__(self, vocabulary: frozenset[str]):
        self._vocabulary = vocabulary
        self._kept: dict[tuple[object, ...], _Replay | None] = {}
        self.hits = 0
        self.misses = 0

    def key(self, message: str, extra: tuple[object, ...]) -> tuple[object, ...]:
        """The shape of a line: its masked message, the lengths it is judged by, and what
        else the ranking reads (``extra``: class, kind, frames, top, repository)."""
        vocabulary = self._vocabulary

        def mask(match: re.Match[str]) -> str:
            word = match.group()
            if word in vocabulary or word.isalpha() or word != word.lower():
                return word  # a word of the index, of letters alone, with a capital
            if word.isdigit():
                return "\x00" + "0" * min(len(word), _MAX_DIGITS)
            kind = "x" if _HEX.fullmatch(word) else "_" if "_" in word else "a"
            return f"\x01{kind}{'0' if word[0].isdigit() else ''}{'_' if word[-1] == '_' else ''}"

        size = len(message)
        return (_TOKEN.sub(mask, message), *(size > n for n in _LENGTHS), *extra)

    def replay(self, key: tuple[object, ...], message: str) -> list[Ranked] | None:
        """The kept ranking of ``key`` with this message's hole values, if the message
        checks as the first one of its shape did; else None (rank it as ever)."""
        kept = self._kept.get(key)
        if kept is None or len(message) > kept.longest:
            self.misses += 1
            return None
        encoded: list[bytes] = []
        with_period: list[bytes] = []
        period = _lost_period(message)
        groups: dict[int, Groups] = {}
        for pid, pattern, matched in kept.checked:
            found = check(pattern, message, encoded, period, with_period)
            if (found is not None) != matched:
                self.misses += 1
                return None
            if found is not None:
                groups[pid] = found
        self.hits += 1
        return [Ranked(r.id, r.score, r.reason, groups.get(pid, ()) if pid >= 0 else (),
                       r.approximate) for r, pid in zip(kept.ranked, kept.pids, strict=True)]

    def keep(self, key: tuple[object, ...], ranked: list[Ranked], trace: Trace,
             wrapper: int) -> None:
        """Remember a ranking for its shape, when nothing but hole values depended on the
        text (see the module's docstring); else remember that it may not be replayed."""
        if len(self._kept) >= _MAX_SHAPES:
            self._kept.clear()
        origin, scored = trace.origin, trace.scored
        replayable = (not trace.searched and trace.plain and bool(scored) and all(
            origin.get(rid, (0, 1))[1] == 0 for rid in scored | {r.id for r in ranked}))
        longest = max((3 * trace.literal[rid] for rid in scored
                       if trace.literal.get(rid, 0) >= wrapper), default=-1)
        if not replayable or longest < 0:  # a replayable ranking of the shape stays
            self._kept.setdefault(key, None)
            return
        self._kept[key] = _Replay(tuple(ranked), tuple(origin[r.id][0] for r in ranked),
                                  tuple(trace.checked), longest)

