"""Shared fixtures: small git repositories built in temporary folders, and databases of
either backend (``backend_db``/``backend_store`` run a test once on SQLite, once on
PostgreSQL).

PostgreSQL: a throwaway cluster is started once per test session (per xdist worker) by
``scripts/start-postgres.sh`` in a temporary folder, listening on a unix socket there;
every test gets a database of its own. PostgreSQL tests skip only when no server
binaries exist even after the script's install step (it installs them as root).
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from hypothesis import settings

from errdex.store.protocol import Store, open_store
from errdex.store.sqlite import SQLiteStore

# Hypothesis's default 200 ms deadline per example is a wall-clock assertion, and it fails
# on a loaded 2-core CI machine. Tests assert work, not time: no deadline unless a test
# sets a generous one itself as a backstop (tests/steps.py).
settings.register_profile("errdex", deadline=None)
settings.load_profile("errdex")

ROOT = Path(__file__).resolve().parent.parent
PG_SCRIPT = ROOT / "scripts" / "start-postgres.sh"
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
def two_releases(make_repo: Callable[..., GitRepo]) -> Callable[..., GitRepo]:
    """A repository tagged v1.0.0 with ``old`` (path → text), then v2.0.0 with ``new``
    (the paths ``new`` lacks deleted): one wording and its successor, a release apart."""

    def make(old: dict[str, str], new: dict[str, str]) -> GitRepo:
        repo = make_repo()
        repo.commit_files(old, "v1.0.0")
        git(repo.root, "tag", "v1.0.0")
        for path in old:
            if path not in new:
                (repo.root / path).unlink()
        repo.commit_files(new, "v2.0.0")
        git(repo.root, "tag", "v2.0.0")
        return repo

    return make


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    with SQLiteStore(tmp_path / "errdex.sqlite") as opened:
        yield opened


# --- PostgreSQL, and either backend ----------------------------------------------------

BACKENDS = ["sqlite", "postgres"]


def _pg_binaries() -> bool:
    found = [d for d in glob.glob("/usr/lib/postgresql/*/bin") if Path(d, "pg_ctl").exists()]
    return bool(found) or shutil.which("pg_ctl") is not None


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a throwaway cluster's maintenance database, for this session."""
    if not _pg_binaries():
        subprocess.run(["bash", str(PG_SCRIPT)], check=False)  # installs postgresql when root
    if not _pg_binaries():
        pytest.skip("no PostgreSQL server binaries (initdb, pg_ctl) after "
                    "scripts/start-postgres.sh; run 'sudo apt-get install -y postgresql'")
    pytest.importorskip("psycopg", reason="the 'postgres' extra is not installed")
    folder = tempfile.mkdtemp(prefix="errdex-pg-", dir="/tmp")  # short: a unix socket path
    started = subprocess.run(["bash", str(PG_SCRIPT), folder], capture_output=True, text=True)
    if started.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(f"scripts/start-postgres.sh {folder} failed:\n{started.stderr}")
    try:
        yield started.stdout.strip().splitlines()[-1]
    finally:
        subprocess.run(["bash", str(PG_SCRIPT), "--stop", folder], check=False)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    """A fresh, empty database on the session's server."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(pg_server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    yield urlsplit(pg_server)._replace(path=f"/{name}").geturl()
    with psycopg.connect(pg_server, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The backend a test runs on: each test that uses it runs once per backend."""
    name: str = request.param
    return name


@pytest.fixture
def backend_db(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """What ``--db`` takes for a fresh, empty database of ``backend``: a file or a URL."""
    if backend == "postgres":
        url: str = request.getfixturevalue("pg_url")
        return url
    return str(tmp_path / "errdex.sqlite")


@pytest.fixture
def backend_store(backend_db: str) -> Iterator[Store]:
    """An open store of ``backend`` on a fresh database."""
    with open_store(backend_db) as opened:
        yield opened


def sql(db: str, statement: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Run SQL on ``db`` outside errdex (a file or a URL): to set up or inspect states."""
    if db.startswith(("postgresql://", "postgres://")):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            cursor = conn.execute(statement.replace("?", "%s").encode(), args)
            return [tuple(row) for row in cursor.fetchall()] if cursor.description else []
    import sqlite3

    conn = sqlite3.connect(db, isolation_level=None)
    try:
        return [tuple(row) for row in conn.execute(statement, args).fetchall()]
    finally:
        conn.close()
