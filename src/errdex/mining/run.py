"""The mine pipeline: repository tree → sites → records, written to the store in one go.

This module only wires the stages together (``repo`` → ``languages`` →
``record``) and decides identity: ids, slugs and ``contentChangedAt`` carried
over from the previous mine of the same repository.

Files stream through: git's blob reader feeds worker processes a bounded
number of files at a time, each worker turns one file into finished records
(its text is dropped right after), so memory follows the number of records,
not the size of the repository.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field

from errdex.enrich import EnrichMode, enrich_pairs, link_repository_tests
from errdex.evidence.blame import blame_files
from errdex.evidence.site import file_evidence
from errdex.evidence.tests import Expectation, expectations
from errdex.languages import LANGUAGES, Site
from errdex.languages.rust_constants import (
    constant_references,
    constant_values,
    is_bare_reference,
    string_constants,
    unique_values,
    with_constants,
)
from errdex.records.evidence import Evidence
from errdex.records.model import (
    SCHEMA_VERSION,
    Record,
    RecordExtras,
    content_hash,
    empty_explanation,
    now_iso,
    record_id,
    source_window,
)
from errdex.repo.git import BlobReader, Forge, Tree, changed_paths, decode_source, load_tree
from errdex.repo.processes import die_with_parent
from errdex.store.protocol import Store
from errdex.store.sqlite import PreviousRecord
from errdex.templates.template import Hole, Template

# Below this many files a process pool costs more than it saves.
_PARALLEL_MIN_FILES = 64
# Files handed to one worker task, and tasks in flight per worker.
_BATCH_FILES = 16
_IN_FLIGHT_PER_WORKER = 4

ProgressCallback = Callable[[int, int], None]
_TEST = "test:"


@dataclass
class MinedRecord:
    """A record with the schema-3 facts that the seed format has no field for."""

    record: Record
    extras: RecordExtras
    content_hash: str
    # the constants a site's message prints, and its template: resolved across files
    # after the workers are done (``constants``), then dropped
    pending: tuple[list[str], Template] | None = None


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
    incremental: bool = False  # only the files changed since the last mine were read


@dataclass(frozen=True)
class _Context:
    """What every file's records share (sent once to each worker)."""

    repo: str
    sha: str
    forge: Forge | None
    analyzed_at: str
    evidence: bool = True  # read site evidence (guards, docs) while the file is at hand


@dataclass
class _FileOutcome:
    path: str
    language: str
    records: list[MinedRecord] = field(default_factory=list)
    skipped: str | None = None
    parse_errors: bool = False
    expectations: list[Expectation] = field(default_factory=list)  # what its tests expect
    test: bool = False  # a test file, read for its expectations only
    constants: list[tuple[str, str]] = field(default_factory=list)  # string constants defined


