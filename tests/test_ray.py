"""mine-many on a real local Ray cluster: a worker killed mid-task is retried, and every
repository still reaches the store exactly once."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from errdex.batch.entries import parse_list
from errdex.batch.many import mine_many
from errdex.batch.workers import MineTask
from errdex.store.sqlite import SQLiteStore
from tests.conftest import GitRepo

ray = pytest.importorskip("ray", reason="ray is not installed: pip install 'errdex[ray]'")

# A cluster owned by a child process: it prints the address, serves until its stdin
# closes, then shuts the cluster down (ray.shutdown stops every process it started).
_HEAD = textwrap.dedent("""
    import sys, ray
    ctx = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                   _temp_dir=sys.argv[1])
    print(ctx.address_info["gcs_address"], flush=True)
    sys.stdin.read()
    ray.shutdown()
""")


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    # Ray puts its sockets under the temp dir, and a Unix socket path may hold 107 bytes:
    # pytest's own temp paths grow with each run, so the head gets a short one of its own.
    temp = Path(tempfile.mkdtemp(prefix="ray", dir="/tmp"))
    head = subprocess.Popen(
        [sys.executable, "-c", _HEAD, str(temp)], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, text=True,
        env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"},
    )
    assert head.stdout is not None and head.stdin is not None
    address = head.stdout.readline().strip()
    try:
        assert address, "the Ray head did not start"
        yield address
    finally:
        head.stdin.close()
        try:
            head.wait(timeout=30)
        except subprocess.TimeoutExpired:
            head.kill()
            head.wait()
        shutil.rmtree(temp, ignore_errors=True)


def _crash_once(markers: Path) -> Callable[[MineTask], None]:
    """Kill the Ray worker the first time it runs each repository (pickled by value)."""

    def hook(task: MineTask) -> None:
        marker = markers / task.resolved.repo.replace("/", "_")
        if not marker.exists():
            marker.touch()
            os._exit(1)

    return hook


def test_ray_retried_tasks_write_once(
    ray_address: str, make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repos = []
    for name in ("a", "b", "c"):
        repo = make_repo(f"https://github.com/acme/{name}.git")
        repo.write(f"{name}.py", f'def f():\n    raise ValueError("{name} is broken")\n'
                                 f'\ndef g():\n    raise KeyError("{name} is missing")\n')
        repo.commit()
        repos.append(repo)
    markers = tmp_path / "markers"
    markers.mkdir()
    lines = [str(r.root) for r in repos] + [str(tmp_path / "missing")]
    db = tmp_path / "errdex.sqlite"
    summary = mine_many(parse_list("\n".join(lines)), db, ray_address=ray_address,
                        retries=2, cache_dir=tmp_path / "cache",
                        before_task=_crash_once(markers))
    assert summary.backend == "ray"
    # Every worker was killed once (the task ran twice), yet each repository is counted once.
    assert sorted(p.name for p in markers.iterdir()) == ["acme_a", "acme_b", "acme_c"]
    assert [(o.status, o.records, o.attempts) for o in summary.outcomes[:3]] == [
        ("mined", 2, 1), ("mined", 2, 1), ("mined", 2, 1)]
    assert summary.outcomes[3].status == "failed"
    assert (summary.mined, summary.failed, summary.records) == (3, 1, 6)
    with SQLiteStore(db) as store:
        rows = store.conn.execute("SELECT id, COUNT(*) FROM records GROUP BY id").fetchall()
        assert len(rows) == 6 and all(count == 1 for _, count in rows)
        assert store.conn.execute("SELECT COUNT(*) FROM repos").fetchone()[0] == 3
        generation = store.generation()  # one write per repository, no more

    # A re-run on the cluster skips them all without writing.
    again = mine_many(parse_list("\n".join(lines[:3])), db, ray_address=ray_address,
                      retries=0, cache_dir=tmp_path / "cache")
    assert (again.unchanged, again.mined) == (3, 0)
    with SQLiteStore(db) as store:
        assert store.generation() == generation


def test_ray_crash_beyond_retries_is_a_failure(
    ray_address: str, make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo("https://github.com/acme/doomed.git")
    repo.write("d.py", 'raise SystemExit("never")\n')
    repo.commit()

    def always_crash(task: MineTask) -> None:
        os._exit(1)

    summary = mine_many(parse_list(str(repo.root)), tmp_path / "errdex.sqlite",
                        ray_address=ray_address, retries=0, cache_dir=tmp_path / "cache",
                        before_task=always_crash)
    outcome = summary.outcomes[0]
    assert outcome.status == "failed" and (outcome.reason or "").startswith("ray task failed")
    assert "\n" not in (outcome.reason or "")
