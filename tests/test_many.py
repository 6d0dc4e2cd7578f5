"""mine-many: real git repositories (local and cloned over file://), real processes."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import errdex
from errdex.batch.clones import CloneCache
from errdex.batch.entries import Entry, parse_entry, parse_list, parse_size, read_list, resolve
from errdex.batch.many import BatchMiner, Writer, mine_many
from errdex.batch.workers import MineTask, TaskResult, extract_repository, run_task
from errdex.errors import UsageError
from errdex.store.sqlite import SQLiteStore
from tests.conftest import GitRepo, git

PY = 'def load(path):\n    raise ValueError(f"cannot load {path}")\n'
PY2 = PY + '\ndef save(x):\n    raise KeyError("no slot for it")\n'


def _repo(make_repo: Callable[..., GitRepo], name: str, text: str = PY) -> GitRepo:
    repo = make_repo(f"https://github.com/acme/{name}.git")
    repo.write(f"{name}/core.py", text)
    repo.commit("first")
    return repo


def _bare(repo: GitRepo, tmp_path: Path) -> str:
    """A bare copy of ``repo`` served by URL, as a forge would."""
    bare = tmp_path / f"{repo.root.name}.git"
    subprocess.run(["git", "clone", "--quiet", "--bare", str(repo.root), str(bare)], check=True)
    return f"file://{bare}"


def _ids(store: SQLiteStore, repo: str) -> list[str]:
    return [s.record.id for s in store.records(repo)]


class FailFirstTime:
    """Fault injection, run in the worker: fail (or kill the worker) once per repository."""

    def __init__(self, markers: Path, crash: bool = False):
        self.markers = markers
        self.crash = crash

    def __call__(self, task: MineTask) -> None:
        marker = self.markers / f"{self.crash}-{task.resolved.repo.replace('/', '_')}"
        if not marker.exists():
            marker.touch()
            if self.crash:
                os._exit(3)
            raise RuntimeError("transient failure")


# --- the list -----------------------------------------------------------------------------


def test_list_lines_comments_refs(tmp_path: Path) -> None:
    text = """
# a comment
/src/a               # trailing comment
https://github.com/acme/a.git@v1.2
https://user@github.com/acme/b
git@github.com:acme/c.git@release/2.0
ssh://git@host:22/acme/d.git@0123456789abcdef0123456789abcdef01234567
file:///srv/e.git
"""
    entries = parse_list(text)
    assert [(e.kind, e.location, e.ref) for e in entries] == [
        ("path", "/src/a", None),
        ("url", "https://github.com/acme/a.git", "v1.2"),
        ("url", "https://user@github.com/acme/b", None),
        ("url", "git@github.com:acme/c.git", "release/2.0"),
        ("url", "ssh://git@host:22/acme/d.git", "0123456789abcdef0123456789abcdef01234567"),
        ("url", "file:///srv/e.git", None),
    ]
    assert [e.line for e in entries] == [3, 4, 5, 6, 7, 8]
    assert parse_entry(str(tmp_path / "missing@main")).ref == "main"
    odd = tmp_path / "odd@name"
    odd.mkdir()
    assert parse_entry(str(odd)) == Entry(1, str(odd), "path", str(odd))


def test_sizes_and_bad_lists(tmp_path: Path) -> None:
    assert parse_size("4096") == 4096
    assert parse_size("500M") == 500 * 1024**2
    assert parse_size("1.5g") == int(1.5 * 1024**3)
    with pytest.raises(UsageError):
        parse_size("lots")
    with pytest.raises(UsageError, match="no such list file"):
        read_list(tmp_path / "nope.txt")
    (tmp_path / "empty.txt").write_text("# nothing\n\n")
    with pytest.raises(UsageError, match="no repositories"):
        read_list(tmp_path / "empty.txt")


# --- mining -------------------------------------------------------------------------------


def test_extraction_equals_mine(make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    """Workers extract; the parent's write gives exactly what `errdex mine` gives."""
    repo = _repo(make_repo, "alpha", PY2)
    with SQLiteStore(tmp_path / "a.sqlite") as direct, SQLiteStore(tmp_path / "b.sqlite") as many:
        errdex.mine(repo.root, db=direct)
        summary = Writer(many).write(
            extract_repository(repo.root, repo="acme/alpha", sha=repo.head())
        )
        assert summary is not None and summary.records == 2 and summary.new == 2

        def strip(store: SQLiteStore) -> list[dict[str, object]]:
            rows = []
            for stored in store.records():
                data = stored.record.model_dump(mode="json")
                for key in ("analyzedAt", "contentChangedAt"):
                    data.pop(key)
                rows.append(data)
            return rows

        assert strip(direct) == strip(many)