def mine(
    path: str | os.PathLike[str],
    store: Store,
    *,
    repo: str | None = None,
    sha: str | None = None,
    jobs: int | None = None,
    progress: ProgressCallback | None = None,
    enrich: EnrichMode = "static",
    blame: bool = False,
    full: bool = False,
) -> MineSummary:
    """Mine the repository holding ``path`` at ``sha`` and write its records to ``store``.

    ``enrich="static"`` (the default) reads evidence and writes the explanation fields
    from it (``errdex.enrich``); ``"none"`` leaves them empty. ``blame`` adds the commit
    that last changed each site's line to the evidence (it walks history: slower).

    When the repository was mined before by this errdex, only the files changed
    since that commit (``git diff``) are read again; ``full=True`` reads every file.
    Sites that disappear are kept, marked removed at this commit.
    """
    started = time.perf_counter()
    tree = load_tree(path, repo=repo, revision=sha)
    summary = MineSummary(repo=tree.repo, sha=tree.sha, skipped=Counter(tree.skipped))
    version = miner_version(enrich)
    changed = None if full else _changed_since_last_mine(store, tree, version)
    if changed is not None:
        summary.incremental = True
        tree.files = [f for f in tree.files if f.path in changed]
        tree.tests = [f for f in tree.tests if f.path in changed]
    context = _Context(tree.repo, tree.sha, tree.forge, now_iso(), evidence=enrich != "none")
    # (path, language, blob): test files travel through the workers too, for their expectations
    items = [(s.path, s.language.name, s.blob) for s in tree.files]
    if enrich == "static":
        items += [(s.path, _TEST + s.language.name, s.blob) for s in tree.tests]
    workers = jobs or os.cpu_count() or 1
    if workers > 1 and len(items) < _PARALLEL_MIN_FILES:
        workers = 1
    mined: list[MinedRecord] = []
    inline: list[Expectation] = []
    constants: list[tuple[str, str]] = []
    done = 0
    for outcome in _mine_files(str(tree.root), items, context, workers):
        inline.extend(outcome.expectations)
        if outcome.test:
            continue
        _account(summary, outcome)
        mined.extend(outcome.records)
        constants.extend(outcome.constants)
        done += 1
        if progress:
            progress(done, len(tree.files))
    resolved = _resolve_constants(tree, mined, constants, every_file=changed is None)
    if enrich == "static":
        enrich_pairs((m.record, m.extras) for m in resolved if m.extras.evidence is not None)
        _enrich(tree, mined, inline, blame)
    previous = store.previous_records(tree.repo)
    finish_records(mined, previous)
    fresh = {m.record.id for m in mined}
    current = {rid for rid, p in previous.items() if not p.removed}
    summary.new = len(fresh - current)
    summary.changed = sum(
        1 for m in mined
        if m.record.id in current and m.record.contentChangedAt == m.record.analyzedAt
    )
    summary.removed = sum(
        1 for rid in current - fresh
        if changed is None or previous[rid].file_path in changed
    )
    store.replace_repo(
        tree.repo, [(m.record, m.extras, m.content_hash) for m in mined],
        analyzed_sha=tree.sha, root=str(tree.root), files=changed,
        miner_version=version, analyzed_at=context.analyzed_at,
    )
    summary.records = store.count(tree.repo)
    summary.seconds = time.perf_counter() - started
    return summary


# Bump when what extraction or enrichment produces changes: stored repos then get a full
# re-mine instead of an incremental one.
EXTRACTION_REVISION = 7


def miner_version(enrich: str) -> str:
    from errdex import __version__

    return f"{__version__}/{EXTRACTION_REVISION}/{enrich}"


def _changed_since_last_mine(store: Store, tree: Tree, version: str) -> set[str] | None:
    """Paths changed since the commit last mined, or None when a full mine is needed."""
    state = store.repo_state(tree.repo)
    if state is None or not state.analyzed_sha or state.miner_version != version:
        return None
    return changed_paths(tree.root, state.analyzed_sha, tree.sha)


def _resolve_constants(tree: Tree, mined: list[MinedRecord], defined: list[tuple[str, str]],
                       every_file: bool) -> list[MinedRecord]:
    """Give each site whose message prints constants defined anywhere in the tree their
    text (its message, pattern, slug); the records it changed. ``defined``: the string
    constants of the files read (all of them unless the mine is incremental). A site
    whose message is a constant passed as it is that no string constant of the tree
    defines is dropped: it could print anything."""
    pending = [m for m in mined if m.pending is not None]
    names = {name for m in pending if m.pending for name in m.pending[0]}
    values = unique_values(defined)
    if not every_file:  # the files an incremental mine did not read: asked of git
        values.update(constant_values(tree.root, tree.sha, names - set(values)))
    resolved, unknown = [], set()
    for m in pending:
        assert m.pending is not None
        original = m.pending[1]
        template = with_constants(original, values)
        m.pending = None
        if template is None:
            if is_bare_reference(original):  # a constant of another crate, or not a string
                unknown.add(m.record.id)
            continue
        m.record.errorMessage = template.written
        m.record.messagePattern = template.pattern()
        m.record.slug = template.slug(fallback=m.record.errorClass or m.extras.enclosingSymbol
                                      or "error")
        m.extras.holeNames = hole_names(template)
        m.content_hash = content_hash(template.written, m.record.sourceCode)
        resolved.append(m)
    if unknown:
        mined[:] = [m for m in mined if m.record.id not in unknown]
    return resolved


