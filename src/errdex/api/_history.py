"""Mining a repository's releases through the public API: ``mine_history``."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Literal

from errdex.api._stores import Db, open_index, using_store
from errdex.mining import history as _history

HistorySummary = _history.HistorySummary
ReleaseMine = _history.ReleaseMine
ReleaseCallback = _history.ReleaseCallback


def mine_history(
    path: str | os.PathLike[str], *, db: Db = None, repo: str | None = None,
    sha: str | None = None, tags: str | None = None, jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_release: ReleaseCallback | None = None,
    enrich: Literal["static", "none"] = "static", warm_index: bool = False,
    last: int | None = None, stride: Literal["patch", "minor", "major"] = "patch",
) -> HistorySummary:
    """Mine every release tag of the repository holding ``path`` (tags that read as versions,
    or those the glob ``tags`` names), oldest version first, then ``sha`` (HEAD), each
    incrementally from the one before; a site reworded between releases keeps one identity,
    so its older wordings resolve to it as it is now (``Match.version``).

    Releases mined by an earlier run are skipped (a run can be resumed); tags a shallow
    clone lacks, and blobs a partial clone lacks, are skipped and counted. ``on_release``
    is called as ``on_release(done, total, name)`` before each release. ``last`` keeps
    only the newest ``last`` releases (then the revision); ``stride="minor"`` (``"major"``)
    only the first release of each minor (major) version, and the newest.
    """
    with using_store(db) as store:
        summary = _history.mine_history(path, store, repo=repo, sha=sha, tags=tags, jobs=jobs,
                                        progress=progress, on_release=on_release,
                                        enrich=enrich, last=last,
                                        stride=stride)
        if warm_index:
            open_index(store)
    return summary
