"""A project's pinned dependencies through the public API: read its lockfiles, mine every
release at its version (``mine_deps``), and prefer those versions in lookup."""

from __future__ import annotations

import os
from pathlib import Path

from errdex.api._stores import Db, open_index, using_store
from errdex.packages import deps as _deps
from errdex.packages import lockfiles as _lockfiles
from errdex.packages.specs import PackageSpec

DepOutcome = _deps.DepOutcome
DepsSummary = _deps.DepsSummary
LockfileProblem = _lockfiles.Problem
Pins = _lockfiles.Pins
ProgressCallback = _deps.ProgressCallback


def read_lockfiles(path: str | os.PathLike[str]) -> Pins:
    """The releases a project pins: ``path`` is a lockfile (``requirements*.txt``,
    ``uv.lock``, ``poetry.lock``, ``Pipfile.lock``, ``package-lock.json``, ``pnpm-lock.yaml``,
    ``yarn.lock``) or a project folder whose lockfiles are found. ``pins.specs`` are the
    releases, ``pins.problems`` the entries that pin nothing errdex can fetch (one line
    each); a missing path or a folder without a lockfile is a :class:`UsageError`."""
    return _lockfiles.read_lockfiles(path)


def mine_deps(
    path: str | os.PathLike[str] | list[PackageSpec], *, db: Db = None,
    jobs: int | None = None, downloads: int = 8, progress: ProgressCallback | None = None,
    cache_dir: str | os.PathLike[str] | None = None, warm_index: bool = False,
    npm_cwd: str | os.PathLike[str] | None = None,
) -> DepsSummary:
    """Mine every release a project pins (see :func:`read_lockfiles`; or a list of specs),
    each at its version, into ``db``.

    Downloads run on ``downloads`` threads while ``jobs`` worker processes (default: every
    core) mine what has arrived. A release already in the store is skipped; a failure is
    one outcome in the summary (``summary.ok`` is false), never an exception that stops
    the others. ``cache_dir`` holds the downloaded releases (default: the user cache).
    npm runs in ``npm_cwd`` (default: the project's folder), so its ``.npmrc`` applies.
    """
    if isinstance(path, list):
        specs, problems, project = path, [], None
    else:
        pins = _lockfiles.read_lockfiles(path)
        specs, problems = pins.specs, pins.problems
        project = Path(path) if Path(path).is_dir() else Path(path).parent
    fetch, mine = _deps.release_miner(None if cache_dir is None else Path(cache_dir),
                                      npm_cwd=project if npm_cwd is None else Path(npm_cwd))
    with using_store(db) as store:
        held = _deps.stored_releases(store, {spec.version for spec in specs})
        summary = _deps.mine_deps(
            specs, str(store.path), mine=mine, fetch=fetch, jobs=jobs or os.cpu_count() or 1,
            downloads=downloads, skip=held, progress=progress, problems=problems)
        if warm_index and summary.count("mined"):
            open_index(store)
    return summary
