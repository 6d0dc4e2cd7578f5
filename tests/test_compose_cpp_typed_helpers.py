"""C++ function templates in messages, checked against what g++'s build prints:

* a function named for throwing and templated on the class it throws (``template <typename
  T> void throw_or_mimic(const std::string& text) { throw T{text}; }``, called
  ``throw_or_mimic<no_such_option>(name)``): each call is a site of the class its template
  argument names, printing that class's message with the call's arguments (before: no
  record at all, the class unread at the call);
* a string function template handed to a throw (``throw ConversionException(
  CastExceptionText<SRC, DST>(input))``): its returns are the message (before: one hole).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import fullmatches, line_with, mine_once, missing, native_runs, records_at
from tests.conftest import GitRepo

OPTIONS_HPP = """\
#pragma once
#include <exception>
#include <iostream>
#include <string>
#include <utility>

namespace opts {
const std::string LQUOTE("'");
const std::string RQUOTE("'");

namespace exceptions {
class exception : public std::exception {
  public:
    explicit exception(std::string message) : m_message(std::move(message)) {}
    const char* what() const noexcept override { return m_message.c_str(); }
  private:
    std::string m_message;
};

class parsing : public exception {
  public:
    explicit parsing(const std::string& message) : exception(message) {}
};

class no_such_option : public parsing {
  public:
    explicit no_such_option(const std::string& option)
        : parsing("Option " + LQUOTE + option + RQUOTE + " does not exist") {}
};

class missing_argument : public parsing {
  public:
    explicit missing_argument(const std::string& option)
        : parsing("Option " + LQUOTE + option + RQUOTE + " is missing an argument") {}
};
}  // namespace exceptions

template <typename T>
void throw_or_mimic(const std::string& text) {
#ifndef OPTS_NO_EXCEPTIONS
    throw T{text};
#else
    T exception{text};
    std::cerr << exception.what() << std::endl;
    std::exit(1);
#endif
}

inline void parse(const std::string& name, bool known, bool given) {
    if (!known) {
        throw_or_mimic<exceptions::no_such_option>(name);  // @unknown
    }
    if (!given) {
        throw_or_mimic<exceptions::missing_argument>(name);  // @missing
    }
}
}  // namespace opts
"""

MAIN_CPP = """\
#include <cstring>
#include <iostream>

#include "options.hpp"

int main(int argc, char** argv) {
    try {
        opts::parse(argv[1], std::strcmp(argv[2], "known") == 0, argc > 3);
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
    }
    return 0;
}
"""


def test_each_call_of_a_helper_templated_on_its_error_is_a_site_of_that_class(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"include/options.hpp": OPTIONS_HPP,
                                                    "src/main.cpp": MAIN_CPP})
    [unknown] = records_at(records, "include/options.hpp",
                           line_with(OPTIONS_HPP, "// @unknown"))
    [needs] = records_at(records, "include/options.hpp", line_with(OPTIONS_HPP, "// @missing"))
    assert (unknown.record.error_class, unknown.record.error_message) == (
        "no_such_option", "Option {LQUOTE}{name}{RQUOTE} does not exist")
    assert (needs.record.error_class, needs.record.error_message) == (
        "missing_argument", "Option {LQUOTE}{name}{RQUOTE} is missing an argument")
    if missing("g++"):
        return
    runs = (["--color", "unknown"], ["--color", "known"])
    printed = {args[1]: out for args, out in zip(
        runs, native_runs(root, ["g++", "-Iinclude", "-o", "app", "src/main.cpp"], runs),
        strict=True)}
    assert printed == {"unknown": "Option '--color' does not exist",
                       "known": "Option '--color' is missing an argument"}
    assert fullmatches(unknown, printed["unknown"]), unknown.record.message_pattern
    assert fullmatches(needs, printed["known"]), needs.record.message_pattern


def test_a_pasted_message_of_such_a_class_finds_the_call_that_throws_it(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    mine_once(make_repo, tmp_path, {"include/options.hpp": OPTIONS_HPP,
                                    "src/main.cpp": MAIN_CPP})
    paste = ("terminate called after throwing an instance of "
             "'opts::exceptions::missing_argument'\n"
             "  what():  Option '--color' is missing an argument\nAborted (core dumped)")
    found = errdex.resolve(paste, db=tmp_path / "once.sqlite")
    assert [(m.record.file_path, m.record.line_number) for m in found.matches[:1]] == [
        ("include/options.hpp", line_with(OPTIONS_HPP, "// @missing"))]


CAST_HPP = """\
#pragma once
#include <stdexcept>
#include <string>
#include <type_traits>

template <class T> std::string TypeName();
template <> inline std::string TypeName<long>() { return "INT64"; }
template <> inline std::string TypeName<std::string>() { return "VARCHAR"; }

template <class T> std::string Show(T input) { return std::to_string(input); }
template <> inline std::string Show<std::string>(std::string input) { return input; }

class ConversionException : public std::runtime_error {
  public:
    explicit ConversionException(const std::string &msg)
        : std::runtime_error("Conversion Error: " + msg) {}
};

template <class SRC, class DST>
static std::string CastExceptionText(SRC input) {
    if (std::is_same<SRC, std::string>()) {
        return "Could not convert string '" + Show<SRC>(input) + "' to " + TypeName<DST>();
    }
    return "Type " + TypeName<SRC>() + " with value " + Show<SRC>(input) +
           " can't be cast to the destination type " + TypeName<DST>();
}

template <class SRC, class DST>
DST Cast(SRC input) {
    throw ConversionException(CastExceptionText<SRC, DST>(input));  // @cast
}
"""

CAST_MAIN = """\
#include <iostream>

#include "cast.hpp"

int main() {
    try {
        Cast<std::string, long>(std::string("xx"));
    } catch (const std::exception &e) {
        std::cerr << e.what() << std::endl;
    }
    return 0;
}
"""


def test_a_string_function_template_handed_to_a_throw_is_its_message(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"include/cast.hpp": CAST_HPP,
                                                    "src/main.cpp": CAST_MAIN})
    found = records_at(records, "include/cast.hpp", line_with(CAST_HPP, "// @cast"))
    assert sorted(r.record.error_message for r in found) == [
        "Conversion Error: Could not convert string '{Show<SRC>(input)}' to "
        "{TypeName<DST>()}",
        "Conversion Error: Type {TypeName<SRC>()} with value {Show<SRC>(input)} can't be cast "
        "to the destination type {TypeName<DST>()}"]
    assert {r.record.error_class for r in found} == {"ConversionException"}
    if missing("g++"):
        return
    subprocess.run(["g++", "-Iinclude", "-o", "app", "src/main.cpp"], cwd=root, check=True,
                   capture_output=True)
    done = subprocess.run(["./app"], cwd=root, capture_output=True, text=True, check=True)
    printed = done.stderr.removesuffix("\n")
    assert printed == "Conversion Error: Could not convert string 'xx' to INT64"
    assert any(fullmatches(r, printed) for r in found)
