"""A C++ exception given a format and the arguments it formats (printf style or ``{}``
style): the record's pattern is the formatted text, whatever the class does with it;
checked against what g++'s build prints."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import fullmatches, line_with, mine_once, missing
from tests.conftest import GitRepo

FORMATS_CPP = """\
#include <cstdarg>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

class format_error : public std::exception {
  public:
    format_error(const char* fmt, ...) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf_, sizeof buf_, fmt, ap);
        va_end(ap);
    }
    const char* what() const noexcept override { return buf_; }
  private:
    char buf_[256];
};

namespace ext {
std::string fill(std::string f, const std::string* given, int n) {
    for (int i = 0; i < n; ++i) {
        f.replace(f.find("{}"), 2, given[i]);
    }
    return f;
}
std::string str(int v) { return std::to_string(v); }
std::string str(const char* v) { return v; }
class Error : public std::runtime_error {
  public:
    template <class... A>
    Error(int code, const std::string& f, A... a)
        : std::runtime_error(fill(f, std::initializer_list<std::string>{str(a)...}.begin(),
                                  sizeof...(a))), code_(code) {}
  private:
    int code_;
};
}  // namespace ext

void check(int v, const char* name) {
    if (v < 0) throw format_error("value %d out of range for %s", v, name);  // @printf
    if (v > 90) throw ext::Error(7, "cannot parse {} in {}", v, name);  // @braces
    if (v > 50) throw format_error("100%% of %s used", name);  // @percent
    if (v == 5) throw format_error("plain words here");  // @plain
}

int main(int argc, char** argv) {
    try {
        check(argc > 1 ? std::stoi(argv[1]) : -3, "width");
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
    }
    return 0;
}
"""


@pytest.fixture
def mined(make_repo: Callable[..., GitRepo], tmp_path: Path
          ) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_once(make_repo, tmp_path, {"src/formats.cpp": FORMATS_CPP})


def _one(records: list[errdex.StoredRecord], marker: str) -> errdex.StoredRecord:
    line = line_with(FORMATS_CPP, f"// @{marker}")
    [found] = [r for r in records if r.record.line_number == line]
    return found


def test_a_format_thrown_with_its_arguments_is_read_as_the_text_they_make(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    root, records = mined
    printf, braces = _one(records, "printf"), _one(records, "braces")
    percent, plain = _one(records, "percent"), _one(records, "plain")
    assert fullmatches(printf, "value -3 out of range for width")
    assert not fullmatches(printf, "value abc out of range for width")  # %d: a number
    assert fullmatches(braces, "cannot parse 93 in width")  # its class says no more
    assert fullmatches(percent, "100% of width used")
    assert plain.record.message_pattern == "plain words here"
    if missing("g++"):
        return
    subprocess.run(["g++", "-o", "formats", "src/formats.cpp"], cwd=root, check=True,
                   capture_output=True)
    for given, record in (("-3", printf), ("93", braces), ("60", percent), ("5", plain)):
        done = subprocess.run(["./formats", given], cwd=root, capture_output=True, text=True,
                              check=True)
        printed = done.stderr.removesuffix("\n")
        assert fullmatches(record, printed), (printed, record.record.message_pattern)
