"""Drawing the static site's record pages, in this process or in worker processes.

Workers are forked after the first pass, so they share its summaries and family lists
without copying them; each opens its own connection to the store, reads the records it
draws in batches and writes their pages itself. A page is written only when its bytes
differ from what the last export wrote.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from errdex.datasets import record_view
from errdex.datasets import site_pages as pages
from errdex.datasets.site_pages import Summary
from errdex.records.stored import StoredRecord
from errdex.store.protocol import Store, open_store

RELATED = 20  # records of the same family a record page lists: its neighbours there
SITE_CONTEXT_LINES = 12  # source lines each side of the raising line on a site page
BATCH = 200  # records one worker task reads and draws
PARALLEL_FROM = 400  # fewer pages than this are drawn in this process

Task = tuple[int, str, str | None]  # summary index, input key, digest written last time
Drawn = tuple[str, str, str, bool]  # path, input key, digest, written


@dataclass
class Job:
    """What every page needs: shared with workers by fork, never pickled."""

    folder: Path
    base_url: str | None
    common: dict[str, Any]
    summaries: list[Summary]
    families: dict[str, list[int]]  # tag → summary indices, in the store's order
    position: list[int]  # each summary's place in its family's list (-1: none)


_JOB: Job | None = None
_STORE: Store | None = None


def related(job: Job, index: int) -> list[Summary]:
    """Up to ``RELATED`` records of the same family around this one (in repository, file
    and line order), so a changed record redraws at most its neighbours' pages."""
    item = job.summaries[index]
    members = job.families.get(item.tag or "", [])
    at = job.position[index]
    if at < 0 or len(members) < 2:
        return []
    start = max(0, min(at - RELATED // 2, len(members) - RELATED - 1))
    return [job.summaries[i] for i in members[start:start + RELATED + 1] if i != index][:RELATED]


def record_html(job: Job, stored: StoredRecord, item: Summary, near: list[Summary]) -> str:
    record, extras = stored.record, stored.extras
    sections, missing = record_view.explanation(record, extras)
    template = pages.environment().get_template("record.html")
    return template.render(
        root=pages.root_of(item.href), canonical=pages.canonical(job.base_url, item.href),
        **job.common, record=record, extras=extras, sections=sections, missing=missing,
        related=near, indexable=item.indexable,
        lines=record_view.source_lines(record, extras, SITE_CONTEXT_LINES),
        note=record_view.source_note(record, SITE_CONTEXT_LINES),
        description=record_view.short(record.documentation or record.error_message, 155))


def draw(tasks: list[Task]) -> list[Drawn]:
    """Draw and write the pages of ``tasks`` (run in a worker, or here)."""
    job, store = _JOB, _STORE
    if job is None:
        raise RuntimeError("draw() runs inside draw_pages()")
    if store is None:
        raise RuntimeError("the worker has no store")
    found = store.get_many(job.summaries[index].id for index, _, _ in tasks)
    out: list[Drawn] = []
    for index, key, before in tasks:
        item = job.summaries[index]
        stored = found.get(item.id)
        if stored is None:  # removed since the first pass
            continue
        data = record_html(job, stored, item, related(job, index)).encode("utf-8")
        digest = hashlib.sha256(data).hexdigest()
        target = job.folder / item.href
        written = digest != before or not target.is_file()
        if written:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        out.append((item.href, key, digest, written))
    return out


def _worker(db: str) -> None:
    global _STORE
    _STORE = open_store(db)


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def draw_pages(store: Store, job: Job, tasks: list[Task], jobs: int | None = None
               ) -> Iterator[Drawn]:
    """Every task's page, drawn by ``jobs`` forked workers (this process alone for a few
    pages, one job, or where fork is missing); results come in task order."""
    global _JOB, _STORE
    jobs = jobs or default_jobs()
    batches = [tasks[i:i + BATCH] for i in range(0, len(tasks), BATCH)]
    _JOB = job
    try:
        if jobs < 2 or len(tasks) < PARALLEL_FROM or "fork" not in (
                multiprocessing.get_all_start_methods()):
            _STORE = store
            for batch in batches:
                yield from draw(batch)
            return
        db = str(store.path)
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                                 initializer=_worker, initargs=(db,)) as pool:
            for drawn in pool.map(draw, batches):
                yield from drawn
    finally:
        _JOB, _STORE = None, None
