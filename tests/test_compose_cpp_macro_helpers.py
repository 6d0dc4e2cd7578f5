"""A C++ throwing helper written with a project's specifier macro before its type and a
throwing macro in its body (``MYLOG_INLINE void throw_log_ex(std::string msg) {
MYLOG_THROW(log_ex(std::move(msg))); }``): each call handing it a text is a site printing
that text, and a paste of it finds the call before the helper's own raise (before: the
header did not parse as a function, no site); checked against what g++'s build prints."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import fullmatches, line_with, mine_once, missing
from tests.conftest import GitRepo

COMMON_H = """\
#pragma once
#include <exception>
#include <string>
#include <utility>

#define MYLOG_INLINE inline
#define MYLOG_THROW(ex) throw(ex)

class log_ex : public std::exception {
  public:
    explicit log_ex(std::string msg) : msg_(std::move(msg)) {}
    const char* what() const noexcept override { return msg_.c_str(); }
  private:
    std::string msg_;
};

MYLOG_INLINE void throw_log_ex(std::string msg) {
    MYLOG_THROW(log_ex(std::move(msg)));  // @helper
}
"""

REGISTRY_CPP = """\
#include <iostream>

#include "common.h"

void add_logger(const std::string& name, bool exists) {
    if (exists) {
        throw_log_ex("logger with name '" + name + "' already exists");  // @add
    }
}

int main(int argc, char** argv) {
    try {
        add_logger(argc > 1 ? argv[1] : "main", true);
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
    }
    return 0;
}
"""


def test_a_text_handed_to_a_macro_declared_thrower_is_the_calls_message(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/common.h": COMMON_H,
                                                    "src/registry.cpp": REGISTRY_CPP})
    [add] = [r for r in records if r.record.file_path == "src/registry.cpp"
             and r.record.line_number == line_with(REGISTRY_CPP, "// @add")]
    assert (add.record.error_class, add.record.error_message) == (
        "log_ex", "logger with name '{name}' already exists")
    paste = "terminate called after throwing an instance of 'log_ex'\n" \
            "  what():  logger with name 'audit' already exists"
    top = errdex.resolve(paste, db=tmp_path / "once.sqlite").matches[0]
    assert (top.record.file_path, top.record.line_number) == (
        "src/registry.cpp", line_with(REGISTRY_CPP, "// @add"))
    if missing("g++"):
        return
    subprocess.run(["g++", "-Isrc", "-o", "registry", "src/registry.cpp"], cwd=root,
                   check=True, capture_output=True)
    done = subprocess.run(["./registry", "audit"], cwd=root, capture_output=True, text=True,
                          check=True)
    printed = done.stderr.removesuffix("\n")
    assert printed == "logger with name 'audit' already exists"
    assert fullmatches(add, printed), add.record.message_pattern
