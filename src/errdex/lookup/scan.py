"""Scan a log: every warning and error entry in it (multi-line traces grouped), annotated
with the statement that wrote it.

A log whose layout is recognised (``errdex.lookup.layouts``) is read entry by entry:
the framework's prefix is metadata, the rest the message, and by default each warning
and error entry is an event (``all_levels``: every entry); a trace printed below an
entry is an event of its own. A log of no known layout is read as today, as pastes.

Logs are read as a stream in chunks cut where a new entry starts (a line that
opens with a timestamp, a bracket or a JSON object, or after a blank line), so
a trace is never split and memory stays flat however long the log is. Logs
repeat themselves: an event's matches are cached by its message, class and
frames, which is what makes scanning fast.

A chunk never exceeds what one paste may hold (``MAX_INPUT_CHARS``): a log
without entry starts is cut there, and a single line longer than that is
skipped and counted (``ScanSummary.skipped_lines``), read in pieces so it never
sits in memory whole.
"""

from __future__ import annotations

import heapq
import itertools
import json
import json.encoder
import math
import multiprocessing
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TextIO

from errdex.collection import young_collections_from_now, young_collections_only
from errdex.lookup.drain import Drain
from errdex.lookup.entries import EntryReader, Mapped, weigh
from errdex.lookup.index import Index, Match, Ranked, materialize
from errdex.lookup.layouts import Layout, detect, layout_named
from errdex.lookup.parse import MAX_INPUT_CHARS, ErrorEvent, parse_events
from errdex.lookup.share_workers import ShareWorkers
from errdex.lookup.shares import Share
from errdex.lookup.statements import StatementMatch
from errdex.repo.processes import die_with_parent
from errdex.store.protocol import StoredRecord, open_store
from errdex.visible import json_text

CHUNK_CHARS = 256_000  # also the smallest log worth worker processes (two chunks)
_HARD_LIMIT = MAX_INPUT_CHARS  # a chunk is parsed as one paste: never more than one may hold
_CACHE_SIZE = 20_000


@dataclass
class ScannedEvent:
    """One error event of the log and the records that explain it."""

    line: int
    text: str
    matches: list[Match]
    layout: dict[str, object] | None = None  # the entry's metadata, when a layout read it
    statement: StatementMatch | None = None  # the info/debug statement (``all_levels``)
    group: str | None = None  # no record or statement: the log's own template's id
    template: str | None = None  # that template, as learnt so far
    encoder: JsonLines | None = field(default=None, repr=False, compare=False)  # the scan's

    def json_line(self) -> str:
        """``to_json`` as JSON text (one JSON Lines line), each record written once a scan."""
        return (self.encoder or JsonLines()).line(self)

    @property
    def level(self) -> str | None:
        level = self.layout.get("level") if self.layout else None
        return level if isinstance(level, str) else None

    def to_json(self) -> dict[str, object]:
        return {"line": self.line, "text": self.text,
                "matches": [m.to_json() for m in self.matches], **self.notes_json()}

    def notes_json(self) -> dict[str, object]:
        """The JSON keys after ``matches``, each only when it applies."""
        out: dict[str, object] = {}
        if self.layout is not None:
            out["layout"] = self.layout
        if self.statement is not None:
            out["statement"] = self.statement.to_json()
        if self.group is not None:
            out["group"] = {"id": self.group, "template": self.template}
        return out


class JsonLines:
    """``ScannedEvent.to_json`` as the text ``visible.json_text`` writes, each record's JSON
    written once per scan (a log names few records many times) and one encoder for all.

    ``json_text`` escapes characters only outside ASCII: an ASCII line is its text as
    encoded; any other line is written by ``json_text`` itself."""

    def __init__(self) -> None:
        self._records: dict[str, str] = {}

    def line(self, event: ScannedEvent) -> str:
        """The event's JSON Lines line (without its newline)."""
        matches = ", ".join([self._match(m) for m in event.matches])
        if event.statement is None and event.group is None:  # a layout's fields at most
            notes = "" if event.layout is None else f', "layout": {_encode(event.layout)}'
        else:
            notes = _more(event.notes_json())
        text = (f'{{"line": {_encode(event.line)}, "text": {_encode(event.text)}, '
                f'"matches": [{matches}]{notes}}}')
        return text if text.isascii() else json_text(event.to_json())

    def _match(self, match: Match) -> str:
        """``Match.to_json``'s text, its record's part cached by record id."""
        record = self._records.get(match.record.id)
        if record is None:
            if len(self._records) >= _CACHE_SIZE:
                self._records.clear()
            record = self._records[match.record.id] = _encode(
                match.record.model_dump(mode="json"))
        # ``Match.summary_json``'s keys, written one by one (no dict, no encoder call)
        bound = match.bound
        head = (f'{{"score": {_encode(round(match.score, 4))}, "reason": '
                f'{_STRING(match.reason)}, "bound": {_encode(bound) if bound else "{}"}')
        if match.removed is None and match.version is None and match.extras.package is None:
            return f'{head}, "record": {record}}}'  # ``notes_json`` has no key to write
        return f'{head}, "record": {record}{_more(match.notes_json())}}}'


