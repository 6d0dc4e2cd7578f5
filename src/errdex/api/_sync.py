"""Syncing through the public API: a published dataset into a store, kept fresh on a TTL
by servers, and where a match's records came from."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from errdex.api._lookup import Resolution
from errdex.api._stores import Db, DbPath, open_index, open_store, using_store
from errdex.datasets import sync as _sync
from errdex.errors import ErrdexError
from errdex.store.synced import origins as _origins

SyncReport = _sync.SyncReport


@dataclass(frozen=True)
class DatasetOrigin:
    """A repository whose records came from a published dataset, not a local mine."""

    repo: str
    url: str
    dataset_version: str

    def to_json(self) -> dict[str, str]:
        return {"dataset": self.url, "datasetVersion": self.dataset_version}


def sync_dataset(
    source: str, *, db: Db = None, cache_dir: str | Path | None = None, offline: bool = False,
    warn: Callable[[str], None] | None = None, warm_index: bool = True,
) -> SyncReport:
    """Bring ``db`` up to the dataset published at ``source`` (an http(s) URL, a file://
    URL or a folder with ``manifest.json``).

    Every shard is checked (size, sha256, and every record as ``import`` checks it) before
    anything is written; only repositories whose shards changed are fetched and written,
    in one transaction. The last good copy is cached (``cache_dir``, default
    ``$ERRDEX_SYNC_CACHE`` or the user cache folder); ``offline`` uses only it, and an
    unreachable source falls back to it, calling ``warn`` with one line. A repository
    mined locally is never replaced. Raises DatasetError when the dataset is refused.
    """
    with using_store(db) as store:
        report = _sync.sync(store, source, cache_dir=Path(cache_dir) if cache_dir else None,
                            offline=offline, warn=warn)
        if warm_index and report.applied:
            open_index(store)
    return report


def dataset_origins(repos: Iterable[str], *, db: Db = None) -> dict[str, DatasetOrigin]:
    """The repositories among ``repos`` whose records are a synced dataset's (a local mine
    since then makes a repository local again)."""
    wanted = sorted(set(repos))
    if not wanted:
        return {}
    with using_store(db) as store:
        found = _origins(store, wanted)
    return {repo: DatasetOrigin(repo, o.url, o.dataset_version)
            for repo, o in found.items() if o.current}


def origin_note(origins: dict[str, DatasetOrigin]) -> str | None:
    """The line ``explain`` prints under matches that come from a synced dataset."""
    if not origins:
        return None
    by_source: dict[tuple[str, str], list[str]] = {}
    for origin in origins.values():
        by_source.setdefault((origin.url, origin.dataset_version), []).append(origin.repo)
    return "; ".join(
        f"{', '.join(sorted(repos))}: from the synced dataset {url} (version {version}), "
        "not a local mine" for (url, version), repos in sorted(by_source.items()))


def with_origins(payload: dict[str, Any], origins: dict[str, DatasetOrigin]) -> dict[str, Any]:
    """An ``explain --json`` payload whose matches (records or text-site candidates) from a
    synced dataset carry ``origin``: ``{"dataset": URL, "datasetVersion": …}``."""
    for match in payload.get("matches", []):
        held = (match.get("record") or match.get("candidate")) if isinstance(match, dict) else None
        repo = held.get("repo") if isinstance(held, dict) else None
        if repo in origins:
            match["origin"] = origins[repo].to_json()
    return payload


def explained_json(found: Resolution, *, db: Db = None) -> dict[str, Any]:
    """``found`` (a ``Resolution``) as ``explain --json`` writes it, with the origin of each
    match from a synced dataset: one shape for the CLI, the web API and MCP."""
    repos = [m.record.repo for m in found.matches] + [t.repo for t in found.text_sites]
    return with_origins(found.to_json(), dataset_origins(repos, db=db))


class Syncer:
    """Keeps ``db`` synced with ``source`` from a background thread, every ``ttl`` seconds.

    Each round is one sync: one transaction, so a server reading the store meanwhile sees
    the previous data or the new, never half of it (its index is rebuilt when the store's
    generation changes). A failed round is reported to ``warn`` and the data stays.
    """

    def __init__(self, source: str, db: DbPath, *, ttl: float, cache_dir: str | Path | None = None,
                 warn: Callable[[str], None] | None = None):
        self.source, self.db, self.ttl, self.cache_dir = source, db, ttl, cache_dir
        self.warn = warn or (lambda line: None)
        self.rounds = 0
        self.last: SyncReport | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def sync_once(self) -> SyncReport | None:
        """One round; errors become a warning line (the previous data is kept)."""
        try:
            with open_store(self.db) as store:
                self.last = sync_dataset(self.source, db=store, cache_dir=self.cache_dir,
                                         warn=self.warn)
        except (ErrdexError, OSError) as exc:
            self.warn(f"warning: sync of {self.source} failed: {exc}; serving the data held")
            self.last = None
        self.rounds += 1
        return self.last

    def start(self) -> Syncer:
        """A first round now (so serving starts with the dataset), then one every ``ttl``."""
        self.sync_once()
        self._thread = threading.Thread(target=self._run, name="errdex-sync", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.ttl):
            self.sync_once()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


__all__ = ["DatasetOrigin", "SyncReport", "Syncer", "dataset_origins", "explained_json",
           "origin_note", "sync_dataset", "with_origins"]
