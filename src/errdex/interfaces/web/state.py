"""Admission control for lookups on a server's worker threads (web, MCP).

Each thread's store and the shared lookup index come from :class:`errdex.StorePool`.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class BusyError(Exception):
    """Every lookup slot and every place in the queue is taken."""


class LookupGate:
    """At most ``running`` lookups at once, at most ``waiting`` more queued; beyond that
    a lookup is refused at once (:class:`BusyError`).

    Lookups run on the server's worker threads, never on its event loop, but they are
    CPU work under one interpreter lock: without a bound, a burst of pastes would take
    every worker thread and the lock, and pages, static files and the API would wait
    behind them. Bounded, the rest of the server keeps answering and a flood is
    turned away early (503) instead of queueing without end.
    """

    def __init__(self, running: int | None = None, waiting: int = 8):
        self.running = running or max(2, min(8, os.cpu_count() or 2))
        self.waiting = waiting
        self._slots = threading.BoundedSemaphore(self.running)
        self._lock = threading.Lock()
        self.admitted = 0

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Hold a lookup slot for the ``with`` body (waiting in the queue if need be)."""
        with self._lock:
            if self.admitted >= self.running + self.waiting:
                raise BusyError(f"{self.admitted} lookups are running or queued")
            self.admitted += 1
        try:
            with self._slots:
                yield
        finally:
            with self._lock:
                self.admitted -= 1
