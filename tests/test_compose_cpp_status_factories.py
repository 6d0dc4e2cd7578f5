"""A status made by a static factory of a class named for it, as LevelDB and RocksDB make
theirs (``Status::Corruption("bad block handle")``, ``Status::InvalidArgument(dbname,
"does not exist")``, ``IOStatus::NotSupported(msg)``), returned, assigned or handed on: an
``error`` record of the message it is given (two joined by ``": "``, as ``ToString()``
prints them after the code's wording). Before: no record (only Abseil's and gRPC's statuses
were read). Checked against what g++'s build of a LevelDB-shaped ``Status`` prints."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import fullmatches, line_with, mine_once, missing, one_record_at
from tests.conftest import GitRepo

STATUS_H = """\
#pragma once
#include <string>

namespace kv {
class Status {
 public:
  Status() = default;
  static Status OK() { return Status(); }
  static Status Corruption(const std::string& msg, const std::string& msg2 = "") {
    return Status("Corruption: ", msg, msg2);
  }
  static Status InvalidArgument(const std::string& msg, const std::string& msg2 = "") {
    return Status("Invalid argument: ", msg, msg2);
  }
  static Status TimedOut(int subcode) { return Status("Operation timed out: ", "", ""); }
  bool ok() const { return text_.empty(); }
  std::string ToString() const { return ok() ? "OK" : text_; }

 private:
  Status(const char* code, const std::string& msg, const std::string& msg2)
      : text_(code + msg + (msg2.empty() ? "" : ": " + msg2)) {}
  std::string text_;
};
}  // namespace kv
"""

DB_CC = """\
#include <cstdio>
#include <string>

#include "status.h"

namespace kv {
enum SubCode { kNone, kLockTimeout };

Status ReadRecord(const std::string& record, Status* reported) {
  if (record.size() < 3) {
    return Status::Corruption("log record too small");  // @small
  }
  if (record == "mid") {
    *reported = Status::Corruption("error in middle of record");  // @middle
  }
  return Status::OK();
}

Status Open(const std::string& dbname, bool exists) {
  if (!exists) {
    return Status::InvalidArgument(dbname, "does not exist (create_if_missing is false)");  // @open
  }
  if (dbname.empty()) return Status::TimedOut(kLockTimeout);  // @subcode
  return Status::OK();
}
}  // namespace kv

int main(int argc, char** argv) {
  kv::Status reported;
  kv::Status s = argc > 2 ? kv::Open(argv[1], false) : kv::ReadRecord(argv[1], &reported);
  std::printf("%s\\n%s\\n", s.ToString().c_str(), reported.ToString().c_str());
  return 0;
}
"""


def _runs(root: Path, *args: str) -> list[str]:
    done = subprocess.run(["./app", *args], cwd=root, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def test_a_status_a_factory_makes_is_a_record_of_its_messages(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"include/status.h": STATUS_H,
                                                    "src/db.cc": DB_CC})
    small = one_record_at(records, "src/db.cc", line_with(DB_CC, "// @small"))
    middle = one_record_at(records, "src/db.cc", line_with(DB_CC, "// @middle"))
    opened = one_record_at(records, "src/db.cc", line_with(DB_CC, "// @open"))
    assert [(r.record.error_type, r.record.error_class, r.record.error_message)
            for r in (small, middle, opened)] == [
        ("error", "Status::Corruption", "log record too small"),
        ("error", "Status::Corruption", "error in middle of record"),
        ("error", "Status::InvalidArgument",
         "{dbname}: does not exist (create_if_missing is false)")]
    assert not [r for r in records if r.record.line_number == line_with(DB_CC, "// @subcode")]
    if missing("g++"):
        return
    subprocess.run(["g++", "-Iinclude", "-o", "app", "src/db.cc"], cwd=root, check=True,
                   capture_output=True)
    assert _runs(root, "ab") == ["Corruption: log record too small", "OK"]
    assert _runs(root, "mid") == ["OK", "Corruption: error in middle of record"]
    assert _runs(root, "/tmp/db", "open") == [
        "Invalid argument: /tmp/db: does not exist (create_if_missing is false)", "OK"]
    assert fullmatches(small, "log record too small")
    assert fullmatches(middle, "error in middle of record")
    assert fullmatches(opened, "/tmp/db: does not exist (create_if_missing is false)")


def test_a_pasted_status_finds_the_factory_call(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    mine_once(make_repo, tmp_path, {"include/status.h": STATUS_H, "src/db.cc": DB_CC})
    paste = ("open failed: Invalid argument: /var/lib/kv: does not exist "
             "(create_if_missing is false)")
    top = errdex.resolve(paste, db=tmp_path / "once.sqlite").matches[0]
    assert (top.record.file_path, top.record.line_number) == (
        "src/db.cc", line_with(DB_CC, "// @open"))
