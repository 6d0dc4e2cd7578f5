"""The worker processes of a scan whose workers each rank their own share of every chunk.

A pool hands a task to whichever worker is free; a share (``shares``) must reach the same
worker every time, the one that learnt its line shapes, so each worker here has a queue of
its own. Every worker is forked before any thread starts in this process (a queue starts
its feeder thread with its first task): a process forked while another thread holds a
lock may deadlock. A worker's failure is raised here, with its traceback; a worker that
died is reported as such.
"""

from __future__ import annotations

import multiprocessing
import pickle
import queue
import traceback
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from typing import Any, Generic, TypeVar

__all__ = ["ShareWorkers", "WorkerDied"]

T = TypeVar("T")
_POLL_S = 1.0  # how often a wait for a result checks that its worker still lives


class WorkerDied(RuntimeError):
    """A worker process ended without answering (killed, out of memory)."""


class ShareWorkers(Generic[T]):
    """``jobs`` forked processes, each running ``initializer(*initargs)`` once, then
    ``function(*task, (worker, jobs))`` for each task sent to all of them, in order."""

    def __init__(self, jobs: int, function: Callable[..., T],
                 initializer: Callable[..., None], initargs: tuple[object, ...]):
        context = multiprocessing.get_context("fork")
        self.jobs = jobs
        self._tasks: list[Queue[Any]] = [context.Queue() for _ in range(jobs)]
        self._results: list[Queue[Any]] = [context.Queue() for _ in range(jobs)]
        self._processes: list[BaseProcess] = []
        try:
            for worker in range(jobs):
                process = context.Process(target=_serve, args=(
                    self._tasks[worker], self._results[worker], function, initializer,
                    initargs, (worker, jobs)), name=f"errdex-scan-{worker}")
                process.start()
                self._processes.append(process)
        except BaseException:
            self.close(finished=False)
            raise

    def submit(self, *task: object) -> None:
        """One task for every worker (each adds its share)."""
        for tasks in self._tasks:
            tasks.put(task)

    def results(self) -> list[T]:
        """Each worker's result of the oldest task not yet answered, in worker order."""
        return [self._result(worker) for worker in range(self.jobs)]

    def _result(self, worker: int) -> T:
        while True:
            try:
                answer = self._results[worker].get(timeout=_POLL_S)
            except queue.Empty:
                if not self._processes[worker].is_alive():
                    raise WorkerDied(f"scan worker {worker} ended without answering "
                                     f"(exit code {self._processes[worker].exitcode})") from None
                continue
            ok, value, trace = pickle.loads(answer)
            if not ok:
                value.add_note(f"in scan worker {worker}:\n{trace}")
                raise value
            return value  # type: ignore[no-any-return]

    def close(self, finished: bool = True) -> None:
        """Let the workers end (``finished``: every result read), else end them now."""
        for worker, process in enumerate(self._processes):
            if finished and process.is_alive():
                self._tasks[worker].put(None)
            else:
                process.terminate()
        for channel in (*self._tasks, *self._results):
            if not finished:
                channel.cancel_join_thread()  # nothing will read what it still holds
            channel.close()
        for process in self._processes:
            process.join()


def _serve(tasks: Queue[Any], results: Queue[Any], function: Callable[..., object],
           initializer: Callable[..., None], initargs: tuple[object, ...],
           share: tuple[int, int]) -> None:
    """A worker: each task's result (or its failure, with the traceback) until told to end.
    Pickled here, not in the queue's thread: what fails to pickle is reported, not lost."""
    initializer(*initargs)
    while (task := tasks.get()) is not None:
        try:
            answer = pickle.dumps((True, function(*task, share), ""), pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # raised in the scanning process
            answer = _failure(error, traceback.format_exc())
        results.put(answer)


def _failure(error: Exception, trace: str) -> bytes:
    try:
        return pickle.dumps((False, error, trace))
    except Exception:  # an exception that does not pickle: its text
        return pickle.dumps((False, RuntimeError(repr(error)), trace))
