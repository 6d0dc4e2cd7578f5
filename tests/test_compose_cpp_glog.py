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


JOURNAL_CC = """\
#include <glog/logging.h>
#include <cstdio>

int main(int argc, char** argv) {
  google::InitGoogleLogging(argv[0]);
  FLAGS_logtostderr = 1;
  int n = argc;
  LOG_IF(ERROR, n > 0) << "queue has " << n << " stale entries";
  FILE* f = fopen("/nonexistent/x", "r");
  if (f == nullptr) PLOG(ERROR) << "cannot open the journal";
  for (int i = 0; i < 3; i++) {
    LOG_EVERY_N(WARNING, 2) << "slow consumer " << i;
  }
  DLOG(ERROR) << "debug build only";
  return 0;
}
"""

# What glog 0.6 printed for the program above.
JOURNAL_PRINTED = [
    "E20261202 00:38:55.051795  9249 journal.cc:8] queue has 1 stale entries",
    "E20261202 00:38:55.051898  9249 journal.cc:10] cannot open the journal: No such file or "
    "directory [2]",
    "W20261202 00:38:55.051918  9249 journal.cc:12] slow consumer 0",
    "E20261202 00:38:55.051932  9249 journal.cc:14] debug build only",
]


def test_logs_variants_naming_their_level_log_what_they_stream(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/journal.cc": JOURNAL_CC})
    at = line_with(JOURNAL_CC, "LOG_IF")
    assert messages(records_at(records, "src/journal.cc", at)) == [
        "queue has {n} stale entries"]
    assert {r.record.severity for r in records_at(
        records, "src/journal.cc", line_with(JOURNAL_CC, "LOG_EVERY_N"))} == {"warning"}
    printed = JOURNAL_PRINTED
    if shutil.which("g++") and Path("/usr/include/glog/logging.h").exists():
        built = subprocess.run(["g++", "-o", "journal", "src/journal.cc", "-lglog"], cwd=root,
                               capture_output=True, check=False)
        if built.returncode == 0:
            done = subprocess.run(["./journal"], cwd=root, capture_output=True, text=True)
            lines = done.stderr.splitlines()
            printed = [lines[0], lines[1], lines[2], lines[-1]]
    db = tmp_path / "once.sqlite"
    for needle, paste in zip(("LOG_IF", "PLOG", "LOG_EVERY_N", "DLOG"), printed, strict=True):
        line = line_with(JOURNAL_CC, needle)
        assert any_fullmatch(records_at(records, "src/journal.cc", line),
                             paste.split("] ", 1)[1]), paste
        if paste.startswith("W"):
            continue  # a warning line is no error a paste is read for
        top = errdex.resolve(paste, db=db).matches[0]  # glog 0.6+'s year-long date too
        assert top.record.line_number == line, paste
