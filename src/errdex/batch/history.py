"""``mine-many --history``: the local clones of a LIST mined release by release.

Each path entry is mined with ``mining.history.mine_history`` (every release tag, then
its ``@ref`` or HEAD), one repository after another, each using the worker processes
itself; a failure is that line's outcome, never the end of the run. URL entries are
cloned shallow by ``mine_many``, which has no tags to walk: they are mined at their
commit as without ``--history``.
"""

from __future__ import annotations

import time

from errdex.batch.entries import Entry
from errdex.batch.many import RepoOutcome
from errdex.batch.workers import one_line
from errdex.enrich import EnrichMode
from errdex.errors import ErrdexError
from errdex.mining.extract import ProgressCallback
from errdex.mining.history import Stride, mine_history
from errdex.store.protocol import Store


def mine_paths_history(
    entries: list[Entry], store: Store, *, jobs: int | None = None,
    progress: ProgressCallback | None = None, enrich: EnrichMode = "static",
    last: int | None = None, stride: Stride = "patch",
) -> list[RepoOutcome]:
    """One outcome per path entry, in order: ``mined`` when a release was mined,
    ``unchanged`` when every release was stored before, else ``failed`` with the reason.
    ``last`` and ``stride`` choose each repository's releases as ``mine_history`` does."""
    outcomes: list[RepoOutcome] = []
    for number, entry in enumerate(entries, 1):
        started = time.perf_counter()
        outcome = RepoOutcome(entry, "failed", attempts=1)
        try:
            summary = mine_history(entry.location, store, sha=entry.ref, jobs=jobs,
                                   enrich=enrich, last=last, stride=stride)
        except ErrdexError as exc:
            outcome.reason = one_line(exc)
        else:
            newest = summary.last
            outcome.repo = summary.repo
            outcome.sha = summary.releases[-1].sha if summary.releases else None
            outcome.status = "mined" if newest is not None else "unchanged"
            outcome.summary = newest
            outcome.records = newest.records if newest is not None else 0
            outcome.reason = (f"{len(summary.mined)} release(s) mined, {summary.linked} "
                              "site(s) linked across them")
        outcome.seconds = time.perf_counter() - started
        outcomes.append(outcome)
        if progress is not None:
            progress(number, len(entries))
    return outcomes


__all__ = ["mine_paths_history"]