def _enrich(
    tree: Tree, mined: list[MinedRecord], inline: list[Expectation], blame: bool
) -> None:
    """Link the repository's tests to the records and optionally blame; records enriched in
    the workers are enriched again when that added evidence."""
    pairs = [(m.record, m.extras.evidence) for m in mined if m.extras.evidence is not None]
    link_repository_tests(pairs, (), inline)
    if blame:
        wanted: dict[str, list[int]] = {}
        for m in mined:
            wanted.setdefault(m.record.filePath, []).append(m.record.lineNumber)
        found = blame_files(tree.root, tree.sha, wanted)
        for m in mined:
            if m.extras.evidence is not None:
                m.extras.evidence.blame = found.get(m.record.filePath, {}).get(m.record.lineNumber)
    enrich_pairs(
        (m.record, m.extras) for m in mined
        if blame or m.extras.evidence is None or m.extras.evidence.tests
    )


def _account(summary: MineSummary, outcome: _FileOutcome) -> None:
    if outcome.skipped:
        summary.skipped[outcome.skipped] += 1
        return
    summary.files_mined += 1
    summary.by_language[outcome.language] += len(outcome.records)
    summary.partially_parsed += outcome.parse_errors


def _mine_files(
    root: str, items: list[tuple[str, str, str]], context: _Context, workers: int
) -> Iterator[_FileOutcome]:
    """Each file's outcome; with several workers, a bounded number of batches in flight.

    Every process reads its files' bytes through its own ``git cat-file`` (workers are
    forked, and a forked worker holding the parent's pipe to git would keep git from
    ever seeing the end of its input). Workers die with this process, even killed
    (``die_with_parent``): they would otherwise wait on the task queue forever.
    """
    if workers == 1:
        reader = BlobReader(root)
        try:
            for path, language, blob in items:
                yield mine_file(context, path, language, reader.read(blob, path))
        finally:
            reader.close()
        return
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=multiprocessing.get_context("fork"),
        initializer=die_with_parent,
    ) as pool:
        pending: deque[Future[list[_FileOutcome]]] = deque()
        for batch in _batches(items, _BATCH_FILES):
            pending.append(pool.submit(mine_batch, context, root, batch))
            if len(pending) >= workers * _IN_FLIGHT_PER_WORKER:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()


def _batches(
    items: Iterable[tuple[str, str, str]], size: int
) -> Iterator[list[tuple[str, str, str]]]:
    batch: list[tuple[str, str, str]] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


_WORKER_READERS: dict[str, BlobReader] = {}


def mine_batch(
    context: _Context, root: str, batch: list[tuple[str, str, str]]
) -> list[_FileOutcome]:
    """Worker entry point: several files' records in one round trip.

    Each worker keeps one blob reader per repository for its lifetime; it ends with
    the worker process.
    """
    reader = _WORKER_READERS.get(root)
    if reader is None:
        reader = _WORKER_READERS[root] = BlobReader(root)
    return [mine_file(context, path, language, reader.read(blob, path))
            for path, language, blob in batch]


def mine_file(context: _Context, path: str, language: str, data: bytes) -> _FileOutcome:
    """One file's records, complete but for slugs and carried-over change times (for a test
    file, ``language`` prefixed with ``test:``, only its expectations).

    A file an extractor fails on is skipped and counted, never the end of the mine: one
    odd construct in one file must not cost a repository its records.
    """
    try:
        return _mine_file(context, path, language, data)
    except RecursionError:
        return _FileOutcome(path, language.removeprefix(_TEST), skipped="too deeply nested")
    except Exception as exc:  # any extractor bug: reported in the summary
        if os.environ.get("ERRDEX_DEBUG"):
            raise
        return _FileOutcome(path, language.removeprefix(_TEST),
                            skipped=f"extractor error ({type(exc).__name__})")


