"""The manifest of a published dataset: what ``publish`` writes and ``sync`` trusts only
after checking every field, since it comes from the network.

A shard is named by its content (``shards/<first 32 hex of its sha256>.jsonl.gz``), so a
name that is anything else (``../``, an absolute path, a URL) is refused outright, and a
re-publish that leaves a repository unchanged leaves its shards' names unchanged.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from errdex.errors import DatasetError

FORMAT_VERSION = 1
MANIFEST = "manifest.json"
SHARD_DIR = "shards"
MAX_MANIFEST_BYTES = 64 * 1024 * 1024
MAX_SHARD_BYTES = 2 * 1024 * 1024 * 1024
_SHA = re.compile(r"[0-9a-f]{64}")
Kind = Literal["records", "texts"]


def shard_path(sha256: str) -> str:
    """The one path a shard with this content may have."""
    return f"{SHARD_DIR}/{sha256[:32]}.jsonl.gz"


@dataclass(frozen=True)
class Shard:
    """One gzip JSONL file: records (dataset lines) or text sites of one repository."""

    path: str
    sha256: str
    size: int
    count: int
    kind: Kind

    def json(self) -> dict[str, Any]:
        return {"path": self.path, "sha256": self.sha256, "size": self.size,
                "records": self.count, "kind": self.kind}


@dataclass(frozen=True)
class RepoEntry:
    """One repository of the dataset: the commit it was mined at, and its shards.

    ``digest`` changes exactly when its shards or commit change: what a client compares.
    """

    repo: str
    commit: str | None
    analyzed_at: str
    miner_version: str | None
    digest: str
    shards: tuple[Shard, ...]

    @property
    def records(self) -> int:
        return sum(s.count for s in self.shards if s.kind == "records")

    @property
    def text_sites(self) -> int:
        return sum(s.count for s in self.shards if s.kind == "texts")

    def json(self) -> dict[str, Any]:
        return {"repo": self.repo, "commit": self.commit, "analyzedAt": self.analyzed_at,
                "minerVersion": self.miner_version, "digest": self.digest,
                "records": self.records, "textSites": self.text_sites,
                "shards": [s.json() for s in self.shards]}


@dataclass(frozen=True)
class Manifest:
    """A published dataset: versions, counts, and every shard with its sha256 and size."""

    dataset_version: str
    schema_version: int
    created: str
    base_url: str | None
    repos: tuple[RepoEntry, ...]
    format: int = FORMAT_VERSION

    @property
    def record_count(self) -> int:
        return sum(r.records for r in self.repos)

    @property
    def shards(self) -> list[Shard]:
        return [s for r in self.repos for s in r.shards]

    def json(self) -> dict[str, Any]:
        return {
            "format": self.format, "datasetVersion": self.dataset_version,
            "schemaVersion": self.schema_version, "recordCount": self.record_count,
            "textSiteCount": sum(r.text_sites for r in self.repos),
            "created": self.created, "baseUrl": self.base_url,
            "lookup": {
                "textSites": "shards of kind 'texts': literals no record holds, which only "
                             "the source has",
                "patterns": "derived on import from each record's messagePattern "
                            "(prefilter words, about 30 microseconds a pattern)",
            },
            "repos": [r.json() for r in self.repos],
        }

    def text(self) -> str:
        return json.dumps(self.json(), indent=1, sort_keys=False) + "\n"


def parse_manifest(data: bytes, where: str) -> Manifest:
    """A manifest from untrusted bytes; DatasetError (one line) on anything unexpected."""
    if len(data) > MAX_MANIFEST_BYTES:
        raise DatasetError(f"{where}: manifest over {MAX_MANIFEST_BYTES} bytes; refused")
    try:
        body = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise DatasetError(f"{where}: manifest is not JSON ({exc})") from exc
    try:
        return _manifest(body)
    except (KeyError, TypeError, ValueError) as exc:
        raise DatasetError(f"{where}: not an errdex dataset manifest ({exc})") from exc


def _text(value: Any, name: str, *, optional: bool = False, limit: int = 200) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value or len(value) > limit or not value.isprintable():
        raise ValueError(f"{name} must be a short printable string")
    return value


def _count(value: Any, name: str, top: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
        raise ValueError(f"{name} must be an integer from 0 to {top}")
    return value


def _manifest(body: Any) -> Manifest:
    if not isinstance(body, dict):
        raise TypeError("the manifest must be a JSON object")
    if body.get("format") != FORMAT_VERSION:
        raise ValueError(f"format {body.get('format')!r}; this errdex reads format "
                         f"{FORMAT_VERSION}: upgrade errdex")
    repos = body["repos"]
    if not isinstance(repos, list):
        raise TypeError("repos must be a list")
    entries = tuple(_repo(item) for item in repos)
    if len({e.repo for e in entries}) != len(entries):
        raise ValueError("a repository is listed twice")
    manifest = Manifest(
        dataset_version=_text(body["datasetVersion"], "datasetVersion"),
        schema_version=_count(body["schemaVersion"], "schemaVersion", 3),
        created=_text(body["created"], "created"),
        base_url=_text(body.get("baseUrl"), "baseUrl", optional=True, limit=2000),
        repos=entries,
    )
    if body.get("recordCount") != manifest.record_count:
        raise ValueError("recordCount is not the sum of the shards' counts")
    return manifest


def _repo(item: Any) -> RepoEntry:
    if not isinstance(item, dict) or not isinstance(item.get("shards"), list):
        raise TypeError("each repository must be an object with a list of shards")
    name = item["repo"]
    if (not isinstance(name, str) or len(name) > 200 or not name.isprintable() or "/" not in name
            or name != name.strip() or any(p in ("", ".", "..") for p in name.split("/"))):
        raise ValueError(f"repository name {str(name)[:80]!r} is not OWNER/NAME")
    return RepoEntry(
        repo=name, commit=_text(item.get("commit"), "commit", optional=True),
        analyzed_at=_text(item["analyzedAt"], "analyzedAt"),
        miner_version=_text(item.get("minerVersion"), "minerVersion", optional=True),
        digest=_text(item["digest"], "digest"),
        shards=tuple(_shard(s) for s in item["shards"]),
    )


def _shard(item: Any) -> Shard:
    if not isinstance(item, dict):
        raise TypeError("each shard must be an object")
    sha = item["sha256"]
    if not isinstance(sha, str) or not _SHA.fullmatch(sha):
        raise ValueError("a shard's sha256 must be 64 lowercase hex digits")
    if item["path"] != shard_path(sha):
        raise ValueError(f"shard path {str(item['path'])[:80]!r} is not {shard_path(sha)!r} "
                         "(shards are named by their content)")
    kind = item["kind"]
    if kind not in ("records", "texts"):
        raise ValueError(f"shard kind {str(kind)[:20]!r} is not records or texts")
    return Shard(item["path"], sha, _count(item["size"], "size", MAX_SHARD_BYTES),
                 _count(item["records"], "records", 10**8), kind)


__all__ = ["FORMAT_VERSION", "MANIFEST", "MAX_SHARD_BYTES", "SHARD_DIR", "Manifest",
           "RepoEntry", "Shard", "parse_manifest", "shard_path"]
