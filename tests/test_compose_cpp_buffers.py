"""A C++ throw of a buffer the function formatted first (``snprintf(buf, n, "bad %d", v);
throw std::runtime_error(buf);``) is a record of that format; its pattern is checked
against what g++'s build prints. Fixtures written here."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.compose_steps import fullmatches, line_with, mine_once, missing, one_record_at
from tests.conftest import GitRepo

BUFFERS_CPP = """\
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

namespace shelf {
void place(int slot, const char* label) {
    char why[128];
    if (slot < 0) {
        std::snprintf(why, sizeof why, "slot %d is below the first shelf", slot);
        throw std::out_of_range(why);
    }
    char buf[160];
    sprintf(buf, "label '%s' does not fit slot %d", label, slot);
    throw std::length_error(buf);
}
}  // namespace shelf

int main(int argc, char** argv) {
    try {
        shelf::place(std::atoi(argv[1]), "winter coats");
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
    }
    return 0;
}
"""


def test_a_thrown_buffer_is_the_format_written_into_it(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/shelf.cpp": BUFFERS_CPP})
    below = one_record_at(records, "src/shelf.cpp", line_with(BUFFERS_CPP, "out_of_range(why"))
    assert (below.record.error_class, below.record.error_message) == (
        "std::out_of_range", "slot %d is below the first shelf")
    label = one_record_at(records, "src/shelf.cpp", line_with(BUFFERS_CPP, "length_error(buf"))
    assert label.record.error_message == "label '%s' does not fit slot %d"
    assert not fullmatches(below, "slot x is below the first shelf")  # %d: a number
    if missing("g++"):
        return
    subprocess.run(["g++", "-o", "shelf", "src/shelf.cpp"], cwd=root, check=True,
                   capture_output=True)
    for given, record in (("-2", below), ("7", label)):
        done = subprocess.run(["./shelf", given], cwd=root, capture_output=True, text=True,
                              check=True)
        printed = done.stderr.removesuffix("\n")
        assert fullmatches(record, printed), (printed, record.record.message_pattern)
