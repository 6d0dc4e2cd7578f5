"""Opening databases for the public API, and sharing one across server threads."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from errdex.lookup.index import Index
from errdex.store.protocol import Store, is_postgres_url
from errdex.store.protocol import open_store as _open_store

DbPath = str | os.PathLike[str] | None
"""A SQLite file, a ``postgresql://`` URL, or ``None`` for ``$ERRDEX_DB`` / the default file."""

Db = DbPath | Store
"""What every API function takes as ``db``: a path or URL, or a store already open."""


def open_store(db: DbPath = None) -> Store:
    """The store ``db`` names (PostgreSQL for a ``postgresql://`` URL, else SQLite), migrated
    to the current schema; use it as a context manager to close it."""
    return _open_store(db)


def open_index(db: Db = None) -> Index:
    """A lookup index over every record of ``db``.

    Building it saves its word table in the database, so the next reader opens it in one
    read; that is what ``warm_index=True`` on the writing functions does.
    """
    return Index(db if isinstance(db, Store) else open_store(db))


@contextmanager
def using_store(db: Db) -> Iterator[Store]:
    """``db`` itself when it is an open store (left open), else a store opened and closed here."""
    if isinstance(db, Store):
        yield db
        return
    with open_store(db) as store:
        yield store


class StorePool:
    """One store per thread over ``db_path`` (a file or a PostgreSQL URL), one shared index.

    SQLite connections belong to the thread that opened them, and servers answer on worker
    threads, so each thread gets its own store. The lookup index (every distinct pattern,
    possibly large) is built once and shared: each thread uses a shallow copy bound to its
    own store. It is rebuilt when another connection has changed the patterns (a mine or an
    import while serving).
    """

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
                index = self._index
            local.view = index.bound_to(store)
            local.generation = generation
        result: Index = local.view
        return result
