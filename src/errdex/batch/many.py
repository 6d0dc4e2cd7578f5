"""``mine-many``: mine a list of repositories (local paths or git URLs) into one store.

Why it is shaped this way:

- Each repository is isolated: its failure (missing path, bad URL, clone or mine
  error) becomes one line in the summary and is retried, never an exception that
  stops the others.
- Workers (processes here, Ray tasks in ``ray_backend``) only *extract* records;
  the parent alone writes, one transaction per repository, keyed by
  ``(repo, sha)`` so that a result delivered twice is written once. SQLite has one
  writer; this keeps it that way at any parallelism. The store is either backend
  (``--db`` a file or a PostgreSQL URL): only the ``Store`` protocol is used.
- A re-run is cheap: each entry is resolved to its commit first (``git rev-parse``
  for a path, ``git ls-remote`` for a URL) and skipped when the store already holds
  that repository at that commit.
- URLs are cloned shallow, without a checkout (mining reads git objects, not
  files), into a cache with a disk budget: least recently used clones are evicted,
  half-made clones are removed on failure.
"""

from __future__ import annotations

import heapq
import multiprocessing
import os
import re
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from errdex.batch.clones import (
    DEFAULT_CACHE_BUDGET as DEFAULT_CACHE_BUDGET,  # for mine-many's callers
)
from errdex.batch.clones import CloneCache, run_git
from errdex.enrich import EnrichMode
from errdex.errors import ErrdexError, RepositoryError, UsageError
from errdex.languages import language_for_path
from errdex.mining import run as mining
from errdex.mining.run import MineSummary, ProgressCallback
from errdex.records.model import Record, RecordExtras
from errdex.repo.git import detect_forge, find_root, parse_remote, resolve_sha
from errdex.repo.processes import die_with_parent
from errdex.store.protocol import Store, open_store
from errdex.store.sqlite import PreviousRecord, RepoState

_SHA = re.compile(r"^[0-9a-f]{40}$")
_URL_SCHEMES = ("https://", "http://", "ssh://", "git://", "file://")
_HEAD_START_S = 1.0  # how long resolution may run before the first task starts
_SCP = re.compile(r"^[\w.-]+@[\w.-]+:(?!//)")  # git@host:owner/name

Status = Literal["mined", "unchanged", "failed"]


# --- the list ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One line of a LIST: a local path or a git URL, with an optional ``@ref``."""

    line: int
    text: str  # as written, for the summary
    kind: Literal["path", "url"]
    location: str
    ref: str | None = None


def parse_list(text: str) -> list[Entry]:
    """Entries of a LIST: one a line; blank lines and ``#`` comments ignored."""
    entries = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = re.sub(r"(^|\s)#.*$", "", raw).strip()
        if line:
            entries.append(parse_entry(line, number))
    return entries


def read_list(path: str | os.PathLike[str]) -> list[Entry]:
    """The entries of a LIST file ('-' is stdin), or a UsageError naming the problem."""
    try:
        text = sys.stdin.read() if str(path) == "-" else Path(path).read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise UsageError(
            f"{path}: no such list file; give a file with one repository a line"
        ) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the list ({exc})") from exc
    entries = parse_list(text)
    if not entries:
        raise UsageError(f"{path}: no repositories listed (one path or git URL a line)")
    return entries


def parse_entry(line: str, number: int = 1) -> Entry:
    """Split ``location@ref``: the ``@`` of a ref comes after the start of the URL's path."""
    if line.startswith(_URL_SCHEMES) or _SCP.match(line):
        if "://" in line:
            scheme_end = line.index("://") + 3
            path_start = line.find("/", scheme_end)
        else:
            path_start = line.index(":")
        at = line.rfind("@")
        if path_start >= 0 and at > path_start:
            return Entry(number, line, "url", line[:at], line[at + 1 :] or None)
        return Entry(number, line, "url", line)
    if "@" in line and not Path(line).expanduser().exists():
        location, _, ref = line.rpartition("@")
        return Entry(number, line, "path", location, ref or None)
    return Entry(number, line, "path", line)


