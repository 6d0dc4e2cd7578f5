"""The store interface, and choosing a store from ``--db``: a PostgreSQL URL, else SQLite.

Everything above the store (mining, lookups, import/export, servers) is written
against ``Store``, the protocol both ``SQLiteStore`` and ``PostgresStore`` satisfy
(checked statically: mypy --strict), with the record types it hands out (defined in
``errdex.records.stored``, re-exported here), and opens stores through ``open_store``
so that ``--db postgresql://…`` works wherever a path does. The implementations never
import this module (their shared parts are ``sql``, ``schema`` and ``urls``), so
opening a store is the one direction: protocol → implementation.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Protocol, Self, runtime_checkable

from errdex.errors import StoreError
from errdex.records.log_statements import LogStatement
from errdex.records.model import Record, RecordExtras
from errdex.records.stored import (
    CandidateRow,
    PreviousRecord,
    Removal,
    RepoState,
    StoredRecord,
    StoredText,
)
from errdex.records.text_sites import TextSite
from errdex.store.urls import is_postgres_url, redact
from errdex.store.writes import MineWrite

if TYPE_CHECKING:
    from errdex.store.postgres import PostgresStore
    from errdex.store.sqlite import SQLiteStore


@runtime_checkable
class Store(Protocol):
    """What mining, lookups, datasets and servers may use of a store (either backend)."""

    @property
    def path(self) -> str | os.PathLike[str]:
        """Where the database is: a SQLite file, or a PostgreSQL URL (to reopen it)."""
        ...

    def __enter__(self) -> Self: ...
    def __exit__(self, *exc: object) -> None: ...
    def close(self) -> None: ...
    def format_version(self) -> int: ...
    def generation(self) -> int: ...
    def load_snapshot(
        self, generation: int, format_version: int
    ) -> bytes | bytearray | None: ...
    def save_snapshot(self, generation: int, format_version: int, data: bytes) -> None: ...

    def replace_repo(
        self, repo: str, records: list[tuple[Record, RecordExtras, str]], *,
        analyzed_sha: str | None, root: str | None = None, files: set[str] | None = None,
        miner_version: str | None = None, analyzed_at: str | None = None,
        texts: list[TextSite] | None = None, logs: Sequence[LogStatement] | None = None,
    ) -> int: ...

    def write(self, mine: MineWrite) -> int:
        """Write one repository's mine in one transaction; its current record count."""
        ...

    def repo_state(self, repo: str) -> RepoState | None: ...
    def text_sites(self, leads: Sequence[str], repo: str | None = None
                   ) -> list[tuple[str, TextSite]]: ...
    def text_site_count(self, repo: str | None = None) -> int: ...
    def log_statements(self, repo: str | None = None) -> list[LogStatement]:
        """The log statements below warning (trace … notice), by repo, file and line."""
        ...
    def log_statement_count(self, repo: str | None = None) -> int: ...

    def upsert(self, records: Iterable[tuple[Record, RecordExtras | None]]) -> int: ...
    def previous_records(self, repo: str) -> dict[str, PreviousRecord]: ...
    def count(self, repo: str | None = None, *, include_removed: bool = False) -> int: ...
    def repos(self) -> list[str]: ...
    def records(
        self, repo: str | None = None, *, include_removed: bool = False
    ) -> Iterator[StoredRecord]: ...
    def get_many(self, ids: Iterable[str]) -> dict[str, StoredRecord]: ...
    def show(self, id_or_slug: str, repo: str | None = None) -> StoredRecord: ...

    def search(
        self, query: str, *, limit: int = 20, repo: str | None = None
    ) -> list[StoredRecord]: ...

    def pattern_rows(self) -> Iterator[tuple[int, str, str, int]]: ...
    def pattern_words(self) -> Iterator[tuple[int, str]]: ...
    def pattern_details(self, pattern_ids: list[int]) -> dict[int, tuple[str, int]]: ...

    def candidate_rows(
        self, pattern_ids: list[int], repo: str | None = None
    ) -> list[CandidateRow]: ...
    def candidate_records(
        self, pattern_ids: list[int], repo: str | None = None, most: int = 8
    ) -> tuple[list[CandidateRow], dict[str, StoredText]] | None: ...

    def rows_in_files(
        self, file_names: list[str], repo: str | None = None
    ) -> list[CandidateRow]: ...
    def rows_with_codes(
        self, codes: list[str], repo: str | None = None, limit: int = 50
    ) -> list[CandidateRow]: ...


if TYPE_CHECKING:

    def _both_are_stores(sqlite: SQLiteStore, postgres: PostgresStore) -> tuple[Store, Store]:
        """Never called: mypy checks here that both classes satisfy the protocol."""
        return sqlite, postgres


def open_store(db: str | os.PathLike[str] | None = None) -> Store:
    """The store ``db`` names: PostgreSQL for a ``postgresql://`` URL, else SQLite.

    ``None`` means ``$ERRDEX_DB`` (which may be a URL too), else the default SQLite file.
    """
    if db is None:
        db = os.environ.get("ERRDEX_DB") or None
    if is_postgres_url(db):
        try:
            from errdex.store.postgres import PostgresStore
        except ImportError as exc:
            raise StoreError(
                f"a PostgreSQL --db needs the 'postgres' extra ({exc.name} is missing): "
                "pip install 'errdex[postgres]'"
            ) from exc
        assert isinstance(db, str)
        return PostgresStore(db)
    from errdex.store.sqlite import SQLiteStore

    return SQLiteStore(db)


__all__ = [
    "PreviousRecord",
    "Removal",
    "Store",
    "StoredRecord",
    "is_postgres_url",
    "open_store",
    "redact",
]