def _mine_file(context: _Context, path: str, language: str, data: bytes) -> _FileOutcome:
    if language.startswith(_TEST):
        language = language.removeprefix(_TEST)
        found_tests = expectations(path, language, LANGUAGES[language].grammar, data)
        return _FileOutcome(path, language, expectations=found_tests, test=True)
    text, reason = decode_source(data)
    if reason or text is None:
        return _FileOutcome(path, language, skipped=reason or "unreadable")
    constants = string_constants(language, data)
    if not LANGUAGES[language].may_have_sites(data):
        return _FileOutcome(path, language, constants=constants)
    found = LANGUAGES[language].extract(data)
    lines = split_lines(text)
    outcome = _FileOutcome(path, language, parse_errors=found.parse_errors, constants=constants)
    seen_keys: Counter[tuple[str, ...]] = Counter()
    sites = sorted(found.sites, key=lambda s: s.line)
    evidence: list[Evidence | None] = [None] * len(sites)
    if context.evidence:
        grammar = LANGUAGES[language].grammar
        evidence = list(file_evidence(language, grammar, data, sites)) if sites else evidence
        outcome.expectations = expectations(path, language, grammar, data, inline=True)
    for site, site_evidence in zip(sites, evidence, strict=True):
        normalized = site.template.normalized()
        key = (site.error_class or "", normalized, site.symbol or "")
        occurrence = seen_keys[key]
        seen_keys[key] += 1
        rid = record_id(context.repo, path, site.error_class, normalized, site.symbol, occurrence)
        mined = _record(context, path, language, lines, site, rid)
        references = constant_references(site.template, language)
        if references:
            mined.pending = (references, site.template)
        if site_evidence is not None:
            mined.extras.evidence = site_evidence
            enrich_pairs([(mined.record, mined.extras)])  # again in the parent if tests link
        outcome.records.append(mined)
    return outcome


def split_lines(text: str) -> list[str]:
    """Lines as tree-sitter counts them (``\\n`` only), without ``\\r`` or a final empty line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def hole_names(template: Template) -> list[str]:
    """A name per hole: the argument expression as written, else the placeholder itself."""
    return [h.name or h.spec for h in template.parts if isinstance(h, Hole)]


def _record(
    context: _Context, path: str, language: str, lines: list[str], site: Site, rid: str
) -> MinedRecord:
    window, start, end = source_window(lines, site.line)
    url = context.forge.permalink(context.sha, path, start, end) if context.forge else None
    record = Record(
        id=rid, repo=context.repo,
        slug=site.template.slug(fallback=site.error_class or site.symbol or "error"),
        errorCode=site.error_code, errorMessage=site.template.written,
        messagePattern=site.template.pattern(), errorType=site.error_type,
        errorClass=site.error_class, httpStatus=site.http_status, severity=site.severity,
        filePath=path, lineNumber=site.line, sourceCode=window, sourceCodeStart=start,
        sourceCodeEnd=end, githubUrl=url, **empty_explanation(), analyzedSha=context.sha,
        analyzedAt=context.analyzed_at, contentChangedAt=context.analyzed_at,
        schemaVersion=SCHEMA_VERSION,
    )
    extras = RecordExtras(language=language, enclosingSymbol=site.symbol,
                          holeNames=hole_names(site.template))
    return MinedRecord(record, extras, content_hash(site.template.written, window))


def finish_records(mined: list[MinedRecord], previous: dict[str, PreviousRecord]) -> None:
    """Order records by (file, line), carry over unchanged change times, assign slugs."""
    mined.sort(key=lambda m: (m.record.filePath, m.record.lineNumber, m.record.id))
    for m in mined:
        before = previous.get(m.record.id)
        if before and before.content_hash == m.content_hash:
            m.record.contentChangedAt = before.content_changed_at
    assign_slugs(mined, previous)


def assign_slugs(mined: list[MinedRecord], previous: dict[str, PreviousRecord]) -> None:
    """Unique slugs within the repo: a record keeps its earlier slug; others get -2, -3…

    Slugs of stored records not mined now (removed ones, unchanged files) stay taken.
    New records are numbered in (file, line) order, so the order is stable for a tree.
    """
    fresh = {m.record.id for m in mined}
    taken: set[str] = {p.slug for rid, p in previous.items() if rid not in fresh}
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
