"""A ``char`` appended after a constant written in another file (``std::string(Msg::X) +
c``): once the constant is spelled out, the message ends in one character after a space,
which a pasted line may lose with the space (as ``test_compose_cpp_chars`` for a literal)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.compose_steps import fullmatches, line_with, mine_once, missing
from tests.conftest import GitRepo

MESSAGES_H = """\
#pragma once

namespace Msg {
const char* const UNKNOWN_ESCAPE = "unknown escape character:";
const char* const BAD_ESCAPE = "bad escape sequence: ";
}  // namespace Msg
"""

SCAN_CPP = """\
#include <iostream>
#include <stdexcept>
#include <string>

#include "msg.h"

void unescape(const std::string& s) {
    char c = s[1];
    if (c == 'x') {
        throw std::runtime_error(std::string(Msg::BAD_ESCAPE) + c);  // @bad
    }
    if (c != 'n') {
        throw std::runtime_error(std::string(Msg::UNKNOWN_ESCAPE) + " " + c);  // @unknown
    }
}

int main(int argc, char** argv) {
    try {
        unescape(argc > 1 ? argv[1] : "\\\\q");
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
    }
    return 0;
}
"""


def test_a_char_after_a_constant_from_another_file_may_be_lost_with_its_space(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/msg.h": MESSAGES_H,
                                                    "src/scan.cpp": SCAN_CPP})
    found = {}
    for mark in ("// @bad", "// @unknown"):
        line = line_with(SCAN_CPP, mark)
        [found[mark]] = [r for r in records if r.record.file_path == "src/scan.cpp"
                         and r.record.line_number == line]
    bad, unknown = found["// @bad"], found["// @unknown"]
    assert bad.record.error_message.startswith("bad escape sequence: ")
    assert unknown.record.error_message.startswith("unknown escape character: ")
    for record, text in ((bad, "bad escape sequence:"), (unknown, "unknown escape character:")):
        pattern = record.record.message_pattern
        assert fullmatches(record, f"{text} q"), pattern
        assert fullmatches(record, text), pattern  # a tab, stripped from the line with its space
        assert not fullmatches(record, f"{text} qq"), pattern  # one character only
    if missing("g++"):
        return
    subprocess.run(["g++", "-Isrc", "-o", "scan", "src/scan.cpp"], cwd=root, check=True,
                   capture_output=True)
    for given, record in (("\\x", bad), ("\\\t", unknown), ("\\q", unknown)):
        done = subprocess.run(["./scan", given], cwd=root, capture_output=True, text=True,
                              check=True)
        printed = done.stderr.removesuffix("\n")
        assert fullmatches(record, printed), (printed, record.record.message_pattern)
        assert fullmatches(record, printed.rstrip()), (printed, record.record.message_pattern)
