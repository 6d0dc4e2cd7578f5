"""Mining every pinned dependency of a project at its version: downloads on threads (they
wait on the network), mining in worker processes (it waits on the CPU), overlapped so that
releases download while others are mined. Each failure is one outcome, never a stop.

A worker opens the store itself and writes its release (SQLite waits for the other
writers; a release is one short transaction after a long mine), so nothing but specs,
numbers and one-line reasons crosses between processes.
"""

from __future__ import annotations

import heapq
import multiprocessing
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Literal

from errdex.errors import ErrdexError
from errdex.packages.cache import ReleaseCache
from errdex.packages.identity import Identity
from errdex.packages.pins import Problem
from errdex.packages.release import build_release, mine_release
from errdex.packages.specs import PackageSpec, normalize_pypi_name
from errdex.store.protocol import Store, open_store

Status = Literal["mined", "stored", "failed"]
Fetch = Callable[[PackageSpec], object]
"""Downloads (and unpacks) one release into the cache that ``MineOne`` reads; thread-safe.
What it returns, when an int, is the release's size: larger releases are mined first."""
MineOne = Callable[[PackageSpec, str], "MinedRelease"]
"""Mines one release into the database at ``db`` (a path or URL); a module-level function,
so that worker processes can be handed it."""
ProgressCallback = Callable[[int, int], None]


@dataclass(frozen=True)
class MinedRelease:
    """What mining one release stored: its records and the repository they are filed under."""

    records: int
    repo: str | None = None
    already_stored: bool = False
    notes: tuple[str, ...] = ()  # what the registry said: yanked, a wheel for want of an sdist


@dataclass
class DepOutcome:
    """One dependency of the project: mined, already stored (skipped), or failed and why."""

    spec: PackageSpec
    status: Status = "failed"
    records: int = 0
    repo: str | None = None
    download_seconds: float = 0.0
    mine_seconds: float = 0.0
    reason: str = ""
    notes: tuple[str, ...] = ()


@dataclass
class DepsSummary:
    """A ``mine-deps`` run: one outcome per pinned release, in lockfile order; the lockfile
    entries that pinned nothing mineable; wall-clock seconds."""

    outcomes: list[DepOutcome] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """No release failed (entries that pin nothing are reported, not failures)."""
        return all(outcome.status != "failed" for outcome in self.outcomes)

    def count(self, status: Status) -> int:
        return sum(outcome.status == status for outcome in self.outcomes)

    @property
    def download_seconds(self) -> float:
        """Seconds spent downloading, summed over releases (they overlap in wall time)."""
        return sum(outcome.download_seconds for outcome in self.outcomes)

    @property
    def mine_seconds(self) -> float:
        """Seconds spent mining, summed over releases (they overlap in wall time)."""
        return sum(outcome.mine_seconds for outcome in self.outcomes)


def release_key(ecosystem: str | None, name: str, version: str) -> tuple[str, str, str]:
    """How a release is compared: PyPI names PEP 503-normalised."""
    eco = (ecosystem or "").lower()
    return eco, normalize_pypi_name(name) if eco == "pypi" else name, version


def stored_releases(store: Store, versions: set[str] | None = None) -> set[tuple[str, str, str]]:
    """The releases the store holds (``versions``: only those at one of these versions).

    A release is filed under ``OWNER/NAME@VERSION``, its package in every record's extras, so
    one record of each such repository says which release it is.
    """
    held: set[tuple[str, str, str]] = set()
    for repo in store.repos():
        _, at, version = repo.rpartition("@")
        if not at or (versions is not None and version not in versions):
            continue
        first = next(iter(store.records(repo)), None)
        extras = None if first is None else first.extras
        if extras is not None and extras.package and extras.package_version:
            held.add(release_key(extras.package_ecosystem, extras.package,
                                 extras.package_version))
    return held


def release_miner(cache_dir: Path | None = None,
                  npm_cwd: Path | None = None) -> tuple[Fetch, MineOne]:
    """The download and mine steps of registry releases, sharing one release cache: the
    download step builds the release's repository in the cache (``prepare_release``), the
    mine step (``mine_cached``, run in a worker) finds it there and mines it. ``npm_cwd``:
    the project folder, whose ``.npmrc`` npm then reads."""
    root = str(ReleaseCache(cache_dir).root)
    where = None if npm_cwd is None else str(npm_cwd)
    return (partial(prepare_release, cache_dir=root, npm_cwd=where),
            partial(mine_cached, cache_dir=root, npm_cwd=where))


def prepare_release(spec: PackageSpec, cache_dir: str, npm_cwd: str | None = None) -> int:
    """Download ``spec`` and build its repository in the cache, as ``mine_release`` would;
    the repository's size in bytes (what mining it will take, roughly)."""
    cache = ReleaseCache(cache_dir)
    cwd = None if npm_cwd is None else Path(npm_cwd)

    def build(target: Path) -> Identity:
        return build_release(spec, target, cache, npm_cwd=cwd)

    with cache.release(spec, build) as (root, _):
        return sum(entry.stat().st_size for entry in root.rglob("*") if entry.is_file())


def mine_cached(spec: PackageSpec, db: str, cache_dir: str,
                npm_cwd: str | None = None) -> MinedRelease:
    """Mine ``spec`` from the release cache into the store at ``db`` on this one core."""
    with open_store(db) as store:
        summary = mine_release(spec, store, cache=ReleaseCache(cache_dir), jobs=1,
                               npm_cwd=None if npm_cwd is None else Path(npm_cwd))
    return MinedRelease(summary.records, summary.repo, summary.already_stored,
                        tuple(summary.notes))


