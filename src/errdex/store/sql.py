"""The SQL both stores share, written once: migrating, reading and writing records.

Each record is kept whole as its seed-format JSON text (so an import followed by an
export gives back identical bytes) beside the columns lookups filter on. Every
write bumps a generation counter, which invalidates saved lookup indexes.

``SQLStore`` holds every method whose SQL is the same on both databases; the
``Dialect`` of ``schema`` supplies the fragments that differ in text (placeholders,
one list parameter, JSON field access, the full-text query). ``SQLiteStore``
(``sqlite``) and ``PostgresStore`` (``postgres``) add only what needs their own driver:
connecting, transactions and locking, streaming reads, and rewriting records for a new
commit. Rows become records and back in ``rows``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Protocol, Self

from errdex.errors import RecordNotFoundError, StoreError
from errdex.records.log_statements import LogStatement
from errdex.records.model import Record, RecordExtras, content_hash, now_iso
from errdex.records.stored import PreviousRecord, RepoState, StoredRecord
from errdex.records.text_sites import TextSite
from errdex.store import log_statements as logs_table
from errdex.store.rows import (
    RECORD_COLUMNS,
    STORED_COLUMNS,
    file_name,
    record_row,
    stored_record,
)
from errdex.store.schema import STORE_FORMAT_VERSION, Dialect
from errdex.store.text_sites import replace_text_sites, text_site_count, text_sites_by_lead
from errdex.store.writes import MineWrite
from errdex.templates.analysis import prefilter_words, shape_of

# Rows written or read per batch (and per streaming cursor fetch).
BATCH = 1000


class Rows(Protocol):
    """A cursor after ``execute``, as both drivers return it."""

    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...


# --- the shared store ----------------------------------------------------------------------


class SQLStore(ABC):
    """The methods of ``errdex.store.protocol.Store`` whose SQL both databases share."""

    dialect: Dialect
    migrations: list[str]
    # errors on which saving an index snapshot is skipped (read-only or busy database)
    snapshot_skips: tuple[type[BaseException], ...] = ()

    # what each database's store provides
    @abstractmethod
    def _run(self, query: str, args: Sequence[object] = ()) -> Rows:
        """Execute one statement (``query`` already in the driver's placeholders)."""

    @abstractmethod
    def _run_many(self, query: str, rows: Sequence[Sequence[object]]) -> None: ...

    @abstractmethod
    def transaction(self) -> AbstractContextManager[object]:
        """All or nothing: a failure (or a kill) leaves the previous data intact."""

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def _lock_migrations(self) -> None:
        """Inside the migration transaction: wait for any other process migrating."""

    @abstractmethod
    def _lock_repos(self, repos: Iterable[str]) -> None:
        """Inside a write transaction: queue behind other writers of these repositories."""

    @abstractmethod
    def _run_script(self, script: str) -> None: ...

    @abstractmethod
    def _after_backfill_v2(self) -> None:
        """Fill what migration 2 added besides pattern ids and file names."""

    @abstractmethod
    def _restamp(self, where: str, args: Sequence[object], sha: str | None, at: str) -> None:
        """Point the records ``where`` selects at commit ``sha``, as mined ``at``."""

    @abstractmethod
    def _stream(self, query: str, args: Sequence[object]) -> Iterator[tuple[Any, ...]]:
        """The rows of a long read, not all held in memory."""

    # --- helpers ---------------------------------------------------------------------

    def _execute(self, query: str, args: Sequence[object] = ()) -> Rows:
        return self._run(self.dialect.sql(query), args)

    def _execute_many(self, query: str, rows: Iterable[Sequence[object]]) -> None:
        statement = self.dialect.sql(query)
        batch: list[Sequence[object]] = []
        for row in rows:
            batch.append(row)
            if len(batch) == BATCH:
                self._run_many(statement, batch)
                batch = []
        if batch:
            self._run_many(statement, batch)

    def _in(self, column: str, values: Iterable[object]) -> tuple[str, list[object]]:
        """A condition ``column IN values`` and its parameters."""
        return self.dialect.in_list(column, list(values))

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- schema ----------------------------------------------------------------------

    def format_version(self) -> int:
        if self._execute(self.dialect.meta_table_query).fetchone() is None:
            return 0
        row = self._execute("SELECT value FROM errdex_meta WHERE key = 'format_version'")
        found = row.fetchone()
        return int(found[0]) if found else 0

    def _check_version(self, where: str) -> int:
        version = self.format_version()
        if version > STORE_FORMAT_VERSION:
            raise StoreError(
                f"{where}: database format {version} is newer than this errdex supports "
                f"({STORE_FORMAT_VERSION}); upgrade errdex"
            )
        return version

    def _migrate(self, where: str) -> None:
        if self._check_version(where) == STORE_FORMAT_VERSION:
            return
        with self.transaction():
            # Two processes opening a new database at once: the second waits, then sees
            # the first one's tables.
            self._lock_migrations()
            version = self._check_version(where)
            if version == STORE_FORMAT_VERSION:
                return
            self._execute(
                "CREATE TABLE IF NOT EXISTS errdex_meta (key TEXT PRIMARY KEY, value TEXT)"
            )
            for number, script in enumerate(self.migrations[version:], version + 1):
                self._run_script(script)
                if number == 2 and version >= 1:
                    self._backfill_v2()
            self._execute(
                "INSERT INTO errdex_meta VALUES ('format_version', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(STORE_FORMAT_VERSION),),
            )

    def _backfill_v2(self) -> None:
        """Give version-1 rows their pattern ids and file names."""
        rows = self._execute("SELECT id, message_pattern, file_path FROM records").fetchall()
        pids = self._pattern_ids({pattern for _, pattern, _ in rows})
        self._execute_many(
            "UPDATE records SET pattern_id = ?, file_name = ? WHERE id = ?",
            [(pids[pattern], file_name(path), rid) for rid, pattern, path in rows],
        )
        self._after_backfill_v2()

    def _pattern_ids(self, patterns: set[str]) -> dict[str, int]:
        """The ids of distinct patterns, adding the new ones (with their prefilter words)."""
        wanted = sorted(patterns)
        found = self._pattern_id_rows(wanted)
        missing = [p for p in wanted if p not in found]
        if missing:
            shapes = [shape_of(p) for p in missing]
            self._execute_many(
                "INSERT INTO patterns (pattern, words, literal_length, groups) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (pattern) DO NOTHING",
                [(p, " ".join(prefilter_words(s)), s.literal_length, s.groups)
                 for p, s in zip(missing, shapes, strict=True)],
            )
            found.update(self._pattern_id_rows(missing))
        return found

    def _pattern_id_rows(self, patterns: list[str]) -> dict[str, int]:
        condition, values = self._in("pattern", patterns)
        rows = self._execute(f"SELECT pattern, pid FROM patterns WHERE {condition}", values)
        return {pattern: int(pid) for pattern, pid in rows}

    def _insert(self, rows: list[tuple[Record, RecordExtras | None, str]]) -> int:
        pids = self._pattern_ids({record.message_pattern for record, _, _ in rows})
        self._execute_many(
            f"INSERT INTO records ({RECORD_COLUMNS}) VALUES ({', '.join(['?'] * 14)})",
            ((*record_row(record, extras, digest), pids[record.message_pattern],
              file_name(record.file_path)) for record, extras, digest in rows),
        )
        return len(rows)

    def _delete(self, ids: Sequence[str]) -> list[tuple[str, int | None]]:
        """Delete records by id; the (repo, pattern id) each had."""
        condition, values = self._in("id", ids)
        return [tuple(row) for row in self._execute(
            f"DELETE FROM records WHERE {condition} RETURNING repo, pattern_id", values
        ).fetchall()]

    def _drop_unused_patterns(self, candidates: Iterable[int | None]) -> None:
        """Drop the patterns no record uses any more, among those a write may have orphaned."""
        condition, values = self._in("p.pid", sorted({c for c in candidates if c is not None}))
        self._execute(
            f"DELETE FROM patterns AS p WHERE {condition} AND NOT EXISTS "
            "(SELECT 1 FROM records r WHERE r.pattern_id = p.pid)",
            values,
        )

    def _bump_generation(self) -> None:
        """Mark the records changed: saved index snapshots are stale from now on.

        On PostgreSQL the row lock this takes is held to commit, ordering every
        writer's use of the shared patterns table.
        """
        self._execute(
            "INSERT INTO errdex_meta VALUES ('generation', '1') ON CONFLICT (key) "
            "DO UPDATE SET value = CAST(CAST(errdex_meta.value AS BIGINT) + 1 AS TEXT)"
        )

    def _drop_repo(self, repo: str, tables: tuple[str, ...]) -> None:
        """Remove a repository's records (and the patterns no other record uses) and its
        rows of ``tables``, in the caller's transaction."""
        self._lock_repos([repo])
        self._bump_generation()
        old = self._execute("DELETE FROM records WHERE repo = ? RETURNING pattern_id",
                            (repo,)).fetchall()
        self._drop_unused_patterns(row[0] for row in old)
        for table in tables:
            self._execute(f"DELETE FROM {table} WHERE repo = ?", (repo,))

    def generation(self) -> int:
        row = self._execute("SELECT value FROM errdex_meta WHERE key = 'generation'").fetchone()
        return int(row[0]) if row else 0

    def load_snapshot(self, generation: int, format_version: int) -> bytes | bytearray | None:
        row = self._execute(
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
                self._execute(
                    "INSERT INTO index_snapshot VALUES (1, ?, ?, ?) ON CONFLICT (id) "
                    "DO UPDATE SET generation = excluded.generation, "
                    "format = excluded.format, data = excluded.data",
                    (generation, format_version, data),
                )
        except self.snapshot_skips:  # a read-only or busy database: the index still works
            return

    # --- writing ---------------------------------------------------------------------

    def replace_repo(
        self, repo: str, records: list[tuple[Record, RecordExtras, str]], *,
        analyzed_sha: str | None, root: str | None = None, files: set[str] | None = None,
        miner_version: str | None = None, analyzed_at: str | None = None,
        texts: list[TextSite] | None = None, joined: bool = False,
        logs: Sequence[LogStatement] | None = None,
    ) -> int:
        """Write a mine of ``repo`` in one transaction (a kill leaves the previous state),
        or in the caller's open one when ``joined``; the repository's record count after.

        ``records`` are the fresh records of the files mined: every file, or only
        ``files`` (a re-mine of what changed). A current record of those files that is
        not among them is not deleted but marked removed at ``analyzed_sha``; records
        of other files stay and are restamped with the new commit.
        """
        analyzed_at = analyzed_at or now_iso()
        rows: list[tuple[Record, RecordExtras | None, str]] = list(records)
        fresh = sorted({record.id for record, _, _ in rows})
        is_fresh, fresh_ids = self._in("id", fresh)
        with nullcontext() if joined else self.transaction():
            self._lock_repos([repo])
            self._bump_generation()
            scope = "repo = ? AND removed_sha IS NULL"
            args: list[object] = [repo]
            if files is not None:
                in_mined, mined = self._in("file_path", sorted(files))
                self._restamp(f"{scope} AND NOT ({in_mined}) AND NOT ({is_fresh})",
                              [*args, *mined, *fresh_ids], analyzed_sha, analyzed_at)
                scope += f" AND {in_mined}"
                args.extend(mined)
            self._execute(
                f"UPDATE records SET removed_sha = ?, removed_at = ? WHERE {scope} "
                f"AND NOT ({is_fresh})",
                [analyzed_sha, analyzed_at, *args, *fresh_ids],
            )
            old = self._delete(fresh)
            self._insert(rows)
            self._drop_unused_patterns(pid for _, pid in old)
            if texts is not None:  # text sites of the files read are replaced, like records
                replace_text_sites(self, repo, texts, files)
            if logs is not None:  # so are the log statements below warning
                logs_table.replace_log_statements(self, repo, logs, files)
            current = self.count(repo)
            self._execute(
                "INSERT INTO repos (repo, analyzed_sha, analyzed_at, root, record_count, "
                "miner_version) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (repo) DO UPDATE "
                "SET analyzed_sha = excluded.analyzed_sha, analyzed_at = excluded.analyzed_at, "
                "root = excluded.root, record_count = excluded.record_count, "
                "miner_version = excluded.miner_version",
                (repo, analyzed_sha, analyzed_at, root, current, miner_version),
            )
        return current

    def write(self, mine: MineWrite) -> int:
        """Write a mine (``mining.extract.Extraction``) in one transaction; the records after."""
        return self.replace_repo(mine.repo, mine.rows, analyzed_sha=mine.sha, root=mine.root,
                                 files=mine.files, miner_version=mine.miner_version,
                                 analyzed_at=mine.analyzed_at, texts=mine.texts, logs=mine.logs)

    def text_sites(self, leads: Sequence[str], repo: str | None = None
                   ) -> list[tuple[str, TextSite]]:
        """(repo, text site) filed under any of ``leads`` (bounded per lead)."""
        return text_sites_by_lead(self, leads, repo)

    def text_site_count(self, repo: str | None = None) -> int:
        return text_site_count(self, repo)

    def log_statements(self, repo: str | None = None) -> list[LogStatement]:
        return list(logs_table.read_log_statements(self, repo))

    def log_statement_count(self, repo: str | None = None) -> int:
        return logs_table.log_statement_count(self, repo)

    def repo_state(self, repo: str) -> RepoState | None:
        row = self._execute(
            "SELECT analyzed_sha, miner_version FROM repos WHERE repo = ?", (repo,)
        ).fetchone()
        return RepoState(row[0], row[1]) if row else None

    def upsert(self, records: Iterable[tuple[Record, RecordExtras | None]]) -> int:
        """Add or replace records by id (import), in one transaction.

        An imported record replaces the stored one whole: a removed site becomes
        current again.
        """
        rows: list[tuple[Record, RecordExtras | None, str]] = [
            (record, extras, content_hash(record.error_message, record.source_code))
            for record, extras in records
        ]
        repos = sorted({record.repo for record, _, _ in rows})
        with self.transaction():
            self._lock_repos(repos)
            self._bump_generation()
            old = self._delete([record.id for record, _, _ in rows])
            count = self._insert(rows)
            self._drop_unused_patterns(pid for _, pid in old)
            self._execute_many(
                "INSERT INTO repos (repo, analyzed_sha, analyzed_at) VALUES (?, NULL, ?) "
                "ON CONFLICT (repo) DO NOTHING",
                [(repo, now_iso()) for repo in repos],
            )
            in_touched, touched = self._in("repo", sorted({r for r, _ in old} | set(repos)))
            self._execute(
                "UPDATE repos SET record_count = "
                f"(SELECT COUNT(*) FROM records WHERE records.repo = repos.repo) "
                f"WHERE {in_touched}",
                touched,
            )
        return count

    # --- reading ---------------------------------------------------------------------

    def previous_records(self, repo: str) -> dict[str, PreviousRecord]:
        """Every record of ``repo`` already stored, removed ones included (their slugs stay)."""
        rows = self._execute(
            f"SELECT id, slug, {self.dialect.json_text('record_json', 'contentChangedAt')}, "
            "content_hash, removed_sha IS NOT NULL, file_path FROM records WHERE repo = ?",
            (repo,),
        ).fetchall()
        return {
            rid: PreviousRecord(slug, changed, digest, bool(removed), path)
            for rid, slug, changed, digest, removed, path in rows
        }

    def count(self, repo: str | None = None, *, include_removed: bool = False) -> int:
        """How many current records (of one repo); removed ones too if asked."""
        where, args = _filter(repo, include_removed)
        return int(self._execute(f"SELECT COUNT(*) FROM records WHERE {where}", args)
                   .fetchone()[0])

    def repos(self) -> list[str]:
        return [r[0] for r in self._execute("SELECT repo FROM repos ORDER BY repo")]

    def records(
        self, repo: str | None = None, *, include_removed: bool = False
    ) -> Iterator[StoredRecord]:
        """Every current record (of one repo), in a stable order: repo, file, line."""
        where, args = _filter(repo, include_removed)
        query = (f"SELECT {STORED_COLUMNS} FROM records WHERE {where} "
                 "ORDER BY repo, file_path, line_number, id")
        for row in self._stream(self.dialect.sql(query), args):
            yield stored_record(*row)

    def get_many(self, ids: Iterable[str]) -> dict[str, StoredRecord]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:  # the common case of a lookup that found nothing: no query
            return {}
        condition, values = self._in("id", wanted)
        rows = self._execute(f"SELECT id, {STORED_COLUMNS} FROM records WHERE {condition}",
                             values)
        return {rid: stored_record(*row) for rid, *row in rows}

    def show(self, id_or_slug: str, repo: str | None = None) -> StoredRecord:
        """A record by id, or by slug (optionally ``owner/name:slug`` or with ``repo``)."""
        key = id_or_slug.strip()
        if ":" in key and repo is None:
            repo, key = key.rsplit(":", 1)
        row = self._execute(f"SELECT {STORED_COLUMNS} FROM records WHERE id = ?",
                            (key,)).fetchone()
        if row is None:
            query = f"SELECT {STORED_COLUMNS}, repo FROM records WHERE slug = ?"
            args = (key, repo) if repo else (key,)
            rows = self._execute(query + (" AND repo = ?" if repo else ""), args).fetchall()
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
        return stored_record(*row)

    def search(
        self, query: str, *, limit: int = 20, repo: str | None = None
    ) -> list[StoredRecord]:
        """Full-text search over messages, explanations and tags, best first; no input
        is query syntax (the dialect's ``search_terms``)."""
        terms = self.dialect.search_terms(query)
        if not terms:
            return []
        text = self.dialect.search_query
        args: list[object] = [terms]
        if repo:
            text += f" AND {self.dialect.search_repo_column} = ?"
            args.append(repo)
        text += f" ORDER BY {self.dialect.search_order} LIMIT ?"
        args.append(limit)
        return [stored_record(*row) for row in self._execute(text, args)]

    def pattern_rows(self) -> Iterator[tuple[int, str, str, int]]:
        """(pid, pattern, prefilter words, literal length) of every distinct pattern."""
        yield from self._execute("SELECT pid, pattern, words, literal_length FROM patterns")

    def pattern_words(self) -> Iterator[tuple[int, str]]:
        """(pid, prefilter words) of every distinct pattern: what the index is built from."""
        yield from self._execute("SELECT pid, words FROM patterns")

    def pattern_details(self, pattern_ids: list[int]) -> dict[int, tuple[str, int]]:
        """pid → (pattern, literal length) for the given patterns."""
        if not pattern_ids:
            return {}
        condition, values = self._in("pid", pattern_ids)
        rows = self._execute(
            f"SELECT pid, pattern, literal_length FROM patterns WHERE {condition}", values
        )
        return {pid: (pattern, literal) for pid, pattern, literal in rows}


def _filter(repo: str | None, include_removed: bool) -> tuple[str, tuple[str, ...]]:
    """The WHERE clause of ``count`` and ``records``."""
    where = "1 = 1" if include_removed else "removed_sha IS NULL"
    return (f"{where} AND repo = ?", (repo,)) if repo is not None else (where, ())


__all__ = ["BATCH", "Rows", "SQLStore"]
