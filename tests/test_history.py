"""Following a repository through its history: incremental re-mines, removed sites, kills."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

import errdex
from errdex.interfaces.cli import main
from errdex.store.sqlite import SQLiteStore

A = "def load(path):\n    raise FileNotFoundError(f'no config at {path}')\n"
B = "def parse(text):\n    raise ValueError(f'bad number {text!r}')\n"


def _current(store: SQLiteStore) -> dict[str, errdex.Record]:
    return {s.record.error_message: s.record for s in store.records()}


def test_remine_reads_only_changed_files_and_restamps_the_rest(make_repo, store):
    repo = make_repo()
    repo.write("pkg/a.py", A)
    repo.write("pkg/b.py", B)
    repo.commit()
    errdex.mine(repo.root, db=store)
    before = _current(store)
    repo.write("pkg/b.py", "\n\n" + B)
    sha = repo.commit("move parse down")
    summary = errdex.mine(repo.root, db=store)
    after = _current(store)
    assert summary.incremental and summary.files_mined == 1
    assert (summary.new, summary.removed) == (0, 0)  # b.py's window changed: "changed" is 1
    for message, record in after.items():
        assert record.id == before[message].id
        assert record.analyzed_sha == sha and sha in (record.github_url or "")
    assert after["bad number {text!r}"].line_number == before["bad number {text!r}"].line_number + 2
    assert after["no config at {path}"].content_changed_at == before[
        "no config at {path}"].content_changed_at


def test_reworded_site_is_kept_as_removed_and_still_resolves(make_repo, store, tmp_path):
    repo = make_repo()
    repo.write("pkg/b.py", B)
    old = repo.commit()
    errdex.mine(repo.root, db=store)
    repo.write("pkg/b.py", B.replace("bad number", "not a number"))
    new = repo.commit("reword")
    summary = errdex.mine(repo.root, db=store)
    assert summary.removed == 1 and summary.new == 1
    assert list(_current(store)) == ["not a number {text!r}"]
    index = errdex.open_index(store)
    (old_match,) = index.explain("ValueError: bad number 'x'")
    assert old_match.removed is not None and old_match.removed.sha == new
    assert old_match.record.analyzed_sha == old
    assert "removed in" in old_match.reason
    as_json = old_match.to_json()
    assert as_json["removed"]["sha"] == new
    # text output says so too
    result = CliRunner().invoke(main, ["--db", str(store.path), "explain", "bad number 'x'"])
    assert result.exit_code == 0 and "gone since commit" in result.stdout
    # the current site has no removal note
    (current,) = index.explain("ValueError: not a number 'x'")
    assert current.removed is None and "removed" not in current.to_json()


def test_deleted_file_and_releases_mined_in_turn(make_repo, store):
    repo = make_repo()
    repo.write("pkg/a.py", A)
    repo.write("pkg/b.py", B)
    v1 = repo.commit("v1")
    (repo.root / "pkg" / "a.py").unlink()
    v2 = repo.commit("v2")
    errdex.mine(repo.root, db=store, sha=v1)
    assert set(_current(store)) == {"no config at {path}", "bad number {text!r}"}
    summary = errdex.mine(repo.root, db=store, sha=v2)
    assert summary.incremental and summary.removed == 1
    assert set(_current(store)) == {"bad number {text!r}"}
    (match,) = errdex.open_index(store).explain("no config at /etc/x")
    assert match.removed is not None and match.removed.sha == v2


def _comparable(db: Path) -> list[dict]:
    with SQLiteStore(db) as store:
        rows = []
        for stored in store.records(include_removed=True):
            record = stored.record.model_dump(mode="json")
            record.pop("analyzedAt")
            record.pop("contentChangedAt")
            removed = stored.removed.sha if stored.removed else None
            rows.append({"record": record, "removed": removed})
        return sorted(rows, key=lambda r: json.dumps(r, sort_keys=True))


def test_sigkill_at_random_moments_then_rerun_equals_an_uninterrupted_run(make_repo, tmp_path):
    repo = make_repo()
    for n in range(120):
        repo.write(f"pkg/m{n}.py", f"def f{n}(x):\n    raise ValueError(f'v1 failure {n} {{x}}')\n")
    v1 = repo.commit("v1")
    for n in range(0, 120, 2):
        repo.write(f"pkg/m{n}.py", f"def f{n}(x):\n    raise ValueError(f'v2 failure {n} {{x}}')\n")
    v2 = repo.commit("v2")
    script = Path(sys.executable).parent / "errdex"

    def run(db: Path, sha: str, kill_after: float | None = None) -> None:
        command = [str(script), "--db", str(db), "mine", "--sha", sha, "--jobs", "1",
                   str(repo.root)]
        if kill_after is None:
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            return
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(kill_after)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()

    reference = tmp_path / "reference.sqlite"
    run(reference, v1)
    run(reference, v2)
    expected = _comparable(reference)
    rng = random.Random(20261130)
    for attempt in range(4):
        db = tmp_path / f"killed{attempt}.sqlite"
        run(db, v1)
        run(db, v2, kill_after=rng.uniform(0.05, 1.5))
        run(db, v2)
        assert _comparable(db) == expected, f"kill attempt {attempt}"


def test_incremental_mine_reads_constants_from_unchanged_files_with_any_name(make_repo, store):
    """An incremental mine asks git grep for constants of files it does not read; their
    names come back NUL-separated, so a name git would quote (non-ASCII, a quote, a
    newline) is still read."""
    repo = make_repo()
    names = ["src/ünïcode.rs", 'src/say "hi".rs', "src/new\nline.rs"]
    for n, name in enumerate(names):
        repo.write(name, f'pub const MSG{n}: &str = "message number {n}";\n')
    calls = "".join(f'    if x == {n} {{ panic!("{{}}", MSG{n}); }}\n' for n in range(3))
    repo.write("src/lib.rs", f"pub fn go(x: u8) {{\n{calls}}}\n")
    repo.commit()
    errdex.mine(repo.root, db=store)
    repo.write("src/lib.rs", "\n" + f"pub fn go(x: u8) {{\n{calls}}}\n")
    repo.commit("move go down")
    summary = errdex.mine(repo.root, db=store)
    assert summary.incremental and summary.files_mined == 1
    current = sorted(s.record.error_message for s in store.records() if s.removed is None)
    assert current == ["message number 0", "message number 1", "message number 2"]
