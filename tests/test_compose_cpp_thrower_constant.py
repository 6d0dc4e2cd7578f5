"""A method named for throwing, handed a constant (``ThrowScanError(Msg::INDENT_UNDERFLOW)``):
the call is a site printing the helper's message with the constant spelled out (before: only
the helper's own raise, ``scan: line {m_line}: {msg}``, a template any message matches);
checked against what g++'s build prints."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.compose_steps import fullmatches, line_with, mine_once, missing
from tests.conftest import GitRepo

SCAN_H = """\
#pragma once
#include <stdexcept>
#include <string>

namespace Msg {
const char* const INDENT_UNDERFLOW = "indent stack underflow";
}

class ScanError : public std::runtime_error {
 public:
  ScanError(int line, const std::string& msg)
      : std::runtime_error("scan: line " + std::to_string(line) + ": " + msg) {}
};

class Scanner {
 public:
  explicit Scanner(int line) : m_line(line) {}
  void Pop();

 private:
  void ThrowScanError(const std::string& msg) const;
  int m_line;
};
"""

SCAN_CPP = """\
#include <iostream>

#include "scan.h"

void Scanner::Pop() {
    if (m_line > 0) {
        ThrowScanError(Msg::INDENT_UNDERFLOW);  // @pop
    }
}

void Scanner::ThrowScanError(const std::string& msg) const {
    throw ScanError(m_line, msg);  // @helper
}

int main() {
    try {
        Scanner(7).Pop();
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
    }
    return 0;
}
"""


def test_a_constant_handed_to_a_throwing_method_is_the_calls_message(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/scan.h": SCAN_H,
                                                    "src/scan.cpp": SCAN_CPP})
    at = {r.record.line_number: r for r in records if r.record.file_path == "src/scan.cpp"}
    pop = at[line_with(SCAN_CPP, "// @pop")]
    assert pop.record.error_class == "ScanError"
    assert pop.record.error_message == "scan: line {m_line}: indent stack underflow"
    assert line_with(SCAN_CPP, "// @helper") in at  # the helper's own raise stays
    if missing("g++"):
        return
    subprocess.run(["g++", "-Isrc", "-o", "scan", "src/scan.cpp"], cwd=root, check=True,
                   capture_output=True)
    done = subprocess.run(["./scan"], cwd=root, capture_output=True, text=True, check=True)
    printed = done.stderr.removesuffix("\n")
    assert printed == "scan: line 7: indent stack underflow"
    assert fullmatches(pop, printed), pop.record.message_pattern


def test_a_constant_handed_to_a_function_not_named_for_throwing_is_no_site(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    quiet = SCAN_CPP.replace("ThrowScanError(Msg::INDENT_UNDERFLOW)", "Note(Msg::INDENT_UNDERFLOW)")
    _, records = mine_once(make_repo, tmp_path, {"src/scan.h": SCAN_H, "src/scan.cpp": quiet})
    lines = {r.record.line_number for r in records if r.record.file_path == "src/scan.cpp"}
    assert line_with(quiet, "// @pop") not in lines


IN_CLASS_CPP = """\
#include "scan.h"

class Reader {
 public:
  void Tab() { ThrowReadError(Msg::INDENT_UNDERFLOW); }  // @tab

 private:
  void ThrowReadError(const std::string& msg) const { throw ScanError(m_line, msg); }
  int m_line = 0;
};
"""


def test_a_method_defined_in_its_class_calls_its_throwing_sibling(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    _, records = mine_once(make_repo, tmp_path, {"src/scan.h": SCAN_H,
                                                 "src/read.cpp": IN_CLASS_CPP})
    [tab] = [r for r in records if r.record.file_path == "src/read.cpp"
             and r.record.line_number == line_with(IN_CLASS_CPP, "// @tab")]
    assert tab.record.error_message == "scan: line {m_line}: indent stack underflow"
    assert fullmatches(tab, "scan: line 0: indent stack underflow")


LITERAL_CPP = """\
#include "scan.h"

static void Fail(const char* msg) { throw std::logic_error(msg); }

class Reader {
 public:
  void Tab() { ThrowReadError("unexpected tab"); }  // @tab

 private:
  void ThrowReadError(const std::string& msg) const { throw ScanError(m_line, msg); }
  int m_line = 0;
};

