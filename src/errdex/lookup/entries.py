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
from functools import lru_cache
from pathlib import PurePosixPath

from errdex.languages._engine.pastes.common import ErrorEvent, Frame
from errdex.lookup.index import Index, Match, Ranked
from errdex.lookup.layouts import EVENT_LEVELS, Entry, Layout, entries, locations, named_sources
from errdex.lookup.parse import parse_events
from errdex.templates.analysis import shape_of

_ERROR_WORDS = re.compile(
    r"(?i)error|exception|fail|fatal|panic|crit|warn|severe|denied|refused|invalid|illegal|"
    r"cannot|can't|unable|timed? ?out|not found|no such|abort|corrupt|unexpected|bad |"
    r"lost|break-in|unreachable|reset by|too many|exceed|unknown|mismatch|missing|broken")
_SOURCE_WEIGHT = 0.2  # a logger / program naming the record's file
_THIN_LITERAL = 12  # less literal text than this in a template: mostly holes
_THIN_SHARE = 0.3  # or less than this share of the message


class EntryReader:
    """Ranks the events of chunks of one log, caching by message and location."""

    def __init__(self, index: Index, layout: Layout, all_levels: bool, top: int,
                 repo: str | None):
        self.index, self.layout, self.all_levels = index, layout, all_levels
        self.top, self.repo = top, repo
        self.cache: dict[tuple[object, ...], list[Ranked]] = {}
        self.has_levels: bool | None = None

    def rank(self, chunk: str) -> list[tuple[int, str, list[Ranked], dict[str, object] | None]]:
        out: list[tuple[int, str, list[Ranked], dict[str, object] | None]] = []
        numbered = enumerate(chunk.splitlines(keepends=True), 1)
        for entry in entries(self.layout, numbered):
            if entry.message and self._is_event(entry):
                found = self._rank_entry(entry)
                fields: dict[str, object] = {"name": self.layout.name, **entry.fields,
                                             "level": entry.level}
                out.append((entry.line, _first_line(entry), found, fields))
            if entry.continuation:
                out.extend(self._traces(entry))
        return out

    def _is_event(self, entry: Entry) -> bool:
        if self.all_levels:
            return True
        level = entry.level
        if level is not None:
            return level in EVENT_LEVELS
        if "level" in entry.fields:  # a level word this reader does not know
            return False
        return _ERROR_WORDS.search(entry.message) is not None

    def _rank_entry(self, entry: Entry) -> list[Ranked]:
        frames = tuple(Frame(file, line) for file, line in locations(entry.fields))
        key = (entry.message, frames)
        found = self.cache.get(key)
        if found is None:
            event = ErrorEvent(entry.message, None, "message", frames, entry.message,
                               line=entry.line)
            found = self.index.rank_event(event, top=max(self.top, 5), repo=self.repo)
            if len(self.cache) > 50_000:
                self.cache.clear()
            self.cache[key] = found
        return found

    def _traces(self, entry: Entry) -> list[tuple[int, str, list[Ranked], None]]:
        """The exceptions and panics printed below an entry, each an event of its own."""
        out: list[tuple[int, str, list[Ranked], None]] = []
        for event in parse_events(entry.continuation):
            if event.kind == "message" and not event.error_class:
                continue
            key = (event.message, event.error_class, event.frames)
            found = self.cache.get(key)
            if found is None:
                found = self.cache[key] = self.index.rank_event(event, top=self.top,
                                                                repo=self.repo)
            out.append((entry.line + max(1, event.line), event.text, found, None))
        return out


def _first_line(entry: Entry) -> str:
    return entry.text.partition("\n")[0].rstrip("\r")


def weigh(matches: list[Match], fields: dict[str, object], top: int) -> list[Match]:
    """Matches re-ordered by what the entry's metadata says, thin full matches left out
    unless something corroborates them, cut to ``top``."""
    names = named_sources({k: v for k, v in fields.items() if isinstance(v, str)})
    level = fields.get("level")
    kept = []
    for match in matches:
        path = match.record.file_path
        stem = str(PurePosixPath(path).with_suffix(""))
        named = next((name for name in names if stem == name or stem.endswith("/" + name)
                      or PurePosixPath(path).stem == name), None)
        if named is not None:
            match.score += _SOURCE_WEIGHT
            match.reason += f"; the log names {named}"
        if _thin(match) and not _corroborated(match, named, level):
            continue
        kept.append(match)
    kept.sort(key=lambda m: -m.score)
    return kept[:top]


def _thin(match: Match) -> bool:
    """A full match by a template that is mostly holes (``{theClass} not {…}``)."""
    if match.approximate or not match.reason.startswith("full pattern match"):
        return False
    literal = _literal_length(match.record.message_pattern)
    message = sum(len(value) for value in match.bound.values()) + literal
    return literal < _THIN_LITERAL or literal < _THIN_SHARE * message


def _corroborated(match: Match, named: str | None, level: object) -> bool:
    """Whether level, logger or location agree with a thin match."""
    if named is not None or "frame " in match.reason:
        return True
    severity = match.record.severity
    return (level == "warning" and severity == "warning") or (
        level in ("error", "fatal") and severity in ("error", "fatal"))


@lru_cache(maxsize=8192)
def _literal_length(pattern: str) -> int:
    return sum(len(fragment) for fragment in shape_of(pattern).fragments)


__all__ = ["EntryReader", "weigh"]