def _more(keys: dict[str, object]) -> str:
    """Further keys of an object being written, as text after a comma (none: nothing)."""
    return f", {_encode(keys)[1:-1]}" if keys else ""


# ``json.dumps(value, ensure_ascii=False)`` (as ``json_text`` calls it) without building an
# encoder per call: the C encoder ``JSONEncoder.encode`` makes for each value, made once
# (without the circular-reference check, which an event's plain data never needs)
_ENCODER = json.JSONEncoder(ensure_ascii=False)
_MAKE_ENCODER = getattr(json.encoder, "c_make_encoder", None)  # None without the C module
_C_ENCODER = _MAKE_ENCODER and _MAKE_ENCODER(
    None, _ENCODER.default, json.encoder.encode_basestring, None, ": ", ", ", False, False,
    True)


_STRING = json.encoder.encode_basestring  # what the encoder writes a str with (no ASCII-only)


def _encode(value: object) -> str:
    if type(value) is str:
        return _STRING(value)
    if type(value) is int:  # as the encoder writes an int (a line number)
        return int.__repr__(value)
    if type(value) is float and math.isfinite(value):  # a score: as the encoder writes it
        return float.__repr__(value)
    if _C_ENCODER is None:
        return _ENCODER.encode(value)
    return "".join(_C_ENCODER(value, 0))


@dataclass
class ScanSummary:
    """Counts per record, for the closing table."""

    lines: int = 0
    skipped_lines: int = 0  # lines over MAX_INPUT_CHARS, left out of the scan
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
    summary: ScanSummary | None = None, jobs: int = 1, layout: str | None = None,
    all_levels: bool = False, group: bool = False,
) -> Iterator[ScannedEvent]:
    """Each event of ``stream`` with its best records, in log order.

    ``layout``: a layout's name or a log4j-style pattern (else recognised from the first
    lines). ``all_levels``: every entry is an event, info/debug ones mapped to the store's
    log statements. ``group``: an event no record or statement explains gets the id of a
    template learnt from the log (``drain``). With ``jobs`` > 1 and a log of several
    chunks, chunks are parsed and ranked in worker processes (each with its own store and
    index; with a layout, every worker reads every chunk and ranks its share of the
    entries: ``shares``) and this process reads the reported records, a chunk at a time.
    An older wording (mine ``--history``) is answered with its site as it is now, as
    ``explain`` answers it (``lineage.follow_sites``).
    """
    named = layout_named(layout) if layout else None  # a bad pattern: before any reading
    starts: list[Layout | None] = [named]
    pieces = chunks(stream, summary, starts)
    first = list(itertools.islice(pieces, 2))
    found_layout = named or (detect(first[0][1].splitlines()[:400]) if first else None)
    starts[0] = found_layout
    reading = _Reading(found_layout, all_levels, top, repo)
    pieces = itertools.chain(first, pieces)
    if jobs > 1 and len(first) > 1:
        ranked_chunks = _rank_in_workers(index, pieces, reading, jobs)
    else:
        ranked_chunks = (
            (first_line, _rank_chunk(index, chunk, reading)) for first_line, chunk in pieces
        )
    with young_collections_only():
        yield from _annotated(index, ranked_chunks, reading.top, summary, group)
    _READER.clear()  # the scan is over: its index may go


def _annotated(
    index: Index, ranked_chunks: Iterable[tuple[int, list[RankedEvent]]], top: int,
    summary: ScanSummary | None, group: bool,
) -> Iterator[ScannedEvent]:
    """The events of ranked chunks with their records read and weighed, in log order."""
    records: dict[str, StoredRecord] = {}
    encoder = JsonLines()
    drain = Drain() if group else None
    for first_line, ranked in ranked_chunks:
        wanted = {r.id for item in ranked for r in item.ranked} - records.keys()
        if len(records) > _CACHE_SIZE:
            records.clear()
            wanted = {r.id for item in ranked for r in item.ranked}
        records.update(index.store.get_many(wanted))
        for item in ranked:
            matches = materialize(item.ranked, records)
            if item.layout is not None:
                matches = weigh(matches, item.layout, top)
            matches = index.follow_sites(matches)  # an older wording: its site as it is now
            scanned = ScannedEvent(first_line + item.line - 1, item.text, matches, item.layout,
                                   item.statement, encoder=encoder)
            if drain is not None and not _explained(scanned):
                cluster = drain.add(item.message or item.text.partition("\n")[0])
                scanned.group, scanned.template = f"T{cluster.id}", cluster.template
            if summary is not None:
                summary.add(scanned)
            yield scanned


