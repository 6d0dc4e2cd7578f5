"""The wordings and releases tables: which releases printed each record's wording, and the
site each wording belongs to now.

``mine --history`` stamps every release it mines (``stamp_release``): records new in it
get a wording row first and last seen there, the current ones are seen there once more.
A site reworded between two releases is one lineage: ``link_wordings`` points the old
wording (and every wording it had absorbed) at its successor, so a lookup that matched an
old wording answers with the site as it is now. Kept apart from ``sql`` (records): a
plain mine never touches these tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext

from errdex.errors import StoreError
from errdex.records.lineage import Wording
from errdex.records.model import now_iso
from errdex.store.protocol import Store
from errdex.store.sql import SQLStore


def _sql(store: Store) -> SQLStore:
    if not isinstance(store, SQLStore):
        raise StoreError("release history needs an errdex SQLite or PostgreSQL store")
    return store


@contextmanager
def release_write(store: Store, repo: str) -> Iterator[None]:
    """One transaction for a release's stamp and its links (``joined=True`` inside): a
    run killed between them must not leave the release stamped with its links never
    made, since a resumed run skips the releases already stamped."""
    sql = _sql(store)
    with sql.transaction():
        sql._lock_repos([repo])
        sql._bump_generation()
        yield


def stamp_release(store: Store, repo: str, name: str, sha: str, *, joined: bool = False
                  ) -> tuple[list[str], list[str]]:
    """Record that ``repo``'s current records were mined at release ``name`` (commit
    ``sha``); the records this release's mine removed that still head a lineage, and the
    current records that are new here (or came back), both by id. ``joined``: in the
    caller's open transaction (``release_write``)."""
    sql = _sql(store)
    with nullcontext() if joined else sql.transaction():
        sql._lock_repos([repo])
        sql._bump_generation()  # lookups read the wordings: indexes opened before are stale
        position = sql._execute("SELECT COALESCE(MAX(position), 0) + 1 FROM releases "
                                "WHERE repo = ?", (repo,)).fetchone()[0]
        sql._execute(
            "INSERT INTO releases (repo, name, sha, position, mined_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (repo, name) DO UPDATE SET sha = excluded.sha, "
            "mined_at = excluded.mined_at",
            (repo, name, sha, int(position), now_iso()),
        )
        removed = [row[0] for row in sql._execute(
            "SELECT r.id FROM records r JOIN wordings w ON w.id = r.id WHERE r.repo = ? "
            "AND r.removed_sha = ? AND w.site_id = r.id ORDER BY r.id", (repo, sha))]
        fresh: list[str] = []
        revived: list[str] = []
        for rid, site in sql._execute(
                "SELECT r.id, w.site_id FROM records r LEFT JOIN wordings w ON w.id = r.id "
                "WHERE r.repo = ? AND r.removed_sha IS NULL AND (w.id IS NULL OR "
                "w.site_id <> r.id) ORDER BY r.id", (repo,)):
            (fresh if site is None else revived).append(rid)
        if revived:  # a wording back after a successor took over: its own site again
            condition, values = sql._in("id", revived)
            sql._execute(f"UPDATE wordings SET site_id = id WHERE {condition}", values)
        sql._execute(
            "UPDATE wordings SET last_seen = ? WHERE repo = ? AND id IN "
            "(SELECT id FROM records WHERE repo = ? AND removed_sha IS NULL)",
            (name, repo, repo),
        )
        sql._execute_many(
            "INSERT INTO wordings (id, repo, site_id, first_seen, last_seen) "
            "VALUES (?, ?, ?, ?, ?)", [(rid, repo, rid, name, name) for rid in fresh])
    return removed, sorted(fresh + revived)


def orphan_heads(store: Store, repo: str, sha: str, classes: Iterable[str | None]
                 ) -> list[str]:
    """Records of ``repo`` removed before commit ``sha``'s mine that head a lineage no
    release continued (a site missing from some releases, then back reworded), of these
    error classes: what a new record may still continue."""
    given = set(classes)
    wanted = sorted(c for c in given if c is not None)
    sql = _sql(store)
    condition, values = sql._in("r.error_class", wanted) if wanted else ("1 = 0", [])
    if None in given:
        condition = f"({condition} OR r.error_class IS NULL)"
    rows = sql._execute(
        "SELECT r.id FROM records r JOIN wordings w ON w.id = r.id WHERE r.repo = ? AND "
        "r.removed_sha IS NOT NULL AND r.removed_sha <> ? AND w.site_id = r.id AND "
        f"{condition} ORDER BY r.id", [repo, sha, *values])
    return [row[0] for row in rows]


def current_heads(store: Store, repo: str, files: Iterable[str], limit: int = 2_000
                  ) -> list[tuple[str, str, str | None, str, str]]:
    """(id, file path, error class, error type, wording) of the current records of these
    files of ``repo`` that head a lineage (mined with history), at most ``limit``: where a
    site gone from a release may live on."""
    wanted = sorted(set(files))
    if not wanted or not isinstance(store, SQLStore):
        return []
    condition, values = store._in("r.file_path", wanted)
    rows = store._execute(
        "SELECT r.id, r.file_path, r.error_class, r.error_type, r.error_message FROM records r "
        "JOIN wordings w ON w.id = r.id WHERE r.repo = ? AND r.removed_sha IS NULL AND "
        f"w.site_id = r.id AND {condition} ORDER BY r.id LIMIT ?", [repo, *values, limit])
    return [(row[0], row[1], row[2], row[3], row[4]) for row in rows]