class Writer {
 public:
  void Flush() { Fail("nothing to flush"); }  // @flush
};
"""


def test_a_literal_handed_to_a_throwing_method_of_the_class_gets_its_decoration(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    _, records = mine_once(make_repo, tmp_path, {"src/scan.h": SCAN_H,
                                                 "src/read.cpp": LITERAL_CPP})
    at = {r.record.line_number: r for r in records if r.record.file_path == "src/read.cpp"}
    tab = at[line_with(LITERAL_CPP, "// @tab")]
    assert (tab.record.error_class, tab.record.error_message) == (
        "ScanError", "scan: line {m_line}: unexpected tab")
    # a call to no method of its class reaches the file's own function
    flush = at[line_with(LITERAL_CPP, "// @flush")]
    assert (flush.record.error_class, flush.record.error_message) == (
        "std::logic_error", "nothing to flush")


JOINED_CPP = """\
#include <iostream>

#include "scan.h"

static void fail_with(const std::string& msg) { throw std::runtime_error("reader: " + msg); }

class Reader {
 public:
  void Token(const std::string& tok) {
      if (tok == "x") {
          fail_with("bad token '" + tok + "'");  // @free
      }
      ThrowReadError("unexpected token " + tok);  // @method
  }

 private:
  void ThrowReadError(const std::string& msg) const { throw ScanError(m_line, msg); }
  int m_line = 3;
};

int main(int argc, char** argv) {
    try {
        Reader().Token(argv[1]);
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
    }
    return argc;
}
"""


def test_a_text_joined_with_plus_handed_to_a_throwing_helper_is_its_message(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/scan.h": SCAN_H,
                                                    "src/read.cpp": JOINED_CPP})
    at = {r.record.line_number: r for r in records if r.record.file_path == "src/read.cpp"}
    free, method = at[line_with(JOINED_CPP, "// @free")], at[line_with(JOINED_CPP, "// @method")]
    assert free.record.error_message == "reader: bad token '{tok}'"
    assert (method.record.error_class, method.record.error_message) == (
        "ScanError", "scan: line {m_line}: unexpected token {tok}")
    if missing("g++"):
        return
    subprocess.run(["g++", "-Isrc", "-o", "read", "src/read.cpp"], cwd=root, check=True,
                   capture_output=True)
    for given, record in (("x", free), ("if", method)):
        done = subprocess.run(["./read", given], cwd=root, capture_output=True, text=True)
        printed = done.stderr.removesuffix("\n")
        assert fullmatches(record, printed), (printed, record.record.message_pattern)


STD_CPP = """\
#include <stdexcept>
#include <string>

static void fail_with(const std::string& msg) { throw std::invalid_argument("reader: " + msg); }

void read_token(const std::string& tok) {
    fail_with("bad token " + tok);  // @joined
    fail_with("empty token");  // @literal
}
"""


def test_a_helper_throwing_a_standard_exception_named_for_its_case_composes(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    _, records = mine_once(make_repo, tmp_path, {"src/read.cpp": STD_CPP})
    at = {r.record.line_number: r.record for r in records}
    joined, literal = at[line_with(STD_CPP, "// @joined")], at[line_with(STD_CPP, "// @literal")]
    assert (joined.error_class, joined.error_message) == (
        "std::invalid_argument", "reader: bad token {tok}")
    assert (literal.error_class, literal.error_message) == (
        "std::invalid_argument", "reader: empty token")


SIBLING_CPP = """\
#include <stdexcept>
#include <string>

class Reader {
 public:
  bool Size(long n) {
    if (n < 0) {
      return report(describe("integer value overflow", "size"));  // @size
    }
    return true;
  }

 private:
  bool report(const std::string& msg) { throw std::runtime_error(msg); }
  std::string describe(const std::string& detail, const std::string& context) const {
    std::string error_msg = "syntax error while parsing ";
    return error_msg + context + ": " + detail;
  }
};
"""


def test_texts_handed_to_a_method_of_the_class_bind_one_parameter_each(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    # two literals in a row are two arguments, not one text printed joined
    _, records = mine_once(make_repo, tmp_path, {"src/read.cpp": SIBLING_CPP})
    messages = {r.record.error_message for r in records
                if r.record.line_number == line_with(SIBLING_CPP, "// @size")}
    assert messages == {"syntax error while parsing size: integer value overflow"}
