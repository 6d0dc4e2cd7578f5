"""``errdex sync``: a published dataset (``published``) into the local store, verified
before one row is written, all or nothing, and usable offline from the last good copy.

Order of work: read the manifest (a conditional request: an unchanged dataset answers
304 and nothing else moves), decide which repositories changed since the last sync by
their digests, take each needed shard from the cache or the network, check its size and
sha256, decompress it within bounds, validate every record as ``errdex import`` does,
then write every changed repository and its provenance in one store transaction. Only
after that is the cache updated: it always holds a copy that was applied whole.

A repository mined locally is never replaced by a sync (the local mine is of a checkout
the user chose; a synced copy is someone else's mine of some commit); mining it again
later makes a synced repository local.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from platformdirs import user_cache_dir

from errdex.datasets.fetch import Source, Unreachable, strong_last_modified
from errdex.datasets.lines import read_dataset_lines
from errdex.datasets.manifest import (
    MANIFEST,
    MAX_MANIFEST_BYTES,
    Manifest,
    RepoEntry,
    Shard,
    parse_manifest,
)
from errdex.datasets.publish import _atomic
from errdex.errors import DatasetError
from errdex.records.model import RecordExtras
from errdex.records.text_sites import MAX_CHARS, TextSite
from errdex.store.protocol import Store
from errdex.store.synced import SyncedRepo, origins, repo_rows, synced_version, write_synced

MAX_INFLATION = 200  # a shard may decompress to this many times its size, at most
MAX_LINE_CHARS = 4 * 1024 * 1024
Warn = Callable[[str], None]


@dataclass
class SyncReport:
    """What one sync did: counts, transfers, and whether it ran from the cache."""

    source: str
    dataset_version: str = ""
    applied: list[str] = field(default_factory=list)
    unchanged: int = 0
    kept_local: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    records: int = 0
    shards_downloaded: int = 0
    bytes_downloaded: int = 0
    requests: int = 0
    offline: bool = False
    warning: str | None = None


def default_cache_dir() -> Path:
    """Where last good copies live: ``$ERRDEX_SYNC_CACHE``, else the user cache folder."""
    configured = os.environ.get("ERRDEX_SYNC_CACHE")
    return Path(configured) if configured else Path(user_cache_dir("errdex", appauthor=False)
                                                    ) / "sync"


class Cache:
    """The last good copy of one source: its manifest, validators, and shards by name."""

    def __init__(self, root: Path, key: str):
        self.folder = root / hashlib.sha256(key.encode()).hexdigest()[:24]

    def manifest(self) -> bytes | None:
        try:
            return (self.folder / MANIFEST).read_bytes()
        except OSError:
            return None

    def validators(self) -> dict[str, str]:
        try:
            found = json.loads((self.folder / "validators.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {k: v for k, v in found.items() if isinstance(v, str)} if isinstance(
            found, dict) else {}

    def shard(self, shard: Shard) -> bytes | None:
        """A cached shard, only if it is still exactly what the manifest says."""
        try:
            data = (self.folder / shard.path).read_bytes()
        except OSError:
            return None
        return data if _intact(data, shard) else None

    def save(self, manifest: bytes, validators: dict[str, str], shards: dict[str, bytes],
             keep: set[str]) -> None:
        """Store a copy that was applied whole; shards no longer named are dropped."""
        (self.folder / "shards").mkdir(parents=True, exist_ok=True)
        for path, data in shards.items():
            _atomic(self.folder / path, _writer(data))
        text = json.dumps(validators)
        _atomic(self.folder / "validators.json",
                lambda p: Path(p).write_text(text, encoding="utf-8"))
        _atomic(self.folder / MANIFEST, lambda p: Path(p).write_bytes(manifest))
        for stale in (self.folder / "shards").glob("*.jsonl.gz"):
            if f"shards/{stale.name}" not in keep:
                stale.unlink(missing_ok=True)


def _writer(data: bytes) -> Callable[[str], object]:
    return lambda path: Path(path).write_bytes(data)


def _intact(data: bytes, shard: Shard) -> bool:
    return len(data) == shard.size and hashlib.sha256(data).hexdigest() == shard.sha256


def sync(
    store: Store, source: str, *, cache_dir: Path | None = None, offline: bool = False,
    warn: Warn | None = None, timeout: float | None = None,
) -> SyncReport:
    """Bring ``store`` up to the dataset published at ``source`` (URL, file:// or folder).

    Raises DatasetError (one line) when the dataset is refused; on any failure the
    store is unchanged. When the source cannot be reached and a cached copy exists, it
    is used with a warning (``warn``, and ``report.warning``).
    """
    remote = Source(source) if timeout is None else Source(source, timeout=timeout)
    cache = Cache(cache_dir or default_cache_dir(), remote.key)
    report = SyncReport(remote.key, offline=offline)
    manifest_bytes, validators = _manifest_bytes(remote, cache, report)
    if report.warning and warn is not None:
        warn(report.warning)
    manifest = parse_manifest(manifest_bytes, f"{remote.key}/{MANIFEST}")
    report.dataset_version = manifest.dataset_version
    manifest_sha = hashlib.sha256(manifest_bytes).hexdigest()
    wanted, dropped = _plan(store, remote.key, manifest, report)
    fetched: dict[str, bytes] = {}
    repos = [_read_repo(store, remote, cache, entry, fetched, report) for entry in wanted]
    previous = synced_version(store, remote.key)
    if repos or dropped or previous != (manifest.dataset_version, manifest_sha):
        write_synced(store, remote.key, manifest.dataset_version, manifest_sha, repos, dropped)
    report.applied = [r.repo for r in repos]
    report.records = sum(len(r.records) for r in repos)
    report.dropped = list(dropped)
    report.requests, report.bytes_downloaded = remote.requests, remote.bytes
    if not report.offline:
        keep = {s.path for s in manifest.shards}
        cache.save(manifest_bytes, validators, fetched, keep)
    return report


def _manifest_bytes(remote: Source, cache: Cache, report: SyncReport
                    ) -> tuple[bytes, dict[str, str]]:
    """The manifest to apply: fetched (or 304, then the cached one), else the cached one."""
    cached = cache.manifest()
    if report.offline:
        if cached is None:
            raise DatasetError(f"{remote.key}: no cached copy to use offline; "
                               "run errdex sync once with the network")
        return cached, {}
    validators = cache.validators() if cached is not None else {}
    try:
        got = remote.get(MANIFEST, MAX_MANIFEST_BYTES, etag=validators.get("etag"),
                         last_modified=validators.get("last_modified"))
    except Unreachable as exc:
        if cached is None:
            raise DatasetError(f"cannot sync: {exc} (and no cached copy yet)") from exc
        report.offline = True
        report.warning = f"warning: {exc}; using the cached copy"
        return cached, {}
    if got.data is None:
        if cached is None:  # a 304 we did not ask for
            raise DatasetError(f"{remote.key}: the server answered 304 to a plain request")
        return cached, validators
    strong = strong_last_modified(got.last_modified, got.date)
    fresh = {k: v for k, v in (("etag", got.etag), ("last_modified", strong)) if v}
    return got.data, fresh


def _plan(store: Store, key: str, manifest: Manifest, report: SyncReport
          ) -> tuple[list[RepoEntry], list[str]]:
    """The repositories to (re)write, and synced ones from ``key`` the dataset dropped."""
    rows = repo_rows(store)
    known = origins(store)
    wanted = []
    for entry in manifest.repos:
        origin = known.get(entry.repo)
        row = rows.get(entry.repo)
        synced = origin is not None and origin.current
        if row is not None and row.analyzed_sha is not None and not synced:
            report.kept_local.append(entry.repo)  # a local mine wins
        elif synced and origin is not None and origin.digest == entry.digest \
                and origin.url == key:
            report.unchanged += 1
        else:
            wanted.append(entry)
    named = {e.repo for e in manifest.repos}
    dropped = sorted(r for r, o in known.items() if o.url == key and o.current
                     and r not in named)
    return wanted, dropped


def _read_repo(store: Store, remote: Source, cache: Cache, entry: RepoEntry,
               fetched: dict[str, bytes], report: SyncReport) -> SyncedRepo:
    """One repository's shards, verified and validated; nothing is written here."""
    records: list[Any] = []
    texts: list[TextSite] = []
    for shard in entry.shards:
        data = _shard_bytes(remote, cache, shard, fetched, report)
        lines = _lines(data, shard, remote.key)
        if shard.kind == "records":
            records.extend(lines)
        else:
            texts.extend(_text_site(obj, shard, n) for n, obj in enumerate(lines, 1))
    try:
        checked = read_dataset_lines(records, f"{remote.key} {entry.repo}", store,
                                     unit="record") if records else []
    except DatasetError as exc:  # import lists every problem; a sync says one line
        lines = str(exc).splitlines()
        more = f" ({len(lines) - 1} more line(s) of problems)" if len(lines) > 1 else ""
        raise DatasetError(f"{lines[0]}{more}; the dataset is refused, nothing was changed"
                           ) from exc
    for record, _ in checked:
        if record.repo != entry.repo:
            raise DatasetError(f"{remote.key}: a shard of {entry.repo} holds a record of "
                               f"{record.repo}; refused")
    return SyncedRepo(entry.repo, entry.commit, entry.analyzed_at, entry.miner_version,
                      entry.digest, [(r, e or RecordExtras()) for r, e in checked], texts)


def _shard_bytes(remote: Source, cache: Cache, shard: Shard, fetched: dict[str, bytes],
                 report: SyncReport) -> bytes:
    cached = cache.shard(shard)
    if cached is not None:
        return cached
    if report.offline:
        raise DatasetError(f"{shard.path}: not in the cached copy; sync once with the network")
    try:
        data = remote.get(shard.path, shard.size).data or b""
    except Unreachable as exc:
        raise DatasetError(f"cannot sync: {exc}; nothing was changed") from exc
    if not _intact(data, shard):
        raise DatasetError(
            f"{remote.key}/{shard.path}: size or sha256 differs from the manifest "
            "(tampered or half-uploaded); nothing was changed"
        )
    report.shards_downloaded += 1
    fetched[shard.path] = data
    return data


def _lines(data: bytes, shard: Shard, where: str) -> list[Any]:
    """The JSON values of a gzip JSONL shard, inflated within bounds."""
    inflate = zlib.decompressobj(wbits=31)
    limit = max(shard.size * MAX_INFLATION, 1 << 20)
    try:
        text = inflate.decompress(data, limit)
    except zlib.error as exc:
        raise DatasetError(f"{where}/{shard.path}: not gzip ({exc})") from exc
    if inflate.unconsumed_tail:
        raise DatasetError(f"{where}/{shard.path}: inflates to over {limit} bytes; refused")
    out: list[Any] = []
    for number, line in enumerate(text.split(b"\n"), 1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE_CHARS:
            raise DatasetError(f"{where}/{shard.path}: line {number} is too long; refused")
        try:
            out.append(json.loads(line))
        except (ValueError, RecursionError) as exc:
            raise DatasetError(f"{where}/{shard.path}: line {number} is not JSON") from exc
    if len(out) != shard.count:
        raise DatasetError(f"{where}/{shard.path}: {len(out)} lines, the manifest says "
                           f"{shard.count}; refused")
    return out


def _text_site(obj: Any, shard: Shard, number: int) -> TextSite:
    """One text site line, checked as strictly as a record's location."""
    def bad(why: str) -> DatasetError:
        return DatasetError(f"{shard.path}: text site {number}: {why}; refused")

    if not isinstance(obj, dict):
        raise bad("not an object")
    path, line, text, url = (obj.get("filePath"), obj.get("lineNumber"), obj.get("text"),
                             obj.get("githubUrl"))
    if not isinstance(path, str) or not path or len(path) > 1000 or path.startswith("/") \
            or any(p in ("", ".", "..") for p in path.split("/")) or not path.isprintable():
        raise bad("filePath is not a path inside the repository")
    if not isinstance(line, int) or isinstance(line, bool) or not 0 < line < 10**8:
        raise bad("lineNumber is not a positive integer")
    if not isinstance(text, str) or not text or len(text) > MAX_CHARS:
        raise bad(f"text is not a string of 1 to {MAX_CHARS} characters")
    if url is not None and (not isinstance(url, str) or len(url) > 2000
                            or not url.startswith("https://")):
        raise bad("githubUrl is not an https URL")
    return TextSite(path, line, text, url)


__all__ = ["Cache", "SyncReport", "default_cache_dir", "sync"]