def _explained(event: ScannedEvent) -> bool:
    """Whether a record or a statement names the line that wrote the event."""
    return event.statement is not None or any(not m.approximate for m in event.matches)


def skipped_note(summary: ScanSummary) -> str:
    """The summary's line about over-long lines left out of the scan."""
    count = summary.skipped_lines
    return (f"{count:,} line{'' if count == 1 else 's'} over {MAX_INPUT_CHARS:,} characters "
            "skipped (not scanned): split such a line to scan it")


RankedEvent = Mapped  # one event of a chunk, ranked


@dataclass(frozen=True)
class _Reading:
    """How chunks are read: the log's layout (None: as pastes), which levels, how many."""

    layout: Layout | None
    all_levels: bool
    top: int
    repo: str | None

    def __reduce__(self) -> tuple[object, ...]:  # sent to workers: the regex, not its RE2
        layout = self.layout
        plain = None if layout is None else (layout.name, layout.regex, layout.container)
        return (_rebuild, (plain, self.all_levels, self.top, self.repo))


def _rebuild(plain: tuple[str, str, str | None] | None, all_levels: bool, top: int,
             repo: str | None) -> _Reading:
    return _Reading(None if plain is None else Layout(*plain), all_levels, top, repo)


def _rank_chunk(index: Index, chunk: str, reading: _Reading) -> list[RankedEvent]:
    """Each event of one chunk, ranked (repeated events ranked once, and the probe once per
    message shape: ``prefilter``)."""
    index.cache_shapes()
    if reading.layout is not None:
        return _reader(index, reading).rank(chunk)
    cache: dict[tuple[object, ...], list[Ranked]] = {}
    out: list[RankedEvent] = []
    for event in parse_events(chunk):
        if _quiet(event, chunk):
            continue
        key = (event.message, event.error_class, event.frames)
        found = cache.get(key)
        if found is None:
            found = cache[key] = index.rank_event(event, top=reading.top, repo=reading.repo)
        out.append(Mapped(_event_line(event), event.text, found, message=event.message))
    return out


_READER: list[tuple[Index, _Reading, EntryReader]] = []  # one per process: its cache lives on


def _reader(index: Index, reading: _Reading) -> EntryReader:
    """The entry reader of this scan, kept across its chunks (a worker's too)."""
    if not _READER or _READER[0][0] is not index or _READER[0][1] != reading:
        _READER[:] = [(index, reading, EntryReader(index, reading.layout or Layout(""),
                                                   reading.all_levels, reading.top,
                                                   reading.repo))]
    return _READER[0][2]


_LEVEL_WORD = frozenset({"INFO", "DEBUG", "TRACE", "NOTICE", "FINE", "VERBOSE"})


def _quiet(event: ErrorEvent, chunk: str) -> bool:
    """A chunk read whole as one message because no line of it is an error (lines of an
    INFO-only log): not an event."""
    if event.kind != "message" or event.error_class or event.text != chunk.strip():
        return False
    return "\n" in event.text or any(word in _LEVEL_WORD for word in event.text.split()[:4])


# In a worker, the index it ranks with. In the scanning process, while its pool starts
# workers, the index it loaded: a forked worker finds it there and binds its tables to a
# connection of its own (``Index.bound_to``) instead of loading them again.
_WORKER_INDEX: Index | None = None


def _open_worker_index(db: str) -> None:
    global _WORKER_INDEX
    die_with_parent()  # a killed scan leaves no worker behind
    young_collections_from_now()  # the worker lives for one scan
    loaded, store = _WORKER_INDEX, open_store(db)  # never the scanning process's connection
    shared = loaded is not None and str(loaded.store.path) == db
    _WORKER_INDEX = loaded.bound_to(store) if loaded is not None and shared else Index(store)


def _rank_chunk_in_worker(chunk: str, reading: _Reading) -> list[RankedEvent]:
    assert _WORKER_INDEX is not None
    return _rank_chunk(_WORKER_INDEX, chunk, reading)


def _rank_share_in_worker(chunk: str, reading: _Reading,
                          share: Share) -> tuple[list[int], list[RankedEvent]]:
    """This worker's share of a chunk's entries, ranked (``EntryReader.rank_share``)."""
    assert _WORKER_INDEX is not None
    _WORKER_INDEX.cache_shapes()
    return _reader(_WORKER_INDEX, reading).rank_share(chunk, share)


def _rank_in_workers(
    index: Index, pieces: Iterator[tuple[int, str]], reading: _Reading, jobs: int
) -> Iterator[tuple[int, list[RankedEvent]]]:
    """Chunks ranked by ``jobs`` processes, in log order, a bounded number in flight."""
    global _WORKER_INDEX
    db = str(index.store.path)
    _WORKER_INDEX = index  # what forked workers bind (``_open_worker_index``)
    try:
        yield from _ranked_by_pool(pieces, reading, jobs, db)
    finally:
        _WORKER_INDEX = None


