"""The clone cache of ``mine-many``: shallow clones of URLs, within a disk budget.

One folder per (URL, commit), cloned into a temporary folder and renamed, so a
failure leaves nothing behind; least recently used clones are evicted over the
budget; a clone being mined is locked (``flock``, also across processes and
runs); temporary clones of dead processes are removed at start. POSIX only.

git runs through ``repo.run_git`` (its ``-c`` overrides, a clean environment); clone,
fetch and ls-remote are its network calls, which keep the user's own git config and
ssh/TLS variables: credential helpers, URL rewrites and proxies are what a private or
firewalled clone needs, and no stranger writes them (the clone's config is errdex's).
URLs and refs follow ``--end-of-options``, so none is ever read as an option.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from platformdirs import user_cache_dir

from errdex.batch.folders import BudgetedFolders
from errdex.errors import RepositoryError
from errdex.repo import git as git_repo

DEFAULT_CACHE_BUDGET = 10 * 1024**3
GIT_TIMEOUT_S = 600
_SHA = re.compile(r"^[0-9a-f]{40}$")


_NETWORK_COMMANDS = frozenset({"clone", "fetch", "ls-remote"})


def run_git(args: list[str], cwd: str | os.PathLike[str] | None = None,
            timeout: float = GIT_TIMEOUT_S) -> str:
    """git's output as text, or a RepositoryError with git's last error line.

    A leading ``-C ROOT`` (or ``cwd``) names the repository; without one the call runs
    outside any repository.
    """
    root = cwd
    if len(args) >= 2 and args[0] == "-C":
        root, args = args[1], args[2:]
    done = git_repo.run_git(args, root, network=args[0] in _NETWORK_COMMANDS, timeout=timeout)
    if done.returncode != 0:
        stderr = done.stderr.decode("utf-8", "replace")
        lines = [ln for ln in stderr.strip().splitlines() if ln.strip()]
        fatal = [ln for ln in lines if ln.startswith(("fatal:", "error:"))]
        message = (fatal or lines or ["error"])[-1].removeprefix("fatal: ")
        raise RepositoryError(f"git {args[0]} failed: {message}")
    return done.stdout.decode("utf-8", "surrogateescape")


def default_cache_dir() -> Path:
    return Path(user_cache_dir("errdex", appauthor=False)) / "clones"


class CloneCache(BudgetedFolders):
    """Shallow clones, one folder per (URL, commit), within a disk budget; a clone is
    locked while it is mined (``errdex.batch.folders``)."""

    def __init__(self, root: str | os.PathLike[str] | None = None,
                 budget_bytes: int = DEFAULT_CACHE_BUDGET):
        super().__init__(Path(root) if root is not None else default_cache_dir(), budget_bytes)

    def key(self, url: str, sha: str) -> str:
        readable = re.sub(r"[^A-Za-z0-9._-]+", "_", url.split("://", 1)[-1]).strip("_")[-60:]
        digest = hashlib.sha256(url.encode()).hexdigest()[:8]
        return f"{readable}-{digest}-{sha[:12]}"

    @contextmanager
    def checkout(self, url: str, ref: str | None, sha: str) -> Iterator[tuple[Path, str]]:
        """A clone holding ``sha`` (cloned if missing) and the commit to mine, kept locked."""
        with self.locked(self.key(url, sha)) as target:
            if not _has_commit(target, sha):
                self._clone(url, ref, sha, target)
            yield target, _commit_of(target, sha)

    def _clone(self, url: str, ref: str | None, sha: str, target: Path) -> None:
        """Clone into a temporary folder, then rename: a failure leaves nothing behind."""
        temporary = self.scratch(target.name)
        try:
            if ref is None or _SHA.match(ref):
                run_git(["init", "--quiet", "--end-of-options", str(temporary)])
                run_git(["-C", str(temporary), "remote", "add", "--end-of-options", "origin", url])
                _fetch(temporary, sha)
                run_git(["-C", str(temporary), "update-ref", "--end-of-options", "HEAD", sha])
            else:
                run_git(["clone", "--quiet", "--depth", "1", "--no-checkout",
                         "--no-recurse-submodules", "--branch", ref, "--end-of-options",
                         url, str(temporary)])
                if not _has_commit(temporary, sha):  # the ref moved since ls-remote
                    _fetch(temporary, sha)
            if target.exists():
                shutil.rmtree(target, ignore_errors=True)  # a broken earlier clone
            try:
                temporary.rename(target)
            except OSError:
                if not _has_commit(target, sha):  # someone else won the race with a good one?
                    raise
        finally:
            shutil.rmtree(temporary, ignore_errors=True)


def _fetch(root: Path, sha: str) -> None:
    run_git(["-C", str(root), "fetch", "--quiet", "--depth", "1", "--no-recurse-submodules",
             "--end-of-options", "origin", sha])


def _has_commit(root: Path, sha: str) -> bool:
    if not (root / ".git").exists():
        return False
    done = git_repo.run_git(["cat-file", "-e", "--end-of-options", f"{sha}^{{commit}}"], root)
    return done.returncode == 0


def _commit_of(root: Path, sha: str) -> str:
    return run_git(["-C", str(root), "rev-parse", "--verify", "--end-of-options",
                    f"{sha}^{{commit}}"]).strip()
