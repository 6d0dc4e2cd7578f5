"""A C++ error class whose constructor delegates to a sibling constructor written by a
macro (``explicit RequiredError(std::string name) : RequiredError(name + " is required",
ExitCodes::Required) {}``): a throw of it prints the text it delegates with (before: no
record, the sibling unread), and a paste of it with the program's hint under it finds it
(before: the hint's line, a text site); checked against what g++'s build prints."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import fullmatches, line_with, mine_once, missing
from tests.conftest import GitRepo

ERRORS_H = """\
#pragma once
#include <stdexcept>
#include <string>
#include <utility>

enum class ExitCodes { Success = 0, Required = 106 };

#define APP_ERROR_DEF(parent, name) \\
  public: \\
    name(std::string msg, ExitCodes code) : parent(std::move(msg)), code_(code) {}

class ParseError : public std::runtime_error {
  public:
    explicit ParseError(std::string msg) : std::runtime_error(std::move(msg)) {}
};

class RequiredError : public ParseError {
    APP_ERROR_DEF(ParseError, RequiredError)
    explicit RequiredError(std::string name)
        : RequiredError(name + " is required", ExitCodes::Required) {}
  private:
    ExitCodes code_;
};
"""

APP_CPP = """\
#include <iostream>

#include "errors.h"

void hint(std::ostream& out) { out << "Run with --help for more information." << std::endl; }

void check(const std::string& option, bool given) {
    if (!given) {
        throw RequiredError(option);  // @required
    }
}

int main(int argc, char** argv) {
    try {
        check(argc > 1 ? argv[1] : "--file", false);
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
        hint(std::cerr);
    }
    return 0;
}
"""


def test_a_constructor_delegating_to_a_macro_written_sibling_prints_its_text(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/errors.h": ERRORS_H,
                                                    "src/app.cpp": APP_CPP})
    [required] = [r for r in records if r.record.file_path == "src/app.cpp"
                  and r.record.line_number == line_with(APP_CPP, "// @required")]
    assert (required.record.error_class, required.record.error_message) == (
        "RequiredError", "{option} is required")
    if missing("g++"):
        return
    subprocess.run(["g++", "-Isrc", "-o", "app", "src/app.cpp"], cwd=root, check=True,
                   capture_output=True)
    done = subprocess.run(["./app", "--file"], cwd=root, capture_output=True, text=True,
                          check=True)
    printed = done.stderr.removesuffix("\n")
    assert printed == "--file is required\nRun with --help for more information."
    assert fullmatches(required, printed.split("\n")[0]), required.record.message_pattern


def test_a_short_message_matched_whole_holds_against_a_hint_printed_under_it(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    mine_once(make_repo, tmp_path, {"src/errors.h": ERRORS_H, "src/app.cpp": APP_CPP})
    paste = "$ ./app --file\n--file is required\nRun with --help for more information."
    found = errdex.resolve(paste, db=tmp_path / "once.sqlite")
    assert [(m.record.file_path, m.record.line_number) for m in found.matches[:1]] == [
        ("src/app.cpp", line_with(APP_CPP, "// @required"))]
