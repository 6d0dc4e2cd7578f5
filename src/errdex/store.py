"""The store: records in SQLite (WAL), schema migrations in code, one transaction per mine.

Each record is kept whole as its seed-format JSON (so an import followed by an
export gives back identical bytes) beside the columns lookups filter on. The
database carries its format version in ``errdex_meta``; an older database is
migrated on open, a newer one is refused rather than misread.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from platformdirs import user_data_dir

from errdex.errors import RecordNotFoundError, StoreError, UsageError
from errdex.lookup.patterns import prefilter_words, shape_of
from errdex.record import (
    Record,
    RecordExtras,
    content_hash,
    now_iso,
    record_json,
    trusted_record,
)

if TYPE_CHECKING:
    from sqlite3 import _Parameters

STORE_FORMAT_VERSION = 4
BUSY_TIMEOUT_ENV = "ERRDEX_BUSY_TIMEOUT"
DEFAULT_BUSY_TIMEOUT = 600.0
_SQLITE_BUSY, _SQLITE_LOCKED = 5, 6

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
    # 2: distinct patterns with their prefilter words (the lookup index), file names for
    # stack-frame lookups, and full-text search kept in sync by triggers.
    """
    CREATE TABLE patterns (
        pid INTEGER PRIMARY KEY,
        pattern TEXT NOT NULL UNIQUE,
        words TEXT NOT NULL,
        literal_length INTEGER NOT NULL,
        groups INTEGER NOT NULL
    );
    ALTER TABLE records ADD COLUMN pattern_id INTEGER REFERENCES patterns (pid);
    ALTER TABLE records ADD COLUMN file_name TEXT;
    CREATE INDEX records_pattern ON records (pattern_id);
    CREATE INDEX records_file_name ON records (file_name);
    CREATE VIRTUAL TABLE records_fts USING fts5 (
        message, explanation, tags, tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER records_fts_insert AFTER INSERT ON records BEGIN
        INSERT INTO records_fts (rowid, message, explanation, tags) VALUES (
            new.rowid,
            new.error_message || ' ' || coalesce(new.error_class, '') || ' ' || new.slug,
            coalesce(json_extract(new.record_json, '$.documentation'), '') || ' ' ||
            coalesce(json_extract(new.record_json, '$.triggerScenarios'), '') || ' ' ||
            coalesce(json_extract(new.record_json, '$.commonSituations'), '') || ' ' ||
            coalesce(json_extract(new.record_json, '$.solutions'), '') || ' ' ||
            coalesce(json_extract(new.record_json, '$.preventionTips'), ''),
            coalesce(json_extract(new.record_json, '$.backgroundTag'), '') || ' ' ||
            coalesce(json_extract(new.record_json, '$.tags'), '')
        );
    END;
    CREATE TRIGGER records_fts_delete AFTER DELETE ON records BEGIN
        DELETE FROM records_fts WHERE rowid = old.rowid;
    END;
    """,
    # 3: a saved copy of the lookup index, valid while the store's generation is unchanged.
    """
    CREATE TABLE index_snapshot (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        generation INTEGER NOT NULL,
        format INTEGER NOT NULL,
        data BLOB NOT NULL
    );
    INSERT OR IGNORE INTO errdex_meta VALUES ('generation', '0');
    """,
    # 4: a site that disappears is kept, marked removed as of the commit that removed it,
    # so messages from older releases still resolve; repos remember how they were mined.
    """
    ALTER TABLE records ADD COLUMN removed_sha TEXT;
    ALTER TABLE records ADD COLUMN removed_at TEXT;
    ALTER TABLE repos ADD COLUMN miner_version TEXT;
    CREATE INDEX records_current ON records (repo, removed_sha, file_path);
    """,
]


def _fts_document(row: str) -> str:
    """The (message, explanation, tags) a record is searched by, as migration 2's trigger
    writes them for ``new``; ``row`` is the table or alias the columns come from."""
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
    removed: bool = False
    file_path: str = ""


@dataclass(frozen=True)
class CandidateRow:
    """The columns ranking needs, before a record is read whole."""

    id: str
    pattern_id: int
    error_class: str | None
    repo: str
    file_path: str
    line_number: int
    removed_sha: str | None = None


_CANDIDATE_COLUMNS = "id, pattern_id, error_class, repo, file_path, line_number, removed_sha"
_RECORD_COLUMNS = (
    "id, repo, slug, error_message, message_pattern, error_class, error_type, file_path, "
    "line_number, content_hash, record_json, extras_json, pattern_id, file_name"
)


@dataclass(frozen=True)
class Removal:
    """When a site stopped existing: the commit mined without it, and when that was."""

    sha: str | None
    at: str | None


@dataclass(frozen=True)
class StoredRecord:
    record: Record
    extras: RecordExtras
    removed: Removal | None = None


@dataclass(frozen=True)
class RepoState:
    """How a repository was last mined (to re-mine only what changed since)."""

    analyzed_sha: str | None
    miner_version: str | None


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

    def _locked(self, exc: sqlite3.OperationalError) -> StoreError | None:
        if getattr(exc, "sqlite_errorcode", 0) & 0xFF not in (_SQLITE_BUSY, _SQLITE_LOCKED):
            return None
        return StoreError(
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


class SQLiteStore:
    """An errdex database in one SQLite file. Use as a context manager or call ``close()``.

    WAL lets readers (explain, search, servers) run while a mine writes; a second
    writer waits up to ``busy_timeout`` seconds for the first to commit (default
    ``$ERRDEX_BUSY_TIMEOUT``, else 600), then fails with one clear ``StoreError``.
    """

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
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"{self.path}: not a usable errdex database ({exc}); pass another --db"
            ) from exc
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot open the database ({exc.strerror})") from exc

    def __enter__(self) -> SQLiteStore:
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
            for number, script in enumerate(MIGRATIONS[version:], version + 1):
                for statement in _statements(script):
                    self.conn.execute(statement)
                if number == 2 and version >= 1:
                    self._backfill_v2()
            self.conn.execute(
                "INSERT OR REPLACE INTO errdex_meta VALUES ('format_version', ?)",
                (str(STORE_FORMAT_VERSION),),
            )

    def _backfill_v2(self) -> None:
        """Give version-1 rows their pattern ids, file names and search entries."""
        patterns: dict[str, int] = {}
        rows = self.conn.execute(
            "SELECT rowid, message_pattern, file_path FROM records"
        ).fetchall()
        for rowid, pattern, path in rows:
            self.conn.execute(
                "UPDATE records SET pattern_id = ?, file_name = ? WHERE rowid = ?",
                (self._pattern_id(pattern, patterns), _file_name(path), rowid),
            )
        # the same text as migration 2's insert trigger: explanations are searchable too
        self.conn.execute(
            "INSERT INTO records_fts (rowid, message, explanation, tags) "
            f"SELECT rowid, {_fts_document('records')} FROM records"
        )

    def _pattern_id(self, pattern: str, cache: dict[str, int]) -> int:
        """The id of a distinct pattern, adding it (with its prefilter words) if new."""
        pid = cache.get(pattern)
        if pid is not None:
            return pid
        row = self.conn.execute("SELECT pid FROM patterns WHERE pattern = ?", (pattern,)).fetchone()
        if row is None:
            shape = shape_of(pattern)
            words = " ".join(prefilter_words(shape))
            cursor = self.conn.execute(
                "INSERT INTO patterns (pattern, words, literal_length, groups) VALUES (?,?,?,?)",
                (pattern, words, shape.literal_length, shape.groups),
            )
            pid = cursor.lastrowid
            assert pid is not None
        else:
            pid = row[0]
        cache[pattern] = pid
        return pid

    def _insert(self, rows: Iterable[tuple[Record, RecordExtras | None, str]]) -> int:
        patterns: dict[str, int] = {}
        count = 0
        for record, extras, digest in rows:
            self.conn.execute(
                f"INSERT INTO records ({_RECORD_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (*_row(record, extras, digest),
                 self._pattern_id(record.messagePattern, patterns), _file_name(record.filePath)),
            )
            count += 1
        return count

    def _drop_unused_patterns(self) -> None:
        self.conn.execute(
            "DELETE FROM patterns WHERE NOT EXISTS "
            "(SELECT 1 FROM records WHERE records.pattern_id = patterns.pid)"
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

    def _bump_generation(self) -> None:
        """Mark the records changed: saved index snapshots are stale from now on."""
        self.conn.execute(
            "INSERT INTO errdex_meta VALUES ('generation', '1') ON CONFLICT (key) "
            "DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )

    def generation(self) -> int:
        row = self.conn.execute("SELECT value FROM errdex_meta WHERE key = 'generation'").fetchone()
        return int(row[0]) if row else 0

    def load_snapshot(self, generation: int, format_version: int) -> bytes | None:
        row = self.conn.execute(
            "SELECT data FROM index_snapshot WHERE id = 1 AND generation = ? AND format = ?",
            (generation, format_version),
        ).fetchone()
        return bytes(row[0]) if row else None

    def save_snapshot(self, generation: int, format_version: int, data: bytes) -> None:
        """Keep a built index for the next reader; skipped when the store changed meanwhile."""
        try:
            with self.transaction():
                if self.generation() != generation:
                    return
                self.conn.execute(
                    "INSERT OR REPLACE INTO index_snapshot VALUES (1, ?, ?, ?)",
                    (generation, format_version, data),
                )
        except (sqlite3.OperationalError, StoreError):  # read-only or busy: the index still works
            return

    # --- writing --------------------------------------------------------------------

    def replace_repo(
        self, repo: str, records: list[tuple[Record, RecordExtras, str]], *,
        analyzed_sha: str | None, root: str | None = None, files: set[str] | None = None,
        miner_version: str | None = None, analyzed_at: str | None = None,
    ) -> None:
        """Write a mine of ``repo`` in one transaction (a kill leaves the previous state).

        ``records`` are the fresh records of the files mined: every file, or only
        ``files`` (a re-mine of what changed). A current record of those files that is
        not among them is not deleted but marked removed at ``analyzed_sha``; records
        of other files stay and are restamped with the new commit.
        """
        analyzed_at = analyzed_at or now_iso()
        fresh = [record.id for record, _, _ in records]
        with self.transaction() as conn:
            self._bump_generation()
            conn.execute("CREATE TEMP TABLE IF NOT EXISTS fresh_ids (id TEXT PRIMARY KEY)")
            conn.execute("DELETE FROM fresh_ids")
            conn.executemany("INSERT OR IGNORE INTO fresh_ids VALUES (?)", [(i,) for i in fresh])
            scope, args = "repo = ? AND removed_sha IS NULL", [repo]
            if files is not None:
                conn.execute("CREATE TEMP TABLE IF NOT EXISTS mined_files (path TEXT PRIMARY KEY)")
                conn.execute("DELETE FROM mined_files")
                conn.executemany("INSERT OR IGNORE INTO mined_files VALUES (?)",
                                 [(f,) for f in files])
                restamp = (f"{scope} AND file_path NOT IN (SELECT path FROM mined_files) "
                           "AND id NOT IN (SELECT id FROM fresh_ids)")
                conn.execute(
                    "UPDATE records SET record_json = json_set(record_json, '$.githubUrl', "
                    "replace(json_extract(record_json, '$.githubUrl'), "
                    "json_extract(record_json, '$.analyzedSha'), ?), '$.analyzedSha', ?, "
                    f"'$.analyzedAt', ?) WHERE {restamp}",
                    [analyzed_sha, analyzed_sha, analyzed_at, *args],
                )
                scope += " AND file_path IN (SELECT path FROM mined_files)"
            conn.execute(
                f"UPDATE records SET removed_sha = ?, removed_at = ? WHERE {scope} "
                "AND id NOT IN (SELECT id FROM fresh_ids)",
                [analyzed_sha, analyzed_at, *args],
            )
            conn.execute("DELETE FROM records WHERE id IN (SELECT id FROM fresh_ids)")
            self._insert(records)
            self._drop_unused_patterns()
            current = conn.execute(
                "SELECT COUNT(*) FROM records WHERE repo = ? AND removed_sha IS NULL", (repo,)
            ).fetchone()[0]
            conn.execute(
                "INSERT OR REPLACE INTO repos (repo, analyzed_sha, analyzed_at, root, "
                "record_count, miner_version) VALUES (?,?,?,?,?,?)",
                (repo, analyzed_sha, analyzed_at, root, current, miner_version),
            )

    def repo_state(self, repo: str) -> RepoState | None:
        row = self.conn.execute(
            "SELECT analyzed_sha, miner_version FROM repos WHERE repo = ?", (repo,)
        ).fetchone()
        return RepoState(row[0], row[1]) if row else None

    def upsert(self, records: Iterable[tuple[Record, RecordExtras | None]]) -> int:
        """Add or replace records by id (import), in one transaction."""
        with self.transaction() as conn:
            self._bump_generation()
            rows = list(records)
            conn.executemany(
                "DELETE FROM records WHERE id = ?", [(record.id,) for record, _ in rows]
            )
            count = self._insert(
                (record, extras, content_hash(record.errorMessage, record.sourceCode))
                for record, extras in rows
            )
            self._drop_unused_patterns()
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
        """Every record of ``repo`` already stored, removed ones included (their slugs stay)."""
        rows = self.conn.execute(
            "SELECT id, slug, json_extract(record_json, '$.contentChangedAt'), content_hash, "
            "removed_sha IS NOT NULL, file_path FROM records WHERE repo = ?",
            (repo,),
        )
        return {
            rid: PreviousRecord(slug, changed, digest, bool(removed), path)
            for rid, slug, changed, digest, removed, path in rows
        }

    def count(self, repo: str | None = None, *, include_removed: bool = False) -> int:
        """How many current records (of one repo); removed ones too if asked."""
        sql = "SELECT COUNT(*) FROM records WHERE 1 = 1"
        args: tuple[str, ...] = ()
        if not include_removed:
            sql += " AND removed_sha IS NULL"
        if repo is not None:
            sql += " AND repo = ?"
            args = (repo,)
        return int(self.conn.execute(sql, args).fetchone()[0])

    def repos(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT repo FROM repos ORDER BY repo")]

    def records(
        self, repo: str | None = None, *, include_removed: bool = False
    ) -> Iterator[StoredRecord]:
        """Every current record (of one repo), in a stable order: repo, file, line."""
        sql = f"SELECT {_STORED_COLUMNS} FROM records WHERE 1 = 1"
        args: tuple[str, ...] = ()
        if not include_removed:
            sql += " AND removed_sha IS NULL"
        if repo is not None:
            sql += " AND repo = ?"
            args = (repo,)
        sql += " ORDER BY repo, file_path, line_number, id"
        for row in self.conn.execute(sql, args):
            yield _stored(*row)

    def get_many(self, ids: Iterable[str]) -> dict[str, StoredRecord]:
        wanted = list(dict.fromkeys(ids))
        found: dict[str, StoredRecord] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for rid, *row in self.conn.execute(
                f"SELECT id, {_STORED_COLUMNS} FROM records WHERE id IN ({marks})", chunk
            ):
                found[rid] = _stored(*row)
        return found

    def show(self, id_or_slug: str, repo: str | None = None) -> StoredRecord:
        """A record by id, or by slug (optionally ``owner/name:slug`` or with ``repo``)."""
        return find_record(id_or_slug, repo, self._by_id, self._by_slug)

    def _by_id(self, key: str) -> tuple[Any, ...] | None:
        row: tuple[Any, ...] | None = self.conn.execute(
            f"SELECT {_STORED_COLUMNS} FROM records WHERE id = ?", (key,)
        ).fetchone()
        return row

    def _by_slug(self, key: str, repo: str | None) -> list[tuple[Any, ...]]:
        sql = f"SELECT {_STORED_COLUMNS}, repo FROM records WHERE slug = ?"
        args: tuple[str, ...] = (key,)
        if repo:
            sql += " AND repo = ?"
            args = (key, repo)
        return self.conn.execute(sql, args).fetchall()

    def search(self, query: str, *, limit: int = 20, repo: str | None = None) -> list[StoredRecord]:
        """Full-text search over messages, explanations and tags, best first.

        The user's text is never FTS syntax: each word becomes a quoted term (all must
        appear; the last also matches as a prefix), so no input can cause an FTS error.
        """
        terms = fts_terms(query)
        if not terms:
            return []
        sql = (
            "SELECT r.record_json, r.extras_json, r.removed_sha, r.removed_at FROM records_fts f "
            "JOIN records r ON r.rowid = f.rowid WHERE records_fts MATCH ? "
            "AND r.removed_sha IS NULL"
        )
        args: list[object] = [terms]
        if repo:
            sql += " AND r.repo = ?"
            args.append(repo)
        sql += " ORDER BY bm25(records_fts, 10.0, 2.0, 5.0) LIMIT ?"
        args.append(limit)
        return [_stored(*row) for row in self.conn.execute(sql, args)]

    def pattern_rows(self) -> Iterator[tuple[int, str, str, int]]:
        """(pid, pattern, prefilter words, literal length) of every distinct pattern."""
        yield from self.conn.execute("SELECT pid, pattern, words, literal_length FROM patterns")

    def pattern_words(self) -> Iterator[tuple[int, str]]:
        """(pid, prefilter words) of every distinct pattern: what the index is built from."""
        yield from self.conn.execute("SELECT pid, words FROM patterns")

    def pattern_details(self, pattern_ids: list[int]) -> dict[int, tuple[str, int]]:
        """pid → (pattern, literal length) for the given patterns."""
        found: dict[int, tuple[str, int]] = {}
        for start in range(0, len(pattern_ids), 500):
            chunk = pattern_ids[start : start + 500]
            for pid, pattern, literal in self.conn.execute(
                "SELECT pid, pattern, literal_length FROM patterns "
                f"WHERE pid IN ({','.join('?' * len(chunk))})", chunk,
            ):
                found[pid] = (pattern, literal)
        return found

    def candidate_rows(self, pattern_ids: list[int], repo: str | None = None) -> list[CandidateRow]:
        """The records that raise any of these patterns (optionally of one repo)."""
        rows: list[CandidateRow] = []
        for start in range(0, len(pattern_ids), 500):
            chunk = pattern_ids[start : start + 500]
            sql = (f"SELECT {_CANDIDATE_COLUMNS} FROM records "
                   f"WHERE pattern_id IN ({','.join('?' * len(chunk))})")
            args: list[object] = list(chunk)
            if repo:
                sql += " AND repo = ?"
                args.append(repo)
            rows.extend(CandidateRow(*r) for r in self.conn.execute(sql, args))
        return rows

    def rows_in_files(self, file_names: list[str], repo: str | None = None) -> list[CandidateRow]:
        """The records in files with these base names (stack-frame lookups)."""
        if not file_names:
            return []
        sql = (f"SELECT {_CANDIDATE_COLUMNS} FROM records "
               f"WHERE file_name IN ({','.join('?' * len(file_names))})")
        args: list[object] = list(file_names)
        if repo:
            sql += " AND repo = ?"
            args.append(repo)
        return [CandidateRow(*r) for r in self.conn.execute(sql, args)]


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


def _file_name(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def _row(record: Record, extras: RecordExtras | None, digest: str) -> tuple[object, ...]:
    return (
        record.id, record.repo, record.slug, record.errorMessage, record.messagePattern,
        record.errorClass, record.errorType, record.filePath, record.lineNumber, digest,
        record_json(record),
        json.dumps(extras.model_dump(mode="json"), separators=(",", ":")) if extras else None,
    )


_STORED_COLUMNS = "record_json, extras_json, removed_sha, removed_at"


def find_record(
    id_or_slug: str, repo: str | None,
    by_id: Callable[[str], tuple[Any, ...] | None],
    by_slug: Callable[[str, str | None], list[tuple[Any, ...]]],
) -> StoredRecord:
    """``show`` for every store: an id, else a slug (``owner/name:slug`` or with ``repo``);
    the rows are ``_STORED_COLUMNS`` (and ``repo`` last, for slugs)."""
    key = id_or_slug.strip()
    if ":" in key and repo is None:
        repo, key = key.rsplit(":", 1)
    row = by_id(key)
    if row is None:
        rows = by_slug(key, repo)
        if len(rows) > 1:
            repos = ", ".join(sorted(r[-1] for r in rows))
            raise RecordNotFoundError(
                f"slug {key!r} is in several repositories ({repos}); "
                f"write it as OWNER/NAME:{key} or pass --repo"
            )
        row = rows[0][:-1] if rows else None
    if row is None:
        raise RecordNotFoundError(
            f"no record with id or slug {key!r}; try 'errdex explain' with the message"
        )
    return _stored(*row)


def _stored(
    record_text: str, extras_text: str | None, removed_sha: str | None = None,
    removed_at: str | None = None,
) -> StoredRecord:
    # Validated when written; reading back trusts it (validation would dominate lookups).
    record = trusted_record(json.loads(record_text))
    extras = RecordExtras.model_validate_json(extras_text) if extras_text else RecordExtras()
    removed = Removal(removed_sha, removed_at) if removed_sha or removed_at else None
    return StoredRecord(record, extras, removed)


def __getattr__(name: str) -> type[SQLiteStore]:
    """``errdex.store.Store``, the SQLite class's former name (``Store`` is now the
    protocol in ``errdex.stores``)."""
    if name == "Store":
        warnings.warn("errdex.store.Store is now SQLiteStore; the interface of both stores "
                      "is errdex.stores.Store", DeprecationWarning, stacklevel=2)
        return SQLiteStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
