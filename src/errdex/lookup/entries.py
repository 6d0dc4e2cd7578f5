"""The entries of a log of known layout, ranked: which are events, what their metadata says
of where they were written, and when a full match means something.

An entry at warning level or above is an event (every entry with ``all_levels``); an entry
whose layout writes no level (syslog, Go's log) is one when its message has an error's
words. Its ``Class@line`` or ``file:line`` is a stack frame of the statement that wrote it;
its logger, class or program names the file (``weigh``). A trace below an entry (printed
after an INFO line too) is an event of its own, read as a paste.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from pathlib import PurePosixPath

from errdex.languages._engine.pastes.common import ErrorEvent, Frame
from errdex.lookup.index import Index, Match, Ranked
from errdex.lookup.layouts import (
    EVENT_LEVELS,
    Entry,
    Layout,
    entries,
    locations,
    named_sources,
    named_sources_of,
)
from errdex.lookup.parse import parse_events
from errdex.lookup.shares import Share, heads, owners
from errdex.lookup.statements import StatementMatch, Statements
from errdex.templates.analysis import shape_of

_ERROR_WORDS = re.compile(
    r"(?i)error|exception|fail|fatal|panic|crit|warn|severe|denied|refused|invalid|illegal|"
    r"cannot|can't|unable|timed? ?out|not found|no such|abort|corrupt|unexpected|bad |"
    r"lost|break-in|unreachable|reset by|too many|exceed|unknown|mismatch|missing|broken")
_DIGITS = re.compile(r"\d")  # each digit: a number of another length reads otherwise
_WORD = re.compile(r"[A-Za-z0-9_]+")  # a word, as the index reads words
_SOURCE_WEIGHT = 0.2  # a logger / program naming the record's file
_THIN_LITERAL = 12  # less literal text than this in a template: mostly holes
_THIN_SHARE = 0.3  # or less than this share of the message
_APPROXIMATE = attrgetter("approximate")


@dataclass
class Mapped:
    """One event of a chunk, ranked: its line within the chunk, its text, the ranked record
    ids, and for a log entry its layout fields, message and the statement below warning."""

    line: int
    text: str
    ranked: list[Ranked]
    layout: dict[str, object] | None = None
    message: str = ""
    statement: StatementMatch | None = None

    def __reduce__(self) -> tuple[object, ...]:
        """A worker sends its events as their fields in order: the scanning process, which
        reads every event alone, then calls the class instead of filling a bare object's
        dict (a third less time loading a chunk)."""
        return (Mapped, (self.line, self.text, self.ranked, self.layout, self.message,
                         self.statement))


_STATEMENTS: dict[int, Statements] = {}  # per store (one per process)


class EntryReader:
    """Ranks the events of chunks of one log, caching by message and location."""

    def __init__(self, index: Index, layout: Layout, all_levels: bool, top: int,
                 repo: str | None):
        self.index, self.layout, self.all_levels = index, layout, all_levels
        self.top, self.repo = top, repo
        self.cache: dict[tuple[object, ...], tuple[list[Ranked], StatementMatch | None]] = {}
        # near misses by message shape, then by the index words holding digits (read only
        # for a message of a shape that near-missed: most messages fullmatch)
        self.missed: dict[tuple[object, ...], dict[frozenset[str], tuple[
            list[Ranked], StatementMatch | None]]] = {}
        self.statements: Statements | None = None
        if all_levels:
            key = id(index.store)
            if key not in _STATEMENTS:
                _STATEMENTS.clear()
                _STATEMENTS[key] = Statements.of(index.store, repo)
            self.statements = _STATEMENTS[key]

    def rank(self, chunk: str) -> list[Mapped]:
        """The events of a chunk's entries, ranked."""
        out: list[Mapped] = []
        for entry in entries(self.layout, enumerate(chunk.splitlines(keepends=True), 1)):
            self._rank_into(entry, entry.level, out)
        return out

    def rank_share(self, chunk: str, share: Share) -> tuple[list[int], list[Mapped]]:
        """The events of one worker's share of a chunk's entries (``shares``), ranked, and
        each one's entry's position in the chunk (by which the scanning process puts the
        shares of all workers back in log order). Only the entries that hold an event are
        shared out (an info line without a trace below it holds none)."""
        read: list[Entry] = []
        levels: list[str | None] = []  # each entry's, read once (a lookup per read)
        is_event = self._is_event
        for entry in entries(self.layout, enumerate(chunk.splitlines(keepends=True), 1)):
            level = entry.level
            if entry.continuation or (entry.message and is_event(entry, level)):
                read.append(entry)
                levels.append(level)
        worker, workers = share
        positions: list[int] = []
        out: list[Mapped] = []
        for position, owner in enumerate(owners(heads([e.message for e in read]), workers)):
            if owner == worker:
                before = len(out)
                self._rank_into(read[position], levels[position], out)
                positions += [position] * (len(out) - before)
        return positions, out

    def _rank_into(self, entry: Entry, level: str | None, out: list[Mapped]) -> None:
        """An entry's events, ranked (``level``: its ``Entry.level``, read once: each read
        looks the level word up again): the entry itself, then the traces below it."""
        if entry.message and self._is_event(entry, level):
            found, statement = self._rank_entry(entry, level)
            fields: dict[str, object] = {"name": self.layout.name, **entry.fields,
                                         "level": level}
            out.append(Mapped(entry.line, _first_line(entry), found, fields,
                              entry.message, statement))
        if entry.continuation:
            out.extend(self._traces(entry))

    def _is_event(self, entry: Entry, level: str | None) -> bool:
        if self.all_levels:
            return True
        if level is not None:
            return level in EVENT_LEVELS
        if "level" in entry.fields:  # a level word this reader does not know
            return False
        return _ERROR_WORDS.search(entry.message) is not None

    def _rank_entry(self, entry: Entry,
                    level: str | None) -> tuple[list[Ranked], StatementMatch | None]:
        """The records an entry's message matches; below warning, the statement first (an
        info line is rarely a record's, and the statement table is the cheaper probe)."""
        fields = entry.fields
        key = (entry.message, fields.get("class"), fields.get("file"), fields.get("line"),
               fields.get("location"), fields.get("caller"), level, entry.printed)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        # A message no template fullmatched: its near misses serve every message of its
        # shape (the same words, other numbers), so the costly approximate pass runs once;
        # a number inside a word a template spells (alloc_cache53) is no other number there.
        shape = (_DIGITS.sub("0", entry.message), *key[1:])
        by_words = self.missed.get(shape)
        if by_words is not None:
            missed = by_words.get(self._index_words(entry.message))
            if missed is not None:
                return missed
        located = locations(fields)  # most layouts write none
        frames = tuple(Frame(file, line) for file, line in located) if located else ()
        statement = None
        # An info line is a statement's, not a record's; a line of a layout without levels
        # (syslog) may be either: a statement it fullmatches first (the cheap probe), else
        # the records.
        below = level is not None and level not in EVENT_LEVELS and bool(self.statements)
        if self.statements and (below or level is None):
            statement = self._statement(entry, level)
        found: list[Ranked] = []
        if not below and statement is None:
            # most lines of a log: the ranking of an earlier line of their shape (replay)
            replayed = self.index.replayed(entry.message, frames, max(self.top, 5), self.repo)
            found = replayed if replayed is not None else self.index.rank_event(
                ErrorEvent(entry.message, None, "message", frames, entry.message,
                           line=entry.line), top=max(self.top, 5), repo=self.repo)
            if self.statements and level is not None and (not found or found[0].approximate):
                statement = self._statement(entry, level)
        if len(self.cache) > 50_000:
            self.cache.clear()
            self.missed.clear()
        self.cache[key] = (found, statement)
        if statement is None and all(map(_APPROXIMATE, found)):
            self.missed.setdefault(shape, {})[self._index_words(entry.message)] = (
                found, statement)
        return found, statement

    def _index_words(self, message: str) -> frozenset[str]:
        """The words of ``message`` holding a digit that the index holds (what its probe,
        and so its near misses, depend on beyond the message's shape)."""
        digits = [w for w in _WORD.findall(message) if not w.isalpha()]
        shapes = self.index.cache_shapes()
        return frozenset(digits) if shapes is None else shapes.shape(digits)  # none: all

    def _statement(self, entry: Entry, level: str | None) -> StatementMatch | None:
        """The statement that wrote an entry: first by the message as printed with the
        metadata the layout read out of its front (a statement mined with that runtime
        prefix, oslo's ``[instance: <uuid>] ``, holds it: the call that wrote this line
        passed it), else by its message."""
        statements = self.statements
        if statements is None:
            return None
        names = named_sources(entry.fields)
        found = statements.match(entry.printed, names, level) if entry.printed else None
        return found if found is not None else statements.match(entry.message, names, level)

    def _traces(self, entry: Entry) -> list[Mapped]:
        """The exceptions and panics printed below an entry, each an event of its own."""
        out: list[Mapped] = []
        for event in parse_events(entry.continuation):
            if event.kind == "message" and not event.error_class:
                continue
            key = (event.message, event.error_class, event.frames)
            cached = self.cache.get(key)
            if cached is None:
                cached = self.cache[key] = (self.index.rank_event(
                    event, top=self.top, repo=self.repo), None)
            out.append(Mapped(entry.line + max(1, event.line), event.text, cached[0],
                              message=event.message))
        return out


