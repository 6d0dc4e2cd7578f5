"""glog's ``CHECK`` macros are records worded as a failed check prints (``Check failed:
cond msg``, ``CHECK_EQ``'s ``(a vs. b)``, ``PCHECK``'s errno text); the fixture is built
with glog when it is here, and what it prints must find its check."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import any_fullmatch, line_with, messages, mine_once, records_at
from tests.conftest import GitRepo

ROWS_CC = """\
#include <glog/logging.h>
#include <cstdlib>

void f(int n, int* p) {
  if (n == 1) CHECK(n > 0  &&  p) << "need a positive row count";
  if (n == 2) CHECK_EQ(n, 3) << "rows must be three";
  if (n == 3) CHECK(p != nullptr);
  if (n == 4) PCHECK(n != 4) << "cannot write rows";
  if (n == 5) CHECK(n < 0) << "row " << n << " is past the end";
  if (n == 6) CHECK(p);
}

int main(int argc, char** argv) {
  google::InitGoogleLogging(argv[0]);
  f(std::atoi(argv[1]), nullptr);
}
"""

# What glog 0.6 printed for ``./rows 1`` … ``./rows 5``.
PRINTED = [
    "F20261202 00:24:06.051617 18942 rows.cc:5] Check failed: n > 0 && p need a positive "
    "row count",
    "F20261202 00:24:06.095247 18945 rows.cc:6] Check failed: n == 3 (2 vs. 3) rows must be "
    "three",
    "F20261202 00:24:06.108098 18947 rows.cc:7] Check failed: p != nullptr ",
    "F20261202 00:24:06.157963 18951 rows.cc:8] Check failed: n != 4 cannot write rows: "
    "Success [0]",
    "F20261202 00:24:06.201099 18958 rows.cc:9] Check failed: n < 0 row 5 is past the end",
]


def _run(root: Path) -> list[str] | None:
    """The first ``Check failed`` line of each run, when glog and g++ are here."""
    if not shutil.which("g++") or not Path("/usr/include/glog/logging.h").exists():
        return None
    built = subprocess.run(["g++", "-o", "rows", "src/rows.cc", "-lglog"], cwd=root,
                           capture_output=True, check=False)
    if built.returncode != 0:
        return None
    out = []
    for which in range(1, 6):
        done = subprocess.run(["./rows", str(which)], cwd=root, capture_output=True, text=True)
        out.append(next(line for line in done.stderr.splitlines() if "Check failed" in line))
    return out


def test_a_failed_check_finds_its_statement(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/rows.cc": ROWS_CC})
    lines = [line_with(ROWS_CC, f"n == {which}) ") for which in range(1, 7)]
    assert messages(records_at(records, "src/rows.cc", lines[0])) == [
        "Check failed: n > 0 && p need a positive row count"]
    assert {r.record.error_type for r in records_at(records, "src/rows.cc", lines[1])} == {
        "panic"}
    assert not records_at(records, "src/rows.cc", lines[5])  # ``CHECK(p)`` says nothing
    printed = _run(root) or PRINTED
    db = tmp_path / "once.sqlite"
    for line, paste in zip(lines, printed, strict=False):
        message = paste.split("] ", 1)[1]
        assert any_fullmatch(records_at(records, "src/rows.cc", line), message.rstrip()), paste
        top = errdex.resolve(f"{paste}\n*** Check failure stack trace: ***\n", db=db).matches[0]
        assert top.record.line_number == line, paste
