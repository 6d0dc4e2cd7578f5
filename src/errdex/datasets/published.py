"""The published dataset layout that ``errdex sync`` reads and a static site serves.

A folder of ``manifest.json`` and ``shards/``: gzip JSON Lines, per repository, one or
more shards of records (the dataset lines of ``lines.dataset_line``) and one of text
sites (the lookup's literals that no record holds and only the source could give back).
Records of a repository are spread over a power of two of shards by a hash of their file
path, so a re-mine that changes one file changes one shard of one repository; shards are
named by their sha256, so an unchanged shard keeps its name and is neither rewritten nor
downloaded again. The patterns table is not published: its prefilter words are derived
from each record's pattern on import, about 30 microseconds a pattern.
"""

from __future__ import annotations

import gzip
import hashlib
import io
from collections.abc import Iterable
from pathlib import Path

from errdex.datasets.lines import dataset_line
from errdex.datasets.manifest import (
    MANIFEST,
    SHARD_DIR,
    Kind,
    Manifest,
    RepoEntry,
    Shard,
    parse_manifest,
    shard_path,
)
from errdex.datasets.publish import _atomic
from errdex.errors import DatasetError, UsageError
from errdex.records.model import SUPERSET_SCHEMA_VERSION, now_iso
from errdex.records.stored import StoredRecord
from errdex.records.text_sites import TextSite
from errdex.store.protocol import Store
from errdex.store.synced import RepoRow, repo_rows, repo_text_sites
from errdex.visible import json_text

SHARD_RECORDS = 5000  # records a shard holds at most, on average


def publish_dataset(
    store: Store, folder: Path, *, base_url: str | None = None,
    schema: int = SUPERSET_SCHEMA_VERSION, repo: str | None = None,
    version: str | None = None, shard_records: int = SHARD_RECORDS, prune: bool = True,
) -> Manifest:
    """Write the store (or one ``repo``) as a published dataset in ``folder`` and return
    its manifest.

    ``folder`` gets ``manifest.json`` and ``shards/<sha256 prefix>.jsonl.gz``; a shard
    already there (same content, same name) is not rewritten, and the manifest is
    written last, atomically, so a reader never sees a manifest naming a missing shard.
    ``base_url`` (where the folder will be served) is recorded for readers. ``version``
    is the dataset version; by default a digest of every shard, so publishing unchanged
    data gives the same version. With ``prune``, shards neither this manifest nor the
    previous one names are deleted (a client mid-sync of the previous one still finds
    its shards). Schema 3 (default) keeps errdex's optional fields; 2 is the seed's.
    """
    if shard_records < 1:
        raise UsageError("shard_records must be at least 1")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / SHARD_DIR).mkdir(exist_ok=True)
    previous = _previous_shards(folder)
    rows = repo_rows(store)
    names = [repo] if repo is not None else sorted(set(store.repos()))
    entries: list[RepoEntry] = []
    for name in names:
        entry = _publish_repo(store, folder, rows.get(name), name, schema, shard_records)
        if entry is not None:
            entries.append(entry)
    digest = hashlib.sha256("\n".join(f"{e.repo} {e.digest}" for e in entries).encode())
    manifest = Manifest(
        dataset_version=version or f"sha256-{digest.hexdigest()[:16]}",
        schema_version=schema, created=now_iso(), base_url=base_url, repos=tuple(entries),
    )
    text = manifest.text()
    _atomic(folder / MANIFEST, lambda p: Path(p).write_text(text, encoding="utf-8"))
    if prune:
        keep = previous | {s.path for s in manifest.shards}
        for stale in (folder / SHARD_DIR).glob("*.jsonl.gz"):
            if f"{SHARD_DIR}/{stale.name}" not in keep:
                stale.unlink(missing_ok=True)
    return manifest


def _previous_shards(folder: Path) -> set[str]:
    """The shard paths the manifest already in ``folder`` names (none if unreadable)."""
    try:
        return {s.path for s in read_manifest(folder).shards}
    except DatasetError:
        return set()


def _publish_repo(
    store: Store, folder: Path, row: RepoRow | None, repo: str, schema: int, per_shard: int
) -> RepoEntry | None:
    """One repository's shards, written when new; None when it holds nothing."""
    records = list(store.records(repo))
    texts = repo_text_sites(store, repo)
    if not records and not texts:
        return None
    analyzed_at = row.analyzed_at if row else now_iso()
    # Lines are stamped with when the repository was mined, not when it was published,
    # so unchanged data gives byte-identical shards.
    stamp = analyzed_at
    shards = [
        _write_shard(folder, "records",
                     [dataset_line(s.record, s.extras, stamp, schema) for s in chunk])
        for chunk in _chunks(records, per_shard) if chunk
    ]
    if texts:
        shards.append(_write_shard(folder, "texts", [_text_line(t) for t in texts]))
    commit = row.analyzed_sha if row else None
    digest = hashlib.sha256(
        "\n".join([str(commit), analyzed_at, *(s.sha256 for s in shards)]).encode()
    ).hexdigest()[:32]
    return RepoEntry(repo=repo, commit=commit, analyzed_at=analyzed_at,
                     miner_version=row.miner_version if row else None, digest=digest,
                     shards=tuple(shards))


def _chunks(records: list[StoredRecord], per_shard: int) -> list[list[StoredRecord]]:
    """Records spread over a power of two of shards by their file path: the count of
    shards changes only when a repository doubles or halves, and a file's records stay
    in one shard, so a change to one file changes one shard."""
    count = 1
    while count * per_shard < len(records):
        count *= 2
    buckets: list[list[StoredRecord]] = [[] for _ in range(count)]
    for item in records:
        key = hashlib.sha256(item.record.file_path.encode()).digest()
        buckets[int.from_bytes(key[:4], "big") % count].append(item)
    return buckets


def _text_line(site: TextSite) -> str:
    return json_text({"filePath": site.file_path, "lineNumber": site.line_number,
                      "text": site.text, "githubUrl": site.github_url}, compact=True)


def gzip_lines(lines: Iterable[str]) -> bytes:
    """Lines as gzip bytes that depend only on the lines (no time or name in the header)."""
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0, filename="", compresslevel=6) as gz:
        for line in lines:
            gz.write(line.encode("utf-8") + b"\n")
    return out.getvalue()


def _write_shard(folder: Path, kind: Kind, lines: list[str]) -> Shard:
    data = gzip_lines(lines)
    sha = hashlib.sha256(data).hexdigest()
    path = shard_path(sha)
    target = folder / path
    if not (target.exists() and target.stat().st_size == len(data)):
        _atomic(target, lambda p: Path(p).write_bytes(data))
    return Shard(path, sha, len(data), len(lines), kind)


def read_manifest(folder: Path) -> Manifest:
    """The manifest of a published dataset folder, checked."""
    try:
        data = (folder / MANIFEST).read_bytes()
    except OSError as exc:
        raise DatasetError(f"{folder}: no readable {MANIFEST} ({exc.strerror})") from exc
    return parse_manifest(data, str(folder / MANIFEST))


__all__ = ["SHARD_RECORDS", "gzip_lines", "publish_dataset", "read_manifest"]
