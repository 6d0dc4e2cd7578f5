"""The grep baseline of the accuracy benchmark: where a developer grepping a pasted error lands.

From the paste, the message lines are kept (stack-frame lines dropped: ``at …``,
``File "…", line N`` and the source line under it, ``#N 0x…``, ``N: sym``, bare
paths, ``goroutine N [running]:``), paths and URLs are cut out of them, and each
line's words (runs of letters, digits, ``_``) give every window of three consecutive
words (and, unless ``strict``, a two-word message is one window: see ``windows``).
Each window is searched in the pinned tree as ``w1\\W+w2\\W+w3``, case-insensitive
(``git grep -i -P``, else ``-E``, all windows as one alternation: the words are word
characters only, so no pattern built from the paste holds a regex operator, and each
branch is a word, a run of non-word characters, a word: no branch can backtrack far).
Only source files count, as errdex mines them: a language errdex knows, not test code,
not vendored. A line is ranked by how many distinct windows match on it; ties by path,
then line.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from errdex.errors import RepositoryError
from errdex.languages import LANGUAGES, language_for_path
from errdex.repo.git import is_full_sha, run_git, skip_reason

WINDOW = 3
MAX_WINDOWS = 256  # distinct windows searched per paste; a longer paste's tail is not
GREP_TIMEOUT_S = 600.0
_WORD = re.compile(r"\w+")
_SEPARATOR = "[^[:alnum:]_]+"  # git grep -E: any run of non-word characters
# Stack-frame lines (fixed patterns, never built from a paste).
_FRAME = re.compile(
    r"""^\s*(?:
        at\s+(?:\S*[.:/\\(<\[$]|.*(?:\)|:\d+)\s*$)          # JS, Java, C#, Rust "at"
      | File\s+"[^"]*",\s+line\s+\d+                         # Python
      | \#\d+\s+(?:0x[0-9a-fA-F]+|\S*[/\\(]|\{main\}|\[internal)  # gdb, sanitizers, PHP
      | \d+:\s+(?:0x[0-9a-fA-F]+|\S*(?:::|\.)\S*)            # Rust, C++ "N: sym"
      | \d+\s+\S+\s+0x[0-9a-fA-F]+                           # Swift, macOS crash frames
      | goroutine\s+\d+\s+\[                                 # Go
      | created\s+by\s+\S
      | [^\s(]*[./][^\s(]*\(.*\)\s*$                         # Go "pkg.Func(0x1, ...)"
      | \S*[/\\]\S*\s*(?:\+0x[0-9a-fA-F]+)?\s*$              # a bare path[:line]
      | \.\.\.\s*\d+\s+more                                  # Java "... 12 more"
      | -{3}.*-{3}\s*$                                       # .NET "--- End of … ---"
      | Traceback\s+\(most\s+recent\s+call\s+last\)
      | stack\s+backtrace:
    )""",
    re.VERBOSE,
)
_PYTHON_FILE = re.compile(r'^(\s*)File\s+"')
# Folders that errdex.repo.git.skip_reason skips too (a subset): left out of git grep's read.
_TEST_FOLDERS = ("tests", "test", "spec", "__tests__", "testdata", "fixtures")
_VENDOR_FOLDERS = ("vendor", "node_modules", "third_party")
_PATHLIKE = re.compile(r"\S*[/\\]\S*")  # paths and URLs inside a message line


@dataclass(frozen=True)
class GrepHit:
    """A line of the tree and how many of the paste's windows match on it."""

    path: str
    line: int
    windows: int
    text: str

    def describe(self) -> str:
        return f"{self.path}:{self.line} [{self.windows} windows] {self.text.strip()[:80]}"


def message_lines(text: str) -> list[str]:
    """The lines of a paste that are not stack frames, paths and URLs cut out."""
    kept: list[str] = []
    frame_indent: int | None = None  # inside a Python frame: its source line follows
    for line in text.splitlines():
        if frame_indent is not None:
            indent = len(line) - len(line.lstrip())
            frame_indent = None
            if line.strip() and indent > 0:
                continue
        python = _PYTHON_FILE.match(line)
        if python:
            frame_indent = len(python.group(1))
            continue
        if _FRAME.match(line):
            continue
        kept.append(_PATHLIKE.sub(" ", line))
    return kept


def windows(text: str, strict: bool = False) -> list[tuple[str, ...]]:
    """Every distinct window of three consecutive message words (lowercase), in paste order.

    Unless ``strict``, a line's text after its last ``": "`` counts as a line too, and a
    line of two words is one window: ``MulterError: Unexpected field`` is grepped as
    ``Unexpected field``, as a developer would.
    """
    found: dict[tuple[str, ...], None] = {}
    for line in message_lines(text):
        tail = line.rpartition(": ")[2]
        for segment in (line,) if strict or tail == line else (line, tail):
            words = [w.lower() for w in _WORD.findall(segment)]
            size = WINDOW if strict else min(WINDOW, len(words))
            for start in range(len(words) - size + 1 if size >= 2 else 0):
                found.setdefault(tuple(words[start : start + size]), None)
                if len(found) >= MAX_WINDOWS:
                    return list(found)
    return list(found)


def counted(path: str) -> bool:
    """Whether grep's answer may name this file: product source errdex would mine."""
    return language_for_path(path) is not None and skip_reason(path) is None


def grep(git_dir: Path, sha: str, text: str, strict: bool = False) -> list[GrepHit]:
    """Every (file, line) of the tree at ``sha`` where a window of the paste matches, best
    first: most distinct windows, then path, then line."""
    wanted = windows(text, strict)
    if not wanted or not is_full_sha(sha):
        return []
    return rank(_parse(_git_grep(git_dir, sha, wanted), sha), wanted)


_pcre = [True]  # whether this git has ``grep -P``; the first that has not says so


def _git_grep(git_dir: Path, sha: str, wanted: list[tuple[str, ...]]) -> bytes:
    """The lines of source files matching any window: one alternation, Perl syntax where
    git has it (much faster than extended regexes), read from the object store."""
    while True:
        pcre = _pcre[0]
        separator = r"\W+" if pcre else _SEPARATOR
        pattern = "|".join(separator.join(window) for window in wanted)
        done = run_git(
            ["-c", "grep.column=false", "-c", "grep.fullName=false",
             "-c", "grep.fallbackToNoIndex=false", "grep", "-n", "-z", "-I", "-i",
             "-P" if pcre else "-E", "--no-color", "--no-textconv", "-e",
             f"(?:{pattern})" if pcre else f"({pattern})", sha, "--", *_pathspecs()],
            git_dir, timeout=GREP_TIMEOUT_S,
        )
        # 1: nothing matched; a blob missing from a partial clone is reported, not fatal
        if done.returncode in (0, 1) or done.stdout:
            return done.stdout
        error = done.stderr.decode("utf-8", "replace")
        if pcre and ("PCRE" in error or "-P" in error):
            _pcre[0] = False
            continue
        lines = error.strip().splitlines()
        raise RepositoryError(f"git grep failed in {git_dir}: {lines[-1] if lines else '?'}")


@functools.cache
def _pathspecs() -> tuple[str, ...]:
    """Source files by extension, without the commonest test and vendored folders: only to
    read less (``counted`` decides which files count)."""
    extensions = sorted({e for lang in LANGUAGES.values() for e in lang.extensions})
    return (*(f":(icase)*{e}" for e in extensions),
            *(f":(exclude,glob,icase)**/{d}/**" for d in _TEST_FOLDERS),
            *(f":(exclude,glob)**/{d}/**" for d in _VENDOR_FOLDERS))


def _parse(output: bytes, sha: str) -> Iterable[tuple[str, int, str]]:
    prefix = f"{sha}:".encode()
    for record in output.split(b"\n"):
        name, _, rest = record.partition(b"\0")
        number, _, content = rest.partition(b"\0")
        if not name.startswith(prefix) or not number.isdigit():
            continue
        path = name[len(prefix) :].decode("utf-8", "surrogateescape")
        if counted(path):
            yield path, int(number), content.decode("utf-8", "replace")


def rank(lines: Iterable[tuple[str, int, str]], wanted: list[tuple[str, ...]]) -> list[GrepHit]:
    """Lines ordered by the number of distinct windows matching on them, then path, line."""
    compiled = [
        (window[0], re.compile(r"\W+".join(re.escape(w) for w in window), re.IGNORECASE))
        for window in wanted
    ]
    hits = []
    for path, number, content in lines:
        lowered = content.lower()
        count = sum(1 for first, pattern in compiled
                    if first in lowered and pattern.search(content))
        if count:
            hits.append(GrepHit(path, number, count, content))
    hits.sort(key=lambda h: (-h.windows, h.path, h.line))
    return hits
