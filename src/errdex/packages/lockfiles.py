"""The pinned dependencies of a project: one lockfile, or every lockfile a project folder
holds, read into package specs plus one problem line per entry that cannot be mined.

What each format gives (its readers say how): ``requirements*.txt`` only what is pinned
``==`` (ranges are reported); ``uv.lock``, ``poetry.lock``, ``Pipfile.lock``,
``package-lock.json``, ``pnpm-lock.yaml`` and ``yarn.lock`` the full resolved tree, direct
and transitive.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable
from pathlib import Path

from errdex.errors import UsageError
from errdex.packages.lockfiles_npm import read_package_lock, read_pnpm_lock, read_yarn_lock
from errdex.packages.lockfiles_python import (
    read_pipfile_lock,
    read_poetry_lock,
    read_requirements,
    read_uv_lock,
)
from errdex.packages.pins import Pins, Problem

__all__ = ["LOCKFILE_NAMES", "Pins", "Problem", "find_lockfiles", "read_lockfiles"]

Reader = Callable[[Path, Pins], None]

# file name (a glob for requirements) → reader, in the order a folder's files are read
LOCKFILE_NAMES: dict[str, Reader] = {
    "uv.lock": read_uv_lock,
    "poetry.lock": read_poetry_lock,
    "Pipfile.lock": read_pipfile_lock,
    "requirements*.txt": read_requirements,
    "package-lock.json": read_package_lock,
    "npm-shrinkwrap.json": read_package_lock,
    "pnpm-lock.yaml": read_pnpm_lock,
    "yarn.lock": read_yarn_lock,
}
_SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".nox"}


def reader_for(path: Path) -> Reader | None:
    """The reader of a lockfile, by its name (any ``*.txt`` is read as requirements)."""
    for pattern, reader in LOCKFILE_NAMES.items():
        if fnmatch.fnmatchcase(path.name, pattern):
            return reader
    return read_requirements if path.suffix == ".txt" else None


def find_lockfiles(folder: Path) -> list[Path]:
    """The lockfiles of a project folder: at its top, in a ``requirements/`` folder, and
    those of the workspaces below it (``node_modules``, virtual environments and ``.git``
    left out; two levels down at most)."""
    found: list[Path] = []
    for root, dirs, files in os.walk(folder):
        depth = len(Path(root).relative_to(folder).parts)
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        if depth >= 2:
            dirs[:] = []
        for pattern in LOCKFILE_NAMES:
            found.extend(Path(root) / name for name in sorted(files)
                         if fnmatch.fnmatchcase(name, pattern))
        if Path(root).name == "requirements" and depth == 1:
            found.extend(Path(root) / name for name in sorted(files)
                         if name.endswith(".txt") and not name.startswith("requirements"))
    return found


def read_lockfiles(path: str | os.PathLike[str]) -> Pins:
    """The pinned releases of ``path`` (a lockfile, or a project folder whose lockfiles are
    found), in first-seen order without duplicates, and the entries that are not mined.

    A missing path, a file errdex does not read, or a folder without a lockfile is a
    :class:`UsageError`; a broken entry (or a whole broken file) is a problem, not an error.
    """
    target = Path(path)
    pins = Pins()
    if target.is_dir():
        files = find_lockfiles(target)
        if not files:
            names = ", ".join(LOCKFILE_NAMES)
            raise UsageError(f"{target}: no lockfile found (looked for {names})")
    elif target.is_file():
        files = [target]
    else:
        raise UsageError(f"{target}: no such file or folder")
    for file in files:
        reader = reader_for(file)
        if reader is None:
            raise UsageError(f"{file}: not a lockfile errdex reads "
                             f"({', '.join(LOCKFILE_NAMES)})")
        if file.resolve() in {read.resolve() for read in pins.files}:
            continue  # already read as an -r include
        reader(file, pins)
    return pins
