"""The mine pipeline: repository tree → sites → records, written to the store in one go.

This module only wires the stages together (``repo`` → ``languages`` →
``record``) and decides identity: ids, slugs and ``contentChangedAt`` carried
over from the previous mine of the same repository.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from errdex.languages import LANGUAGES, FileSites, Site
from errdex.record import (
    SCHEMA_VERSION,
    Record,
    RecordExtras,
    empty_explanation,
    now_iso,
    record_id,
    source_window,
)
from errdex.repo import SourceFile, Tree, decode_source, load_tree, read_blobs
from errdex.store import PreviousRecord, Store
from errdex.template import Hole

# Below this many files a process pool costs more than it saves.
_PARALLEL_MIN_FILES = 64


@dataclass
class MinedRecord:
    """A record with the schema-3 facts that the seed format has no field for."""

    record: Record
    extras: RecordExtras


@dataclass
class MineSummary:
    """What one mine did, for the CLI summary and the API caller."""

    repo: str
    sha: str
    files_mined: int = 0
    records: int = 0
    by_language: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    partially_parsed: int = 0
    new: int = 0
    changed: int = 0
    removed: int = 0
    seconds: float = 0.0


@dataclass
class _FileResult:
    source: SourceFile
    lines: list[str]
    sites: FileSites


ProgressCallback = Callable[[int, int], None]


def mine(
    path: str | os.PathLike[str],
    store: Store,
    *,
    repo: str | None = None,
    sha: str | None = None,
    jobs: int | None = None,
    progress: ProgressCallback | None = None,
) -> MineSummary:
    """Mine the repository holding ``path`` at ``sha`` and replace its records in ``store``."""
    started = time.perf_counter()
    tree = load_tree(path, repo=repo, revision=sha)
    summary = MineSummary(repo=tree.repo, sha=tree.sha, skipped=Counter(tree.skipped))
    results = _extract_all(tree, jobs, summary, progress)
    previous = store.previous_records(tree.repo)
    mined = build_records(tree, results, previous, analyzed_at=now_iso())
    summary.records = len(mined)
    summary.new = sum(1 for m in mined if m.record.id not in previous)
    summary.changed = sum(
        1 for m in mined
        if m.record.id in previous and m.record.contentChangedAt == m.record.analyzedAt
    )
    summary.removed = len(set(previous) - {m.record.id for m in mined})
    store.replace_repo(
        tree.repo, [(m.record, m.extras) for m in mined], analyzed_sha=tree.sha,
        root=str(tree.root),
    )
    summary.seconds = time.perf_counter() - started
    return summary


def extract_source(language_name: str, data: bytes) -> FileSites:
    """One file's sites (top level so worker processes can run it)."""
    return LANGUAGES[language_name].extract(data)


