"""What the scorer reads of a repository at one commit: its non-test source files, the text
of their string literals (is an observed message written in the source?), and statement
extents (the statement enclosing a raise line)."""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import PurePosixPath

from errdex.languages.base import parse

GRAMMARS = {".py": "python", ".js": "javascript", ".cjs": "javascript", ".mjs": "javascript",
            ".jsx": "javascript", ".ts": "typescript", ".mts": "typescript",
            ".cts": "typescript"}
TEST_DIRS = {"test", "tests", "testing", "__tests__", "spec", "specs", "doc", "docs",
             "example", "examples", "bench", "benchmark", "benchmarks", "fixtures",
             "node_modules", "scripts", "tap-snapshots"}
TEST_FILE = re.compile(r"(^test_.*\.py$|_test\.py$|^conftest\.py$|\.(test|spec)\.[cm]?[jt]sx?$"
                       r"|\.d\.ts$)")
STRING_NODES = {"string", "template_string"}
PIECE_NODES = {"string_content", "string_fragment"}
WORD_LETTERS = re.compile(r"[A-Za-z]")
MIN_LETTERS = 12
RUN_WORDS = 3


def is_source(path: str) -> bool:
    """A non-test source file of a language the scorer reads."""
    pure = PurePosixPath(path)
    return (pure.suffix in GRAMMARS and not TEST_FILE.search(pure.name)
            and not any(part in TEST_DIRS for part in pure.parts[:-1]))


def candidates(message: str) -> list[str]:
    """Runs of the message that, found in a literal, show the source wrote it: three words
    in a row, or one or two words with at least twelve letters between them."""
    tokens = message.split()
    wordy = [bool(WORD_LETTERS.search(t)) for t in tokens]
    found: list[str] = []
    for i in range(len(tokens)):
        for size in (1, 2, 3):
            window = tokens[i:i + size]
            if len(window) < size or not all(wordy[i:i + size]):
                continue
            text = " ".join(window)
            letters = len(WORD_LETTERS.findall(text))
            if size == RUN_WORDS or letters >= MIN_LETTERS:
                found.append(text)
    return found


@dataclass
class SourceFile:
    """One file at the commit, parsed once for both questions."""

    path: str
    data: bytes

    @cached_property
    def _tree_root(self):  # type: ignore[no-untyped-def]  # a tree-sitter Node
        return parse(GRAMMARS[PurePosixPath(self.path).suffix], self.data).root_node

    @cached_property
    def literals(self) -> list[str]:
        """Every literal piece (the text between holes) and each concatenation of plain
        strings, as written."""
        pieces: list[str] = []
        stack = [self._tree_root]
        while stack:
            node = stack.pop()
            if node.type in PIECE_NODES:
                pieces.append(node.text.decode("utf-8", "replace"))
            elif node.type == "concatenated_string":
                parts = [c for c in node.children if c.type == "string"]
                if all(p.type != "interpolation" for c in parts for p in c.children):
                    pieces.append("".join(p.text.decode("utf-8", "replace") for c in parts
                                          for p in c.children if p.type in PIECE_NODES))
            stack.extend(node.children)
        return pieces

    @cached_property
    def lines(self) -> list[str]:
        return self.data.decode("utf-8", "replace").splitlines()

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def statement(self, number: int) -> tuple[int, int]:
        """First and last line (1-based) of the smallest statement holding line ``number``."""
        row = number - 1
        node = self._tree_root
        best = (number, number)
        while True:
            inside = [c for c in node.children if c.start_point[0] <= row <= c.end_point[0]]
            if not inside:
                return best
            node = inside[-1]
            if node.type.endswith(("statement", "declaration")):
                best = (node.start_point[0] + 1, node.end_point[0] + 1)


@dataclass
class Source:
    """The repository's tree at ``sha``, read lazily through git."""

    root: str
    sha: str
    _files: dict[str, SourceFile | None] = field(default_factory=dict)

    def git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(["git", "-C", self.root, *args], capture_output=True,
                              check=check)

    @cached_property
    def source_paths(self) -> list[str]:
        listed = self.git("ls-tree", "-r", "--name-only", "-z", self.sha).stdout
        return [p for p in listed.decode("utf-8", "replace").split("\0") if p and is_source(p)]

    def file(self, path: str) -> SourceFile | None:
        if path not in self._files:
            shown = self.git("show", f"{self.sha}:{path}", check=False)
            ok = shown.returncode == 0 and PurePosixPath(path).suffix in GRAMMARS
            self._files[path] = SourceFile(path, shown.stdout) if ok else None
        return self._files[path]

    def files_with_any(self, texts: set[str]) -> list[str]:
        """Non-test source files holding any of ``texts`` (``git grep -F`` at the commit)."""
        if not texts or not self.source_paths:
            return []
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".txt") as listed:
            listed.write("\n".join(sorted(texts)) + "\n")
            listed.flush()
            found = self.git("grep", "-F", "-l", "-I", "-f", listed.name, self.sha,
                             check=False)
        prefix = f"{self.sha}:"
        paths = (line.removeprefix(prefix) for line in
                 found.stdout.decode("utf-8", "replace").splitlines())
        return [path for path in paths if is_source(path)]

    def written(self, messages: set[str]) -> dict[str, str]:
        """Each message that has a run written in a string literal → that run."""
        runs = {message: candidates(message) for message in messages}
        every = {run for found in runs.values() for run in found}
        pieces: list[str] = []
        for path in self.files_with_any(every):
            source = self.file(path)
            if source is not None:
                pieces.extend(source.literals)
        blob = "\0".join(pieces)
        result: dict[str, str] = {}
        for message, found in runs.items():
            hit = next((run for run in found if run in blob), None)
            if hit is not None:
                result[message] = hit
        return result
