"""The repository stage: which files of a git tree at a commit errdex mines, and their bytes.

Files come from the commit's tree (the same set ``git ls-files`` shows for a
clean checkout), so what is mined is exactly what ``analyzedSha`` names and every
permalink points at the lines it describes. Skips are counted by reason, never
silent: binary, huge, vendored, test code, symlinks/submodules, not UTF-8.

The repository stage knows no language: the caller passes the classifier that names a
path's language (``errdex.languages.language_for_path``), and each file carries what it
returned, so this bottom stage imports nothing above it.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from errdex.errors import RepositoryError
from errdex.repo.processes import kill_with_parent, on_main_thread

MAX_FILE_BYTES = 2_000_000
# Why a file is skipped when its blob is not in the clone (``--filter=blob:none``, shallow).
MISSING_BLOB = "blob missing from the clone"
# Blob requests written to ``git cat-file --batch`` at once: ~41 bytes each, well under
# a pipe's buffer, so writing them never waits on git.
_REQUESTS_PER_WRITE = 256

# What the caller's classifier says a file is written in (a language of errdex.languages).
L = TypeVar("L")

_VENDORED_DIRS = {
    "vendor", "vendored", "third_party", "third-party", "thirdparty", "node_modules",
    "site-packages", ".venv", "venv", "bower_components", "Pods", "external", "_vendor",
    "dist",  # bundled build output (JS packages commit theirs)
}
_TEST_DIRS = {
    "tests", "test", "testing", "__tests__", "__mocks__", "benches", "spec", "specs",
    "testdata", "fixtures", "androidtest", "unittests", "uitests", "integration-tests",
}


@dataclass(frozen=True)
class Forge:
    """Where a repository is hosted, to build permalinks."""

    host: str
    repo: str  # owner/name

    def permalink(self, sha: str, path: str, start: int, end: int) -> str | None:
        if self.host == "github.com":
            return f"https://github.com/{self.repo}/blob/{sha}/{path}#L{start}-L{end}"
        if self.host == "gitlab.com" or self.host.startswith("gitlab."):
            return f"https://{self.host}/{self.repo}/-/blob/{sha}/{path}#L{start}-{end}"
        if self.host == "bitbucket.org":
            return f"https://bitbucket.org/{self.repo}/src/{sha}/{path}#lines-{start}:{end}"
        if self.host in ("codeberg.org", "gitea.com"):
            return f"https://{self.host}/{self.repo}/src/commit/{sha}/{path}#L{start}-L{end}"
        return None


@dataclass(frozen=True)
class SourceFile(Generic[L]):
    """A file of the tree that a language module will mine."""

    path: str  # repo-relative, POSIX separators
    language: L
    blob: str
    size: int


@dataclass
class Tree(Generic[L]):
    """The mineable files of one repository at one commit."""

    root: Path
    sha: str
    repo: str
    forge: Forge | None
    files: list[SourceFile[L]] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    tests: list[SourceFile[L]] = field(default_factory=list)  # test code: read for evidence only


# --- running git ------------------------------------------------------------------------
#
# Every git call of errdex goes through ``run_git`` (and ``popen_git`` for the blob
# reader). A mined repository's .git is a stranger's text: its config can name programs
# (textconv and filter drivers, an fsmonitor, hooks, a pager, an external diff) that git
# runs on its own. So each call gets a clean environment (no system or user config, no
# inherited GIT_* variable that could point git at another repository or program),
# ``-c`` overrides that win over the repository's config, and per command the flags that
# keep drivers off: ``--no-textconv`` (blame runs textconv, and with it the smudge
# filter, by default), ``--no-ext-diff``. Filters (smudge, clean, process) only run on a
# checkout, ``add`` or ``cat-file --filters``/``--textconv``, which errdex never asks for:
# it reads blobs raw from the object store. Revisions passed to git are full shas errdex
# resolved itself (``rev-parse --end-of-options`` for the one a user names), and paths
# follow ``--``.

SAFE_CONFIG: tuple[str, ...] = (
    "core.fsmonitor=false",
    "core.hooksPath=" + os.devnull,
    "core.pager=cat",
    "protocol.ext.allow=never",
    "log.showSignature=false",
)

# The user's own transport settings, kept for network calls only (clone, fetch, ls-remote):
# the ssh program or key, and the CAs and proxy of their network.
_TRANSPORT_ENV = frozenset({
    "GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSH_VARIANT", "GIT_PROXY_COMMAND",
    "GIT_SSL_CAINFO", "GIT_SSL_CAPATH", "GIT_HTTP_USER_AGENT",
})
_FULL_SHA = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")


def git_env(network: bool = False) -> dict[str, str]:
    """The environment of a git call: errdex's own, without any inherited GIT_* variable.

    A local call (reading a repository to mine it) reads no system or user config
    either. A network call keeps them, and the transport variables above: they hold
    the user's credential helpers, URL rewrites and proxies, which a private or
    firewalled clone needs, and no stranger writes them (the clone's own config is
    written by errdex).
    """
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("GIT_") or (network and key in _TRANSPORT_ENV)}
    env["GIT_TERMINAL_PROMPT"] = "0"  # never wait for a password nobody will type
    env["GIT_NO_REPLACE_OBJECTS"] = "1"  # a commit's content is what its sha names
    if network:
        env["GIT_ASKPASS"] = "true"
    else:
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        env["GIT_CONFIG_GLOBAL"] = os.devnull
    return env


@functools.cache
def _safe_directories() -> tuple[str, ...]:
    """``safe.directory`` entries of the user's system and global config.

    Local calls read neither file, and without them git refuses a checkout owned by
    another user that the user has marked safe; given again with ``-c`` (where git
    honours them), that choice still holds.
    """
    with _outside_any_repository() as (cwd, ceiling):
        try:
            done = subprocess.run(
                ["git", "config", "--get-all", "safe.directory"], cwd=cwd,
                env={**git_env(network=True), "GIT_CEILING_DIRECTORIES": ceiling},
                capture_output=True, check=False, timeout=30,
            )
        except (OSError, subprocess.TimeoutExpired):
            return ()
    if done.returncode != 0:
        return ()
    return tuple(line for line in done.stdout.decode("utf-8", "replace").splitlines() if line)


@contextmanager
def _outside_any_repository() -> Iterator[tuple[str, str]]:
    """An empty folder whose parents git does not search: the working directory of a call
    that names no repository (ls-remote, clone), so that the repository errdex happens to
    be run from lends it no config."""
    with tempfile.TemporaryDirectory(prefix="errdex-git-") as folder:
        yield folder, str(Path(folder).parent)


def git_argv(args: Sequence[str], root: str | os.PathLike[str] | None = None,
             network: bool = False) -> list[str]:
    """The command line of a git call: the overrides first, then ``-C root`` and ``args``."""
    argv = ["git", "--no-pager"]
    for setting in SAFE_CONFIG:
        argv += ["-c", setting]
    if not network:
        for folder in _safe_directories():
            argv += ["-c", f"safe.directory={folder}"]
    if root is not None:
        argv += ["-C", str(root)]
    return [*argv, *args]


def run_git(
    args: Sequence[str], root: str | os.PathLike[str] | None = None, *,
    network: bool = False, input_bytes: bytes | None = None, timeout: float | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run git the one safe way (see above) and return the finished process, failed or not.

    Without ``root`` the call runs outside any repository. The child is killed if this
    process dies (``errdex.repo.processes``).
    """
    env = git_env(network)
    with ExitStack() as stack:
        cwd = None
        if root is None:
            cwd, env["GIT_CEILING_DIRECTORIES"] = stack.enter_context(_outside_any_repository())
        try:
            return subprocess.run(
                git_argv(args, root, network), cwd=cwd, env=env, input=input_bytes,
                capture_output=True, timeout=timeout, check=False,
                preexec_fn=kill_with_parent(),  # one prctl call: see errdex.repo.processes
            )
        except FileNotFoundError as exc:
            raise RepositoryError("git is not installed: install git and try again") from exc
        except subprocess.TimeoutExpired as exc:
            raise RepositoryError(
                f"git {args[0]} timed out after {timeout or 0:.0f}s; try again later"
            ) from exc


