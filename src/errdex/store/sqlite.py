"""The default store: one SQLite file (WAL), one writer at a time, FTS5 search.

What both stores share (schema, migrations, every read and write) is in
``errdex.store.sql``; this module adds what only SQLite needs: the file and its lock waits,
``BEGIN IMMEDIATE`` transactions, SQL placeholders and list parameters (``json_each``),
migration scripts split at statement ends, FTS5 search, and restamping records for
a new commit inside SQL.

WAL lets readers (explain, search, servers) run while a mine writes; a second writer
waits up to ``busy_timeout`` seconds for the first to commit, then fails with one
clear ``StoreError``, never sqlite3's raw "database is locked".
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from platformdirs import user_data_dir

from errdex.errors import StoreBusyError, StoreError, UsageError
from errdex.records.stored import StoredRecord
from errdex.store.candidates import CandidateQueries
from errdex.store.codes import CodeQueries
from errdex.store.schema import STORE_FORMAT_VERSION, Dialect, migrations
from errdex.store.sql import Rows, SQLStore

if TYPE_CHECKING:
    from sqlite3 import _Parameters

BUSY_TIMEOUT_ENV = "ERRDEX_BUSY_TIMEOUT"
DEFAULT_BUSY_TIMEOUT = 600.0
_SQLITE_BUSY, _SQLITE_LOCKED = 5, 6
_BLOB_PIECE = 1 << 20  # a saved index is read and written a mebibyte at a time
_INLINE_VALUES = 200  # longer lists go as one JSON array (SQLite allows 32766 parameters)


def _fts_document(row: str) -> str:
    """The (message, explanation, tags) a record is searched by; ``row`` is the table or
    alias its columns come from (``new`` in the insert trigger)."""
    fields = ("documentation", "triggerScenarios", "commonSituations", "solutions",
              "preventionTips")
    explanation = " || ' ' || ".join(
        f"coalesce(json_extract({row}.record_json, '$.{name}'), '')" for name in fields)
    return (
        f"{row}.error_message || ' ' || coalesce({row}.error_class, '') || ' ' || {row}.slug, "
        f"{explanation}, "
        f"coalesce(json_extract({row}.record_json, '$.backgroundTag'), '') || ' ' || "
        f"coalesce(json_extract({row}.record_json, '$.tags'), '')"
    )


class SQLiteDialect(Dialect):
    """``?`` placeholders; a long list is one JSON array parameter read by ``json_each``."""

    meta_table_query = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'errdex_meta'"
    # Full-text search kept in sync with records by triggers.
    search_schema = f"""
        CREATE VIRTUAL TABLE records_fts USING fts5 (
            message, explanation, tags, tokenize = 'unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER records_fts_insert AFTER INSERT ON records BEGIN
            INSERT INTO records_fts (rowid, message, explanation, tags)
            VALUES (new.rowid, {_fts_document("new")});
        END;
        CREATE TRIGGER records_fts_delete AFTER DELETE ON records BEGIN
            DELETE FROM records_fts WHERE rowid = old.rowid;
        END;
    """

    def in_list(self, column: str, values: Sequence[object]) -> tuple[str, list[object]]:
        if len(values) <= _INLINE_VALUES:  # the common, short list: plain placeholders
            return f"{column} IN ({', '.join('?' * len(values))})", list(values)
        return f"{column} IN (SELECT value FROM json_each(?))", [json.dumps(list(values))]

    def json_text(self, column: str, key: str) -> str:
        return f"json_extract({column}, '$.{key}')"

    # Each word a quoted FTS5 term (see ``fts_terms``); bm25 weighs message, explanation
    # and tags as 10 : 2 : 5.
    search_query = (
        "SELECT r.record_json, r.extras_json, r.removed_sha, r.removed_at FROM records_fts f "
        "JOIN records r ON r.rowid = f.rowid WHERE records_fts MATCH ? "
        "AND r.removed_sha IS NULL"
    )
    search_repo_column = "r.repo"
    search_order = "bm25(records_fts, 10.0, 2.0, 5.0)"

    def search_terms(self, query: str) -> str:
        return fts_terms(query)


SQLITE = SQLiteDialect()
MIGRATIONS = migrations(SQLITE)


def default_db_path() -> Path:
    """``$ERRDEX_DB``, else ``errdex.sqlite`` in the user data directory."""
    env = os.environ.get("ERRDEX_DB")
    if env:
        return Path(env).expanduser()
    return Path(user_data_dir("errdex", appauthor=False)) / "errdex.sqlite"


class _Connection(sqlite3.Connection):
    """A connection whose exhausted lock wait is one clear ``StoreError``.

    Every statement goes through ``execute``/``executemany``, so no caller ever sees
    SQLite's raw "database is locked".
    """

    database: Path = Path()
    busy_timeout: float = 0.0

    def execute(self, sql: str, parameters: _Parameters = (), /) -> sqlite3.Cursor:
        try:
            return super().execute(sql, parameters)
        except sqlite3.OperationalError as exc:
            raise self._locked(exc) or exc from exc

    def executemany(self, sql: str, parameters: Iterable[_Parameters], /) -> sqlite3.Cursor:
        try:
            return super().executemany(sql, parameters)
        except sqlite3.OperationalError as exc:
            raise self._locked(exc) or exc from exc

    def _locked(self, exc: sqlite3.OperationalError) -> StoreBusyError | None:
        if getattr(exc, "sqlite_errorcode", 0) & 0xFF not in (_SQLITE_BUSY, _SQLITE_LOCKED):
            return None
        return StoreBusyError(
            f"the database {self.database} is locked by another errdex process (waited "
            f"{self.busy_timeout:g}s; ${BUSY_TIMEOUT_ENV} sets how long); "
            "try again when it finishes"
        )


def busy_timeout_from_env() -> float:
    """Seconds a write waits for another writer's lock: ``$ERRDEX_BUSY_TIMEOUT`` or 600."""
    text = os.environ.get(BUSY_TIMEOUT_ENV, "").strip()
    if not text:
        return DEFAULT_BUSY_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < 1e7:
        raise UsageError(
            f"${BUSY_TIMEOUT_ENV}={text!r}: not a number of seconds; write e.g. 600"
        )
    return seconds


class SQLiteStore(CodeQueries, CandidateQueries, SQLStore):
    """An errdex database in one SQLite file. Use as a context manager or call ``close()``.

    A second writer waits up to ``busy_timeout`` seconds (default
    ``$ERRDEX_BUSY_TIMEOUT``, else 600) for the first to commit.
    """

    dialect = SQLITE
    migrations = MIGRATIONS
    snapshot_skips = (sqlite3.OperationalError, StoreError)

    def __init__(
        self, path: str | os.PathLike[str] | None = None, *, busy_timeout: float | None = None
    ):
        self.path = Path(path) if path is not None else default_db_path()
        timeout = busy_timeout_from_env() if busy_timeout is None else busy_timeout
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self.path, isolation_level=None, timeout=timeout, factory=_Connection
            )
            assert isinstance(conn, _Connection)
            conn.database, conn.busy_timeout = self.path, timeout
            self.conn = conn
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self._migrate(str(self.path))
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"{self.path}: not a usable errdex database ({exc}); pass another --db"
            ) from exc
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot open the database ({exc.strerror})") from exc

    def close(self) -> None:
        self.conn.close()

    def _run(self, query: str, args: Sequence[object] = ()) -> Rows:
        return self.conn.execute(query, args)

    def _run_many(self, query: str, rows: Sequence[Sequence[object]]) -> None:
        self.conn.executemany(query, rows)

    def _run_script(self, script: str) -> None:
        for statement in _statements(script):
            self.conn.execute(statement)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All or nothing: a failure (or a kill) leaves the previous data intact.

        ``BEGIN IMMEDIATE`` takes the one write lock at once (waiting for it if need
        be), so every write transaction, migrations included, runs alone.
        """
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def load_snapshot(self, generation: int, format_version: int) -> bytes | bytearray | None:
        """The saved index, read in pieces into one buffer: SQLite never holds a whole
        copy of it beside the caller's (a hundred megabytes at a million patterns). One
        read transaction: a writer saving another snapshot meanwhile is never half seen."""
        own = not self.conn.in_transaction
        if own:
            self.conn.execute("BEGIN")
        try:
            row = self.conn.execute(
                "SELECT rowid FROM index_snapshot WHERE id = 1 AND generation = ? AND format = ?",
                (generation, format_version),
            ).fetchone()
            if row is None:
                return None
            with self.conn.blobopen("index_snapshot", "data", row[0], readonly=True) as blob:
                data = bytearray(len(blob))
                for start in range(0, len(data), _BLOB_PIECE):
                    data[start:start + _BLOB_PIECE] = blob.read(_BLOB_PIECE)
            return data
        finally:
            if own:
                self.conn.execute("COMMIT")

    def save_snapshot(self, generation: int, format_version: int, data: bytes) -> None:
        """Keep a built index for the next reader; skipped when the store changed meanwhile.
        The row is made of zeros, then written in pieces: binding the bytes would have
        SQLite copy them whole (twice) while the caller still holds them."""
        try:
            with self.transaction():
                if self.generation() != generation:
                    return
                self.conn.execute(
                    "INSERT INTO index_snapshot VALUES (1, ?, ?, zeroblob(?)) ON CONFLICT (id) "
                    "DO UPDATE SET generation = excluded.generation, "
                    "format = excluded.format, data = excluded.data",
                    (generation, format_version, len(data)),
                )
                view = memoryview(data)
                with self.conn.blobopen("index_snapshot", "data", 1) as blob:
                    for start in range(0, len(view), _BLOB_PIECE):
                        blob.write(view[start:start + _BLOB_PIECE])
        except self.snapshot_skips:  # a read-only or busy database: the index still works
            return

    def _lock_migrations(self) -> None:
        """Nothing more: ``BEGIN IMMEDIATE`` already keeps every other writer out."""

    def _lock_repos(self, repos: Iterable[str]) -> None:
        """Nothing more: ``BEGIN IMMEDIATE`` already keeps every other writer out."""

    def _after_backfill_v2(self) -> None:
        """Version-1 rows get their search entries, as the insert trigger writes them."""
        self.conn.execute(
            "INSERT INTO records_fts (rowid, message, explanation, tags) "
            f"SELECT rowid, {_fts_document('records')} FROM records"
        )

    def _restamp(self, where: str, args: Sequence[object], sha: str | None, at: str) -> None:
        self.conn.execute(
            "UPDATE records SET record_json = json_set(record_json, '$.githubUrl', "
            "replace(json_extract(record_json, '$.githubUrl'), "
            "json_extract(record_json, '$.analyzedSha'), ?), '$.analyzedSha', ?, "
            f"'$.analyzedAt', ?) WHERE {where}",
            [sha, sha, at, *args],
        )

    def _stream(self, query: str, args: Sequence[object]) -> Iterator[tuple[Any, ...]]:
        yield from self.conn.execute(query, args)


_FTS_WORD = re.compile(r"\w+", re.UNICODE)


def fts_terms(query: str) -> str:
    """A safe FTS5 query for free text: quoted words, all required, the last as a prefix."""
    words = _FTS_WORD.findall(query)[:32]
    if not words:
        return ""
    quoted = [f'"{word}"' for word in words]
    quoted[-1] += "*"
    return " ".join(quoted)


def _statements(script: str) -> Iterator[str]:
    """Split a migration script into statements (trigger bodies hold semicolons too)."""
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                yield pending
            pending = ""


# StoredRecord (errdex.records.stored) stays importable from here.
__all__ = [
    "BUSY_TIMEOUT_ENV",
    "DEFAULT_BUSY_TIMEOUT",
    "MIGRATIONS",
    "SQLITE",
    "STORE_FORMAT_VERSION",
    "SQLiteStore",
    "StoredRecord",
    "busy_timeout_from_env",
    "default_db_path",
    "fts_terms",
]