def parse_size(text: str) -> int:
    """Bytes in ``500M``, ``10G``, ``1.5T``, ``4096`` (binary units)."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*", text.lower())
    if not match:
        raise UsageError(f"{text!r}: not a size; write e.g. 500M, 10G or 4096")
    power = " kmgt".index(match.group(2) or " ")
    return int(float(match.group(1)) * 1024**power)


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


# --- resolving an entry to (repo, sha) ----------------------------------------------------


@dataclass(frozen=True)
class Resolved:
    """An entry with the repository name and commit it stands for (decides skip or mine)."""

    entry: Entry
    repo: str
    sha: str
    size_hint: int = 0  # bytes of source at that commit when known: big ones go first


def url_repo_name(url: str) -> str:
    """``owner/name`` of a URL, as ``errdex mine`` of its clone would file it."""
    if not url.startswith("file://"):
        forge = parse_remote(url)
        if forge is not None:
            return forge.repo
    name = url.rstrip("/").rsplit("/", 1)[-1]
    return name.removesuffix(".git") or url


def resolve(entry: Entry) -> Resolved:
    """The repository name and full commit sha an entry stands for (cheap: no clone)."""
    if entry.kind == "path":
        root, _ = find_root(entry.location)
        sha = resolve_sha(root, entry.ref)
        forge = detect_forge(root)
        return Resolved(entry, forge.repo if forge else root.name, sha, _source_bytes(root, sha))
    repo = url_repo_name(entry.location)
    if entry.ref and _SHA.match(entry.ref):
        return Resolved(entry, repo, entry.ref)
    ref = entry.ref or "HEAD"
    patterns = [ref] if ref == "HEAD" else [ref, f"{ref}^{{}}"]
    listing = run_git(["ls-remote", "--end-of-options", entry.location, *patterns], timeout=120)
    refs = {name: sha for sha, name in (ln.split("\t", 1) for ln in listing.splitlines() if ln)}
    for name in (ref, f"refs/heads/{ref}", f"refs/tags/{ref}^{{}}", f"refs/tags/{ref}"):
        if name in refs:
            return Resolved(entry, repo, refs[name])
    hint = "give a branch, a tag or a full 40-character sha" if entry.ref else "is it empty?"
    raise RepositoryError(f"{entry.location}: no ref {ref!r} on the remote; {hint}")


def _source_bytes(root: Path, sha: str) -> int:
    """Bytes of mineable source at ``sha``: the scheduling order (largest first)."""
    listing = run_git(["-C", str(root), "ls-tree", "-r", "-l", "-z", "--full-tree", sha])
    total = 0
    for item in listing.split("\0"):
        meta, _, path = item.partition("\t")
        fields = meta.split()
        if len(fields) == 4 and fields[3].isdigit() and language_for_path(path):
            total += int(fields[3])
    return total


# --- extracting records (worker side) -----------------------------------------------------


@dataclass
class Extraction:
    """A repository's mine, not yet written: what a worker sends back to the writer."""

    repo: str
    sha: str
    rows: list[tuple[Record, RecordExtras, str]]
    write_options: dict[str, Any]  # the rest of mining's replace_repo call, passed through
    summary: MineSummary


class _CaptureStore:
    """Stands in for the store inside a worker: ``mining.mine`` runs unchanged, reads the
    snapshot the parent sent, and its one write is kept for the parent to make."""

    def __init__(self, previous: dict[str, PreviousRecord]):
        self.previous = previous
        self.write: tuple[str, list[tuple[Record, RecordExtras, str]], dict[str, Any]] | None
        self.write = None

    def previous_records(self, repo: str) -> dict[str, PreviousRecord]:
        return dict(self.previous)

    def repo_state(self, repo: str) -> RepoState | None:
        return None  # always a full mine: a shallow clone has no older commit to diff with

    def replace_repo(self, repo: str, records: list[tuple[Record, RecordExtras, str]],
                     **options: Any) -> None:
        self.write = (repo, list(records), options)

    def count(self, repo: str | None = None, **_: Any) -> int:
        return len(self.write[1]) if self.write else 0

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"mine-many's worker store does not offer {name!r}; "
                             "mining.mine needs it now: add it to many._CaptureStore")


def extract_records(path: str | os.PathLike[str], *, repo: str, sha: str,
                    previous: dict[str, PreviousRecord] | None = None,
                    enrich: EnrichMode = "static") -> Extraction:
    """``mining.mine`` on one core, its store write captured instead of made.

    ``previous`` is the store's snapshot of the repository (slugs and change times carry
    over from it), read by the parent, which alone writes.
    """
    capture = _CaptureStore(previous or {})
    summary = mining.mine(path, capture, repo=repo, sha=sha, jobs=1, enrich=enrich, full=True)
    if capture.write is None:
        raise RepositoryError(f"{path}: the mine wrote nothing (internal error)")
    name, rows, options = capture.write
    return Extraction(name, summary.sha, rows, options, summary)


@dataclass(frozen=True)
class MineTask:
    """Everything a worker needs for one repository (picklable; no store handle)."""

    resolved: Resolved
    enrich: EnrichMode = "static"
    cache_dir: str | None = None
    cache_budget: int = DEFAULT_CACHE_BUDGET
    previous: dict[str, PreviousRecord] = field(default_factory=dict)


@dataclass
class TaskResult:
    """A worker's answer: the extraction, or the one-line reason it failed."""

    extraction: Extraction | None = None
    reason: str | None = None
    seconds: float = 0.0


