"""A C++ project's error macros given their message as arguments to join, a ``<<`` chain
or a format, and a logging macro given texts to join: one record each, its pattern checked
against what g++'s build prints."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import fullmatches, line_with, mine_once, missing
from tests.conftest import GitRepo

MACROS_CPP = """\
#include <cstdio>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace lib {
class ValueError : public std::runtime_error {
  public:
    explicit ValueError(const std::string& m) : std::runtime_error(m) {}
};

template <class... A>
std::string joined(const A&... a) {
    std::ostringstream os;
    (os << ... << a);
    return os.str();
}
}  // namespace lib

#define LIB_THROW(type, msg) \\
    do { std::ostringstream os_; os_ << msg; throw type(os_.str()); } while (0)
#define LIB_CHECK(cond, ...) \\
    do { if (!(cond)) throw std::runtime_error(lib::joined(__VA_ARGS__)); } while (0)
#define LIB_ERROR(fmt, ...) \\
    do { char b_[256]; snprintf(b_, sizeof b_, fmt, __VA_ARGS__); \\
         throw std::runtime_error(b_); } while (0)
#define LIB_LOG_ERROR(...) std::cerr << lib::joined(__VA_ARGS__) << std::endl

void run(int n, const std::string& name) {
    LIB_CHECK(n >= 0, "expected a count of at least 0, got ", n, " for ", name);  // @check
    if (n > 100) {
        LIB_THROW(lib::ValueError, "value " << n << " too large for " << name);  // @stream
    }
    if (n == 42) {
        LIB_ERROR("reserved value %d for %s", n, name.c_str());  // @format
    }
    if (n == 7) {
        LIB_LOG_ERROR("lucky number ", n, " seen for ", name);  // @log
    }
}

int main(int argc, char** argv) {
    try {
        run(argc > 1 ? std::stoi(argv[1]) : -1, "widgets");
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
    }
    return 0;
}
"""


def _at(records: list[errdex.StoredRecord], marker: str) -> list[errdex.StoredRecord]:
    line = line_with(MACROS_CPP, f"// @{marker}")
    return [r for r in records if r.record.line_number == line]


def test_an_error_macro_given_its_message_prints_it(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/macros.cpp": MACROS_CPP})
    [check] = _at(records, "check")
    [stream] = _at(records, "stream")
    [formatted] = _at(records, "format")
    assert check.record.error_message == "expected a count of at least 0, got {n} for {name}"
    assert stream.record.error_class is not None and stream.record.error_class.endswith(
        "ValueError")
    assert fullmatches(stream, "value 101 too large for widgets")
    assert fullmatches(formatted, "reserved value 42 for widgets")
    assert not fullmatches(formatted, "reserved value x for widgets")  # %d: a number
    [log] = _at(records, "log")  # a logging macro: its arguments joined, not the first
    assert log.record.error_type != "exception"
    assert log.record.error_message == "lucky number {n} seen for {name}"
    assert check.record.error_class is None  # what the macro throws is not read here
    if missing("g++"):
        return
    subprocess.run(["g++", "-std=c++17", "-o", "macros", "src/macros.cpp"], cwd=root,
                   check=True, capture_output=True)
    for given, record in (("-1", check), ("101", stream), ("42", formatted), ("7", log)):
        done = subprocess.run(["./macros", given], cwd=root, capture_output=True, text=True,
                              check=True)
        printed = done.stderr.removesuffix("\n")
        assert fullmatches(record, printed), (printed, record.record.message_pattern)
