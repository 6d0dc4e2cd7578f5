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
from pathlib import Path

from errdex.lookup.index import Index
from errdex.store import Store

Fingerprint = tuple[int, int, int]


class StorePool:
    """One ``Store`` per thread over ``db_path``, and one shared lookup ``Index``."""

    def __init__(self, db_path: str | os.PathLike[str]):
        self.db_path = Path(db_path)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._index: Index | None = None
        self._fingerprint: Fingerprint | None = None
        self._generation = 0

    def store(self) -> Store:
        """This thread's store (opened on first use)."""
        store: Store | None = getattr(self._local, "store", None)
        if store is None:
            store = Store(self.db_path)
            self._local.store = store
        return store

    def index(self) -> Index:
        """The shared index, bound to this thread's store, current with the database."""
        store = self.store()
        version = store.conn.execute("PRAGMA data_version").fetchone()[0]
        local = self._local
        if getattr(local, "version", None) != version or local.generation != self._generation:
            fingerprint = _fingerprint(store)
            with self._lock:
                if self._index is None or fingerprint != self._fingerprint:
                    self._index = Index(store)
                    self._fingerprint = fingerprint
                    self._generation += 1
                local.view = copy.copy(self._index)
                local.view.store = store
                local.generation = self._generation
            local.version = version
        view: Index = local.view
        return view


def _fingerprint(store: Store) -> Fingerprint:
    """Changes whenever the set of patterns changes (patterns are only added or dropped)."""
    row = store.conn.execute(
        "SELECT COUNT(*), COALESCE(MAX(pid), 0), COALESCE(SUM(pid), 0) FROM patterns"
    ).fetchone()
    return int(row[0]), int(row[1]), int(row[2])
