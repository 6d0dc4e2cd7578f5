"""Thread-safe access to one errdex database for servers (web, MCP).

SQLite connections belong to the thread that opened them, and servers answer
on worker threads, so each thread gets its own ``Store``. The lookup ``Index``
(every distinct pattern, possibly large) is built once and shared: each thread
uses a shallow copy bound to its own store. It is rebuilt when another
connection has changed the patterns (a mine or an import while serving).
"""

from __future__ import annotations

import copy
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from errdex.lookup.index import Index
from errdex.store.protocol import Store, is_postgres_url, open_store


class StorePool:
    """One store per thread over ``db_path`` (a file or a PostgreSQL URL), one shared index."""

    def __init__(self, db_path: str | os.PathLike[str]):
        self.db_path: str | os.PathLike[str] = (
            str(db_path) if is_postgres_url(str(db_path)) else Path(db_path)
        )
        self._local = threading.local()
        self._lock = threading.Lock()
        self._index: Index | None = None
        self._index_generation: int | None = None

    def store(self) -> Store:
        """This thread's store (opened on first use)."""
        store: Store | None = getattr(self._local, "store", None)
        if store is None:
            store = open_store(self.db_path)
            self._local.store = store
        return store

    def index(self) -> Index:
        """The shared index, bound to this thread's store, current with the database.

        Every write bumps the store's generation, so a mine or an import made while
        serving is seen by the next request.
        """
        store = self.store()
        generation = store.generation()
        local = self._local
        if getattr(local, "generation", None) != generation:
            with self._lock:
                if self._index is None or self._index_generation != generation:
                    self._index = Index(store)
                    self._index_generation = generation
                view = copy.copy(self._index)
            view.store = store
            view._details = {}  # each thread its own caches
            view._last_probe = (None, ([], []))
            local.view = view
            local.generation = generation
        result: Index = local.view
        return result


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