def run_task(task: MineTask, before_task: Callable[[MineTask], None] | None = None) -> TaskResult:
    """Worker entry point: clone if needed, extract; never raises (a failure is a reason).

    ``before_task`` runs first, in the worker: tests inject faults with it.
    """
    started = time.perf_counter()
    resolved = task.resolved
    entry = resolved.entry
    try:
        if before_task is not None:
            before_task(task)
        if entry.kind == "path":
            extraction = extract_records(entry.location, repo=resolved.repo, sha=resolved.sha,
                                         previous=task.previous, enrich=task.enrich)
        else:
            cache = CloneCache(task.cache_dir, task.cache_budget)
            with cache.checkout(entry.location, entry.ref, resolved.sha) as (root, sha):
                extraction = extract_records(root, repo=resolved.repo, sha=sha,
                                             previous=task.previous, enrich=task.enrich)
            cache.enforce_budget()
    except Exception as exc:  # isolation: any failure is this repository's alone
        return TaskResult(reason=one_line(exc), seconds=time.perf_counter() - started)
    return TaskResult(extraction, seconds=time.perf_counter() - started)


def one_line(error: BaseException) -> str:
    """An error as one line for the summary table."""
    text = " ".join(str(error).split()) or type(error).__name__
    if not isinstance(error, ErrdexError):
        text = f"{type(error).__name__}: {text}"
    return text[:300]


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
        self.store.replace_repo(extraction.repo, extraction.rows, **extraction.write_options)
        summary = extraction.summary
        summary.records = self.store.count(extraction.repo)
        self.written.add(key)
        return summary


def is_current(store: Store, repo: str, sha: str, enrich: EnrichMode) -> bool:
    """Whether the store holds ``repo`` mined at ``sha`` by this errdex (same miner version)."""
    state = store.repo_state(repo)
    return (state is not None and state.analyzed_sha == sha
            and state.miner_version == mining.miner_version(enrich))


# --- backends -----------------------------------------------------------------------------


class Backend(Protocol):
    """Where tasks run: ``submit`` returns at once, ``wait`` blocks for finished ones."""

    name: str
    slots: int  # tasks worth keeping in flight

    def submit(self, task: MineTask) -> None: ...

    def wait(self, timeout: float | None) -> list[tuple[MineTask, TaskResult]]:
        """Finished tasks (none when ``timeout`` passes first)."""
        ...

    def close(self) -> None: ...


class ProcessBackend:
    """A pool of worker processes on this machine; a crashed worker fails only its task."""

    name = "processes"

    def __init__(self, jobs: int, before_task: Callable[[MineTask], None] | None = None):
        self.jobs = jobs
        self.before_task = before_task
        self.slots = jobs * 2
        self.pending: dict[Future[TaskResult], MineTask] = {}
        self.pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        # forkserver: workers must not inherit the pipes of the resolver threads' git calls.
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["errdex.batch.many"])
        return ProcessPoolExecutor(max_workers=self.jobs, mp_context=context,
                                   initializer=die_with_parent)  # no orphans if we are killed

    def submit(self, task: MineTask) -> None:
        self.pending[self.pool.submit(run_task, task, self.before_task)] = task

    def wait(self, timeout: float | None) -> list[tuple[MineTask, TaskResult]]:
        done, _ = wait_futures(list(self.pending), timeout=timeout, return_when=FIRST_COMPLETED)
        finished = []
        broken = False
        for future in done:
            task = self.pending.pop(future)
            try:
                finished.append((task, future.result()))
            except BrokenProcessPool:
                broken = True
                finished.append((task, TaskResult(reason="worker process crashed")))
            except Exception as exc:
                finished.append((task, TaskResult(reason=one_line(exc))))
        if broken:  # the pool is unusable: every task still in it is lost; run them again
            lost = list(self.pending.values())
            self.pending.clear()
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = self._new_pool()
            for task in lost:
                self.submit(task)
        return finished

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


# --- the driver ---------------------------------------------------------------------------


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
    before_task: Callable[[MineTask], None] | None = None,
) -> ManySummary:
    """Mine every entry into ``db`` (an open store, or what ``--db`` takes); failures are
    outcomes, never exceptions.

    ``ray_address`` (an address or ``"auto"``) runs each repository as a Ray task
    instead of a local process pool. ``before_task`` runs in the worker before each
    repository (tests inject faults with it; it must be picklable). Only a bad store, a
    missing Ray or an unreachable cluster raise.
    """
    started = time.perf_counter()
    entries = list(entries)
    workers = max(1, jobs or os.cpu_count() or 1)
    cache = CloneCache(cache_dir, disk_budget_bytes)
    cache.clean_stale()
    backend: Backend
    if ray_address is not None:
        from errdex.batch.ray_backend import RayBackend

        backend = RayBackend(ray_address, jobs=jobs, retries=retries, before_task=before_task)
    else:
        backend = ProcessBackend(workers, before_task)
    store: Store
    if db is None or isinstance(db, (str, os.PathLike)):
        store, owned = open_store(db), True
    else:
        store, owned = db, False
    try:
        outcomes = _drive(entries, store, backend, cache, workers, retries, enrich, progress)
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


