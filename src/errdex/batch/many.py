"""``mine-many``: mine a list of repositories (local paths or git URLs) into one store.

Why it is shaped this way:

- Each repository is isolated: its failure (missing path, bad URL, clone or mine
  error) becomes one line in the summary and is retried, never an exception that
  stops the others.
- Workers (``workers``: processes here, Ray tasks in ``ray_backend``) only *extract*
  records (``errdex.mining.extract``); the parent alone writes (``Store.write``), one
  transaction per repository, keyed by ``(repo, sha)`` so that a result delivered
  twice is written once. SQLite has one writer; this keeps it that way at any
  parallelism. The store is either backend (``--db`` a file or a PostgreSQL URL):
  only the ``Store`` protocol is used.
- A re-run is cheap: each entry is resolved to its commit first (``entries``) and
  skipped when the store already holds that repository at that commit.
- URLs are cloned shallow, without a checkout (mining reads git objects, not
  files), into a cache with a disk budget (``clones``).
"""

from __future__ import annotations

import heapq
import os
import time
from collections.abc import Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass, field
from typing import Literal

from errdex.batch.clones import DEFAULT_CACHE_BUDGET, CloneCache
from errdex.batch.entries import Entry, Resolved, parse_list, read_list, resolve
from errdex.batch.workers import (
    Backend,
    BeforeTask,
    MineTask,
    ProcessBackend,
    TaskResult,
    one_line,
)
from errdex.enrich import EnrichMode
from errdex.errors import ErrdexError
from errdex.mining.extract import Extraction, MineSummary, ProgressCallback, miner_version
from errdex.store.protocol import Store, open_store

# what mine-many's callers (the CLI, benchmarks) use, wherever it is defined
__all__ = [
    "DEFAULT_CACHE_BUDGET",
    "BatchMiner",
    "Entry",
    "ManySummary",
    "MineTask",
    "RepoOutcome",
    "Writer",
    "mine_many",
    "parse_list",
    "read_list",
]

_HEAD_START_S = 1.0  # how long resolution may run before the first task starts
_POLL_S = 0.05  # how long one look at the resolvers or the backend may block

Status = Literal["mined", "unchanged", "failed"]


# --- outcomes ---------------------------------------------------------------------------


@dataclass
class RepoOutcome:
    """What happened to one entry: the summary table's row."""

    entry: Entry
    status: Status
    repo: str | None = None
    sha: str | None = None
    records: int = 0
    seconds: float = 0.0
    attempts: int = 0
    reason: str | None = None
    summary: MineSummary | None = None


@dataclass
class ManySummary:
    """Every entry's outcome, in LIST order, and the wall time of the whole run."""

    outcomes: list[RepoOutcome] = field(default_factory=list)
    seconds: float = 0.0
    backend: str = "processes"

    def count(self, status: Status) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def mined(self) -> int:
        return self.count("mined")

    @property
    def unchanged(self) -> int:
        return self.count("unchanged")

    @property
    def failed(self) -> int:
        return self.count("failed")

    @property
    def records(self) -> int:
        return sum(o.records for o in self.outcomes if o.status == "mined")

    @property
    def ok(self) -> bool:
        return self.failed == 0


# --- writing (parent side) ----------------------------------------------------------------


class Writer:
    """The only writer: one transaction per repository, each ``(repo, sha)`` at most once.

    A retried task, a lost-then-recomputed Ray object or a repeated line can deliver
    the same result twice; the second is ignored, so records reach the store once.
    """

    def __init__(self, store: Store):
        self.store = store
        self.written: set[tuple[str, str]] = set()

    def write(self, extraction: Extraction) -> MineSummary | None:
        """The mine summary as ``errdex mine`` reports it, or None for a duplicate."""
        key = (extraction.repo, extraction.sha)
        if key in self.written:
            return None
        summary = extraction.summary
        summary.records = self.store.write(extraction)
        self.written.add(key)
        return summary


def is_current(store: Store, repo: str, sha: str, enrich: EnrichMode) -> bool:
    """Whether the store holds ``repo`` mined at ``sha`` by this errdex (same miner version)."""
    state = store.repo_state(repo)
    return (state is not None and state.analyzed_sha == sha
            and state.miner_version == miner_version(enrich))


