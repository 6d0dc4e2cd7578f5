"""C++ style guides name constants ``kCamelCase`` (``msg::kNoFile``): a message thrown from
one, alone or joined with ``+``, is the constant's text spelled out (before: no record);
checked against what g++'s build prints."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from errdex.languages.facts import constant_name
from errdex.templates.template import Hole
from tests.compose_steps import fullmatches, line_with, mine_once, missing
from tests.conftest import GitRepo

MSG_H = """\
#pragma once
#include <string>

namespace msg {
const char kNoFile[] = "no such file";
constexpr const char* kEmptyKey = "empty key in section";
static const std::string kBadEscape = "bad escape sequence: ";
}  // namespace msg
"""

LOAD_CPP = """\
#include <iostream>
#include <stdexcept>
#include <string>

#include "msg.h"

void load(const std::string& path, const std::string& section, const std::string& text) {
    if (path.empty()) {
        throw std::runtime_error(msg::kNoFile);  // @nofile
    }
    if (section == "x") {
        throw std::invalid_argument(msg::kEmptyKey + std::string(": ") + section);  // @key
    }
    char c = text[1];
    throw std::runtime_error(std::string(msg::kBadEscape) + c);  // @escape
}

int main(int argc, char** argv) {
    try {
        load(argv[1], argv[2], argv[3]);
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
    }
    return argc;
}
"""


def test_kcamelcase_names_are_constants_and_plain_names_are_not() -> None:
    assert constant_name(Hole.of("msg::kNoFile", "{msg::kNoFile}")) == "kNoFile"
    assert constant_name(Hole.of("kBadEscape", "{kBadEscape}")) == "kBadEscape"
    assert constant_name(Hole.of("key", "{key}")) is None
    assert constant_name(Hole.of("kind", "{kind}")) is None


def test_a_thrown_kconstant_is_spelled_out_alone_and_joined(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/msg.h": MSG_H, "src/load.cpp": LOAD_CPP})
    found = {}
    for mark in ("// @nofile", "// @key", "// @escape"):
        line = line_with(LOAD_CPP, mark)
        [found[mark]] = [r for r in records if r.record.file_path == "src/load.cpp"
                         and r.record.line_number == line]
    assert found["// @nofile"].record.error_message == "no such file"
    assert found["// @key"].record.error_message.startswith("empty key in section: ")
    assert found["// @escape"].record.error_message.startswith("bad escape sequence: ")
    if missing("g++"):
        return
    subprocess.run(["g++", "-Isrc", "-o", "load", "src/load.cpp"], cwd=root, check=True,
                   capture_output=True)
    for given, mark in ((["", "a", "b"], "// @nofile"), (["p", "x", "b"], "// @key"),
                        (["p", "a", "\\q"], "// @escape"), (["p", "a", "\\\t"], "// @escape")):
        done = subprocess.run(["./load", *given], cwd=root, capture_output=True, text=True)
        printed = done.stderr.removesuffix("\n")
        record = found[mark]
        assert fullmatches(record, printed), (printed, record.record.message_pattern)
        assert fullmatches(record, printed.rstrip()), (printed, record.record.message_pattern)