def _drive(
    entries: list[Entry], store: Store, backend: Backend, cache: CloneCache, workers: int,
    retries: int, enrich: EnrichMode, progress: ProgressCallback | None,
) -> list[RepoOutcome]:
    """Resolve (threads) → skip or queue (largest first) → run (backend) → write (here)."""
    outcomes = {e.line: RepoOutcome(e, "failed") for e in entries}
    writer = Writer(store)
    claimed: dict[str, tuple[int, str]] = {}  # repo → the line (and commit) that mines it
    dispatched: set[int] = set()  # lines handed to a worker
    dropped: set[int] = set()  # lines found to be duplicates while queued
    finished_lines: set[int] = set()
    queue: list[tuple[int, int, Resolved]] = []  # (-size, line): biggest first, then LIST order
    in_flight = 0
    finished = 0
    head_start = time.monotonic() + _HEAD_START_S

    def finish(outcome: RepoOutcome, reason: str | None = None) -> None:
        nonlocal finished
        if reason is not None:
            outcome.reason = reason
        finished_lines.add(outcome.entry.line)
        finished += 1
        if progress:
            progress(finished, len(entries))

    with ThreadPoolExecutor(max_workers=max(4, min(16, workers * 2))) as resolver:
        resolving = {resolver.submit(resolve, e): e for e in entries}

        def resolved(entry: Entry, result: Resolved | BaseException) -> None:
            outcome = outcomes[entry.line]
            if isinstance(result, BaseException):
                outcome.attempts += 1
                if outcome.attempts <= retries:
                    resolving[resolver.submit(resolve, entry)] = entry
                else:
                    finish(outcome, one_line(result))
                return
            outcome.repo, outcome.sha = result.repo, result.sha
            claim = claimed.get(result.repo)
            if claim and claim[0] > entry.line and claim[0] not in dispatched:
                # A later line resolved first but has not started: the earlier line wins.
                dropped.add(claim[0])
                mark_duplicate(outcomes[claim[0]], entry.line, result.sha)
                if claim[0] not in finished_lines:
                    finish(outcomes[claim[0]])
                claim = None
            if claim:
                mark_duplicate(outcome, *claim)
                finish(outcome)
                return
            claimed[result.repo] = (entry.line, result.sha)
            if is_current(store, result.repo, result.sha, enrich):
                outcome.status = "unchanged"
                finish(outcome)
            else:
                heapq.heappush(queue, (-result.size_hint, entry.line, result))

        while resolving or queue or in_flight:
            if resolving:
                # Before the first task, let resolution run ahead briefly so the biggest
                # repositories start first; later, only collect what is ready.
                waiting = not in_flight and (not queue or time.monotonic() < head_start)
                ready, _ = wait_futures(list(resolving), timeout=0.05 if waiting else 0,
                                        return_when=FIRST_COMPLETED)
                for future in ready:
                    entry = resolving.pop(future)
                    error = future.exception()
                    resolved(entry, error if error is not None else future.result())
                if waiting and resolving and time.monotonic() < head_start:
                    continue
            while queue and in_flight < backend.slots:
                chosen = heapq.heappop(queue)[2]
                if chosen.entry.line in dropped:
                    continue
                dispatched.add(chosen.entry.line)
                previous = store.previous_records(chosen.repo)  # read late: less held
                backend.submit(MineTask(chosen, enrich, str(cache.root), cache.budget,
                                        previous))
                in_flight += 1
            if not in_flight:
                continue
            for task, result in backend.wait(0.05 if resolving else None):
                in_flight -= 1
                outcome = outcomes[task.resolved.entry.line]
                outcome.attempts += 1
                outcome.seconds += result.seconds
                if result.extraction is None:
                    if outcome.attempts <= retries:
                        heapq.heappush(queue, (-task.resolved.size_hint, outcome.entry.line,
                                               task.resolved))
                    else:
                        finish(outcome, result.reason)
                    continue
                try:
                    summary = writer.write(result.extraction)
                except ErrdexError as exc:
                    finish(outcome, one_line(exc))
                    continue
                if summary is None:  # a duplicate delivery: already written and counted
                    continue
                outcome.status, outcome.reason = "mined", None
                outcome.summary, outcome.records = summary, summary.records
                outcome.sha = result.extraction.sha
                finish(outcome)
    return [outcomes[e.line] for e in entries]