def popen_git(args: Sequence[str], root: str | os.PathLike[str]) -> subprocess.Popen[bytes]:
    """A long-running local git process (``cat-file --batch``) with pipes on stdin and stdout.

    It is killed with this process when started on the main thread (the kernel ties the
    signal to the starting thread); elsewhere it ends when its stdin closes.
    """
    try:
        return subprocess.Popen(
            git_argv(args, root), stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=git_env(),
            preexec_fn=kill_with_parent() if on_main_thread() else None,
        )
    except FileNotFoundError as exc:
        raise RepositoryError("git is not installed: install git and try again") from exc


def is_full_sha(text: str) -> bool:
    """Whether ``text`` is a full object name (SHA-1 or SHA-256), safe as a git argument."""
    return bool(_FULL_SHA.match(text))


def _git(root: Path, *args: str, input_bytes: bytes | None = None) -> bytes:
    done = run_git(args, root, input_bytes=input_bytes)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RepositoryError(
            f"git {' '.join(args[:2])} failed in {root}: {message[-1] if message else 'error'}"
        )
    return done.stdout


def find_root(path: str | os.PathLike[str]) -> tuple[Path, str]:
    """The repository root holding ``path``, and ``path`` relative to it ('' for the root)."""
    target = Path(path).expanduser()
    if not target.exists():
        raise RepositoryError(
            f"{target}: no such file or directory; give the path of a git checkout"
        )
    folder = target if target.is_dir() else target.parent
    done = run_git(["rev-parse", "--show-toplevel"], folder)
    if done.returncode != 0:
        if b"dubious ownership" in done.stderr:
            raise RepositoryError(
                f"{target}: git refuses a repository owned by another user; if you trust it, "
                f"run 'git config --global --add safe.directory {folder.resolve()}'"
            )
        raise RepositoryError(
            f"{target}: not inside a git repository; run 'git init' and commit, or pass a checkout"
        )
    root = Path(done.stdout.decode().strip()).resolve()
    relative = target.resolve().relative_to(root).as_posix()
    return root, "" if relative == "." else relative


