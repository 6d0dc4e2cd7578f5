"""``mine``: extraction (``extract``, pure) and the store's one write (``Store.write``).

When the repository was mined before by this errdex, only the files changed since
that commit are read again; deciding that is the one thing ``mine`` asks of the store
besides the previous mine's snapshot.
"""

from __future__ import annotations

import os
import time

from errdex.collection import young_collections_only
from errdex.enrich import EnrichMode
from errdex.languages import Language, language_for_path
from errdex.mining.extract import (
    Extraction,
    MineSummary,
    ProgressCallback,
    extract,
    miner_version,
)
from errdex.repo.git import Tree, changed_paths, load_tree
from errdex.store.protocol import Store

__all__ = ["Extraction", "MineSummary", "ProgressCallback", "extract", "mine", "miner_version"]


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
    tree = load_tree(path, repo=repo, revision=sha, classify=language_for_path)
    changed = None if full else _changed_since_last_mine(store, tree, miner_version(enrich))
    with young_collections_only():  # the write walks every record again
        extraction = extract(tree, store.previous_records(tree.repo), changed=changed,
                             jobs=jobs, progress=progress, enrich=enrich, blame=blame)
        summary = extraction.summary
        summary.records = store.write(extraction)
    summary.seconds = time.perf_counter() - started
    return summary


def _changed_since_last_mine(store: Store, tree: Tree[Language], version: str) -> set[str] | None:
    """Paths changed since the commit last mined, or None when a full mine is needed."""
    state = store.repo_state(tree.repo)
    if state is None or not state.analyzed_sha or state.miner_version != version:
        return None
    return changed_paths(tree.root, state.analyzed_sha, tree.sha)
