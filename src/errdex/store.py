"""The store: records in SQLite (WAL), schema migrations in code, one transaction per mine.

Each record is kept whole as its seed-format JSON (so an import followed by an
export gives back identical bytes) beside the columns lookups filter on. The
database carries its format version in ``errdex_meta``; an older database is
migrated on open, a newer one is refused rather than misread.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_data_dir

from errdex.errors import RecordNotFoundError, StoreError
from errdex.record import Record, RecordExtras, content_hash, now_iso, record_json

STORE_FORMAT_VERSION = 1

# Each migration takes the database from version N to N+1; never edit a released one.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE repos (
        repo TEXT PRIMARY KEY,
        analyzed_sha TEXT,
        analyzed_at TEXT NOT NULL,
        root TEXT,
        record_count INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE records (
        id TEXT PRIMARY KEY,
        repo TEXT NOT NULL,
        slug TEXT NOT NULL,
        error_message TEXT NOT NULL,
        message_pattern TEXT NOT NULL,
        error_class TEXT,
        error_type TEXT NOT NULL,
        file_path TEXT NOT NULL,
        line_number INTEGER NOT NULL,
        content_hash TEXT,
        record_json TEXT NOT NULL,
        extras_json TEXT
    );
    CREATE INDEX records_repo ON records (repo, file_path);
    CREATE INDEX records_slug ON records (slug);
    """,
]


def default_db_path() -> Path:
    """``$ERRDEX_DB``, else ``errdex.sqlite`` in the user data directory."""
    env = os.environ.get("ERRDEX_DB")
    if env:
        return Path(env).expanduser()
    return Path(user_data_dir("errdex", appauthor=False)) / "errdex.sqlite"


@dataclass(frozen=True)
class PreviousRecord:
    """What a re-mine carries over from the last mine of the same site."""

    slug: str
    content_changed_at: str
    content_hash: str | None


@dataclass(frozen=True)
class StoredRecord:
    record: Record
    extras: RecordExtras