def _first_line(entry: Entry) -> str:
    text = entry.text
    end = text.find("\n")  # most entries are one line: its text up to the newline
    return (text if end < 0 else text[:end]).rstrip("\r")


def weigh(matches: list[Match], fields: dict[str, object], top: int) -> list[Match]:
    """Matches re-ordered by what the entry's metadata says, thin full matches left out
    unless something corroborates them, cut to ``top``."""
    names = named_sources_of(fields)
    level = fields.get("level")
    located = "line" in fields  # ``Class@line``, ``file:line``: the line says more than a name
    kept = []
    for match in matches:
        named = _named_in(names, match.record.file_path) if names else None
        if named is not None:  # orders a template's sites; never lifts a near miss far
            match.score += _SOURCE_WEIGHT / 4 if match.approximate else _SOURCE_WEIGHT
            match.reason += f"; the log names {named}"
        if _thin(match) and not _corroborated(match, named, level, located):
            continue
        kept.append(match)
    if len(kept) > 1:  # most entries keep one match: nothing to order
        kept.sort(key=lambda m: -m.score)
    return kept[:top]


@lru_cache(maxsize=16_384)  # a log's entries name few sources, its matches few files
def _named_in(names: tuple[str, ...], path: str) -> str | None:
    """The first of ``names`` that names the file at ``path`` (its stem or its name)."""
    stem, base = _stems(path)
    return next((name for name in names if stem == name or stem.endswith("/" + name)
                 or base == name), None)


