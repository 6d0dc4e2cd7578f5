"""No orphans: what errdex starts ends when errdex is killed with SIGKILL.

Each command runs in its own session; once its workers (and their git children) are
seen in /proc, the errdex process alone is killed, and /proc is polled, a bounded
number of times, until no process of that session is left. Linux only (/proc and
PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

import errdex
from errdex.repo import processes
from tests.conftest import GitRepo

pytestmark = pytest.mark.skipif(
    not processes.supported() or not Path("/proc/self/stat").exists(),
    reason="needs Linux: /proc and PR_SET_PDEATHSIG",
)

ERRDEX = str(Path(sys.executable).parent / "errdex")
POLLS = 400  # tries, POLL_S apart, for a process to appear or to go
POLL_S = 0.05


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    name: str
    cmdline: str


def session(sid: int) -> list[Proc]:
    """Live processes (zombies are dead) of session ``sid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as stat:
                head, _, rest = stat.read().rpartition(")")
            fields = rest.split()
            with open(f"/proc/{entry}/cmdline", "rb") as raw:
                cmdline = raw.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:  # gone meanwhile
            continue
        state, ppid, session_id = fields[0], int(fields[1]), int(fields[3])
        if session_id == sid and state != "Z":
            found.append(Proc(int(entry), ppid, head.partition("(")[2], cmdline))
    return found


def started(command: list[str], ready: Callable[[int, list[Proc]], bool],
            **popen: object) -> subprocess.Popen[bytes]:
    """Start ``command`` in a new session and wait until ``ready(pid, members)`` holds."""
    proc = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, **popen)  # type: ignore[call-overload]
    for _ in range(POLLS):
        if ready(proc.pid, session(proc.pid)):
            return proc  # type: ignore[no-any-return]
        if proc.poll() is not None:
            break
        time.sleep(POLL_S)
    members = session(proc.pid)
    _kill_session(proc)
    pytest.fail(f"the processes to kill never all ran (exit {proc.returncode}): {members}")


def assert_nothing_survives(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL ``proc`` alone, then wait for its session to empty (bounded polls)."""
    before = session(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    left = session(proc.pid)
    for _ in range(POLLS):
        if not left:
            return
        time.sleep(POLL_S)
        left = session(proc.pid)
    _kill_session(proc)
    pytest.fail(f"orphans left after SIGKILL: {left} (before: {before})")


def _kill_session(proc: subprocess.Popen[bytes]) -> None:
    for member in session(proc.pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(member.pid, signal.SIGKILL)
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def children(members: list[Proc], pid: int) -> list[Proc]:
    return [m for m in members if m.ppid == pid]


def _git_readers(members: list[Proc], parents: list[Proc]) -> list[Proc]:
    pids = {p.pid for p in parents}
    return [m for m in members if m.ppid in pids and "cat-file" in m.cmdline]


def big_repo(make_repo: Callable[..., GitRepo], files: int = 300,
             remote: str = "https://github.com/acme/widgets.git") -> GitRepo:
    """Enough files for worker processes and a mine that lasts while they are looked at."""
    repo = make_repo(remote)
    for n in range(files):
        body = "".join(
            f"def f{n}_{k}(x):\n    if x > {k}:\n"
            f"        raise ValueError(f'value {n} {k} too big: {{x}}')\n    return x\n\n"
            for k in range(20)
        )
        repo.write(f"pkg{n % 10}/m{n}.py", body)
    repo.commit("many files")
    return repo


def test_killed_mine_leaves_no_worker_and_no_git(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = big_repo(make_repo)

    def ready(pid: int, members: list[Proc]) -> bool:
        workers = children(members, pid)
        return len(workers) >= 2 and len(_git_readers(members, workers)) >= 2

    proc = started([ERRDEX, "--db", str(tmp_path / "e.sqlite"), "mine", "--jobs", "2",
                    str(repo.root)], ready)
    assert_nothing_survives(proc)


def test_killed_mine_many_leaves_no_worker_fork_server_or_git(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    first = big_repo(make_repo, remote="https://github.com/acme/one.git")
    second = big_repo(make_repo, remote="https://github.com/acme/two.git")
    listing = tmp_path / "list.txt"
    listing.write_text(f"{first.root}\n{second.root}\n")

    def ready(pid: int, members: list[Proc]) -> bool:
        below = [m for m in members if m.pid != pid]  # fork server, workers, tracker, git
        return len(_git_readers(members, below)) >= 2

    proc = started([ERRDEX, "--db", str(tmp_path / "e.sqlite"), "mine-many", "--jobs", "2",
                    "--cache", str(tmp_path / "cache"), str(listing)], ready)
    assert_nothing_survives(proc)


def test_killed_scan_leaves_no_worker(make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = make_repo()
    repo.commit_files({"a.py": "def f(x):\n    raise ValueError(f'bad thing {x}')\n"})
    db = tmp_path / "e.sqlite"
    errdex.mine(repo.root, db=db)
    log = tmp_path / "big.log"
    with log.open("w") as out:
        for n in range(60_000):  # ~2.5 MB: ten chunks for two workers
            out.write(f"2026-01-01T00:00:{n % 60:02d} ERROR ValueError: bad thing {n}\n")

    def ready(pid: int, members: list[Proc]) -> bool:
        return len(children(members, pid)) >= 2

    proc = started([ERRDEX, "--db", str(db), "scan", "--jobs", "2", str(log)], ready)
    assert_nothing_survives(proc)


def test_a_git_child_dies_with_its_parent_even_when_its_input_stays_open(
    make_repo: Callable[..., GitRepo],
) -> None:
    """cat-file would wait forever on a stdin someone else holds: only the signal ends it."""
    repo = make_repo()
    repo.commit_files({"a.py": "x = 1\n"})
    script = ("import sys; from errdex.repo.git import run_git; "
              "run_git(['cat-file', '--batch'], sys.argv[1])")

    def ready(pid: int, members: list[Proc]) -> bool:
        return any("cat-file" in m.cmdline for m in children(members, pid))

    proc = started([sys.executable, "-c", script, str(repo.root)], ready, stdin=subprocess.PIPE)
    try:
        assert_nothing_survives(proc)
    finally:
        assert proc.stdin is not None
        proc.stdin.close()


def test_a_worker_whose_owner_is_gone_leaves_at_once() -> None:
    """The check after arming the signal: an owner that is not an ancestor (it died before
    the signal was set) ends the worker instead of leaving it waiting."""
    script = ("import sys; from errdex.repo.processes import die_with_parent; "
              "die_with_parent(int(sys.argv[1])); print('alive')")
    gone = subprocess.run([sys.executable, "-c", script, "999999999"], capture_output=True,
                          text=True, check=False)
    assert (gone.returncode, gone.stdout) == (1, "")
    kept = subprocess.run([sys.executable, "-c", script, str(os.getpid())],
                          capture_output=True, text=True, check=False)
    assert (kept.returncode, kept.stdout) == (0, "alive\n")