class Store:
    """An errdex database. Use as a context manager or call ``close()``."""

    def __init__(self, path: str | os.PathLike[str] | None = None):
        self.path = Path(path) if path is not None else default_db_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"{self.path}: not a usable errdex database ({exc}); pass another --db"
            ) from exc
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot open the database ({exc.strerror})") from exc

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.conn.close()

    # --- schema ---------------------------------------------------------------------

    def format_version(self) -> int:
        exists = self.conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='errdex_meta'"
        ).fetchone()
        if not exists:
            return 0
        row = self.conn.execute(
            "SELECT value FROM errdex_meta WHERE key='format_version'"
        ).fetchone()
        return int(row[0]) if row else 0

    def _migrate(self) -> None:
        version = self.format_version()
        if version > STORE_FORMAT_VERSION:
            raise StoreError(
                f"{self.path}: database format {version} is newer than this errdex supports "
                f"({STORE_FORMAT_VERSION}); upgrade errdex"
            )
        if version == STORE_FORMAT_VERSION:
            return
        with self.transaction():
            self.conn.execute(
                "CREATE TABLE IF NOT EXISTS errdex_meta (key TEXT PRIMARY KEY, value TEXT)"
            )
            for script in MIGRATIONS[version:]:
                for statement in script.split(";"):
                    if statement.strip():
                        self.conn.execute(statement)
            self.conn.execute(
                "INSERT OR REPLACE INTO errdex_meta VALUES ('format_version', ?)",
                (str(STORE_FORMAT_VERSION),),
            )

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All or nothing: a failure (or a kill) leaves the previous data intact."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # --- writing --------------------------------------------------------------------

    def replace_repo(
        self, repo: str, records: list[tuple[Record, RecordExtras, str]], *,
        analyzed_sha: str | None, root: str | None = None,
    ) -> None:
        """Swap in a repository's records (with content hashes) from a fresh mine, atomically."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM records WHERE repo = ?", (repo,))
            conn.executemany(
                "INSERT INTO records VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (_row(record, extras, digest) for record, extras, digest in records),
            )
            conn.execute(
                "INSERT OR REPLACE INTO repos VALUES (?,?,?,?,?)",
                (repo, analyzed_sha, now_iso(), root, len(records)),
            )

    def upsert(self, records: Iterable[tuple[Record, RecordExtras | None]]) -> int:
        """Add or replace records by id (import), in one transaction."""
        count = 0
        with self.transaction() as conn:
            for record, extras in records:
                conn.execute(
                    "INSERT OR REPLACE INTO records VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    _row(record, extras, content_hash(record.errorMessage, record.sourceCode)),
                )
                count += 1
            conn.execute(
                """INSERT OR IGNORE INTO repos (repo, analyzed_sha, analyzed_at)
                   SELECT DISTINCT repo, NULL, ? FROM records
                   WHERE repo NOT IN (SELECT repo FROM repos)""",
                (now_iso(),),
            )
            conn.execute(
                """UPDATE repos SET record_count =
                   (SELECT COUNT(*) FROM records WHERE records.repo = repos.repo)"""
            )
        return count

    # --- reading --------------------------------------------------------------------

    def previous_records(self, repo: str) -> dict[str, PreviousRecord]:
        rows = self.conn.execute(
            "SELECT id, slug, json_extract(record_json, '$.contentChangedAt'), content_hash "
            "FROM records WHERE repo = ?",
            (repo,),
        )
        return {rid: PreviousRecord(slug, changed, digest) for rid, slug, changed, digest in rows}

    def count(self, repo: str | None = None) -> int:
        if repo is None:
            return self.conn.execute("SELECT COUNT(*) FROM records").fetchone()[0]
        return self.conn.execute(
            "SELECT COUNT(*) FROM records WHERE repo = ?", (repo,)
        ).fetchone()[0]

    def repos(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT repo FROM repos ORDER BY repo")]

    def records(self, repo: str | None = None) -> Iterator[StoredRecord]:
        """Every record (of one repo), in a stable order: repo, file, line."""
        sql = "SELECT record_json, extras_json FROM records"
        args: tuple[str, ...] = ()
        if repo is not None:
            sql += " WHERE repo = ?"
            args = (repo,)
        sql += " ORDER BY repo, file_path, line_number, id"
        for record_text, extras_text in self.conn.execute(sql, args):
            yield _stored(record_text, extras_text)

    def get_many(self, ids: Iterable[str]) -> dict[str, StoredRecord]:
        wanted = list(dict.fromkeys(ids))
        found: dict[str, StoredRecord] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for rid, record_text, extras_text in self.conn.execute(
                f"SELECT id, record_json, extras_json FROM records WHERE id IN ({marks})", chunk
            ):
                found[rid] = _stored(record_text, extras_text)
        return found

    def show(self, id_or_slug: str, repo: str | None = None) -> StoredRecord:
        """A record by id, or by slug (optionally ``owner/name:slug`` or with ``repo``)."""
        key = id_or_slug.strip()
        if ":" in key and repo is None:
            repo, key = key.rsplit(":", 1)
        row = self.conn.execute(
            "SELECT record_json, extras_json FROM records WHERE id = ?", (key,)
        ).fetchone()
        if row is None:
            sql = "SELECT record_json, extras_json, repo FROM records WHERE slug = ?"
            args: tuple[str, ...] = (key,)
            if repo:
                sql += " AND repo = ?"
                args = (key, repo)
            rows = self.conn.execute(sql, args).fetchall()
            if len(rows) > 1:
                repos = ", ".join(sorted(r[2] for r in rows))
                raise RecordNotFoundError(
                    f"slug {key!r} is in several repositories ({repos}); "
                    f"write it as OWNER/NAME:{key} or pass --repo"
                )
            row = rows[0][:2] if rows else None
        if row is None:
            raise RecordNotFoundError(
                f"no record with id or slug {key!r}; try 'errdex explain' with the message"
            )
        return _stored(row[0], row[1])

    def index_rows(self) -> Iterator[tuple[str, str, str | None, str, str]]:
        """(id, pattern, errorClass, repo, extras_json) of every record, for the lookup index."""
        yield from self.conn.execute(
            "SELECT id, message_pattern, error_class, repo, extras_json FROM records"
        )

    def locations(self) -> Iterator[tuple[str, str, int, str]]:
        """(id, filePath, lineNumber, repo) of every record, for frame matching."""
        yield from self.conn.execute("SELECT id, file_path, line_number, repo FROM records")


def _row(record: Record, extras: RecordExtras | None, digest: str) -> tuple[object, ...]:
    return (
        record.id, record.repo, record.slug, record.errorMessage, record.messagePattern,
        record.errorClass, record.errorType, record.filePath, record.lineNumber, digest,
        record_json(record),
        json.dumps(extras.model_dump(mode="json"), separators=(",", ":")) if extras else None,
    )


def _stored(record_text: str, extras_text: str | None) -> StoredRecord:
    record = Record.model_validate_json(record_text)
    extras = RecordExtras.model_validate_json(extras_text) if extras_text else RecordExtras()
    return StoredRecord(record, extras)
