"""C++ statements tree-sitter cannot read as written, checked against what g++'s build prints:

* ``TOOL_ASSIGN_OR_RAISE(const int width, Parse(text));``: a declaration handed to an
  assign-or-return macro is no call argument to the grammar; read as written, the statement
  was a parse error that swallowed the rest of the function, and the errors thrown after it
  were no records;
* ``TOOL_LOG(ERROR) << "…"``: a project's own ``LOG`` named by its prefix logs what is
  streamed at the level it names, as glog's ``LOG(ERROR)`` does (before: no record).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from errdex.languages.cpp.assigned import assigned
from tests.compose_steps import fullmatches, line_with, mine_once, missing, records_at
from tests.conftest import GitRepo

WIDTH_CPP = """\
#include <iostream>
#include <stdexcept>
#include <string>

struct Parsed { bool ok; int value; };

#define TOOL_CONCAT_(a, b) a##b
#define TOOL_CONCAT(a, b) TOOL_CONCAT_(a, b)
#define TOOL_ASSIGN_OR_RAISE(lhs, rexpr)                                   \\
    auto TOOL_CONCAT(result_, __LINE__) = (rexpr);                          \\
    if (!TOOL_CONCAT(result_, __LINE__).ok) throw std::runtime_error("bad"); \\
    lhs = TOOL_CONCAT(result_, __LINE__).value;
#define TOOL_LOG(level) std::cerr

static Parsed Parse(const std::string& text) {
    return Parsed{!text.empty(), static_cast<int>(text.size()) * 8};
}

static int Width(const std::string& text, const std::string& table) {
    TOOL_ASSIGN_OR_RAISE(const int width, Parse(text));
    TOOL_ASSIGN_OR_RAISE(const int again,
                         Parse(text + table));
    if (width > 64 && again > 0) {
        throw std::invalid_argument("Invalid bit width: " + std::to_string(width));  // @width
    }
    TOOL_LOG(ERROR) << "Cannot open table " << table << " for reading";  // @log
    return width;
}

int main(int argc, char** argv) {
    try {
        Width(argv[1], argv[2]);
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
    }
    return 0;
}
"""


def test_errors_after_an_assign_or_raise_and_a_prefixed_log_are_sites(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/width.cpp": WIDTH_CPP})
    [width] = records_at(records, "src/width.cpp", line_with(WIDTH_CPP, "// @width"))
    [log] = records_at(records, "src/width.cpp", line_with(WIDTH_CPP, "// @log"))
    assert (width.record.error_class, width.record.error_message) == (
        "std::invalid_argument", "Invalid bit width: {width}")
    assert (log.record.error_type, log.record.error_message) == (
        "log", "Cannot open table {table} for reading")
    if missing("g++"):
        return
    subprocess.run(["g++", "-o", "width", "src/width.cpp"], cwd=root, check=True,
                   capture_output=True)
    printed = {}
    for text in ("abcdefghijk", "ab"):
        done = subprocess.run(["./width", text, "users"], cwd=root, capture_output=True,
                              text=True, check=True)
        printed[text] = done.stderr.removesuffix("\n")
    assert printed == {"abcdefghijk": "Invalid bit width: 88",
                       "ab": "Cannot open table users for reading"}
    assert fullmatches(width, printed["abcdefghijk"]), width.record.message_pattern
    assert fullmatches(log, printed["ab"]), log.record.message_pattern


def test_the_rewriting_keeps_lines_and_bytes_and_leaves_the_macro_definition() -> None:
    read = assigned(WIDTH_CPP.encode())
    assert read is not None and len(read) == len(WIDTH_CPP.encode())
    lines = read.decode().splitlines()
    assert len(lines) == len(WIDTH_CPP.splitlines())
    assert lines[line_with(WIDTH_CPP, "TOOL_ASSIGN_OR_RAISE(const int width") - 1].strip() == (
        "const int width= Parse(text) ;")
    assert "#define TOOL_ASSIGN_OR_RAISE(lhs, rexpr)" in read.decode()