def open_backend(jobs: int | None, ray_address: str | None, retries: int,
                 before_task: BeforeTask | None) -> Backend:
    """A Ray backend for ``ray_address`` (the extra, imported only then), else processes."""
    if ray_address is not None:
        from errdex.batch.ray_backend import RayBackend

        return RayBackend(ray_address, jobs=jobs, retries=retries, before_task=before_task)
    return ProcessBackend(max(1, jobs or os.cpu_count() or 1), before_task)


# --- the scheduler ------------------------------------------------------------------------


def mine_many(
    entries: Iterable[Entry],
    db: str | os.PathLike[str] | Store | None = None,
    *,
    jobs: int | None = None,
    ray_address: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    disk_budget_bytes: int = DEFAULT_CACHE_BUDGET,
    retries: int = 1,
    progress: ProgressCallback | None = None,
    enrich: EnrichMode = "static",
    before_task: BeforeTask | None = None,
) -> ManySummary:
    """Mine every entry into ``db`` (an open store, or what ``--db`` takes); failures are
    outcomes, never exceptions.

    ``ray_address`` (an address or ``"auto"``) runs each repository as a Ray task
    instead of a local process pool. ``before_task`` runs in the worker before each
    repository (tests inject faults with it; it must be picklable). Only a bad store, a
    missing Ray or an unreachable cluster raise.
    """
    started = time.perf_counter()
    workers = max(1, jobs or os.cpu_count() or 1)
    cache = CloneCache(cache_dir, disk_budget_bytes)
    cache.clean_stale()
    backend = open_backend(jobs, ray_address, retries, before_task)
    store: Store
    if db is None or isinstance(db, (str, os.PathLike)):
        store, owned = open_store(db), True
    else:
        store, owned = db, False
    try:
        miner = BatchMiner(list(entries), store, backend, cache, retries=retries, enrich=enrich,
                           progress=progress, resolvers=max(4, min(16, workers * 2)))
        outcomes = miner.run()
    finally:
        backend.close()
        if owned:
            store.close()
    return ManySummary(outcomes, time.perf_counter() - started, backend.name)


def mark_duplicate(outcome: RepoOutcome, first_line: int, first_sha: str) -> None:
    """A line naming a repository that an earlier line already mines."""
    if outcome.sha == first_sha:
        outcome.status = "unchanged"
        outcome.reason = f"same repository and commit as line {first_line}"
    else:
        outcome.status = "failed"
        outcome.reason = (f"{outcome.repo} is already listed at line {first_line} (at "
                          f"{first_sha[:12]}); the store keeps one commit per repository")


@dataclass
class _Line:
    """Where one LIST line stands: its outcome, and whether a worker ever got it / it ended."""

    outcome: RepoOutcome
    started: bool = False  # handed to a worker at least once
    done: bool = False  # its outcome is final (a queued line found a duplicate is done too)