def _ranked_by_pool(
    pieces: Iterator[tuple[int, str]], reading: _Reading, jobs: int, db: str
) -> Iterator[tuple[int, list[RankedEvent]]]:
    if reading.layout is not None:
        yield from _ranked_by_shares(pieces, reading, jobs, db)
        return
    with ProcessPoolExecutor(
        max_workers=jobs, mp_context=multiprocessing.get_context("fork"),
        initializer=_open_worker_index, initargs=(db,),
    ) as pool:
        pending: deque[tuple[int, Future[list[RankedEvent]]]] = deque()
        for first_line, chunk in pieces:
            pending.append((first_line, pool.submit(_rank_chunk_in_worker, chunk, reading)))
            if len(pending) >= 4 * jobs:
                line, future = pending.popleft()
                yield line, future.result()
        while pending:
            line, future = pending.popleft()
            yield line, future.result()


def _ranked_by_shares(
    pieces: Iterator[tuple[int, str]], reading: _Reading, jobs: int, db: str
) -> Iterator[tuple[int, list[RankedEvent]]]:
    """Chunks of a log of known layout, each read by every worker and ranked in shares
    (``shares``: a worker ranks the entries of its messages' openings in every chunk, so
    learns their shapes alone), the shares merged back in log order."""
    workers = ShareWorkers(jobs, _rank_share_in_worker, _open_worker_index, (db,))
    finished = False
    try:
        pending: deque[int] = deque()
        for first_line, chunk in pieces:
            workers.submit(chunk, reading)
            pending.append(first_line)
            if len(pending) >= 4 * jobs:
                yield pending.popleft(), _merged(workers.results())
        while pending:
            yield pending.popleft(), _merged(workers.results())
        finished = True
    finally:
        workers.close(finished)


def _merged(shares: list[tuple[list[int], list[RankedEvent]]]) -> list[RankedEvent]:
    """The events of a chunk's shares in log order (by their entries' positions; an
    entry's events all come from one share, in order)."""
    return [event for _, event in heapq.merge(
        *(zip(positions, events, strict=True) for positions, events in shares),
        key=itemgetter(0))]


def _event_line(event: ErrorEvent) -> int:
    return max(1, getattr(event, "line", 1) or 1)


def chunks(
    stream: Iterable[str], summary: ScanSummary | None = None,
    layout: list[Layout | None] | None = None,
) -> Iterator[tuple[int, str]]:
    """(first line number, text) pieces of a log, each ending before a new entry starts
    (``layout[0]``, once known: a line it reads; else a line that looks like a start).

    No piece is longer than ``MAX_INPUT_CHARS``; a line longer than that on its own
    is skipped (counted in ``summary.skipped_lines``), the pieces around it kept.
    """
    buffer: list[str] = []
    size = 0
    first = 1
    number = 0
    skipped = 0
    for number, line in enumerate(_bounded_lines(stream), 1):
        if line is None:  # over-long: what came before is one piece, the next starts after
            skipped += 1
            if buffer:
                yield first, "".join(buffer)
            buffer, size, first = [], 0, number + 1
            continue
        entry_ends = size >= CHUNK_CHARS and (
            _starts_entry(line, layout[0] if layout else None) or not buffer[-1].strip())
        if buffer and (entry_ends or size + len(line) > _HARD_LIMIT):
            yield first, "".join(buffer)
            buffer, size, first = [], 0, number
        buffer.append(line)
        size += len(line)
    if buffer:
        yield first, "".join(buffer)
    if summary is not None:
        summary.lines = number
        summary.skipped_lines = skipped


def _bounded_lines(stream: Iterable[str]) -> Iterator[str | None]:
    """Each line of ``stream``, or None for one longer than ``MAX_INPUT_CHARS``.

    A file is read with a bounded ``readline``, so an over-long line passes through
    in pieces of that size and never sits in memory whole.
    """
    readline = getattr(stream, "readline", None)
    if readline is None:
        for line in stream:
            yield None if len(line) > MAX_INPUT_CHARS else line
        return
    while True:
        line = readline(MAX_INPUT_CHARS + 1)
        if not line:
            return
        if len(line) <= MAX_INPUT_CHARS:
            yield line
            continue
        while line and not line.endswith("\n"):  # the rest of the over-long line
            line = readline(MAX_INPUT_CHARS)
        yield None


def _starts_entry(line: str, layout: Layout | None = None) -> bool:
    if layout is not None and layout.name != "journal":
        return layout.read(line.rstrip("\r\n")) is not None
    return bool(line) and (line[0].isdigit() or line[0] in "[{")