def _extract_all(
    tree: Tree, jobs: int | None, summary: MineSummary, progress: ProgressCallback | None
) -> list[_FileResult]:
    texts: list[tuple[SourceFile, str]] = []
    for source, data in read_blobs(tree.root, tree.files):
        text, reason = decode_source(data)
        if reason or text is None:
            summary.skipped[reason or "unreadable"] += 1
            continue
        texts.append((source, text))
    workers = jobs or os.cpu_count() or 1
    total = len(texts)
    if workers > 1 and total >= _PARALLEL_MIN_FILES:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            sites_iter: Iterable[FileSites] = pool.map(
                extract_source,
                [s.language.name for s, _ in texts],
                [t.encode("utf-8") for _, t in texts],
                chunksize=max(1, total // (workers * 8)),
            )
            return _collect(texts, sites_iter, summary, progress)
    return _collect(
        texts, (extract_source(s.language.name, t.encode("utf-8")) for s, t in texts),
        summary, progress,
    )


def _collect(
    texts: list[tuple[SourceFile, str]], sites_iter: Iterable[FileSites],
    summary: MineSummary, progress: ProgressCallback | None,
) -> list[_FileResult]:
    results = []
    for done, ((source, text), sites) in enumerate(zip(texts, sites_iter, strict=True), 1):
        summary.files_mined += 1
        summary.by_language[source.language.name] += len(sites.sites)
        if sites.parse_errors:
            summary.partially_parsed += 1
        results.append(_FileResult(source, split_lines(text), sites))
        if progress:
            progress(done, len(texts))
    return results


def split_lines(text: str) -> list[str]:
    """Lines as tree-sitter counts them (``\\n`` only), without ``\\r`` or a final empty line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def hole_names(site: Site) -> list[str]:
    """A name per hole: the argument expression as written, else the placeholder itself."""
    return [h.name or h.spec for h in site.template.parts if isinstance(h, Hole)]


def build_records(
    tree: Tree, results: list[_FileResult], previous: dict[str, PreviousRecord], analyzed_at: str
) -> list[MinedRecord]:
    """Records of every site: stable ids, unique slugs, carried-over change times."""
    mined: list[MinedRecord] = []
    seen_keys: Counter[tuple[str, ...]] = Counter()
    for result in sorted(results, key=lambda r: r.source.path):
        path = result.source.path
        for site in sorted(result.sites.sites, key=lambda s: s.line):
            normalized = site.template.normalized()
            key = (path, site.error_class or "", normalized, site.symbol or "")
            occurrence = seen_keys[key]
            seen_keys[key] += 1
            rid = record_id(tree.repo, path, site.error_class, normalized, site.symbol, occurrence)
            mined.append(_record(tree, result, site, rid, previous.get(rid), analyzed_at))
    assign_slugs(mined, previous)
    return mined


def _record(
    tree: Tree, result: _FileResult, site: Site, rid: str, before: PreviousRecord | None,
    analyzed_at: str,
) -> MinedRecord:
    window, start, end = source_window(result.lines, site.line)
    path = result.source.path
    url = tree.forge.permalink(tree.sha, path, start, end) if tree.forge else None
    digest = content_hash(site.template.written, window)
    changed_at = before.content_changed_at if before and before.content_hash == digest else None
    record = Record(
        id=rid, repo=tree.repo, slug="", errorCode=site.error_code,
        errorMessage=site.template.written, messagePattern=site.template.pattern(),
        errorType=site.error_type, errorClass=site.error_class, httpStatus=site.http_status,
        severity=site.severity, filePath=path, lineNumber=site.line, sourceCode=window,
        sourceCodeStart=start, sourceCodeEnd=end, githubUrl=url, **empty_explanation(),
        analyzedSha=tree.sha, analyzedAt=analyzed_at,
        contentChangedAt=changed_at or analyzed_at, schemaVersion=SCHEMA_VERSION,
    )
    extras = RecordExtras(
        language=result.source.language.name, enclosingSymbol=site.symbol,
        holeNames=hole_names(site),
    )
    record.slug = site.template.slug(fallback=site.error_class or site.symbol or "error")
    return MinedRecord(record, extras)


def content_hash(message: str, source_code: str) -> str:
    """What ``contentChangedAt`` tracks: the message and the code around it."""
    return hashlib.sha256(f"{message}\x1f{source_code}".encode()).hexdigest()[:16]


def assign_slugs(mined: list[MinedRecord], previous: dict[str, PreviousRecord]) -> None:
    """Unique slugs within the repo: a record keeps its earlier slug; others get -2, -3…

    New records are numbered in (file, line) order, so the order is stable for a tree.
    """
    taken: set[str] = set()
    kept: set[str] = set()
    for m in mined:
        before = previous.get(m.record.id)
        if before and before.slug not in taken:
            m.record.slug = before.slug
            taken.add(before.slug)
            kept.add(m.record.id)
    for m in mined:
        if m.record.id in kept:
            continue
        base = m.record.slug
        slug, n = base, 1
        while slug in taken:
            n += 1
            slug = f"{base}-{n}"
        m.record.slug = slug
        taken.add(slug)
