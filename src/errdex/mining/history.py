"""``mine --history``: every release tag of a repository, oldest version first, then the
requested revision, each mined incrementally from the one before.

Each release is an ordinary mine (``run.mine``: only the files changed since the previous
release are read), then stamped and linked (``lineage.link_release``), so the store grows
by the sites that changed and a reworded site keeps one identity. Releases stamped by an
earlier run are not mined again: a history run can be stopped and resumed. Releases an
earlier errdex (another extraction revision) stamped are all mined again: one extractor's
records compared with another's would read as reworded sites.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from errdex.enrich import EnrichMode
from errdex.errors import UsageError
from errdex.mining.extract import MineSummary, ProgressCallback
from errdex.mining.lineage import link_release
from errdex.mining.run import mine, miner_version
from errdex.repo.git import MISSING_BLOB, detect_forge, find_root, resolve_sha, run_git
from errdex.repo.releases import Release, Releases, release_tags, tag_at
from errdex.store import lineage as table
from errdex.store.protocol import Store

Stride = Literal["patch", "minor", "major"]
# Called as ``on_release(done, total, name)`` before each release is mined.
ReleaseCallback = Callable[[int, int, str], None]


@dataclass
class ReleaseMine:
    """One release of a history run: mined now (``summary``), or stamped by an earlier run."""

    name: str
    sha: str
    summary: MineSummary | None = None
    linked: int = 0  # old wordings linked to their successor at this release


@dataclass
class HistorySummary:
    """What ``mine_history`` did, release by release."""

    repo: str
    releases: list[ReleaseMine] = field(default_factory=list)
    skipped_tags: Counter[str] = field(default_factory=Counter)  # tags left out, by reason
    seconds: float = 0.0
    restarted: bool = False  # releases stamped by another miner version, mined again

    @property
    def mined(self) -> list[ReleaseMine]:
        """The releases mined in this run (not those stamped before)."""
        return [r for r in self.releases if r.summary is not None]

    @property
    def linked(self) -> int:
        return sum(r.linked for r in self.releases)

    @property
    def missing_blobs(self) -> int:
        """Files skipped because their blob is not in this clone, over every release."""
        return sum(r.summary.skipped[MISSING_BLOB] for r in self.mined if r.summary)

    @property
    def last(self) -> MineSummary | None:
        """The summary of the requested revision's mine (the last one mined)."""
        mined = self.mined
        return mined[-1].summary if mined else None


def on_release_branches(root: Path, found: Releases, target: str) -> Releases:
    """``found`` (every release tag) less those that are not releases of ``target``'s line.

    A tag in ``target``'s history is one. So is a tag on a release branch (redis tags
    ``7.4.0`` on its ``7.4`` branch, never merged back): committed before ``target`` and
    not older than a lower version that is in its history (a tag of an abandoned line,
    ``3.0.0`` before the ``2.5`` that followed it, is not). Skipped tags are counted."""
    if not found.tags:
        return found
    ancestors = set(run_git(["rev-list", target], root).stdout.decode().split())
    times = _commit_times(root, [target, *(r.sha for r in found.tags)])
    before = times.get(target, 0)
    lines = [r for r in found.tags if r.sha in ancestors]
    kept = Releases(skipped=found.skipped)
    for release in found.tags:
        when = times.get(release.sha, 0)
        if release.sha in ancestors or (
                when <= before and not any(times.get(a.sha, 0) > when and a.key < release.key
                                           for a in lines)):
            kept.tags.append(release)
        else:
            kept.skipped["not in the mined revision's history"] += 1
    return kept


def _commit_times(root: Path, shas: list[str]) -> dict[str, int]:
    """Each commit's committer time (seconds)."""
    done = run_git(["log", "--no-walk=unsorted", "--stdin", "--format=%H %ct"], root,
                   input_bytes="".join(f"{sha}\n" for sha in dict.fromkeys(shas)).encode())
    times: dict[str, int] = {}
    for line in done.stdout.decode().splitlines():
        sha, _, when = line.partition(" ")
        if when.isdigit():
            times[sha] = int(when)
    return times


