"""The schema of an errdex database: one migration list for both databases, and the
``Dialect`` that fills in what differs between SQLite and PostgreSQL in SQL text.

The database carries its format version in ``errdex_meta``; an older one is migrated
on open (``SQLStore._migrate``), a newer one is refused rather than misread.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

STORE_FORMAT_VERSION = 10

# --- the dialect seam ----------------------------------------------------------------------


class Dialect(ABC):
    """The SQL text that differs between the databases; everything else is shared.

    Shared SQL is written with ``?`` placeholders and portable syntax (``ON CONFLICT``
    upserts, ``RETURNING``); a dialect rewrites placeholders and supplies fragments.
    """

    id_type = "INTEGER"  # a pattern id column
    serial_key = "INTEGER PRIMARY KEY"  # a pattern id the database assigns
    blob = "BLOB"
    search_schema = ""  # migration 2's full-text index, kept in sync with records
    meta_table_query = ""  # one row when errdex_meta exists
    # Full-text search: the stored columns of the live records matching one ``?`` (the
    # ``search_terms`` text), the repository column there, and the order, best first.
    search_query = ""
    search_repo_column = "repo"
    search_order = ""

    def sql(self, query: str) -> str:
        """``query`` with this driver's placeholders."""
        return query

    @abstractmethod
    def in_list(self, column: str, values: Sequence[object]) -> tuple[str, list[object]]:
        """The condition ``column`` is one of ``values``, and its parameters."""

    @abstractmethod
    def json_text(self, column: str, key: str) -> str:
        """The top-level ``key`` of the JSON text in ``column``, as text."""

    @abstractmethod
    def search_terms(self, query: str) -> str:
        """The full-text query for the user's free text, never a syntax error; ``""``
        when nothing in it can be searched for."""


# Each migration takes the database from version N to N+1; never change what a released
# one does. The dialect fills in types and the full-text schema.
def migrations(dialect: Dialect) -> list[str]:
    return [
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
        # 2: distinct patterns with their prefilter words (the lookup index), file names
        # for stack-frame lookups, and full-text search kept in sync with the records.
        f"""
        CREATE TABLE patterns (
            pid {dialect.serial_key},
            pattern TEXT NOT NULL UNIQUE,
            words TEXT NOT NULL,
            literal_length INTEGER NOT NULL,
            groups INTEGER NOT NULL
        );
        ALTER TABLE records ADD COLUMN pattern_id {dialect.id_type} REFERENCES patterns (pid);
        ALTER TABLE records ADD COLUMN file_name TEXT;
        CREATE INDEX records_pattern ON records (pattern_id);
        CREATE INDEX records_file_name ON records (file_name);
        {dialect.search_schema}
        """,
        # 3: a saved copy of the lookup index, valid while the store's generation is unchanged.
        f"""
        CREATE TABLE index_snapshot (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            generation {dialect.id_type} NOT NULL,
            format INTEGER NOT NULL,
            data {dialect.blob} NOT NULL
        );
        INSERT INTO errdex_meta VALUES ('generation', '0') ON CONFLICT (key) DO NOTHING;
        """,
        # 4: a site that disappears is kept, marked removed as of the commit that removed
        # it, so messages from older releases still resolve; repos remember how they were
        # mined.
        """
        ALTER TABLE records ADD COLUMN removed_sha TEXT;
        ALTER TABLE records ADD COLUMN removed_at TEXT;
        ALTER TABLE repos ADD COLUMN miner_version TEXT;
        CREATE INDEX records_current ON records (repo, removed_sha, file_path);
        """,
        # 5: text sites, the worded literals no record's template holds: lookup only, never
        # records. Filed by their first words (``lead``) so a lookup probes, never scans.
        """
        CREATE TABLE text_sites (
            repo TEXT NOT NULL,
            file_path TEXT NOT NULL,
            line_number INTEGER NOT NULL,
            text TEXT NOT NULL,
            lead TEXT NOT NULL,
            word_count INTEGER NOT NULL,
            github_url TEXT
        );
        CREATE INDEX text_sites_lead ON text_sites (lead, word_count);
        CREATE INDEX text_sites_file ON text_sites (repo, file_path);
        """,
        # 6: provenance of synced data: which published dataset (URL, version) a repository
        # was synced from, and the commit and mining time it came with (a local mine after
        # it changes those in ``repos``, and the repository is local again).
        """
        CREATE TABLE repo_origins (
            repo TEXT PRIMARY KEY,
            url TEXT NOT NULL,
            dataset_version TEXT NOT NULL,
            digest TEXT NOT NULL,
            analyzed_sha TEXT,
            analyzed_at TEXT NOT NULL,
            synced_at TEXT NOT NULL
        );
        CREATE TABLE synced_datasets (
            url TEXT PRIMARY KEY,
            dataset_version TEXT NOT NULL,
            manifest_sha256 TEXT NOT NULL,
            synced_at TEXT NOT NULL
        );
        """,
        # 7: log statements below warning (trace, debug, info, notice): indexed for scan
        # only, never records; replaced per file with the mine that found them.
        """
        CREATE TABLE log_statements (
            repo TEXT NOT NULL,
            file_path TEXT NOT NULL,
            line_number INTEGER NOT NULL,
            level TEXT NOT NULL,
            template TEXT NOT NULL,
            pattern TEXT NOT NULL,
            symbol TEXT,
            language TEXT,
            logger TEXT
        );
        CREATE INDEX log_statements_file ON log_statements (repo, file_path);
        """,
        # 8: history (``mine --history``): the releases mined, in order, and each record's
        # wording with the first and last release that printed it and the site it belongs
        # to now (a reworded site's old wordings point at its newest record).
        """
        CREATE TABLE releases (
            repo TEXT NOT NULL,
            name TEXT NOT NULL,
            sha TEXT NOT NULL,
            position INTEGER NOT NULL,
            mined_at TEXT NOT NULL,
            PRIMARY KEY (repo, name)
        );
        CREATE TABLE wordings (
            id TEXT PRIMARY KEY,
            repo TEXT NOT NULL,
            site_id TEXT NOT NULL,
            first_seen TEXT NOT NULL,
            last_seen TEXT NOT NULL
        );
        CREATE INDEX wordings_site ON wordings (site_id);
        CREATE INDEX wordings_repo ON wordings (repo);
        """,
        # 9: records by their error code (``errorCode`` in the record's JSON): a paste that
        # carries a code, or is one, finds the records raising it without a scan.
        f"""
        CREATE INDEX IF NOT EXISTS records_error_code
            ON records (({dialect.json_text("record_json", "errorCode")}));
        """,
        # 10: the pattern index holds the columns ranking reads (``CandidateRow``), so a
        # lookup's candidate records are read from the index alone, never from the rows
        # (whose large JSON puts those columns on overflow pages): 5x faster per lookup;
        # the repo second, so a lookup in one repository is not a walk over all its records.
        """
        DROP INDEX records_pattern;
        CREATE INDEX records_pattern ON records (pattern_id, repo, id, error_class, file_path,
                                                 line_number, removed_sha);
        """,
    ]


__all__ = ["STORE_FORMAT_VERSION", "Dialect", "migrations"]
