"""One file of a tree → its records: the language extractors, site evidence and static
enrichment, run in worker processes a bounded number of files at a time.

Files stream through: git's blob reader feeds the workers, each worker turns one file
into finished records (its text is dropped right after), so memory follows the number
of records, not the size of the repository. Nothing here reads or writes a store.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field

from errdex.enrich import enrich_pairs, enrichment_inputs
from errdex.evidence.site import file_evidence
from errdex.evidence.tests import Expectation, expectations
from errdex.languages import LANGUAGES, Site, spec_for
from errdex.languages._engine.literals import file_literals
from errdex.languages.base import parse
from errdex.languages.facts import Call, Producer, referenced_names
from errdex.languages.logs import module_logger
from errdex.mining.codes import site_code
from errdex.records.evidence import Evidence
from errdex.records.log_statements import LogLevel, LogStatement
from errdex.records.model import (
    SCHEMA_VERSION,
    Record,
    RecordExtras,
    content_hash,
    empty_explanation,
    record_id,
    source_window,
)
from errdex.records.text_sites import TextSite, spaced, words
from errdex.repo.git import MISSING_BLOB, BlobReader, Forge, decode_source
from errdex.repo.processes import die_with_parent
from errdex.templates.template import Hole, Template

# Files handed to one worker task, and tasks in flight per worker.
_BATCH_FILES = 16
_IN_FLIGHT_PER_WORKER = 4

# A work item's language prefixed with this: a test file, read for its expectations only.
TEST = "test:"

# (path, language, blob) of one file to read
Item = tuple[str, str, str]


@dataclass
class MinedRecord:
    """A record with the schema-3 facts that the seed format has no field for."""

    record: Record
    extras: RecordExtras
    content_hash: str
    # the constants a site's message prints, and its template: resolved across files
    # after the workers are done (``extract``), then dropped
    pending: tuple[list[str], Template] | None = None
    # the producer call the site's message comes from, composed across the repository
    # after the workers are done (``errdex.mining.compose``); a candidate (no template of
    # its own) is dropped when its call reaches no producer
    call: Call | None = None
    candidate: bool = False
    # a leveled log call's level when its call may still compose (``mining.logs``)
    level: LogLevel | None = None
    # what its enrichment in the worker read (``enrichment_inputs``): when composition
    # leaves those as they were and no test links to it, the parent keeps that enrichment
    enriched: tuple[object, ...] | None = None


@dataclass(frozen=True)
class FileContext:
    """What every file's records share (sent once to each worker)."""

    repo: str
    sha: str
    forge: Forge | None
    analyzed_at: str
    evidence: bool = True  # read site evidence (guards, docs) while the file is at hand


@dataclass
class FileOutcome:
    """One file's records, or why it was skipped, and what the rest of the mine needs."""

    path: str
    language: str
    records: list[MinedRecord] = field(default_factory=list)
    skipped: str | None = None
    parse_errors: bool = False
    expectations: list[Expectation] = field(default_factory=list)  # what its tests expect
    test: bool = False  # a test file, read for its expectations only
    constants: list[tuple[str, str]] = field(default_factory=list)  # string constants defined
    texts: list[TextSite] = field(default_factory=list)  # literals no record's template holds
    producers: list[Producer] = field(default_factory=list)  # for composition (``compose``)
    logs: list[LogStatement] = field(default_factory=list)  # log calls below warning


def mine_files(
    root: str, items: list[Item], context: FileContext, workers: int
) -> Iterator[FileOutcome]:
    """Each file's outcome; with several workers, a bounded number of batches in flight.

    Every process reads its files' bytes through its own ``git cat-file`` (workers are
    forked, and a forked worker holding the parent's pipe to git would keep git from
    ever seeing the end of its input). Workers die with this process, even killed
    (``die_with_parent``): they would otherwise wait on the task queue forever.
    """
    if workers == 1:
        reader = BlobReader(root)
        try:
            for batch in _batches(items, _BATCH_FILES):
                yield from read_and_mine_batch(context, reader, batch)
        finally:
            reader.close()
        return
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=multiprocessing.get_context("fork"),
        initializer=die_with_parent,
    ) as pool:
        pending: deque[Future[list[FileOutcome]]] = deque()
        for batch in _batches(items, _BATCH_FILES):
            pending.append(pool.submit(mine_batch, context, root, batch))
            if len(pending) >= workers * _IN_FLIGHT_PER_WORKER:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()