def resolve_sha(root: Path, revision: str | None) -> str:
    """The full commit sha of a revision (HEAD by default)."""
    rev = revision or "HEAD"
    try:
        return _git(
            root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"
        ).decode().strip()
    except RepositoryError as exc:
        hint = "commit something first" if rev == "HEAD" else "check the revision name"
        raise RepositoryError(f"{root}: no commit {rev!r}; {hint}") from exc


_REMOTE = re.compile(
    r"^(?:[a-z+]+://)?(?:[^@/]+@)?(?P<host>[^/:]+)(?::\d+)?[:/](?P<path>.+?)(?:\.git)?/?$"
)


def parse_remote(url: str) -> Forge | None:
    """Host and owner/name of a remote URL (https, ssh, scp-like)."""
    match = _REMOTE.match(url.strip())
    if not match:
        return None
    path = match.group("path").strip("/")
    if path.count("/") < 1:
        return None
    return Forge(host=match.group("host").lower(), repo=path)


def detect_forge(root: Path) -> Forge | None:
    """The forge of the ``origin`` remote (else the first remote), if any."""
    remotes = _git(root, "remote").decode().split()
    if not remotes:
        return None
    name = "origin" if "origin" in remotes else remotes[0]
    url = _git(root, "remote", "get-url", "--end-of-options", name).decode().strip()
    return parse_remote(url)


def skip_reason(path: str) -> str | None:
    """Why a path is not product source (vendored or test code), or None."""
    parts = path.split("/")  # git paths: POSIX separators, no "." parts
    folders = parts[:-1]
    name = parts[-1]
    if any(part in _VENDORED_DIRS for part in folders) or name.endswith((".min.js", ".bundle.js")):
        return "vendored"
    lowered = [part.lower() for part in folders]
    if any(part in _TEST_DIRS or part.endswith((".tests", ".test")) for part in lowered):
        return "test code"
    stem = name.rsplit(".", 1)[0] if "." in name[1:] else name
    if (
        stem.startswith("test_")
        # Not a bare CamelCase "Spec": product code names specs too (ConnectionSpec.kt);
        # test specs (FooSpec.kt, FooSpec.groovy) live under test folders, caught above.
        or stem.endswith(("_test", "_tests", ".test", ".spec", "_spec", "Test", "Tests",
                          "_unittest"))  # Google's C++ convention (``db_unittest.cc``)
        or name == "conftest.py"
    ):
        return "test code"
    return None


def load_tree(
    path: str | os.PathLike[str], repo: str | None = None, revision: str | None = None,
    max_file_bytes: int = MAX_FILE_BYTES, *, classify: Callable[[str], L | None],
) -> Tree[L]:
    """The files errdex mines in the repository holding ``path``, at ``revision``: those
    ``classify`` names a language for (``errdex.languages.language_for_path``)."""
    root, prefix = find_root(path)
    sha = resolve_sha(root, revision)
    forge = detect_forge(root)
    name = repo or (forge.repo if forge else root.name)
    tree: Tree[L] = Tree(root=root, sha=sha, repo=name, forge=forge)
    listing = _git(root, "ls-tree", "-r", "-z", "-l", "--full-tree", "--end-of-options", sha)
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        mode, kind, blob, size = meta.decode().split()
        file_path = raw_path.decode("utf-8", "surrogateescape")
        if prefix and not (file_path == prefix or file_path.startswith(prefix + "/")):
            continue
        language = classify(file_path)
        if language is None:
            continue
        if kind != "blob" or mode == "120000":
            tree.skipped["symlink or submodule"] += 1
            continue
        reason = skip_reason(file_path)
        if reason:
            tree.skipped[reason] += 1
            if reason == "test code" and int(size) <= max_file_bytes:
                tree.tests.append(SourceFile(file_path, language, blob, int(size)))
            continue
        if not size.isdigit():  # git lists no size for a blob the clone lacks
            tree.skipped[MISSING_BLOB] += 1
            continue
        if int(size) > max_file_bytes:
            tree.skipped["huge"] += 1
            continue
        tree.files.append(SourceFile(file_path, language, blob, int(size)))
    return tree


