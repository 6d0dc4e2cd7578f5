"""History evidence: the commit that last changed each site's line, and its subject.

One ``git blame --porcelain`` per file that has sites, limited to those lines
(``-L n,n`` for each), run a few files at a time. Optional: blame walks history,
so ``mine(..., blame=True)`` asks for it. ``--no-textconv``: by default blame runs the
repository's textconv driver (and the smudge filter before it) on every version it
reads, programs a stranger's ``.git/config`` names; the rest of the guard is
``repo.run_git``'s.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from errdex.errors import RepositoryError
from errdex.records.evidence import Blame
from errdex.repo.git import is_full_sha, run_git

_THREADS = 8


def blame_lines(root: Path, sha: str, path: str, lines: list[int]) -> dict[int, Blame]:
    """The commit behind each of ``lines`` (1-based) of ``path`` at ``sha``."""
    if not lines or not is_full_sha(sha):  # blame has no --end-of-options: only a full sha
        return {}
    ranges = [arg for line in sorted(set(lines)) for arg in ("-L", f"{line},{line}")]
    try:
        done = run_git(["blame", "--porcelain", "--no-textconv", *ranges, sha, "--", path], root)
    except RepositoryError:
        return {}
    if done.returncode != 0:
        return {}
    return parse_porcelain(done.stdout.decode("utf-8", "replace"))


def parse_porcelain(output: str) -> dict[int, Blame]:
    """``git blame --porcelain`` output → final line number → Blame."""
    found: dict[int, Blame] = {}
    commits: dict[str, dict[str, str]] = {}
    current: str | None = None
    final = 0
    for line in output.splitlines():
        if line.startswith("\t"):
            if current is not None:
                info = commits[current]
                found[final] = Blame(commit=current, subject=info.get("summary", ""),
                                     author_time=int(info.get("author-time", "0") or 0))
            current = None
            continue
        head = line.split(" ")
        if current is None and len(head) >= 3 and len(head[0]) == 40:
            current, final = head[0], int(head[2])
            commits.setdefault(current, {})
        elif current is not None:
            key, _, value = line.partition(" ")
            commits[current][key] = value
    return found


def blame_files(root: Path, sha: str, wanted: dict[str, list[int]]) -> dict[str, dict[int, Blame]]:
    """Blame every file in ``wanted`` (path → site lines), a few processes at a time."""
    with ThreadPoolExecutor(max_workers=_THREADS) as pool:
        futures = {path: pool.submit(blame_lines, root, sha, path, lines)
                   for path, lines in wanted.items()}
        return {path: future.result() for path, future in futures.items()}
