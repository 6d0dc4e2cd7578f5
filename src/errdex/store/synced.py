"""What publishing and syncing read and write of a store beyond records: repository rows,
all text sites of a repository, and the provenance of synced repositories.

A repository is *synced* while its ``repo_origins`` row still names the commit and
mining time its ``repos`` row has: a local mine afterwards rewrites ``repos`` and the
repository is local again, without mining having to know about syncing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from errdex.errors import StoreError
from errdex.records.model import Record, RecordExtras, content_hash, now_iso
from errdex.records.text_sites import TextSite
from errdex.store.protocol import Store
from errdex.store.sql import SQLStore


@dataclass(frozen=True)
class RepoRow:
    """How a repository in the store was mined (or synced)."""

    repo: str
    analyzed_sha: str | None
    analyzed_at: str
    miner_version: str | None


@dataclass(frozen=True)
class Origin:
    """Where a synced repository came from; ``current`` is False once mined locally."""

    repo: str
    url: str
    dataset_version: str
    digest: str
    current: bool


@dataclass(frozen=True)
class SyncedRepo:
    """One repository of a published dataset, read and checked, ready to write."""

    repo: str
    commit: str | None
    analyzed_at: str
    miner_version: str | None
    digest: str
    records: list[tuple[Record, RecordExtras]]
    texts: list[TextSite]


def _sql(store: Store) -> SQLStore:
    if not isinstance(store, SQLStore):
        raise StoreError("syncing needs an errdex SQLite or PostgreSQL store")
    return store


def repo_rows(store: Store) -> dict[str, RepoRow]:
    """Every repository row, by name."""
    rows = _sql(store)._execute(
        "SELECT repo, analyzed_sha, analyzed_at, miner_version FROM repos ORDER BY repo"
    ).fetchall()
    return {r[0]: RepoRow(r[0], r[1], r[2], r[3]) for r in rows}


def repo_text_sites(store: Store, repo: str) -> list[TextSite]:
    """Every text site of ``repo`` once (the table holds one row per lead), in file order."""
    rows = _sql(store)._execute(
        "SELECT DISTINCT file_path, line_number, text, github_url FROM text_sites "
        "WHERE repo = ? ORDER BY file_path, line_number, text", (repo,)
    ).fetchall()
    return [TextSite(r[0], int(r[1]), r[2], r[3]) for r in rows]


def origins(store: Store, repos: Sequence[str] | None = None) -> dict[str, Origin]:
    """The origin of every synced repository (of ``repos``), current or superseded."""
    sql = _sql(store)
    query = ("SELECT o.repo, o.url, o.dataset_version, o.digest, o.analyzed_sha, "
             "o.analyzed_at, r.analyzed_sha, r.analyzed_at FROM repo_origins o "
             "LEFT JOIN repos r ON r.repo = o.repo")
    args: list[object] = []
    if repos is not None:
        if not repos:
            return {}
        condition, args = sql._in("o.repo", sorted(set(repos)))
        query += f" WHERE {condition}"
    found = {}
    for repo, url, version, digest, sha, at, now_sha, now_at in sql._execute(query, args):
        found[repo] = Origin(repo, url, version, digest, sha == now_sha and at == now_at)
    return found


def synced_version(store: Store, url: str) -> tuple[str, str] | None:
    """(dataset version, manifest sha256) last synced from ``url``."""
    row = _sql(store)._execute(
        "SELECT dataset_version, manifest_sha256 FROM synced_datasets WHERE url = ?", (url,)
    ).fetchone()
    return (row[0], row[1]) if row else None


def write_synced(
    store: Store, url: str, version: str, manifest_sha256: str, repos: list[SyncedRepo],
    dropped: Sequence[str] = (),
) -> None:
    """Write every repository of a sync and its origin in ONE transaction: a failure
    anywhere leaves the store as it was. ``dropped``: synced repositories the dataset
    no longer has, removed with their records."""
    sql = _sql(store)
    at = now_iso()
    with sql.transaction():
        for item in repos:
            rows = [(record, extras, content_hash(record.error_message, record.source_code))
                    for record, extras in item.records]
            sql.replace_repo(item.repo, rows, analyzed_sha=item.commit,
                             analyzed_at=item.analyzed_at, miner_version=item.miner_version,
                             texts=item.texts, joined=True)
            sql._execute("DELETE FROM repo_origins WHERE repo = ?", (item.repo,))
            sql._execute(
                "INSERT INTO repo_origins VALUES (?, ?, ?, ?, ?, ?, ?)",
                (item.repo, url, version, item.digest, item.commit, item.analyzed_at, at),
            )
        for repo in dropped:
            _drop_repo(sql, repo)
        sql._execute(
            "INSERT INTO synced_datasets VALUES (?, ?, ?, ?) ON CONFLICT (url) DO UPDATE SET "
            "dataset_version = excluded.dataset_version, "
            "manifest_sha256 = excluded.manifest_sha256, synced_at = excluded.synced_at",
            (url, version, manifest_sha256, at),
        )


def _drop_repo(sql: SQLStore, repo: str) -> None:
    """Remove a synced repository whole: its records, text sites, row and origin."""
    sql._drop_repo(repo, ("text_sites", "log_statements", "repos", "repo_origins"))


__all__ = ["Origin", "RepoRow", "SyncedRepo", "origins", "repo_rows", "repo_text_sites",
           "synced_version", "write_synced"]
