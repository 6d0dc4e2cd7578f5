"""Shared fixtures: small git repositories built in temporary folders."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from errdex.store import SQLiteStore

SHARED = Path(__file__).resolve().parent / "data"
SEED_RECORD = SHARED / "seed-record.json"

os.environ.setdefault("GIT_AUTHOR_NAME", "errdex tests")
os.environ.setdefault("GIT_AUTHOR_EMAIL", "tests@errdex.invalid")
os.environ.setdefault("GIT_COMMITTER_NAME", "errdex tests")
os.environ.setdefault("GIT_COMMITTER_EMAIL", "tests@errdex.invalid")


def git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


class GitRepo:
    """A throwaway repository: write files, commit, read HEAD."""

    def __init__(self, root: Path, remote: str | None):
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        git(root, "init", "--quiet", "--initial-branch=main")
        if remote:
            git(root, "remote", "add", "origin", remote)

    def write(self, path: str, text: str | bytes) -> Path:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_text(text, encoding="utf-8")
        return target

    def commit_files(self, files: dict[str, str], message: str = "fixture") -> str:
        """Write ``files`` (path → text) and commit them."""
        for path, text in files.items():
            self.write(path, text)
        return self.commit(message)

    def commit(self, message: str = "change") -> str:
        git(self.root, "add", "--all")
        git(self.root, "commit", "--quiet", "--allow-empty", "-m", message)
        return self.head()

    def head(self) -> str:
        return git(self.root, "rev-parse", "HEAD")


@pytest.fixture
def make_repo(tmp_path: Path) -> Callable[..., GitRepo]:
    counter = iter(range(1000))

    def make(remote: str | None = "https://github.com/acme/widgets.git") -> GitRepo:
        return GitRepo(tmp_path / f"repo{next(counter)}", remote)

    return make


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    with SQLiteStore(tmp_path / "errdex.sqlite") as opened:
        yield opened