def moved_files(store: Store, repo: str, files: Iterable[str]) -> dict[str, set[str]]:
    """For each of these file paths of ``repo``, the files where sites that had a wording
    in it live now (other than itself): where its code went when the file was renamed or
    split (``requests/utils.py`` → ``src/requests/utils.py``)."""
    wanted = sorted(set(files))
    if not wanted or not isinstance(store, SQLStore):
        return {}
    condition, values = store._in("o.file_path", wanted)
    rows = store._execute(
        "SELECT DISTINCT o.file_path, c.file_path FROM wordings w "
        "JOIN records o ON o.id = w.id JOIN records c ON c.id = w.site_id "
        "WHERE w.repo = ? AND c.removed_sha IS NULL AND c.file_path <> o.file_path AND "
        f"{condition}", [repo, *values])
    moved: dict[str, set[str]] = {}
    for old, new in rows:
        moved.setdefault(old, set()).add(new)
    return moved


def link_wordings(store: Store, repo: str, pairs: Sequence[tuple[str, str]], *,
                  joined: bool = False) -> None:
    """Each (old, new) pair: the old site's wordings now belong to the new record
    (``joined``: in the caller's open transaction)."""
    if not pairs:
        return
    sql = _sql(store)
    with nullcontext() if joined else sql.transaction():
        sql._lock_repos([repo])
        sql._bump_generation()
        sql._execute_many("UPDATE wordings SET site_id = ? WHERE site_id = ? AND repo = ?",
                          [(new, old, repo) for old, new in pairs])


def has_wordings(store: Store) -> bool:
    """Whether any wording row exists (a lookup skips lineage entirely when none does)."""
    if not isinstance(store, SQLStore):
        return False
    return store._execute("SELECT 1 FROM wordings LIMIT 1").fetchone() is not None


def wordings(store: Store, ids: Iterable[str]) -> dict[str, Wording]:
    """The wording rows of these record ids (records mined without history have none)."""
    wanted = sorted(set(ids))
    if not wanted or not isinstance(store, SQLStore):
        return {}
    condition, values = store._in("id", wanted)
    rows = store._execute(
        f"SELECT id, site_id, first_seen, last_seen FROM wordings WHERE {condition}", values)
    return {row[0]: Wording(row[0], row[1], row[2], row[3]) for row in rows}


def site_wordings(store: Store, site_ids: Iterable[str]) -> dict[str, list[Wording]]:
    """Every wording of these sites (their own included), by site id."""
    wanted = sorted(set(site_ids))
    if not wanted or not isinstance(store, SQLStore):
        return {}
    condition, values = store._in("site_id", wanted)
    found: dict[str, list[Wording]] = {}
    for row in store._execute(
            f"SELECT id, site_id, first_seen, last_seen FROM wordings WHERE {condition} "
            "ORDER BY id", values):
        found.setdefault(row[1], []).append(Wording(row[0], row[1], row[2], row[3]))
    return found


def release_positions(store: Store, repos: Iterable[str]) -> dict[tuple[str, str], int]:
    """(repo, release name) → its place in the order mined, for these repositories."""
    wanted = sorted(set(repos))
    if not wanted or not isinstance(store, SQLStore):
        return {}
    condition, values = store._in("repo", wanted)
    rows = store._execute(f"SELECT repo, name, position FROM releases WHERE {condition}",
                          values)
    return {(row[0], row[1]): int(row[2]) for row in rows}


def forget_history(store: Store, repo: str) -> None:
    """Drop ``repo``'s records, releases and wordings: a history mined by another miner
    version is mined again from its first release (a release's records compared with
    another extractor's would read as reworded sites)."""
    sql = _sql(store)
    with sql.transaction():
        sql._drop_repo(repo, ("text_sites", "log_statements", "repos", "releases", "wordings"))


def releases(store: Store, repo: str) -> list[tuple[str, str]]:
    """(name, commit) of every release of ``repo`` stamped so far, in the order mined."""
    rows = _sql(store)._execute(
        "SELECT name, sha FROM releases WHERE repo = ? ORDER BY position", (repo,))
    return [(row[0], row[1]) for row in rows]


def wording_count(store: Store, repo: str | None = None) -> int:
    """How many wording rows are kept (of one repository)."""
    where, args = ("WHERE repo = ?", (repo,)) if repo else ("", ())
    return int(_sql(store)._execute(f"SELECT COUNT(*) FROM wordings {where}", args)
               .fetchone()[0])


__all__ = ["current_heads", "has_wordings", "link_wordings", "moved_files", "orphan_heads",
           "release_positions", "release_write", "releases", "site_wordings", "stamp_release",
           "wording_count", "wordings"]