def _thin(match: Match) -> bool:
    """A full match by a template that is mostly holes (``{theClass} not {…}``)."""
    if match.approximate or not match.reason.startswith("full pattern match"):
        return False
    literal = _literal_length(match.record.message_pattern)
    message = sum(map(len, match.bound.values())) + literal
    return literal < _THIN_LITERAL or literal < _THIN_SHARE * message


def _corroborated(match: Match, named: str | None, level: object, located: bool) -> bool:
    """Whether level, logger or location agree with a thin match. An entry that says where
    it was written (``Class@line``) corroborates only the statement at that line."""
    if any(part.startswith("frame ") and " names " not in part and " built from" not in part
           for part in match.reason.split("; ")):
        return True  # the entry's location is the statement's line
    if located:
        return False
    if named is not None:
        return True  # the logger or program names its file
    severity = match.record.severity
    return (level == "warning" and severity == "warning") or (
        level in ("error", "fatal") and severity in ("error", "fatal"))


@lru_cache(maxsize=8192)
def _stems(path: str) -> tuple[str, str]:
    """A file's path without its extension, and its name without it."""
    pure = PurePosixPath(path)
    return str(pure.with_suffix("")), pure.stem


@lru_cache(maxsize=8192)
def _literal_length(pattern: str) -> int:
    return sum(len(fragment) for fragment in shape_of(pattern).fragments)


__all__ = ["EntryReader", "Mapped", "weigh"]
