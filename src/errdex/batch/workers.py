"""What a mine-many worker does with one repository, and where workers run.

A worker is pure: it clones if needed and extracts (``errdex.mining.extract``), and
sends the ``Extraction`` back; it never opens the store. Backends (a local process
pool here, a Ray cluster in ``ray_backend``) share one small interface, ``Backend``.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_futures
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Protocol

from errdex.batch.clones import DEFAULT_CACHE_BUDGET, CloneCache
from errdex.batch.entries import Resolved
from errdex.enrich import EnrichMode
from errdex.errors import ErrdexError
from errdex.languages import language_for_path
from errdex.mining.extract import Extraction, extract
from errdex.repo.git import load_tree
from errdex.repo.processes import die_with_parent
from errdex.store.protocol import PreviousRecord

# --- one repository (worker side) ---------------------------------------------------------


def extract_repository(path: str | os.PathLike[str], *, repo: str, sha: str,
                       previous: dict[str, PreviousRecord] | None = None,
                       enrich: EnrichMode = "static") -> Extraction:
    """A full extraction of ``repo`` at ``sha`` on one core, not written.

    Always a full mine: a shallow clone has no older commit to diff with. ``previous`` is
    the store's snapshot of the repository (slugs and change times carry over from it),
    read by the parent, which alone writes.
    """
    tree = load_tree(path, repo=repo, revision=sha, classify=language_for_path)
    return extract(tree, previous or {}, jobs=1, enrich=enrich)


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


BeforeTask = Callable[[MineTask], None]


def run_task(task: MineTask, before_task: BeforeTask | None = None) -> TaskResult:
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
            extraction = extract_repository(entry.location, repo=resolved.repo,
                                            sha=resolved.sha, previous=task.previous,
                                            enrich=task.enrich)
        else:
            cache = CloneCache(task.cache_dir, task.cache_budget)
            with cache.checkout(entry.location, entry.ref, resolved.sha) as (root, sha):
                extraction = extract_repository(root, repo=resolved.repo, sha=sha,
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


# --- where tasks run ----------------------------------------------------------------------


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

    def __init__(self, jobs: int, before_task: BeforeTask | None = None):
        self.jobs = jobs
        self.before_task = before_task
        self.slots = jobs * 2
        self.pending: dict[Future[TaskResult], MineTask] = {}
        self.pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        # forkserver: workers must not inherit the pipes of the resolver threads' git calls.
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
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
            self._restart()
        return finished

    def _restart(self) -> None:
        lost = list(self.pending.values())
        self.pending.clear()
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = self._new_pool()
        for task in lost:
            self.submit(task)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)