def _batches(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    batch: list[Item] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


_WORKER_READERS: dict[str, BlobReader] = {}


def mine_batch(context: FileContext, root: str, batch: list[Item]) -> list[FileOutcome]:
    """Worker entry point: several files' records in one round trip.

    Each worker keeps one blob reader per repository for its lifetime; it ends with
    the worker process.
    """
    reader = _WORKER_READERS.get(root)
    if reader is None:
        reader = _WORKER_READERS[root] = BlobReader(root)
    return list(read_and_mine_batch(context, reader, batch))


def read_and_mine_batch(context: FileContext, reader: BlobReader,
                        batch: list[Item]) -> Iterator[FileOutcome]:
    """``mine_file`` of each blob of a batch, all read from git in one round trip; a blob
    missing from the clone is a skip."""
    found = reader.read_many([(blob, path) for path, _, blob in batch])
    for (path, language, _), data in zip(batch, found, strict=True):
        if data is None:
            yield FileOutcome(path, language.removeprefix(TEST), skipped=MISSING_BLOB)
        else:
            yield mine_file(context, path, language, data)


def mine_file(context: FileContext, path: str, language: str, data: bytes) -> FileOutcome:
    """One file's records, complete but for slugs and carried-over change times (for a test
    file, ``language`` prefixed with ``test:``, only its expectations).

    A file an extractor fails on is skipped and counted, never the end of the mine: one
    odd construct in one file must not cost a repository its records.
    """
    try:
        return _mine_file(context, path, language, data)
    except RecursionError:
        return FileOutcome(path, language.removeprefix(TEST), skipped="too deeply nested")
    except Exception as exc:  # any extractor bug: reported in the summary
        if os.environ.get("ERRDEX_DEBUG"):
            raise
        return FileOutcome(path, language.removeprefix(TEST),
                           skipped=f"extractor error ({type(exc).__name__})")


def _mine_file(context: FileContext, path: str, language: str, data: bytes) -> FileOutcome:
    if language.startswith(TEST):
        language = language.removeprefix(TEST)
        found_tests = expectations(path, language, LANGUAGES[language].grammar, data)
        return FileOutcome(path, language, expectations=found_tests, test=True)
    text, reason = decode_source(data)
    if reason or text is None:
        return FileOutcome(path, language, skipped=reason or "unreadable")
    spec = spec_for(language)
    hook = spec.constants if spec is not None else None
    constants = hook.definitions(data) if hook is not None else []
    if not LANGUAGES[language].may_have_sites(data):
        outcome = FileOutcome(path, language, constants=constants)
        outcome.texts = text_sites(context, path, language, data, [])
        outcome.producers = producers_of(path, language, data)
        return outcome
    found = LANGUAGES[language].extract(data)
    lines = split_lines(text)
    outcome = FileOutcome(path, language, parse_errors=found.parse_errors, constants=constants)
    outcome.producers = producers_of(path, language, data)  # the tree extract parsed
    seen_keys: Counter[tuple[str, ...]] = Counter()
    # a log statement whose call may still add a prefix (``do_log2(LEVEL_INFO, …)``) is
    # composed as records are, then routed by its level (``mining.logs``)
    outcome.logs = [log_statement(context, path, language, s) for s in found.sites
                    if s.is_log_statement() and s.template.parts and s.call is None]
    sites = sorted([*(s for s in found.sites if not s.is_log_statement() or s.call),
                    *found.candidates], key=lambda s: s.line)
    evidence: list[Evidence | None] = [None] * len(sites)
    if context.evidence:
        grammar = LANGUAGES[language].grammar
        real = [s for s in sites if not s.is_candidate()]
        read = iter(file_evidence(language, grammar, data, real) if real else ())
        evidence = [None if s.is_candidate() else next(read) for s in sites]
        outcome.expectations = expectations(path, language, grammar, data, inline=True)
    for site, site_evidence in zip(sites, evidence, strict=True):
        normalized = site.template.normalized()
        key = (site.error_class or "", normalized, site.symbol or "")
        occurrence = seen_keys[key]
        seen_keys[key] += 1
        rid = record_id(context.repo, path, site.error_class, normalized, site.symbol, occurrence)
        mined = _record(context, path, language, lines, site, rid)
        references = (hook.references(site.template) if hook is not None
                      else referenced_names(site.template))
        if references:
            mined.pending = (references, site.template)
        if site.call is not None:
            mined.call = dataclasses.replace(site.call, path=path)
            mined.candidate = site.is_candidate()
        if site_evidence is not None:
            mined.extras.evidence = site_evidence
            enrich_pairs([(mined.record, mined.extras)])  # again in the parent if tests link
            mined.enriched = enrichment_inputs(mined.record, mined.extras)
        outcome.records.append(mined)
    outcome.texts = text_sites(context, path, language, data,
                               [s for s in sites if not s.is_candidate()])
    return outcome


def log_statement(context: FileContext, path: str, language: str, site: Site) -> LogStatement:
    """A log call below warning as the store keeps it (scan only, never a record)."""
    assert site.level is not None
    return LogStatement(context.repo, path, site.line, site.level, site.template.written,
                        site.template.pattern(), site.symbol, language,
                        module_logger(site.logger, path))


def producers_of(path: str, language: str, data: bytes) -> list[Producer]:
    """The producers a file defines (``errdex.languages.facts``), for composition."""
    spec = spec_for(language)
    if spec is None or spec.compose is None or not spec.compose.may_define(data):
        return []
    tree = parse(LANGUAGES[language].grammar, data)
    return spec.compose.producers(tree.root_node, data, path)


def text_sites(
    context: FileContext, path: str, language: str, data: bytes, sites: list[Site]
) -> list[TextSite]:
    """The file's worded literals that no site's template holds (lookup-only; at most
    ``languages._engine.literals.MAX_PER_FILE``); a literal a template holds is kept too
    where a paste of it is hard to parse back into that template (``_spans_lines``)."""
    spec = spec_for(language)
    if spec is None:
        return []
    # the templates a literal's words may sit in and still be no text site of its own
    # (each worked out once per file, not once per literal)
    templates = [spaced(words(" ".join(p.text for p in s.template.parts
                                       if not isinstance(p, Hole)))) for s in sites
                 if not _spans_lines(s)]
    found = []
    for line, value in file_literals(spec, data):
        value_words = words(value)
        needle = spaced(value_words) if value_words else None
        if needle is not None and any(needle in template for template in templates):
            continue
        url = context.forge.permalink(context.sha, path, line, line) if context.forge else None
        found.append(TextSite(path, line, value, url))
    return found


def _spans_lines(site: Site) -> bool:
    """Whether a literal a site's template holds stays a text site anyway: the template
    spans lines, and a paste of it (cut, wrapped, interleaved with other output) rarely
    parses back whole, while its literal's words still point at the line."""
    shown = "".join("{}" if isinstance(p, Hole) else p.text for p in site.template.parts)
    return sum(bool(line.strip()) for line in shown.split("\n")) > 1


def split_lines(text: str) -> list[str]:
    """Lines as tree-sitter counts them (``\\n`` only), without ``\\r`` or a final empty line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines] if "\r" in text else lines


def hole_names(template: Template) -> list[str]:
    """A name per hole: the argument expression as written, else the placeholder itself."""
    return [h.name or h.spec for h in template.parts if isinstance(h, Hole)]


def _record(
    context: FileContext, path: str, language: str, lines: list[str], site: Site, rid: str
) -> MinedRecord:
    window, start, end = source_window(lines, site.line)
    url = context.forge.permalink(context.sha, path, start, end) if context.forge else None
    record = Record(
        id=rid, repo=context.repo,
        slug=site.template.slug(fallback=site.error_class or site.symbol or "error"),
        error_code=site_code(site.error_code, lines, site.line),
        error_message=site.template.written,
        message_pattern=site.template.pattern(), error_type=site.error_type,
        error_class=site.error_class, http_status=site.http_status, severity=site.severity,
        file_path=path, line_number=site.line, source_code=window, source_code_start=start,
        source_code_end=end, github_url=url, **empty_explanation(), analyzed_sha=context.sha,
        analyzed_at=context.analyzed_at, content_changed_at=context.analyzed_at,
        schema_version=SCHEMA_VERSION,
    )
    extras = RecordExtras(language=language, enclosing_symbol=site.symbol,
                          hole_names=hole_names(site.template))
    return MinedRecord(record, extras, content_hash(site.template.written, window),
                       level=site.level if site.call is not None else None)
