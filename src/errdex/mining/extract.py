"""Extraction: a repository tree → every record a mine of it would write, and its summary.

Pure with respect to the store: ``extract`` reads git (the tree's blobs, and for an
incremental mine the constants of files it did not read) and the previous mine's
snapshot it is handed, and writes nothing. ``Store.write`` writes what it returns;
``errdex.mining.run.mine`` is the two together, and mine-many's workers send an
``Extraction`` back to the one process that writes.

Identity is decided here: ids, slugs and ``contentChangedAt`` carried over from the
previous mine of the same repository.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from errdex.collection import young_collections_only
from errdex.enrich import EnrichMode, enrich_pairs, enrichment_inputs, link_repository_tests
from errdex.evidence.blame import blame_files
from errdex.evidence.tests import Expectation
from errdex.languages import SPECS, Language
from errdex.languages._engine.constants import unique_values
from errdex.languages.facts import Producer
from errdex.mining.compose import callers_of, compose_records, producers_elsewhere
from errdex.mining.files import (
    TEST,
    FileContext,
    FileOutcome,
    MinedRecord,
    hole_names,
    mine_files,
)
from errdex.mining.logs import route_levels
from errdex.mining.producers import Producers
from errdex.records.log_statements import LogStatement
from errdex.records.model import Record, RecordExtras, content_hash, now_iso
from errdex.records.text_sites import TextSite
from errdex.repo.git import Tree
from errdex.store.protocol import PreviousRecord
from errdex.version import __version__

# Below this many files a process pool costs more than it saves.
_PARALLEL_MIN_FILES = 64

# Bump when what extraction or enrichment produces changes: stored repos then get a full
# re-mine instead of an incremental one.
EXTRACTION_REVISION = 21

ProgressCallback = Callable[[int, int], None]



@dataclass
class MineSummary:
    """What one mine did, for the CLI summary and the API caller."""

    repo: str
    sha: str
    files_mined: int = 0
    records: int = 0  # the repository's current records once written (``Store.write``)
    by_language: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    partially_parsed: int = 0
    new: int = 0
    changed: int = 0
    removed: int = 0
    seconds: float = 0.0
    incremental: bool = False  # only the files changed since the last mine were read
    text_sites: int = 0  # literals kept for lookup only (no record's template holds them)
    composed: int = 0  # records whose message was put together across classes and functions
    capped: int = 0  # sites whose composed alternatives were cut to the cap
    log_statements: int = 0  # log calls below warning: indexed for scan, not records


@dataclass
class Extraction:
    """Everything one mine writes, not yet written (picklable: it crosses processes).

    ``rows`` are the fresh records of the files read: every file, or only ``files`` for
    an incremental mine. These are the fields ``Store.write`` reads.
    """

    repo: str
    sha: str
    root: str
    rows: list[tuple[Record, RecordExtras, str]]  # (record, extras, content hash)
    files: set[str] | None  # the files read again; None: the whole tree
    miner_version: str
    analyzed_at: str
    summary: MineSummary
    # the worded literals of the files read that no record's template holds (lookup only)
    texts: list[TextSite] = field(default_factory=list)
    # the log calls below warning of the files read (``scan`` only, never records)
    logs: list[LogStatement] = field(default_factory=list)


def miner_version(enrich: str) -> str:
    """What produced a stored mine: a different one means a full re-mine."""
    return f"{__version__}/{EXTRACTION_REVISION}/{enrich}"


def extract(
    tree: Tree[Language],
    previous: dict[str, PreviousRecord],
    *,
    changed: set[str] | None = None,
    jobs: int | None = None,
    progress: ProgressCallback | None = None,
    enrich: EnrichMode = "static",
    blame: bool = False,
) -> Extraction:
    """The records of ``tree`` (only the files in ``changed`` when given), with the ids,
    slugs and change times of ``previous`` (the store's snapshot of the repository)
    carried over. ``enrich`` and ``blame`` as for ``errdex.mining.run.mine``."""
    with young_collections_only():
        return _extract(tree, previous, changed, jobs, progress, enrich, blame)


def _extract(
    tree: Tree[Language], previous: dict[str, PreviousRecord], changed: set[str] | None,
    jobs: int | None, progress: ProgressCallback | None, enrich: EnrichMode, blame: bool,
) -> Extraction:
    started = time.perf_counter()
    summary = MineSummary(repo=tree.repo, sha=tree.sha, skipped=Counter(tree.skipped),
                          incremental=changed is not None)
    context = FileContext(tree.repo, tree.sha, tree.forge, now_iso(), evidence=enrich != "none")
    read = _Read(summary)
    read.files(tree, context, changed, jobs, progress, tests=enrich == "static")
    if changed is not None:  # sites elsewhere that call a producer this change may change
        callers = callers_of(tree, read.producers, changed)
        if callers:
            changed = changed | callers
            read.files(tree, context, callers, jobs, None, tests=enrich == "static")
    producers = Producers()
    producers.add(read.producers)
    if changed is not None:  # the producers of files an incremental mine did not read
        producers.add(producers_elsewhere(tree, producers, read.mined, changed))
    mined, texts, inline = read.mined, read.texts, read.inline
    waiting = {m.extras.language for m in mined if m.pending is not None}  # no other
    resolved = [  # language has a site to resolve (nor loads its folder to ask)
        m for language in SPECS if language in waiting and SPECS[language].constants is not None
        for m in _resolve_constants(tree, language, mined, read.constants.get(language, []),
                                    every_file=changed is None)
    ]
    resolved += compose_records(mined, producers)
    read.logs.extend(route_levels(mined, producers))  # own logging functions, by level
    summary.composed = sum(1 for m in mined if m.extras.template_sources)
    summary.by_language = Counter(m.extras.language for m in mined if m.extras.language)
    summary.capped = producers.capped
    if enrich == "static":  # the records whose text changed are enriched again, once
        _enrich(tree, mined, inline, blame,
                again={id(m) for m in resolved if m.extras.evidence is not None})
    finish_records(mined, previous)
    _count_changes(summary, mined, previous, changed)
    summary.text_sites = len(texts)
    summary.log_statements = len(read.logs)
    summary.seconds = time.perf_counter() - started
    return Extraction(
        repo=tree.repo, sha=tree.sha, root=str(tree.root),
        rows=[(m.record, m.extras, m.content_hash) for m in mined], files=changed,
        miner_version=miner_version(enrich), analyzed_at=context.analyzed_at, summary=summary,
        texts=texts, logs=read.logs,
    )


@dataclass
class _Read:
    """What the workers sent back for the files read so far."""

    summary: MineSummary
    mined: list[MinedRecord] = field(default_factory=list)
    inline: list[Expectation] = field(default_factory=list)
    texts: list[TextSite] = field(default_factory=list)
    logs: list[LogStatement] = field(default_factory=list)
    constants: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # by language
    producers: list[Producer] = field(default_factory=list)

    def files(self, tree: Tree[Language], context: FileContext, only: set[str] | None,
              jobs: int | None, progress: ProgressCallback | None, tests: bool) -> None:
        """Read the tree's files (only those in ``only`` when given) through the workers."""
        sources = [f for f in tree.files if only is None or f.path in only]
        # (path, language, blob): test files travel through the workers too, for their
        # expectations
        items = [(s.path, s.language.name, s.blob) for s in sources]
        if tests:
            items += [(s.path, TEST + s.language.name, s.blob) for s in tree.tests
                      if only is None or s.path in only]
        workers = jobs or os.cpu_count() or 1
        if workers > 1 and len(items) < _PARALLEL_MIN_FILES:
            workers = 1
        done = 0
        for outcome in mine_files(str(tree.root), items, context, workers):
            self.inline.extend(outcome.expectations)
            if outcome.test:
                continue
            _account(self.summary, outcome)
            self.mined.extend(outcome.records)
            self.texts.extend(outcome.texts)
            self.logs.extend(outcome.logs)
            self.producers.extend(outcome.producers)
            if outcome.constants:
                self.constants.setdefault(outcome.language, []).extend(outcome.constants)
            done += 1
            if progress:
                progress(done, len(sources))


def _count_changes(summary: MineSummary, mined: list[MinedRecord],
                   previous: dict[str, PreviousRecord], changed: set[str] | None) -> None:
    """New, changed and removed sites against the previous mine."""
    fresh = {m.record.id for m in mined}
    current = {rid for rid, p in previous.items() if not p.removed}
    summary.new = len(fresh - current)
    summary.changed = sum(
        1 for m in mined
        if m.record.id in current and m.record.content_changed_at == m.record.analyzed_at
    )
    summary.removed = sum(
        1 for rid in current - fresh
        if changed is None or previous[rid].file_path in changed
    )


def _resolve_constants(tree: Tree[Language], language: str, mined: list[MinedRecord],
                       defined: list[tuple[str, str]], every_file: bool) -> list[MinedRecord]:
    """Give each ``language`` site whose message prints constants defined anywhere in the
    tree their text (its message, pattern, slug); the records it changed. ``defined``: the
    string constants of the files read (all of them unless the mine is incremental). A site
    whose message is a constant passed as it is that no string constant of the tree
    defines is dropped: it could print anything."""
    hook = SPECS[language].constants
    if hook is None:
        return []
    pending = [m for m in mined if m.pending is not None and m.extras.language == language]
    names = {name for m in pending if m.pending for name in m.pending[0]}
    values = unique_values(defined)
    if not every_file:  # the files an incremental mine did not read: asked of git
        values.update(hook.lookup(tree.root, tree.sha, names - set(values)))
    resolved, unknown = [], set()
    for m in pending:
        assert m.pending is not None
        original = m.pending[1]
        template = hook.apply(original, values)
        m.pending = None
        if template is None:
            if hook.is_bare(original):  # a constant of another crate, or not a string
                unknown.add(m.record.id)
            continue
        m.record.error_message = template.written
        m.record.message_pattern = template.pattern()
        m.record.slug = template.slug(fallback=m.record.error_class or m.extras.enclosing_symbol
                                      or "error")
        m.extras.hole_names = hole_names(template)
        m.content_hash = content_hash(template.written, m.record.source_code)
        resolved.append(m)
    if unknown:
        mined[:] = [m for m in mined if m.record.id not in unknown]
    return resolved


def _enrich(
    tree: Tree[Language], mined: list[MinedRecord], inline: list[Expectation], blame: bool,
    again: set[int],
) -> None:
    """Link the repository's tests to the records and optionally blame; records enriched in
    the workers are enriched again when that added evidence, or when what enrichment reads
    of them changed after the workers (``again``: constants resolved, composed; most
    records composition rewrites keep their text). Linking reads no
    explanation field, so one enrichment after it gives what one before and one after did."""
    pairs = [(m.record, m.extras.evidence) for m in mined if m.extras.evidence is not None]
    link_repository_tests(pairs, (), inline)
    if blame:
        wanted: dict[str, list[int]] = {}
        for m in mined:
            wanted.setdefault(m.record.file_path, []).append(m.record.line_number)
        found = blame_files(tree.root, tree.sha, wanted)
        for m in mined:
            if m.extras.evidence is not None:
                in_file = found.get(m.record.file_path, {})
                m.extras.evidence.blame = in_file.get(m.record.line_number)
    enrich_pairs(
        (m.record, m.extras) for m in mined
        if blame or m.extras.evidence is None or m.extras.evidence.tests or (
            id(m) in again and m.enriched != enrichment_inputs(m.record, m.extras))
    )


def _account(summary: MineSummary, outcome: FileOutcome) -> None:
    if outcome.skipped:
        summary.skipped[outcome.skipped] += 1
        return
    summary.files_mined += 1
    summary.partially_parsed += outcome.parse_errors


def finish_records(mined: list[MinedRecord], previous: dict[str, PreviousRecord]) -> None:
    """Order records by (file, line), carry over unchanged change times, assign slugs."""
    mined.sort(key=lambda m: (m.record.file_path, m.record.line_number, m.record.id))
    for m in mined:
        before = previous.get(m.record.id)
        if before and before.content_hash == m.content_hash:
            m.record.content_changed_at = before.content_changed_at
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
