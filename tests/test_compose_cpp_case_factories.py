"""C++ errors made by a static factory of their class named for its case
(``BindError::ColumnNotFound(name, hint)``) and kept to be thrown later, their text formatted
by the project's own ``Format`` function: the place each is made is a site printing the
factory's text (before: no record, only the literal as a text site); checked against what
g++'s build prints."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.compose_steps import fullmatches, line_with, mine_once, missing
from tests.conftest import GitRepo

ERRORS_H = """\
#pragma once
#include <cstdarg>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace text {
inline std::string Format(const char* fmt, ...) {
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}
}  // namespace text

class BindError : public std::runtime_error {
  public:
    explicit BindError(const std::string& msg) : std::runtime_error(msg) {}
    static BindError ColumnNotFound(const std::string& name, const std::string& hint);
    static BindError Ambiguous(int count);
};
"""

ERRORS_CPP = """\
#include "errors.h"

BindError BindError::ColumnNotFound(const std::string& name, const std::string& hint) {
    if (hint.empty()) {
        return BindError(text::Format("column \\"%s\\" needs a FROM clause", name.c_str()));
    }
    return BindError(text::Format("column \\"%s\\" not found!%s", name.c_str(), hint.c_str()));
}

BindError BindError::Ambiguous(int count) {
    return BindError(text::Format("reference is ambiguous between %d tables", count));
}
"""

BINDER_CPP = """\
#include <iostream>
#include <memory>

#include "errors.h"

struct Binder {
    std::unique_ptr<BindError> error;
    bool Bind(const std::string& column) {
        error.reset(new BindError(BindError::ColumnNotFound(column, " Did you mean b?")));  // @made
        return false;
    }
    bool Join(int tables) {
        BindError found = BindError::Ambiguous(tables);  // @kept
        error.reset(new BindError(found));
        return false;
    }
};

int main(int argc, char** argv) {
    Binder b;
    if (!b.Bind(argc > 1 ? argv[1] : "a")) {
        std::cerr << b.error->what() << std::endl;
    }
    return 0;
}
"""


def test_an_error_a_case_factory_makes_and_keeps_is_a_site(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {
        "src/errors.h": ERRORS_H, "src/errors.cpp": ERRORS_CPP, "src/binder.cpp": BINDER_CPP})
    at: dict[int, list[str]] = {}
    for r in records:
        if r.record.file_path == "src/binder.cpp":
            at.setdefault(r.record.line_number, []).append(r.record.error_message)
    made = at[line_with(BINDER_CPP, "// @made")]
    assert sorted(made) == ['column "%s" needs a FROM clause', 'column "%s" not found!%s']
    assert at[line_with(BINDER_CPP, "// @kept")] == ["reference is ambiguous between %d tables"]
    [kept] = [r for r in records if r.record.file_path == "src/binder.cpp"
              and "ambiguous" in r.record.error_message]
    assert fullmatches(kept, "reference is ambiguous between 3 tables")
    [found] = [r for r in records if r.record.file_path == "src/binder.cpp"
               and "not found!" in r.record.error_message]
    assert found.record.error_class == "BindError"
    if missing("g++"):
        return
    subprocess.run(["g++", "-Isrc", "-o", "binder", "src/binder.cpp", "src/errors.cpp"],
                   cwd=root, check=True, capture_output=True)
    done = subprocess.run(["./binder", "qty"], cwd=root, capture_output=True, text=True,
                          check=True)
    printed = done.stderr.removesuffix("\n")
    assert printed == 'column "qty" not found! Did you mean b?'
    assert fullmatches(found, printed), found.record.message_pattern


def test_a_static_method_of_an_error_class_that_makes_no_error_is_no_site(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    quiet = BINDER_CPP.replace("BindError::Ambiguous(tables)", "BindError::Count(tables)")
    header = ERRORS_H.replace("static BindError Ambiguous(int count);",
                              "static int Count(int n) { return n + 1; }")
    _, records = mine_once(make_repo, tmp_path, {
        "src/errors.h": header, "src/errors.cpp": ERRORS_CPP.split("BindError BindError::Amb")[0],
        "src/binder.cpp": quiet})
    lines = {r.record.line_number for r in records if r.record.file_path == "src/binder.cpp"}
    assert line_with(quiet, "// @kept") not in lines


ELSEWHERE_CPP = """\
#include <vendor/errors.h>

#include "errors.h"

vendor::Error MissingTable(const std::string& table, const std::string& hint) {
    return vendor::Error(vendor::Info("MISSING"), text::Format("table %s does not exist!%s",
                                                               table.c_str(), hint.c_str()));
}

void Lookup(const std::string& name) {
    throw MissingTable(name, "");  // @lookup
}
"""


def test_a_class_from_elsewhere_prints_its_first_worded_argument(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    _, records = mine_once(make_repo, tmp_path, {"src/errors.h": ERRORS_H,
                                                 "src/lookup.cpp": ELSEWHERE_CPP})
    [lookup] = [r for r in records if r.record.file_path == "src/lookup.cpp"
                and r.record.line_number == line_with(ELSEWHERE_CPP, "// @lookup")]
    assert lookup.record.error_message == "table %s does not exist!%s"
    assert fullmatches(lookup, "table orders does not exist! Did you mean order?")


MISSING_CPP = """\
#include <iostream>

#include "errors.h"

BindError Missing(const std::string& table, const std::string& suggestion) {
    std::string did_you_mean;
    if (!suggestion.empty()) {
        did_you_mean = "\\nDid you mean \\"" + suggestion + "\\"?";
    }
    return BindError(text::Format("Table with name %s does not exist!%s", table.c_str(),
                                  did_you_mean.c_str()));
}

int main(int argc, char** argv) {
    try {
        throw Missing(argc > 1 ? argv[1] : "orders", argc > 2 ? argv[2] : "");  // @missing
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
    }
    return 0;
}
"""


def test_a_local_declared_empty_and_set_under_a_condition_may_print_nothing(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/errors.h": ERRORS_H,
                                                    "src/missing.cpp": MISSING_CPP})
    [missing_table] = [r for r in records if r.record.file_path == "src/missing.cpp"
                       and r.record.line_number == line_with(MISSING_CPP, "// @missing")]
    assert fullmatches(missing_table, 'Table with name orders does not exist!')
    assert fullmatches(missing_table,
                       'Table with name orders does not exist!\nDid you mean "order"?')
    if missing("g++"):
        return
    subprocess.run(["g++", "-Isrc", "-o", "missing", "src/missing.cpp"], cwd=root, check=True,
                   capture_output=True)
    for given, printed in ((["items"], "Table with name items does not exist!"),
                           (["items", "item"], 'Table with name items does not exist!\n'
                                               'Did you mean "item"?')):
        done = subprocess.run(["./missing", *given], cwd=root, capture_output=True, text=True,
                              check=True)
        assert done.stderr.removesuffix("\n") == printed
        assert fullmatches(missing_table, printed), missing_table.record.message_pattern