class BatchMiner:
    """One mine-many run: resolve (threads) → skip or queue (largest first) → run (backend)
    → write (here, the only writer).

    Each repository is claimed by the first LIST line naming it; a later line that
    resolved first but has not started yields to an earlier one.
    """

    def __init__(self, entries: list[Entry], store: Store, backend: Backend, cache: CloneCache,
                 *, retries: int, enrich: EnrichMode, progress: ProgressCallback | None,
                 resolvers: int = 4):
        self.entries = entries
        self.store = store
        self.backend = backend
        self.cache = cache
        self.retries = retries
        self.enrich = enrich
        self.progress = progress
        self.writer = Writer(store)
        self.lines = {e.line: _Line(RepoOutcome(e, "failed")) for e in entries}
        self.claims: dict[str, tuple[int, str]] = {}  # repo → the line (and commit) mining it
        self.queue: list[tuple[int, int, Resolved]] = []  # (-size, line): biggest, then LIST order
        self.resolving: dict[Future[Resolved], Entry] = {}
        self.resolver = ThreadPoolExecutor(max_workers=resolvers)
        self.in_flight = 0
        self.finished = 0

    def run(self) -> list[RepoOutcome]:
        """Every entry's outcome, in LIST order."""
        head_start = time.monotonic() + _HEAD_START_S
        with self.resolver:
            for entry in self.entries:
                self._resolve(entry)
            while self.resolving or self.queue or self.in_flight:
                if self.resolving and not self._collect_resolved(head_start):
                    continue
                self._dispatch()
                if self.in_flight:
                    self._collect_results()
        return [self.lines[e.line].outcome for e in self.entries]

    # --- resolving ------------------------------------------------------------------------

    def _resolve(self, entry: Entry) -> None:
        self.resolving[self.resolver.submit(resolve, entry)] = entry

    def _collect_resolved(self, head_start: float) -> bool:
        """Take in the resolutions that are ready; False while the head start still runs.

        Before the first task, resolution runs ahead briefly so that the biggest
        repositories start first; later, only what is ready is collected.
        """
        waiting = not self.in_flight and (not self.queue or time.monotonic() < head_start)
        ready, _ = wait_futures(list(self.resolving), timeout=_POLL_S if waiting else 0,
                                return_when=FIRST_COMPLETED)
        for future in ready:
            entry = self.resolving.pop(future)
            error = future.exception()
            if error is not None:
                self._resolve_failed(entry, error)
            else:
                self._resolved(entry, future.result())
        return not (waiting and self.resolving and time.monotonic() < head_start)

    def _resolve_failed(self, entry: Entry, error: BaseException) -> None:
        outcome = self.lines[entry.line].outcome
        outcome.attempts += 1
        if outcome.attempts <= self.retries:
            self._resolve(entry)
        else:
            self._finish(entry.line, one_line(error))

    def _resolved(self, entry: Entry, result: Resolved) -> None:
        """Skip a duplicate line or a repository already current; queue the rest."""
        outcome = self.lines[entry.line].outcome
        outcome.repo, outcome.sha = result.repo, result.sha
        claim = self.claims.get(result.repo)
        if claim and claim[0] > entry.line and not self.lines[claim[0]].started:
            # A later line resolved first but has not started: the earlier line wins.
            mark_duplicate(self.lines[claim[0]].outcome, entry.line, result.sha)
            self._finish(claim[0])
            claim = None
        if claim:
            mark_duplicate(outcome, *claim)
            self._finish(entry.line)
            return
        self.claims[result.repo] = (entry.line, result.sha)
        if is_current(self.store, result.repo, result.sha, self.enrich):
            outcome.status = "unchanged"
            self._finish(entry.line)
        else:
            self._enqueue(result)

    # --- running --------------------------------------------------------------------------

    def _enqueue(self, resolved: Resolved) -> None:
        heapq.heappush(self.queue, (-resolved.size_hint, resolved.entry.line, resolved))

    def _dispatch(self) -> None:
        """Hand queued repositories to the backend while it has free slots."""
        while self.queue and self.in_flight < self.backend.slots:
            chosen = heapq.heappop(self.queue)[2]
            line = self.lines[chosen.entry.line]
            if line.done:  # found a duplicate of an earlier line while queued
                continue
            line.started = True
            previous = self.store.previous_records(chosen.repo)  # read late: less held
            self.backend.submit(MineTask(chosen, self.enrich, str(self.cache.root),
                                         self.cache.budget, previous))
            self.in_flight += 1

    def _collect_results(self) -> None:
        for task, result in self.backend.wait(_POLL_S if self.resolving else None):
            self.in_flight -= 1
            self._task_done(task, result)

    def _task_done(self, task: MineTask, result: TaskResult) -> None:
        """Retry a failure while attempts remain; write an extraction once."""
        line = task.resolved.entry.line
        outcome = self.lines[line].outcome
        outcome.attempts += 1
        outcome.seconds += result.seconds
        if result.extraction is None:
            if outcome.attempts <= self.retries:
                self._enqueue(task.resolved)
            else:
                self._finish(line, result.reason)
            return
        try:
            summary = self.writer.write(result.extraction)
        except ErrdexError as exc:
            self._finish(line, one_line(exc))
            return
        if summary is None:  # a duplicate delivery: already written and counted
            return
        outcome.status, outcome.reason = "mined", None
        outcome.summary, outcome.records = summary, summary.records
        outcome.sha = result.extraction.sha
        self._finish(line)

    def _finish(self, line: int, reason: str | None = None) -> None:
        """A line's outcome is final: count it once for progress."""
        state = self.lines[line]
        if reason is not None:
            state.outcome.reason = reason
        if state.done:
            return
        state.done = True
        self.finished += 1
        if self.progress:
            self.progress(self.finished, len(self.entries))
