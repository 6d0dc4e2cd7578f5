"""Run ``mine-many`` on a Ray cluster: each repository is one Ray task.

Exactly once, by construction: a task is pure (clone into the node's cache, extract,
return the records) and never touches the store. Ray may run it again — a worker
that died is retried up to ``retries`` times (``max_retries``), a lost result object
is recomputed — but the driver consumes each task's single result once, and its
``Writer`` ignores a second delivery of the same ``(repo, sha)``. Application failures
(a bad clone, a mine error) come back as a reason, not an exception, and the driver
resubmits them up to ``retries`` times, like the process backend.

Local paths in the LIST must be readable on every node (a shared filesystem); URLs are
cloned by whichever node runs the task, into that node's cache.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

from errdex.batch.workers import MineTask, TaskResult, one_line, run_task
from errdex.errors import UsageError


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise UsageError(
            "--ray needs the 'ray' extra (ray is not installed): pip install 'errdex[ray]'"
        ) from exc
    return ray


def _check_reachable(address: str) -> None:
    """Fail in seconds on a wrong HOST:PORT (Ray itself keeps retrying for minutes)."""
    host, _, port = address.rpartition(":")
    if address == "auto" or "://" in address or not port.isdigit():
        return
    try:
        socket.create_connection((host or "127.0.0.1", int(port)), timeout=5).close()
    except OSError as exc:
        raise UsageError(
            f"--ray {address}: no Ray cluster answers there ({exc.strerror or exc}); "
            "start one with 'ray start --head' or pass its address"
        ) from exc


def _ray_task(task: MineTask, before_task: Callable[[MineTask], None] | None) -> TaskResult:
    """The remote function's body: the process backend's worker (``before_task``: a test hook
    that may kill the worker, to prove a retried task is written once)."""
    return run_task(task, before_task)


class RayBackend:
    """Submits ``run_task`` as Ray tasks; ``wait`` hands back finished ones as they land."""

    name = "ray"

    def __init__(self, address: str, *, jobs: int | None = None, retries: int = 1,
                 before_task: Callable[[MineTask], None] | None = None):
        ray = self.ray = _import_ray()
        self.owns_connection = not ray.is_initialized()
        if self.owns_connection:
            _check_reachable(address)
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False,
                         configure_logging=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise UsageError(
                    f"--ray {address}: cannot connect to a Ray cluster ({one_line(exc)}); "
                    "start one with 'ray start --head' or pass its address"
                ) from exc
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.slots = 2 * (jobs or cpus)
        self.remote = ray.remote(num_cpus=1, max_retries=retries, retry_exceptions=False)(
            _ray_task
        )
        self.before_task = before_task
        self.pending: dict[Any, MineTask] = {}

    def submit(self, task: MineTask) -> None:
        self.pending[self.remote.remote(task, self.before_task)] = task

    def wait(self, timeout: float | None) -> list[tuple[MineTask, TaskResult]]:
        if not self.pending:
            return []
        ready, _ = self.ray.wait(list(self.pending), num_returns=1, timeout=timeout)
        finished = []
        for ref in ready:
            task = self.pending.pop(ref)
            try:
                result = self.ray.get(ref)
            except Exception as exc:  # retries spent on a dying worker, or Ray itself failed
                result = TaskResult(reason=f"ray task failed: {one_line(exc)}")
            finished.append((task, result))
        return finished

    def close(self) -> None:
        for ref in self.pending:
            self.ray.cancel(ref, force=True)
        self.pending.clear()
        if self.owns_connection:
            self.ray.shutdown()