def test_failures_are_isolated_and_rerun_skips(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repos = [_repo(make_repo, name) for name in ("one", "two", "three")]
    not_git = tmp_path / "plain"
    not_git.mkdir()
    listing = tmp_path / "list.txt"
    listing.write_text("\n".join([
        str(repos[0].root), str(tmp_path / "missing"), str(repos[1].root), str(not_git),
        "file:///nonexistent/repo.git", str(repos[2].root), str(repos[0].root),
    ]) + "\n")
    db = tmp_path / "errdex.sqlite"
    seen: list[tuple[int, int]] = []
    summary = mine_many(read_list(listing), db, jobs=2, cache_dir=tmp_path / "cache",
                        retries=1, progress=lambda done, total: seen.append((done, total)))
    status = [(o.status, o.repo) for o in summary.outcomes]
    assert status == [
        ("mined", "acme/one"), ("failed", None), ("mined", "acme/two"), ("failed", None),
        ("failed", None), ("mined", "acme/three"), ("unchanged", "acme/one"),
    ]
    reasons = [o.reason for o in summary.outcomes]
    assert "no such file or directory" in (reasons[1] or "")
    assert "not inside a git repository" in (reasons[3] or "")
    assert "ls-remote failed" in (reasons[4] or "")
    assert "same repository and commit as line 1" in (reasons[6] or "")
    assert all(r is None or "\n" not in r for r in reasons)
    assert [o.attempts for o in summary.outcomes][1] == 2  # retried once
    assert (summary.mined, summary.unchanged, summary.failed, summary.records) == (3, 1, 3, 3)
    assert not summary.ok
    assert seen[-1] == (7, 7) and len(seen) == 7

    with SQLiteStore(db) as store:
        assert store.repos() == ["acme/one", "acme/three", "acme/two"]
        generation = store.generation()
        ids_two = _ids(store, "acme/two")

    # Re-run: nothing changed, nothing is written.
    again = mine_many(read_list(listing), db, jobs=2, cache_dir=tmp_path / "cache", retries=0)
    assert (again.mined, again.unchanged, again.failed) == (0, 4, 3)
    with SQLiteStore(db) as store:
        assert store.generation() == generation

    # One repository moves on: only it is mined again; ids stay stable.
    repos[1].write("two/more.py", 'def f():\n    raise OSError("disk full")\n')
    repos[1].commit("more")
    third = mine_many(read_list(listing), db, jobs=2, cache_dir=tmp_path / "cache", retries=0)
    assert [o.status for o in third.outcomes if o.repo == "acme/two"] == ["mined"]
    assert third.mined == 1 and third.unchanged == 3
    moved = next(o for o in third.outcomes if o.repo == "acme/two")
    assert moved.summary is not None and (moved.summary.new, moved.summary.records) == (1, 2)
    with SQLiteStore(db) as store:
        assert set(ids_two) < set(_ids(store, "acme/two"))


def test_urls_refs_and_cache(make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = _repo(make_repo, "remote")
    first = repo.head()
    git(repo.root, "tag", "-a", "v1", "-m", "v1")
    repo.write("remote/extra.py", 'def g():\n    raise TypeError("bad type")\n')
    second = repo.commit("second")
    git(repo.root, "branch", "old", first)
    url = _bare(repo, tmp_path)
    cache = tmp_path / "cache"
    db = tmp_path / "errdex.sqlite"

    def run(line: str) -> tuple[str, str | None, int]:
        summary = mine_many(parse_list(line), db, jobs=1, cache_dir=cache, retries=0)
        outcome = summary.outcomes[0]
        assert outcome.reason is None, outcome.reason
        return outcome.status, outcome.sha, outcome.records

    assert run(f"{url}@v1") == ("mined", first, 1)  # annotated tag, peeled to its commit
    assert run(f"{url}") == ("mined", second, 2)
    assert run(f"{url}@main") == ("unchanged", second, 0)  # ls-remote only: no clone
    assert run(f"{url}@old") == ("mined", first, 1)
    assert run(f"{url}@{second}") == ("mined", second, 2)
    clones = sorted(p.name for p in (cache / "repos").iterdir())
    assert len(clones) == 2 and {c[-12:] for c in clones} == {first[:12], second[:12]}
    assert list((cache / "tmp").iterdir()) == []
    with SQLiteStore(db) as store:
        stored = next(iter(store.records()))
        assert stored.record.repo == repo.root.name  # file:// URLs are named after the folder
        assert stored.record.analyzed_sha == second
    shallow = git(cache / "repos" / clones[0], "rev-parse", "--is-shallow-repository")
    assert shallow == "true"

    failed = mine_many(parse_list(f"{url}@no-such-branch"), db, cache_dir=cache, retries=0)
    assert "no ref 'no-such-branch'" in (failed.outcomes[0].reason or "")


def test_cache_budget_evicts_lru_but_not_in_use(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    urls = [_bare(_repo(make_repo, name), tmp_path) for name in ("a", "b", "c")]
    cache_dir = tmp_path / "cache"
    db = tmp_path / "errdex.sqlite"
    summary = mine_many(parse_list("\n".join(urls)), db, jobs=1, cache_dir=cache_dir,
                        disk_budget_bytes=0, retries=0)
    assert summary.mined == 3
    assert list((cache_dir / "repos").iterdir()) == []  # budget 0: nothing kept

    cache = CloneCache(cache_dir, budget_bytes=10**9)
    shas = [git(Path(u.removeprefix("file://")), "rev-parse", "HEAD") for u in urls]
    for url, sha in zip(urls, shas, strict=True):
        with cache.checkout(url, None, sha):
            pass
    one = cache.size() // 3
    cache.budget = one + one // 2  # room for one clone
    os.utime(cache.root / "locks" / f"{cache.key(urls[0], shas[0])}.lock", (1, 1))  # oldest
    with cache.checkout(urls[0], None, shas[0]) as (root, _):  # in use: must survive
        evicted = cache.enforce_budget()
        assert root.exists()
    assert sorted(evicted) == sorted(cache.key(u, s) for u, s in zip(urls[1:], shas[1:],
                                                                    strict=True))


def test_failed_clone_leaves_nothing(make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    url = _bare(_repo(make_repo, "gone"), tmp_path)
    cache = CloneCache(tmp_path / "cache")
    with pytest.raises(errdex.RepositoryError), cache.checkout(url, None, "0" * 40):
        pass
    assert list((cache.root / "tmp").iterdir()) == []
    assert list((cache.root / "repos").iterdir()) == []


def test_retry_recovers_transient_failure_and_crash(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    fail_first_time = FailFirstTime(tmp_path)
    repos = [_repo(make_repo, name) for name in ("r1", "r2")]
    entries = parse_list("\n".join(str(r.root) for r in repos))
    summary = mine_many(entries, tmp_path / "a.sqlite", jobs=2, retries=1,
                        cache_dir=tmp_path / "cache", before_task=fail_first_time)
    assert [(o.status, o.attempts) for o in summary.outcomes] == [("mined", 2), ("mined", 2)], [
        o.reason for o in summary.outcomes]

    none_left = mine_many(entries, tmp_path / "b.sqlite", jobs=2, retries=0,
                          cache_dir=tmp_path / "cache", before_task=fail_first_time)
    assert none_left.mined == 2  # markers exist now: no failure

    crash = mine_many(entries, tmp_path / "c.sqlite", jobs=2, retries=2,
                      cache_dir=tmp_path / "cache", before_task=FailFirstTime(tmp_path, crash=True))
    assert crash.mined == 2, [o.reason for o in crash.outcomes]
    with SQLiteStore(tmp_path / "c.sqlite") as store:
        assert store.count() == 2


def test_writer_ignores_a_second_delivery(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = _repo(make_repo, "twice")
    extraction = extract_repository(repo.root, repo="acme/twice", sha=repo.head())
    with SQLiteStore(tmp_path / "errdex.sqlite") as store:
        writer = Writer(store)
        assert writer.write(extraction) is not None
        generation = store.generation()
        assert writer.write(extraction) is None
        assert store.generation() == generation and store.count() == 1
        row = store.conn.execute("SELECT analyzed_sha, record_count FROM repos").fetchone()
        assert row == (repo.head(), 1)
        assert json.loads(
            store.conn.execute("SELECT record_json FROM records").fetchone()[0]
        )["analyzedSha"] == repo.head()


def test_cli_mine_many_table_and_exit_codes(make_repo, tmp_path):
    """The command as a user runs it: a table, exit 1 when a line failed, 2 for a bad LIST."""
    from click.testing import CliRunner

    from errdex.interfaces.cli import main

    good = make_repo("https://github.com/acme/one.git")
    good.write("m.py", "raise ValueError('first repository fails here')\n")
    good.commit()
    listing = tmp_path / "repos.txt"
    listing.write_text(f"# two repositories\n{good.root}\n{tmp_path / 'missing'}\n")
    db = str(tmp_path / "many.sqlite")
    result = CliRunner().invoke(main, ["--db", db, "mine-many", "--jobs", "1", str(listing)])
    assert result.exit_code == 1, result.output
    assert "1 mined" in result.stdout and "1 failed" in result.stdout
    assert "acme/one" in result.stdout
    again = CliRunner().invoke(main, ["--db", db, "mine-many", "--jobs", "1", str(listing)])
    assert "1 unchanged" in again.stdout
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    bad = CliRunner().invoke(main, ["--db", db, "mine-many", str(empty)])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


class InlineBackend:
    """A backend that runs each task in this process when results are asked for: the
    scheduler needs nothing of a backend but ``submit``, ``wait``, ``slots`` and ``close``."""

    name = "inline"

    def __init__(self, slots: int):
        self.slots = slots
        self.pending: list[MineTask] = []
        self.submitted: list[tuple[int, str]] = []  # (LIST line, repo) in submission order

    def submit(self, task: MineTask) -> None:
        self.pending.append(task)
        self.submitted.append((task.resolved.entry.line, task.resolved.repo))

    def wait(self, timeout: float | None) -> list[tuple[MineTask, TaskResult]]:
        done, self.pending = [(t, run_task(t)) for t in self.pending], []
        return done

    def close(self) -> None:
        self.pending = []


def test_scheduler_runs_biggest_first_and_an_earlier_line_wins(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    small = _repo(make_repo, "small")
    big = _repo(make_repo, "big", PY2 + "\n# padding\n" * 200)
    entries = parse_list(f"{small.root}\n{big.root}\n{small.root}\n")
    backend = InlineBackend(slots=3)
    with SQLiteStore(tmp_path / "errdex.sqlite") as store:
        miner = BatchMiner(entries, store, backend, CloneCache(tmp_path / "cache"), retries=0,
                           enrich="static", progress=None)
        resolved = [resolve(e) for e in entries]
        assert resolved[1].size_hint > resolved[0].size_hint
        # Line 3 resolves first and is queued; line 1 (same repository) takes it back.
        for index in (2, 1, 0):
            miner._resolved(entries[index], resolved[index])
        miner._dispatch()
        assert backend.submitted == [(2, "acme/big"), (1, "acme/small")]  # biggest first
        miner._collect_results()
        outcomes = [miner.lines[e.line].outcome for e in entries]
        assert [(o.status, o.records) for o in outcomes] == [
            ("mined", 1), ("mined", 2), ("unchanged", 0)]
        assert outcomes[2].reason == "same repository and commit as line 1"
        assert miner.finished == 3 and store.repos() == ["acme/big", "acme/small"]

        # The whole loop on the same backend: everything is current now, nothing is run.
        again = InlineBackend(slots=1)
        rerun = BatchMiner(entries, store, again, CloneCache(tmp_path / "cache"), retries=0,
                           enrich="static", progress=None).run()
        assert sorted(o.status for o in rerun) == ["unchanged"] * 3
        assert again.submitted == []
