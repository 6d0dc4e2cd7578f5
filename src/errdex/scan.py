"""Scan a log: every error event in it (multi-line traces grouped), annotated with its record.

Logs are read as a stream in chunks cut where a new entry starts (a line that
opens with a timestamp, a bracket or a JSON object, or after a blank line), so
a trace is never split and memory stays flat however long the log is. Logs
repeat themselves: an event's matches are cached by its message, class and
frames, which is what makes scanning fast.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TextIO

from errdex.lookup.index import Index, Match
from errdex.lookup.parse import ErrorEvent, parse_events

CHUNK_CHARS = 256_000
_HARD_LIMIT = 4 * CHUNK_CHARS
_CACHE_SIZE = 20_000


@dataclass
class ScannedEvent:
    """One error event of the log and the records that explain it."""

    line: int
    text: str
    matches: list[Match]

    def to_json(self) -> dict[str, object]:
        return {"line": self.line, "text": self.text,
                "matches": [m.to_json() for m in self.matches]}


@dataclass
class ScanSummary:
    """Counts per record, for the closing table."""

    lines: int = 0
    events: int = 0
    matched: int = 0
    by_record: Counter[str] = field(default_factory=Counter)
    examples: dict[str, Match] = field(default_factory=dict)

    def add(self, event: ScannedEvent) -> None:
        self.events += 1
        if event.matches:
            self.matched += 1
            best = event.matches[0]
            self.by_record[best.record.id] += 1
            self.examples.setdefault(best.record.id, best)


def scan(
    index: Index, stream: TextIO, *, top: int = 1, repo: str | None = None,
    summary: ScanSummary | None = None,
) -> Iterator[ScannedEvent]:
    """Each error event of ``stream`` with its best records, in log order."""
    cache: dict[tuple[object, ...], list[Match]] = {}
    for first_line, chunk in chunks(stream, summary):
        for event in parse_events(chunk):
            key = (event.message, event.error_class, event.frames)
            matches = cache.get(key)
            if matches is None:
                matches = index.explain_event(event, top=top, repo=repo)
                if len(cache) >= _CACHE_SIZE:
                    cache.clear()
                cache[key] = matches
            scanned = ScannedEvent(first_line + _event_line(event) - 1, event.text, matches)
            if summary is not None:
                summary.add(scanned)
            yield scanned


def _event_line(event: ErrorEvent) -> int:
    return max(1, getattr(event, "line", 1) or 1)


def chunks(stream: Iterable[str], summary: ScanSummary | None = None) -> Iterator[tuple[int, str]]:
    """(first line number, text) pieces of a log, each ending before a new entry starts."""
    buffer: list[str] = []
    size = 0
    first = 1
    number = 0
    for number, line in enumerate(stream, 1):
        if size >= CHUNK_CHARS and (_starts_entry(line) or size >= _HARD_LIMIT or (
            buffer and not buffer[-1].strip()
        )):
            yield first, "".join(buffer)
            buffer, size, first = [], 0, number
        buffer.append(line)
        size += len(line)
    if buffer:
        yield first, "".join(buffer)
    if summary is not None:
        summary.lines = number


def _starts_entry(line: str) -> bool:
    return bool(line) and (line[0].isdigit() or line[0] in "[{")
