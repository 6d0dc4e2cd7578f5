"""``<inttypes.h>`` conversions in a format read by C++'s grammar (a ``.cc`` file, or a C
header, which is parsed as C++): tree-sitter's C++ grammar does not join ``PRIu64`` to the
strings around it. Between two strings (``"file %" PRIu64 " is gone"``) the macro is an
``ERROR`` inside the ``concatenated_string``; after the last one (``"size: %" PRIu64)``) it
is an ``ERROR`` beside the string in the argument list. Before: no record for either (the
text was unread); now the macro is its conversion, as C's grammar reads it. Checked against
what g++'s build prints."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.compose_steps import fullmatches, line_with, mine_once, missing, one_record_at
from tests.conftest import GitRepo

BLOBS_H = """\
#pragma once
#include <cinttypes>
#include <cstdint>
#include <cstdio>

inline void report_size(uint64_t number, uint64_t size) {
    std::fprintf(stderr, "Incomplete blob file %" PRIu64 ", size: %" PRIu64 "\\n",  // @tail
                 number, size);
}
"""

MAIN_CC = """\
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "blobs.h"

static void missing_file(uint64_t number, const char* why) {
    std::fprintf(stderr, "Unable to load table properties for file %" PRIu64  // @middle
                 " at level %d: %s\\n", number, 3, why);
}

int main(int argc, char** argv) {
    uint64_t number = std::strtoull(argv[1], nullptr, 10);
    if (argc > 2) {
        missing_file(number, argv[2]);
    } else {
        report_size(number, 4096);
    }
    return 0;
}
"""


def test_a_pri_macro_in_a_cpp_format_is_its_conversion(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"include/blobs.h": BLOBS_H,
                                                    "src/main.cc": MAIN_CC})
    middle = one_record_at(records, "src/main.cc", line_with(MAIN_CC, "// @middle"))
    tail = one_record_at(records, "include/blobs.h", line_with(BLOBS_H, "// @tail"))
    assert (middle.record.error_type, middle.record.error_message) == (
        "log", "Unable to load table properties for file %{PRIu64} at level %d: %s")
    assert (tail.record.error_type, tail.record.error_message) == (
        "log", "Incomplete blob file %{PRIu64}, size: %{PRIu64}")
    if missing("g++"):
        return
    subprocess.run(["g++", "-Iinclude", "-o", "app", "src/main.cc"], cwd=root, check=True,
                   capture_output=True)
    printed = {}
    for args in (["17", "no such file"], ["18"]):
        done = subprocess.run(["./app", *args], cwd=root, capture_output=True, text=True,
                              check=True)
        printed[len(args)] = done.stderr.removesuffix("\n")
    assert printed == {2: "Unable to load table properties for file 17 at level 3: no such file",
                       1: "Incomplete blob file 18, size: 4096"}
    assert fullmatches(middle, printed[2]), middle.record.message_pattern
    assert fullmatches(tail, printed[1]), tail.record.message_pattern
