"""C++ messages streamed into the error thrown (``throw E() << "text " << v``) and a
formatted buffer wrapped in a string (``throw E(std::string(buf))``) are records of what
they print; the fixture's output checked with g++."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.compose_steps import any_fullmatch, line_with, messages, mine_once, missing, records_at
from tests.conftest import GitRepo

STREAMED_CPP = """\
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

namespace pipe {

class Error : public std::exception {
 public:
  Error& operator<<(const std::string& s) { msg_ += s; return *this; }
  Error& operator<<(int n) { msg_ += std::to_string(n); return *this; }
  Error& operator<<(const struct Tag&) { return *this; }
  const char* what() const noexcept override { return msg_.c_str(); }

 private:
  std::string msg_;
};

struct Tag {};

void drain(int n) {
  if (n > 2) throw Error() << "stream of " << n << " items is closed";
}

void reset(int code) {
  char buf[128];
  snprintf(buf, sizeof buf, "device returned status %d during reset", code);
  throw std::runtime_error(std::string(buf));
}

void tagged() {
  throw Error() << Tag();
}

}  // namespace pipe

int main(int argc, char** argv) {
  try {
    if (argc > 1) pipe::drain(7);
    pipe::reset(-5);
  } catch (const std::exception& e) {
    std::cerr << e.what() << std::endl;
  }
  return 0;
}
"""


def test_a_streamed_throw_and_a_wrapped_buffer_are_records(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/pipe.cpp": STREAMED_CPP})
    streamed = records_at(records, "src/pipe.cpp", line_with(STREAMED_CPP, '"stream of "'))
    assert messages(streamed) == ["stream of {n} items is closed"]
    assert {r.record.error_class for r in streamed} == {"Error"}
    wrapped = records_at(records, "src/pipe.cpp", line_with(STREAMED_CPP, "std::string(buf)"))
    assert messages(wrapped) == ["device returned status %d during reset"]
    # a chain of tags says no words
    assert not records_at(records, "src/pipe.cpp", line_with(STREAMED_CPP, "<< Tag()"))
    printed = ["stream of 7 items is closed", "device returned status -5 during reset"]
    if not missing("g++"):
        subprocess.run(["g++", "-o", "pipe", "src/pipe.cpp"], cwd=root, check=True,
                       capture_output=True)
        printed = [subprocess.run(["./pipe", *given], cwd=root, capture_output=True,
                                  text=True).stderr.strip() for given in (["x"], [])]
    assert any_fullmatch(streamed, printed[0])
    assert any_fullmatch(wrapped, printed[1])
