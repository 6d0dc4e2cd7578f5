"""The mine pipeline: repository tree → sites → records, written to the store in one go.

This module only wires the stages together (``repo`` → ``languages`` →
``record``) and decides identity: ids, slugs and ``contentChangedAt`` carried
over from the previous mine of the same repository.

Files stream through: git's blob reader feeds worker processes a bounded
number of files at a time, each worker turns one file into finished records
(its text is dropped right after), so memory follows the number of records,
not the size of the repository.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field

from errdex.languages import LANGUAGES, Site
from errdex.record import (
    SCHEMA_VERSION,
    Record,
    RecordExtras,
    content_hash,
    empty_explanation,
    now_iso,
    record_id,
    source_window,
)
from errdex.repo import Forge, decode_source, load_tree, read_blobs
from errdex.store import PreviousRecord, Store
from errdex.template import Hole

# Below this many files a process pool costs more than it saves.
_PARALLEL_MIN_FILES = 64
# Files handed to one worker task, and tasks in flight per worker.
_BATCH_FILES = 16
_IN_FLIGHT_PER_WORKER = 4

ProgressCallback = Callable[[int, int], None]


@dataclass
class MinedRecord:
    """A record with the schema-3 facts that the seed format has no field for."""

    record: Record
    extras: RecordExtras
    content_hash: str


@dataclass
class MineSummary:
    """What one mine did, for the CLI summary and the API caller."""

    repo: str
    sha: str
    files_mined: int = 0
    records: int = 0
    by_language: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    partially_parsed: int = 0
    new: int = 0
    changed: int = 0
    removed: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class _Context:
    """What every file's records share (sent once to each worker)."""

    repo: str
    sha: str
    forge: Forge | None
    analyzed_at: str


@dataclass
class _FileOutcome:
    path: str
    language: str
    records: list[MinedRecord] = field(default_factory=list)
    skipped: str | None = None
    parse_errors: bool = False


def mine(
    path: str | os.PathLike[str],
    store: Store,
    *,
    repo: str | None = None,
    sha: str | None = None,
    jobs: int | None = None,
    progress: ProgressCallback | None = None,
) -> MineSummary:
    """Mine the repository holding ``path`` at ``sha`` and replace its records in ``store``."""
    started = time.perf_counter()
    tree = load_tree(path, repo=repo, revision=sha)
    summary = MineSummary(repo=tree.repo, sha=tree.sha, skipped=Counter(tree.skipped))
    context = _Context(tree.repo, tree.sha, tree.forge, now_iso())
    files = ((s.path, s.language.name, data) for s, data in read_blobs(tree.root, tree.files))
    workers = jobs or os.cpu_count() or 1
    if workers > 1 and len(tree.files) < _PARALLEL_MIN_FILES:
        workers = 1
    mined: list[MinedRecord] = []
    for done, outcome in enumerate(_mine_files(files, context, workers), 1):
        _account(summary, outcome)
        mined.extend(outcome.records)
        if progress:
            progress(done, len(tree.files))
    previous = store.previous_records(tree.repo)
    finish_records(mined, previous)
    summary.records = len(mined)
    summary.new = sum(1 for m in mined if m.record.id not in previous)
    summary.changed = sum(
        1 for m in mined
        if m.record.id in previous and m.record.contentChangedAt == m.record.analyzedAt
    )
    summary.removed = len(set(previous) - {m.record.id for m in mined})
    store.replace_repo(
        tree.repo, [(m.record, m.extras, m.content_hash) for m in mined],
        analyzed_sha=tree.sha, root=str(tree.root),
    )
    summary.seconds = time.perf_counter() - started
    return summary


def _account(summary: MineSummary, outcome: _FileOutcome) -> None:
    if outcome.skipped:
        summary.skipped[outcome.skipped] += 1
        return
    summary.files_mined += 1
    summary.by_language[outcome.language] += len(outcome.records)
    summary.partially_parsed += outcome.parse_errors


def _mine_files(
    files: Iterator[tuple[str, str, bytes]], context: _Context, workers: int
) -> Iterator[_FileOutcome]:
    """Each file's outcome; with several workers, a bounded number of batches in flight."""
    if workers == 1:
        for path, language, data in files:
            yield mine_file(context, path, language, data)
        return
    # forkserver: workers must not inherit the pipes of git's blob reader, or git never
    # sees end-of-input and the mine hangs at exit.
    context_mp = multiprocessing.get_context("forkserver")
    context_mp.set_forkserver_preload(["errdex.mining"])
    with ProcessPoolExecutor(max_workers=workers, mp_context=context_mp) as pool:
        pending: deque[Future[list[_FileOutcome]]] = deque()
        for batch in _batches(files, _BATCH_FILES):
            pending.append(pool.submit(mine_batch, context, batch))
            if len(pending) >= workers * _IN_FLIGHT_PER_WORKER:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()