def strided(releases: list[Release], stride: Stride) -> list[Release]:
    """The first release of each minor or major version (and the newest release), or all
    of them for ``"patch"``; in order."""
    if stride == "patch" or not releases:
        return releases
    width = 2 if stride == "minor" else 1
    kept: list[Release] = []
    seen: set[object] = set()
    for release in releases:
        numbers = release.key[0]
        group = (release.key[3], numbers[:width] if isinstance(numbers, tuple) else numbers)
        if group not in seen:
            seen.add(group)
            kept.append(release)
    if kept[-1] is not releases[-1]:
        kept.append(releases[-1])
    return kept


def mine_history(
    path: str | os.PathLike[str], store: Store, *, repo: str | None = None,
    sha: str | None = None, tags: str | None = None, jobs: int | None = None,
    progress: ProgressCallback | None = None, on_release: ReleaseCallback | None = None,
    enrich: EnrichMode = "static", last: int | None = None, stride: Stride = "patch",
) -> HistorySummary:
    """Mine every release tag of the repository holding ``path`` (``tags``: a glob choosing
    them), oldest version first, then ``sha`` (HEAD), into ``store``; link each site's
    wordings across them. Tags not in ``sha``'s history, whose commit a shallow clone
    lacks, or of another product than most tags (``ktor-3.3.0`` beside ``3.3.0``) are
    skipped and counted; ``last`` keeps only the newest releases, ``stride``
    ``"minor"`` (``"major"``) only the first release of each minor (major) version and the
    newest one: fewer mines over a long history, a coarser record of which release
    printed what."""
    started = time.perf_counter()
    root, _ = find_root(path)
    target = resolve_sha(root, sha)
    found = on_release_branches(root, release_tags(root, tags), target)
    if tags is not None and not found.tags:
        raise UsageError(f"no release tag of {root} matches {tags!r} (tags must read as "
                         "versions, such as v1.2.3, and be in the mined revision's history)")
    kept = strided(found.tags, stride)
    found.skipped[f"not the first of its {stride} version"] += len(found.tags) - len(kept)
    found.skipped += Counter()  # drops a zero count
    found.tags = kept
    kept = found.tags if last is None else found.tags[max(0, len(found.tags) - last):]
    if len(kept) < len(found.tags):
        found.skipped["older than the last releases asked for"] += len(found.tags) - len(kept)
    steps = [(release.name, release.sha) for release in kept]
    if not steps or steps[-1][1] != target:
        steps.append((tag_at(root, target) or target[:12], target))
    forge = detect_forge(root)
    name_of_repo = repo or (forge.repo if forge else root.name)  # as ``load_tree`` names it
    summary = HistorySummary(repo=name_of_repo, skipped_tags=found.skipped)
    stamped = dict(table.releases(store, name_of_repo))
    state = store.repo_state(name_of_repo) if stamped else None
    if state is not None and state.miner_version != miner_version(enrich):
        table.forget_history(store, name_of_repo)  # another errdex stamped them
        stamped, summary.restarted = {}, True
    for number, (name, commit) in enumerate(steps):
        if on_release is not None:
            on_release(number, len(steps), name)
        if stamped.get(name) == commit:
            summary.releases.append(ReleaseMine(name, commit))
            continue
        mined = mine(path, store, repo=repo, sha=commit, jobs=jobs, progress=progress,
                     enrich=enrich)
        linked = link_release(store, mined.repo, name, commit)
        summary.releases.append(ReleaseMine(name, commit, mined, linked))
    if on_release is not None:
        on_release(len(steps), len(steps), "")
    summary.seconds = time.perf_counter() - started
    return summary


__all__ = ["HistorySummary", "ReleaseCallback", "ReleaseMine", "mine_history"]