def one_line(error: BaseException) -> str:
    """An exception as one summary line (an errdex error's own message, else its type too)."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if isinstance(error, ErrdexError) else f"{type(error).__name__}: {text}"


def _timed_fetch(fetch: Fetch, spec: PackageSpec) -> tuple[float, int]:
    """Seconds the download took, and the release's size when ``fetch`` says it."""
    start = time.perf_counter()
    size = fetch(spec)
    return time.perf_counter() - start, size if isinstance(size, int) else 0


def _timed_mine(mine: MineOne, spec: PackageSpec, db: str) -> tuple[MinedRelease, float]:
    start = time.perf_counter()
    mined = mine(spec, db)
    return mined, time.perf_counter() - start


def _warm() -> None:
    """A task that does nothing: starts the worker processes before any thread exists."""


def mine_deps(
    specs: Iterable[PackageSpec], db: str, *, mine: MineOne, fetch: Fetch | None = None,
    jobs: int = 1, downloads: int = 4, skip: set[tuple[str, str, str]] | None = None,
    processes: bool = True, progress: ProgressCallback | None = None,
    problems: Iterable[Problem] = (),
) -> DepsSummary:
    """Mine each release of ``specs`` into ``db``: ``fetch`` on ``downloads`` threads, then
    ``mine`` on ``jobs`` worker processes (threads when not ``processes``), as each download
    ends. Releases in ``skip`` (see :func:`release_key`) are reported as already stored.
    """
    start = time.perf_counter()
    summary = DepsSummary(problems=list(problems))
    skip = skip or set()
    queued: list[DepOutcome] = []
    for spec in specs:
        outcome = DepOutcome(spec)
        summary.outcomes.append(outcome)
        if release_key(spec.ecosystem, spec.name, spec.version) in skip:
            outcome.status, outcome.reason = "stored", "already in the store"
        else:
            queued.append(outcome)
    total, done = len(queued), 0
    if progress is not None:
        progress(0, total)
    if queued:
        with _Workers(min(jobs, total), processes) as workers, \
                ThreadPoolExecutor(max_workers=max(1, downloads)) as downloader:
            for _ in _run(queued, db, mine, fetch, downloader, workers):
                done += 1
                if progress is not None:
                    progress(done, total)
    summary.seconds = time.perf_counter() - start
    return summary


class _Workers:
    """The mining pool: processes (forkserver, started before any download thread), or
    threads; a pool broken by a dead worker is replaced, failing only that worker's task."""

    def __init__(self, jobs: int, processes: bool):
        self.jobs, self.processes = max(1, jobs), processes
        self.pool = self._new()

    def _new(self) -> Executor:
        if not self.processes:
            return ThreadPoolExecutor(max_workers=self.jobs)
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=context)
        pool.submit(_warm).result()
        return pool

    def submit(self, mine: MineOne, spec: PackageSpec, db: str) -> Future[Any]:
        try:
            return self.pool.submit(_timed_mine, mine, spec, db)
        except BrokenProcessPool:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = self._new()
            return self.pool.submit(_timed_mine, mine, spec, db)

    def __enter__(self) -> _Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def _run(queued: list[DepOutcome], db: str, mine: MineOne, fetch: Fetch | None,
         downloader: Executor, workers: _Workers) -> Iterator[DepOutcome]:
    """Each outcome as it is settled. Downloads all start at once (``downloads`` threads);
    a downloaded release waits for a free worker, the largest first, so that a big release
    never starts last and leaves the other workers idle at the end."""
    pending: dict[Future[Any], tuple[str, DepOutcome]] = {}
    ready: list[tuple[int, int, DepOutcome]] = []  # (-size, lockfile order, outcome)
    for order, outcome in enumerate(queued):
        if fetch is None:
            heapq.heappush(ready, (0, order, outcome))
        else:
            future = downloader.submit(_timed_fetch, fetch, outcome.spec)
            pending[future] = ("fetch", outcome)
    orders = {id(outcome): order for order, outcome in enumerate(queued)}
    mining = 0
    while pending or ready:
        while ready and mining < workers.jobs:
            _, _, outcome = heapq.heappop(ready)
            pending[workers.submit(mine, outcome.spec, db)] = ("mine", outcome)
            mining += 1
        finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
        for future in finished:
            stage, outcome = pending.pop(future)
            if stage == "mine":
                mining -= 1
                _settle(outcome, future)
                yield outcome
                continue
            try:
                outcome.download_seconds, size = future.result()
            except Exception as exc:
                outcome.reason = one_line(exc)
                yield outcome
                continue
            heapq.heappush(ready, (-size, orders[id(outcome)], outcome))


def _settle(outcome: DepOutcome, future: Future[Any]) -> None:
    try:
        mined, seconds = future.result()
    except BrokenProcessPool:
        outcome.reason = "the worker process mining it died (out of memory?)"
    except Exception as exc:
        outcome.reason = one_line(exc)
    else:
        outcome.status = "stored" if mined.already_stored else "mined"
        outcome.records, outcome.repo, outcome.mine_seconds = mined.records, mined.repo, seconds
        outcome.notes = mined.notes
        if mined.already_stored:
            outcome.reason = "already in the store (same content)"