def _batches(
    items: Iterable[tuple[str, str, bytes]], size: int
) -> Iterator[list[tuple[str, str, bytes]]]:
    batch: list[tuple[str, str, bytes]] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def mine_batch(context: _Context, batch: list[tuple[str, str, bytes]]) -> list[_FileOutcome]:
    """Worker entry point: several files' records in one round trip."""
    return [mine_file(context, path, language, data) for path, language, data in batch]


def mine_file(context: _Context, path: str, language: str, data: bytes) -> _FileOutcome:
    """One file's records, complete but for slugs and carried-over change times."""
    text, reason = decode_source(data)
    if reason or text is None:
        return _FileOutcome(path, language, skipped=reason or "unreadable")
    found = LANGUAGES[language].extract(data)
    lines = split_lines(text)
    outcome = _FileOutcome(path, language, parse_errors=found.parse_errors)
    seen_keys: Counter[tuple[str, ...]] = Counter()
    for site in sorted(found.sites, key=lambda s: s.line):
        normalized = site.template.normalized()
        key = (site.error_class or "", normalized, site.symbol or "")
        occurrence = seen_keys[key]
        seen_keys[key] += 1
        rid = record_id(context.repo, path, site.error_class, normalized, site.symbol, occurrence)
        outcome.records.append(_record(context, path, language, lines, site, rid))
    return outcome


def split_lines(text: str) -> list[str]:
    """Lines as tree-sitter counts them (``\\n`` only), without ``\\r`` or a final empty line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def hole_names(site: Site) -> list[str]:
    """A name per hole: the argument expression as written, else the placeholder itself."""
    return [h.name or h.spec for h in site.template.parts if isinstance(h, Hole)]


def _record(
    context: _Context, path: str, language: str, lines: list[str], site: Site, rid: str
) -> MinedRecord:
    window, start, end = source_window(lines, site.line)
    url = context.forge.permalink(context.sha, path, start, end) if context.forge else None
    record = Record(
        id=rid, repo=context.repo,
        slug=site.template.slug(fallback=site.error_class or site.symbol or "error"),
        errorCode=site.error_code, errorMessage=site.template.written,
        messagePattern=site.template.pattern(), errorType=site.error_type,
        errorClass=site.error_class, httpStatus=site.http_status, severity=site.severity,
        filePath=path, lineNumber=site.line, sourceCode=window, sourceCodeStart=start,
        sourceCodeEnd=end, githubUrl=url, **empty_explanation(), analyzedSha=context.sha,
        analyzedAt=context.analyzed_at, contentChangedAt=context.analyzed_at,
        schemaVersion=SCHEMA_VERSION,
    )
    extras = RecordExtras(language=language, enclosingSymbol=site.symbol,
                          holeNames=hole_names(site))
    return MinedRecord(record, extras, content_hash(site.template.written, window))


def finish_records(mined: list[MinedRecord], previous: dict[str, PreviousRecord]) -> None:
    """Order records by (file, line), carry over unchanged change times, assign slugs."""
    mined.sort(key=lambda m: (m.record.filePath, m.record.lineNumber, m.record.id))
    for m in mined:
        before = previous.get(m.record.id)
        if before and before.content_hash == m.content_hash:
            m.record.contentChangedAt = before.content_changed_at
    assign_slugs(mined, previous)


def assign_slugs(mined: list[MinedRecord], previous: dict[str, PreviousRecord]) -> None:
    """Unique slugs within the repo: a record keeps its earlier slug; others get -2, -3…

    New records are numbered in (file, line) order, so the order is stable for a tree.
    """
    taken: set[str] = set()
    kept: set[str] = set()
    for m in mined:
        before = previous.get(m.record.id)
        if before and before.slug not in taken:
            m.record.slug = before.slug
            taken.add(before.slug)
            kept.add(m.record.id)
    for m in mined:
        if m.record.id in kept:
            continue
        base = m.record.slug
        slug, n = base, 1
        while slug in taken:
            n += 1
            slug = f"{base}-{n}"
        m.record.slug = slug
        taken.add(slug)
