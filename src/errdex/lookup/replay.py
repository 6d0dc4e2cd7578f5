"""A scan's whole-lookup cache: the ranking of one log line replayed for later lines of the
same shape, so most lines of a log cost a regex pass and a few pattern checks.

A line's *shape* keeps every word the index holds (which decides the probe's candidates,
``prefilter``), every word with a capital letter (class names, codes such as ``ENOENT`` or
``ERR_X``), every word of letters alone and all punctuation; it masks the values: numbers
(by their length), hex ids and identifiers with digits or underscores (by their kind).

The first line of a shape is ranked as ever (``Index.rank_event``) and traced. Its ranking
is kept only when nothing in it depends on the text but the hole values: every record
listed fullmatched the message itself (not a wrapped part, whose text the reason quotes),
no approximate or class search ran, and the text named no code, package or program.

- By shape: a later line of the shape is checked against every candidate the first line
  was checked against (compiled fullmatch); the same ones must match, and the records are
  the first line's with this line's hole values. Kept only when the message itself
  matched every record found and its other readings (``variants``: wrapped parts…) had no
  candidate at all: a line of the shape reads the same way around the same index words,
  so its other readings have none either. A line that may name a program, package or code
  through a masked value (``_may_name``) is not replayed by shape.
- By index words (a wider shape: the same words, other punctuation or kinds of value):
  every reading of the line must hold the readings' index words and check as they did,
  and the text must name no code, package or program (read again): what ranking reads is
  then the same, and so are the records.
- By coarse shape (every value masked whatever words it holds: quoted text, paths, tokens
  with a digit or an underscore; the masked values its best template holds as literal text,
  such as a module's ``sor_shape65:`` prefix, kept apart): every reading of the line is
  probed again as ranking probes it, and its candidates must fullmatch exactly as the kept
  ones did (any other candidate failing), with no code, package or program named: a value
  holding another template's words (``flush of fuse_dim72 took too long``) changes the
  candidates checked, not what matches.

Any difference, and the line is ranked as ever. tests/test_scan_cache.py compares cached
and uncached scans line by line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from errdex.languages._engine.pastes.common import ErrorEvent
from errdex.lookup.codes import may_carry_code, paste_codes
from errdex.lookup.context import may_name, read_context
from errdex.lookup.ranking import Ranked
from errdex.lookup.variants import _lost_period, _variants
from errdex.templates.matching import verify

__all__ = ["Replays", "Trace", "check", "coarse_key"]

_TOKEN = re.compile(r"[A-Za-z0-9_]+")
# The tokens ``key`` may mask: those with a digit or an underscore (a word of letters alone
# is kept). A run without one fails at every start inside it, so each match is a whole token.
_MASKABLE = re.compile(r"[A-Za-z0-9_]*[0-9_][A-Za-z0-9_]*")
_HEX = re.compile(r"(?:0x)?[0-9a-f]+")
_MAX_SHAPES = 100_000  # shapes remembered (a few hundred bytes each), then starts over
_MAX_LAYOUTS = 8  # ways of reading one coarse shape's values as literal, at most
_MAX_DIGITS = 12  # a longer number is masked as one this long
# Thresholds on a message's length that ``Index._full_matches`` decides by (a bare template
# against a longer message, a one-word one, a sentence that lost its final period).
_LENGTHS = (15, 40, 1_000)
_SHORT, _ONE_WORD, _LONG = _LENGTHS
# A value as logs print it, whatever its kind: quoted text, a path, a token with a digit or
# an underscore (a count, a hex id, an identifier). ``coarse_key`` masks each one.
_VALUE = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|[\w.-]*(?:/[\w.-]+)+|[A-Za-z0-9_]*[0-9_][A-Za-z0-9_]*")
_VALUES = re.compile(f"({_VALUE.pattern})")  # each value kept by ``split`` (it matches no "")
Groups = tuple[str | None, ...]
Verifier = Callable[[str, str, list[bytes]], Groups | None]  # ``templates.matching.verify``
Details = dict[int, tuple[str, int]]  # a reading's candidates: pattern id → (pattern, literal)
# The candidates ``Index._full_matches`` checks against each reading (one probe budget)
Prober = Callable[[list[str]], list[Details]]


def check(pattern: str, message: str, encoded: list[bytes], period: bool,
          with_period: list[bytes], verifier: Verifier = verify) -> Groups | None:
    """The hole values if ``message`` fullmatches ``pattern`` (read with a final period when
    it lost one, ``period``, and the template ends in one), else None."""
    groups = verifier(pattern, message, encoded)
    if groups is None and period and pattern.endswith("\\."):
        groups = verifier(pattern, message + ".", with_period)
    return groups


Check = tuple[int, str, bool]  # (pattern id, pattern, whether it matched)
# One reading of a message (``variants``): its index words, its length thresholds (None: no
# thin template matched it, so they decide nothing), its checks
Reading = tuple[frozenset[str], tuple[bool, ...] | None, tuple[Check, ...]]


@dataclass
class Trace:
    """What one ranking depended on, gathered while it ran (``Index.rank_event``)."""

    readings: int = 0  # readings of the message (``variants``)
    checks: dict[int, list[Check]] = field(default_factory=dict)  # per reading
    thin: set[int] = field(default_factory=set)  # readings a thin template matched
    origin: dict[str, tuple[int, int]] = field(default_factory=dict)  # record → (pid, reading)
    literal: dict[str, int] = field(default_factory=dict)  # record → its template's literal
    searched: bool = False  # the approximate or class search ran: the text decided
    plain: bool = True  # no code, no package or program read from the text
    scored: set[str] = field(default_factory=set)  # the records the full matches found
    texts: list[str] = field(default_factory=list)  # the readings

    def check(self, reading: int, pid: int, pattern: str, matched: bool, thin: bool) -> None:
        """A candidate checked against one reading of the message (``thin``: it matched,
        and has so little literal text that the reading's length decides if it counts)."""
        self.checks.setdefault(reading, []).append((pid, pattern, matched))
        if thin:
            self.thin.add(reading)


@dataclass(frozen=True)
class _Replay:
    ranked: tuple[Ranked, ...]
    pids: tuple[int, ...]  # each ranked record's pattern (a template's line: negative)
    readings: tuple[Reading, ...]  # every reading's checks (the first: the message's own)
    longest: int  # a longer message would make the full matches weak (``retrieval.weak``)
    first_only: bool  # the message itself matched every record found: replayed by shape

    def rebuilt(self, groups: dict[int, Groups]) -> list[Ranked]:
        """The ranking with another message's hole values."""
        return [Ranked(r.id, r.score, r.reason, groups.get(pid, ()) if pid >= 0 else (),
                       r.approximate) for r, pid in zip(self.ranked, self.pids, strict=True)]


class Replays:
    """Rankings by line shape, replayed when a line of that shape checks the same."""

    def __init__(self, vocabulary: frozenset[str], verifier: Verifier = verify,
                 prober: Prober | None = None):
        self._vocabulary = vocabulary
        self._verify = verifier  # the index's (``templates.matching.verify``)
        self._probe = prober  # the index's candidates per reading (None: no coarse replays)
        self._kept: dict[tuple[object, ...], _Replay | None] = {}
        self._wide: dict[tuple[object, ...], _Replay] = {}
        # coarse shape → positions of its masked values read as literal → their texts → kept
        self._coarse: dict[tuple[object, ...], dict[tuple[int, ...],
                                                    dict[tuple[str, ...], _Replay]]] = {}
        self._coarse_kept = 0
        self._last: tuple[str | None, tuple[object, ...], tuple[object, ...]] = (None, (), ())
        # the shape and message a replay just missed, uncounted (a log entry's, asked again
        # by ``Index.rank_event`` at once: the same answer)
        self._missed: tuple[tuple[object, ...], str | None] = ((), None)
        self.hits = 0  # replayed by line shape
        self.misses = 0
        self.rechecked = 0  # replayed by index words, every reading checked
        self.probed = 0  # replayed by coarse shape, every reading probed and checked

    def key(self, message: str, extra: tuple[object, ...]) -> tuple[object, ...]:
        """The shape of a line: its masked message, the lengths it is judged by, and what
        else the ranking reads (``extra``: class, kind, frames, top, repository)."""
        last = self._last
        if last[0] == message and last[1] == extra:  # asked twice for a line: ranked in full
            return last[2]
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
        key = (_MASKABLE.sub(mask, message), size > _SHORT, size > _ONE_WORD, size > _LONG,
               *extra)  # _LENGTHS
        self._last = (message, extra, key)
        return key

    def words_key(self, message: str, extra: tuple[object, ...]) -> tuple[object, ...]:
        """A wider shape: the index words of the message (all its probe reads) and ``extra``
        (the lengths and the rest of ``key``)."""
        return (self._vocabulary.intersection(_TOKEN.findall(message)), *extra)

    def coarse(self, message: str, extra: tuple[object, ...]) -> _Replay | None:
        """The ranking kept for a line of this coarse shape (``coarse_key``; ``extra``: what
        else the ranking reads but the message's lengths, which a thin template's reading
        checks again) whose masked
        values that were literal text of its template (``sor_shape65`` in ``sor_shape65:
        invalid range {}``) read as this message's do."""
        key, values = coarse_key(message, extra)
        for positions, kept in self._coarse.get(key, {}).items():
            if positions and positions[-1] >= len(values):
                continue
            found = kept.get(tuple(values[n] for n in positions))
            if found is not None:
                return found
        return None

    def replay(self, key: tuple[object, ...], message: str,
               count: bool = True) -> list[Ranked] | None:
        """The kept ranking of ``key`` with this message's hole values, if the message
        checks as the first one of its shape did; else None (rank it as ever; ``count``:
        counted as a miss)."""
        if key is self._missed[0] and message == self._missed[1]:  # ``Index.replayed``'s miss
            self._missed = ((), None)  # asked once more, at once: nothing kept since
            self.misses += count
            return None
        kept = None if _may_name(message) else self._kept.get(key)
        groups = None if kept is None or len(message) > kept.longest else _groups(
            kept.readings[0][2], message, self._verify)
        if kept is None or groups is None:
            self.misses += count
            self._missed = (key, message) if not count else ((), None)
            return None
        self.hits += 1
        return kept.rebuilt(groups)

    def recheck(self, key: tuple[object, ...], event: ErrorEvent,
                shape: tuple[object, ...]) -> list[Ranked] | None:
        """The kept ranking of a wider shape (``words_key``) when every reading of the
        message (``variants``) holds the same index words and checks the same, and the
        text names no code, package or program; else None. Kept for the line's own
        ``shape`` too, when the message itself matched every record.

        Failing a ranking of its index words, the kept ranking of its coarse shape
        (``coarse_key``: other words in its values) when every reading, probed again,
        fullmatches the same candidates (the others fail), the same way."""
        message = event.message
        wide = self._wide.get(key)
        readings: list[str] = []
        for coarse in (False, True):
            kept = wide if not coarse else None if self._probe is None else self.coarse(
                message, key[1 + len(_LENGTHS):])
            if kept is None or (coarse and kept is wide) or len(message) > kept.longest:
                continue
            readings = readings or _variants(event)
            if len(readings) != len(kept.readings):
                continue
            words = cast("frozenset[str]", key[0])  # ``words_key``'s first: the index words
            fresh, first = self._probed(kept, readings, words) if coarse else (
                kept, self._same_checks(kept, readings))
            if first is None or fresh is None:
                continue
            if (may_name(event) and read_context(event).names) or (
                    may_carry_code(event) and paste_codes(event).codes):
                return None
            if coarse:
                self.probed += 1
                self._wide[key] = fresh
            else:
                self.rechecked += 1
            if fresh.first_only and self._kept.get(shape) is None:
                self._kept[shape] = fresh
            return fresh.rebuilt(first)
        return None

    def _same_checks(self, kept: _Replay, readings: list[str]) -> dict[int, Groups] | None:
        """The message's hole values when every reading holds the kept readings' index words
        and its candidates check as theirs did; else None. The message itself (the first
        reading) was found by its index words and lengths (``words_key``): not read again."""
        vocabulary = self._vocabulary
        first: dict[int, Groups] | None = None
        for number, (text, (words, lengths, checks)) in enumerate(
                zip(readings, kept.readings, strict=True)):
            if number and ((lengths is not None and _lengths(text) != lengths)
                           or vocabulary.intersection(_TOKEN.findall(text)) != words):
                return None
            groups = _groups(checks, text, self._verify)
            if groups is None:
                return None
            if number == 0:
                first = groups
        return first

    def _probed(self, kept: _Replay, readings: list[str], words: frozenset[str]
                ) -> tuple[_Replay | None, dict[int, Groups] | None]:
        """The kept ranking as this message's own (its readings' words and checks) and the
        message's hole values, when each reading's candidates (probed as a ranking probes
        them) fullmatch exactly the kept reading's matched ones; else (None, None).
        ``words``: the message's index words (its ``words_key`` holds them)."""
        assert self._probe is not None
        fresh: list[Reading] = []
        first: dict[int, Groups] = {}
        vocabulary = self._vocabulary
        for number, (text, (_, lengths, checks), details) in enumerate(
                zip(readings, kept.readings, self._probe(readings), strict=True)):
            if lengths is not None and _lengths(text) != lengths:
                return None, None
            matched = {pid for pid, _, ok in checks if ok}
            checked = tuple((pid, pattern, pid in matched)
                            for pid, (pattern, _) in details.items())
            found = _groups(checked, text, self._verify)
            if found is None or len(found) != len(matched):  # a matched one is no candidate
                return None, None
            if number == 0:
                first = found
            fresh.append((vocabulary.intersection(_TOKEN.findall(text)) if number else words,
                          lengths, checked))
        first_only = kept.first_only and not any(checks for _, _, checks in fresh[1:])
        return _Replay(kept.ranked, kept.pids, tuple(fresh), kept.longest, first_only), first

    def keep(self, key: tuple[object, ...], words: tuple[object, ...], ranked: list[Ranked],
             trace: Trace, wrapper: int) -> None:
        """Remember a ranking for its shapes, when nothing but hole values depended on the
        text (see the module's docstring); else remember that it may not be replayed."""
        if len(self._kept) >= _MAX_SHAPES:
            self._kept.clear()
        if len(self._wide) >= _MAX_SHAPES:
            self._wide.clear()
        if self._coarse_kept >= _MAX_SHAPES:  # rankings filed by coarse shape, all told
            self._coarse.clear()
            self._coarse_kept = 0
        origin, scored = trace.origin, trace.scored
        longest = max((3 * trace.literal[rid] for rid in scored
                       if trace.literal.get(rid, 0) >= wrapper), default=-1)
        wide = (not trace.searched and trace.plain and bool(scored) and longest >= 0
                and scored <= origin.keys() and len(trace.texts) == trace.readings
                and all(origin.get(r.id, (0, 1))[1] == 0 for r in ranked))
        if not wide:  # a replayable ranking of the shape stays
            self._kept.setdefault(key, None)
            return
        vocabulary = self._vocabulary
        readings = tuple(
            (vocabulary.intersection(_TOKEN.findall(text)),
             _lengths(text) if number in trace.thin else None,
             tuple(trace.checks.get(number, [])))
            for number, text in enumerate(trace.texts))
        # The message itself matched every record, and its other readings had no candidate
        # (a line of its shape has the same readings' index words: none will either).
        first_only = all(origin[rid][1] == 0 for rid in scored) and not any(
            trace.checks.get(number) for number in range(1, trace.readings))
        kept = _Replay(tuple(ranked), tuple(origin[r.id][0] for r in ranked), readings,
                       longest, first_only)
        self._wide[words] = kept
        if self._probe is not None:
            self._keep_coarse(trace.texts[0], words[1 + len(_LENGTHS):], kept, trace)
        if first_only:
            self._kept[key] = kept
        else:
            self._kept.setdefault(key, None)


    def _keep_coarse(self, message: str, extra: tuple[object, ...], kept: _Replay,
                     trace: Trace) -> None:
        """File a ranking under its coarse shape and the masked values of its message that
        its best record's template holds as literal text."""
        key, values = coarse_key(message, extra)
        patterns = {pid: pattern for pid, pattern, _ in trace.checks.get(0, ())}
        best = patterns.get(kept.pids[0], "") if kept.pids else ""
        # a value the pattern spells out (escaped alike: identifiers, numbers) is its literal
        positions = tuple(n for n, value in enumerate(values) if value in best)
        by_positions = self._coarse.setdefault(key, {})
        if positions not in by_positions and len(by_positions) >= _MAX_LAYOUTS:
            return
        by_positions.setdefault(positions, {})[tuple(values[n] for n in positions)] = kept
        self._coarse_kept += 1


def _may_name(message: str) -> bool:
    """Whether a message may name a program, a package or a code through a value the shape
    masks (its length or letters decide: ``prog_1[12]: ``, ``code: 'e_1'``, ``sqlstate
    2a3b4``, ``pkg_1.mod.BrokenError``): such a line is checked by index words, which read
    the context and the codes again (``lookup.context``, ``lookup.codes``)."""
    # each test spelt out: a scan asks for every line it replays (no generator per call)
    if ("]: " in message or ": error" in message or ": fatal" in message
            or ": warning" in message):  # ``prog[12]: ``, ``prog: error``
        return True
    if "." in message and ("Error" in message or "Exception" in message):
        return True
    lowered = message.lower()  # ``usage: prog``, ``code: 'x'``, ``errno``, ``sqlstate``
    return "sage:" in lowered or "code" in lowered or "errno" in lowered or (
        "sqlstate" in lowered)


def coarse_key(message: str, extra: tuple[object, ...]) -> tuple[tuple[object, ...], list[str]]:
    """The widest shape of a line (its message with every value masked, whatever its kind or
    words: ``_VALUE``, and ``extra``) and the values masked, in order. Lines of one template
    share it however their values read; it only finds a ranking to check, every reading of
    the line being probed and checked again (``Replays.recheck``)."""
    parts = _VALUES.split(message)  # one pass: text, value, text, ..., text
    return ("\x01".join(parts[0::2]), *extra), parts[1::2]


def _lengths(text: str) -> tuple[bool, ...]:
    """The thresholds on a reading's length ``Index._full_matches`` decides by."""
    size = len(text)
    return size > _SHORT, size > _ONE_WORD, size > _LONG  # _LENGTHS, without a generator


def _groups(checks: tuple[Check, ...], message: str,
            verifier: Verifier) -> dict[int, Groups] | None:
    """The hole values of the candidates that match ``message``, if exactly those that
    matched before do; else None."""
    encoded: list[bytes] = []
    with_period: list[bytes] = []
    period = _lost_period(message)
    groups: dict[int, Groups] = {}
    for pid, pattern, matched in checks:
        found = check(pattern, message, encoded, period, with_period, verifier)
        if (found is not None) != matched:
            return None
        if found is not None:
            groups[pid] = found
    return groups
