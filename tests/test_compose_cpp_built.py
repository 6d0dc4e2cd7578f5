"""C++ messages a function builds before it throws them: a string stream's text, a local
appended to (in branches: one record each); patterns checked against what g++'s build
prints."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import fullmatches, line_with, messages, mine_once, missing
from tests.conftest import GitRepo

BUILT_CPP = """\
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

class file_error : public std::runtime_error {
  public:
    explicit file_error(const std::string& m) : std::runtime_error("files: " + m) {}
};

void check(int v, const std::string& path) {
    if (v < 0) {
        std::ostringstream oss;
        oss << "value " << v << " out of range for " << path;
        throw std::runtime_error(oss.str());  // @stream
    }
    std::string msg = "cannot open " + path;
    if (v == 1) {
        msg += ": no such file";
    } else {
        msg.append(": permission denied");
    }
    throw file_error(msg);  // @branches
}

int main(int argc, char** argv) {
    try {
        check(argc > 1 ? std::stoi(argv[1]) : -1, "/tmp/w");
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
    }
    return 0;
}
"""


def _at(records: list[errdex.StoredRecord], marker: str) -> list[errdex.StoredRecord]:
    line = line_with(BUILT_CPP, f"// @{marker}")
    return [r for r in records if r.record.line_number == line]


def test_a_message_built_before_the_throw_is_the_records_message(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/built.cpp": BUILT_CPP})
    [stream] = _at(records, "stream")
    branches = _at(records, "branches")
    assert stream.record.error_message == "value {v} out of range for {path}"
    assert stream.record.error_class == "std::runtime_error"
    assert messages(branches) == ["files: cannot open {path}: no such file",
                                  "files: cannot open {path}: permission denied"]
    assert {r.record.error_class for r in branches} == {"file_error"}
    if missing("g++"):
        return
    subprocess.run(["g++", "-o", "built", "src/built.cpp"], cwd=root, check=True,
                   capture_output=True)
    for given, found in (("-4", [stream]), ("1", branches), ("2", branches)):
        done = subprocess.run(["./built", given], cwd=root, capture_output=True, text=True,
                              check=True)
        printed = done.stderr.removesuffix("\n")
        assert any(fullmatches(r, printed) for r in found), (printed, messages(found))