class BlobReader:
    """One ``git cat-file --batch`` process reading objects of one repository on demand."""

    def __init__(self, root: Path | str):
        self.root = str(root)
        # raw object bytes: never --textconv or --filters, which run the repository's drivers
        self._proc = popen_git(["cat-file", "--batch"], self.root)

    def read(self, blob: str, path: str) -> bytes:
        data = self.read_present(blob, path)
        if data is None:
            raise RepositoryError(f"{path}: blob {blob} is missing from this clone")
        return data

    def read_present(self, blob: str, path: str) -> bytes | None:
        """The blob's bytes, or None when this clone lacks it (a partial or shallow clone)."""
        return self.read_many([(blob, path)])[0]

    def read_many(self, wanted: Sequence[tuple[str, str]]) -> list[bytes | None]:
        """``read_present`` of several (blob, path) pairs in one round trip to git: a
        worker waited on git once per file, and on a loaded machine every wait is a turn
        of the scheduler. The requests are written a pipe's worth at most at a time
        (git stops reading them while its answers are not read)."""
        stdin, stdout = self._proc.stdin, self._proc.stdout
        assert stdin is not None and stdout is not None
        found: list[bytes | None] = []
        for start in range(0, len(wanted), _REQUESTS_PER_WRITE):
            chunk = wanted[start:start + _REQUESTS_PER_WRITE]
            stdin.write(b"".join(blob.encode() + b"\n" for blob, _ in chunk))
            stdin.flush()
            found.extend(self._answer(blob, path) for blob, path in chunk)
        return found

    def _answer(self, blob: str, path: str) -> bytes | None:
        """The next object git sends back, or None for one the clone lacks."""
        stdout = self._proc.stdout
        assert stdout is not None
        header = stdout.readline().split()
        if len(header) == 2 and header[1] == b"missing":
            return None
        if len(header) < 3 or header[1] != b"blob":
            raise RepositoryError(f"{path}: git could not read blob {blob}")
        data = stdout.read(int(header[2]))
        stdout.read(1)  # the newline after each object
        return data

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait()
        if self._proc.stdout is not None:
            self._proc.stdout.close()


def read_blobs(
    root: Path, files: list[SourceFile[L]]
) -> Iterator[tuple[SourceFile[L], bytes]]:
    """The bytes of each file, read from git's object store in one batch process (a file
    whose blob this clone lacks is left out: the mine counts it where it reads files)."""
    if not files:
        return
    reader = BlobReader(root)
    try:
        for source in files:
            data = reader.read_present(source.blob, source.path)
            if data is not None:
                yield source, data
    finally:
        reader.close()


def changed_paths(root: Path, old: str, new: str) -> set[str] | None:
    """Paths added, changed or deleted between two commits (renames as delete + add).

    None when ``old`` is no longer in the repository (history rewritten) or is not a
    full sha (a damaged store): mine it all.
    """
    if not (is_full_sha(old) and is_full_sha(new)):
        return None
    try:
        _git(root, "cat-file", "-e", "--end-of-options", f"{old}^{{commit}}")
    except RepositoryError:
        return None
    listing = _git(root, "diff", "--name-only", "--no-renames", "--no-ext-diff", "--no-textconv",
                   "-z", old, new, "--")
    return {p.decode("utf-8", "surrogateescape") for p in listing.split(b"\0") if p}


def grep_paths(root: Path, sha: str, pattern: str, pathspecs: str | Sequence[str]) -> list[str]:
    """The files of the tree at ``sha`` matching ``pathspecs`` whose text matches the
    extended regex ``pattern`` (one ``git grep -l``)."""
    if not is_full_sha(sha):
        return []
    specs = [pathspecs] if isinstance(pathspecs, str) else list(pathspecs)
    try:
        listing = _git(root, "grep", "-l", "-z", "--no-textconv", "-E", "-e", pattern, sha,
                       "--", *specs)
    except RepositoryError:  # exit status 1: nothing matched
        return []
    names = (n.decode("utf-8", "surrogateescape").removeprefix(f"{sha}:")
             for n in listing.split(b"\0"))
    return [name for name in names if name]


def grep_tree(root: Path, sha: str, pattern: str, pathspec: str) -> Iterator[tuple[str, bytes]]:
    """Each file ``grep_paths`` finds, with its bytes at that commit."""
    for path in grep_paths(root, sha, pattern, pathspec):
        try:
            yield path, _git(root, "cat-file", "blob", "--end-of-options", f"{sha}:{path}")
        except RepositoryError:
            continue


def decode_source(data: bytes) -> tuple[str | None, str | None]:
    """The text of a source file, or the reason it is skipped (binary, not UTF-8)."""
    if b"\0" in data[:8192]:
        return None, "binary"
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        return None, "not UTF-8"
