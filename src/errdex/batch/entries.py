"""mine-many's LIST: one repository a line (a local path or a git URL, with an optional
``@ref``), and resolving each entry to the repository name and commit it stands for.

Resolving is cheap (``git rev-parse`` for a path, ``git ls-remote`` for a URL, no
clone), so a re-run skips what the store already holds at that commit.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from errdex.batch.clones import run_git
from errdex.errors import RepositoryError, UsageError
from errdex.languages import language_for_path
from errdex.repo.git import detect_forge, find_root, parse_remote, resolve_sha

_SHA = re.compile(r"^[0-9a-f]{40}$")
_URL_SCHEMES = ("https://", "http://", "ssh://", "git://", "file://")
_SCP = re.compile(r"^[\w.-]+@[\w.-]+:(?!//)")  # git@host:owner/name


# --- the list ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One line of a LIST: a local path or a git URL, with an optional ``@ref``."""

    line: int
    text: str  # as written, for the summary
    kind: Literal["path", "url"]
    location: str
    ref: str | None = None


def parse_list(text: str) -> list[Entry]:
    """Entries of a LIST: one a line; blank lines and ``#`` comments ignored."""
    entries = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = re.sub(r"(^|\s)#.*$", "", raw).strip()
        if line:
            entries.append(parse_entry(line, number))
    return entries


def read_list(path: str | os.PathLike[str]) -> list[Entry]:
    """The entries of a LIST file ('-' is stdin), or a UsageError naming the problem."""
    try:
        text = sys.stdin.read() if str(path) == "-" else Path(path).read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise UsageError(
            f"{path}: no such list file; give a file with one repository a line"
        ) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the list ({exc})") from exc
    entries = parse_list(text)
    if not entries:
        raise UsageError(f"{path}: no repositories listed (one path or git URL a line)")
    return entries


def parse_entry(line: str, number: int = 1) -> Entry:
    """Split ``location@ref``: the ``@`` of a ref comes after the start of the URL's path."""
    if line.startswith(_URL_SCHEMES) or _SCP.match(line):
        if "://" in line:
            scheme_end = line.index("://") + 3
            path_start = line.find("/", scheme_end)
        else:
            path_start = line.index(":")
        at = line.rfind("@")
        if path_start >= 0 and at > path_start:
            return Entry(number, line, "url", line[:at], line[at + 1 :] or None)
        return Entry(number, line, "url", line)
    if "@" in line and not Path(line).expanduser().exists():
        location, _, ref = line.rpartition("@")
        return Entry(number, line, "path", location, ref or None)
    return Entry(number, line, "path", line)


def parse_size(text: str) -> int:
    """Bytes in ``500M``, ``10G``, ``1.5T``, ``4096`` (binary units)."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*", text.lower())
    if not match:
        raise UsageError(f"{text!r}: not a size; write e.g. 500M, 10G or 4096")
    power = " kmgt".index(match.group(2) or " ")
    return int(float(match.group(1)) * 1024**power)


# --- resolving an entry to (repo, sha) ----------------------------------------------------


@dataclass(frozen=True)
class Resolved:
    """An entry with the repository name and commit it stands for (decides skip or mine)."""

    entry: Entry
    repo: str
    sha: str
    size_hint: int = 0  # bytes of source at that commit when known: big ones go first


def url_repo_name(url: str) -> str:
    """``owner/name`` of a URL, as ``errdex mine`` of its clone would file it."""
    if not url.startswith("file://"):
        forge = parse_remote(url)
        if forge is not None:
            return forge.repo
    name = url.rstrip("/").rsplit("/", 1)[-1]
    return name.removesuffix(".git") or url


def resolve(entry: Entry) -> Resolved:
    """The repository name and full commit sha an entry stands for (cheap: no clone)."""
    if entry.kind == "path":
        root, _ = find_root(entry.location)
        sha = resolve_sha(root, entry.ref)
        forge = detect_forge(root)
        return Resolved(entry, forge.repo if forge else root.name, sha, _source_bytes(root, sha))
    repo = url_repo_name(entry.location)
    if entry.ref and _SHA.match(entry.ref):
        return Resolved(entry, repo, entry.ref)
    ref = entry.ref or "HEAD"
    patterns = [ref] if ref == "HEAD" else [ref, f"{ref}^{{}}"]
    listing = run_git(["ls-remote", "--end-of-options", entry.location, *patterns], timeout=120)
    refs = {name: sha for sha, name in (ln.split("\t", 1) for ln in listing.splitlines() if ln)}
    for name in (ref, f"refs/heads/{ref}", f"refs/tags/{ref}^{{}}", f"refs/tags/{ref}"):
        if name in refs:
            return Resolved(entry, repo, refs[name])
    hint = "give a branch, a tag or a full 40-character sha" if entry.ref else "is it empty?"
    raise RepositoryError(f"{entry.location}: no ref {ref!r} on the remote; {hint}")


def _source_bytes(root: Path, sha: str) -> int:
    """Bytes of mineable source at ``sha``: the scheduling order (largest first)."""
    listing = run_git(["-C", str(root), "ls-tree", "-r", "-l", "-z", "--full-tree", sha])
    total = 0
    for item in listing.split("\0"):
        meta, _, path = item.partition("\t")
        fields = meta.split()
        if len(fields) == 4 and fields[3].isdigit() and language_for_path(path):
            total += int(fields[3])
    return total
