"""The release cache: one small git repository per release, within a disk budget.

The miner reads git trees (errdex.repo.git), so a release becomes a throwaway repository
whose one commit holds the archive's mineable files. It is written with ``git
fast-import`` straight from memory: no file of the package is ever written to disk or
checked out, no ``.gitattributes`` filter, hook or config of the package can run (the
repository's config is errdex's own, and git runs the one safe way of
``errdex.repo.git.run_git``). The commit is deterministic (fixed author and date, files in
order), so the same release always gives the same ``analyzedSha`` and a second mine of it
is skipped as already stored.

As the clone cache of ``mine-many`` (``errdex.batch.clones``): one folder per release, built
in a temporary folder and renamed so a failure leaves nothing; a release being mined is
locked (``flock``), least recently used releases are evicted over the budget.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from platformdirs import user_cache_dir

from errdex.batch.folders import BudgetedFolders
from errdex.errors import RepositoryError
from errdex.packages.identity import Identity
from errdex.packages.specs import PackageSpec
from errdex.repo.git import run_git

DEFAULT_RELEASE_BUDGET = 5 * 1024**3
BRANCH = "refs/heads/release"
IDENTITY_FILE = "errdex-release.json"
_COMMITTER = b"errdex <errdex@localhost> 0 +0000"


def default_cache_dir() -> Path:
    return Path(user_cache_dir("errdex", appauthor=False)) / "releases"


def build_repository(target: Path, files: dict[str, bytes], message: str) -> str:
    """A git repository at ``target`` whose HEAD commit holds ``files``; its sha."""
    _git(None, "init", "--quiet", "--end-of-options", str(target))
    chunks = [b"commit " + BRANCH.encode() + b"\n", b"committer " + _COMMITTER + b"\n",
              _data(message.encode())]
    for path in sorted(files):
        data = files[path]
        chunks += [b"M 100644 inline " + path.encode("utf-8", "surrogateescape") + b"\n",
                   _data(data)]
    chunks.append(b"\ndone\n")
    _git(target, "fast-import", "--quiet", "--done", input_bytes=b"".join(chunks))
    _git(target, "symbolic-ref", "HEAD", BRANCH)
    return _git(target, "rev-parse", "--verify", "HEAD").decode().strip()


def _data(data: bytes) -> bytes:
    return b"data " + str(len(data)).encode() + b"\n" + data + b"\n"


def _git(root: Path | None, *args: str, input_bytes: bytes | None = None) -> bytes:
    done = run_git(args, root, input_bytes=input_bytes, timeout=600)
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RepositoryError(f"git {args[0]} failed: {lines[-1] if lines else 'error'}")
    return done.stdout


Builder = Callable[[Path], Identity]
"""Makes a release's repository in the folder given (``build_repository``) and returns its
identity, which the cache keeps beside it."""


class ReleaseCache(BudgetedFolders):
    """Release repositories, one folder per release, within a disk budget (bytes)."""

    def __init__(self, root: str | os.PathLike[str] | None = None,
                 budget_bytes: int = DEFAULT_RELEASE_BUDGET):
        super().__init__(Path(root) if root is not None else default_cache_dir(), budget_bytes)

    def key(self, spec: PackageSpec) -> str:
        readable = re.sub(r"[^A-Za-z0-9._-]+", "_", spec.name).strip("_")[-60:]
        digest = hashlib.sha256(str(spec).encode()).hexdigest()[:8]
        return f"{spec.ecosystem}-{readable}-{spec.version[:40]}-{digest}"

    @contextmanager
    def release(self, spec: PackageSpec, build: Builder) -> Iterator[tuple[Path, Identity]]:
        """The repository of ``spec`` (built with ``build`` when missing) and its identity,
        locked against eviction while in use."""
        with self.locked(self.key(spec)) as target:
            identity = _stored_identity(target)
            if identity is None:
                identity = self._build(target, build)
            yield target, identity

    def scratch(self, label: str) -> Path:
        """A fresh temporary folder (for a download), made; removed by ``clean_stale``."""
        folder = super().scratch(label)
        folder.mkdir(parents=True)
        return folder

    def _build(self, target: Path, build: Builder) -> Identity:
        temporary = self.scratch(target.name)
        try:
            identity = build(temporary / "repo")
            (temporary / "repo" / ".git" / IDENTITY_FILE).write_text(
                json.dumps(identity.to_json()), encoding="utf-8")
            if target.exists():
                shutil.rmtree(target, ignore_errors=True)  # a broken earlier build
            try:
                (temporary / "repo").rename(target)
            except OSError:
                if _stored_identity(target) is None:  # someone else won with a good one?
                    raise
            return identity
        finally:
            shutil.rmtree(temporary, ignore_errors=True)


def _stored_identity(target: Path) -> Identity | None:
    """The identity kept beside a finished repository; None when there is none (yet)."""
    try:
        data = json.loads((target / ".git" / IDENTITY_FILE).read_text(encoding="utf-8"))
        return Identity.from_json(data)
    except (OSError, ValueError, TypeError):
        return None






__all__ = ["DEFAULT_RELEASE_BUDGET", "Builder", "ReleaseCache", "build_repository",
           "default_cache_dir"]
