"""A C++ ``char`` appended to a message prints one character; at the end of the message,
after a space, it may be a tab or a control character, which a pasted line loses with the
space before it: both patterns are checked against what g++'s build prints."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.compose_steps import fullmatches, line_with, mine_once, missing
from tests.conftest import GitRepo

ESCAPES_CPP = """\
#include <iostream>
#include <stdexcept>
#include <string>

class escape_error : public std::runtime_error {
  public:
    explicit escape_error(const std::string& m) : std::runtime_error("cfg: " + m) {}
};

void unescape(const std::string& s) {
    char c = s[1];
    if (c != 'n') {
        throw escape_error(std::string("unknown escape: ") + c);  // @escape
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


def test_a_char_at_the_end_of_a_message_is_one_character_that_a_paste_may_lose(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/escapes.cpp": ESCAPES_CPP})
    line = line_with(ESCAPES_CPP, "// @escape")
    [found] = [r for r in records if r.record.line_number == line]
    assert found.record.error_class == "escape_error"
    pattern = found.record.message_pattern
    assert "cfg: unknown escape:" in found.record.error_message
    pasted = ["cfg: unknown escape: q", "cfg: unknown escape:"]  # a tab, stripped with the space
    assert all(fullmatches(found, p) for p in pasted), pattern
    assert not fullmatches(found, "cfg: unknown escape: qq"), pattern  # one character only
    if missing("g++"):
        return
    subprocess.run(["g++", "-o", "escapes", "src/escapes.cpp"], cwd=root, check=True,
                   capture_output=True)
    for given, shown in (("\\q", "q"), ("\\\t", "\t")):
        done = subprocess.run(["./escapes", given], cwd=root, capture_output=True, text=True,
                              check=True)
        printed = done.stderr.removesuffix("\n")
        assert printed == f"cfg: unknown escape: {shown}"
        assert fullmatches(found, printed), (printed, pattern)
        assert fullmatches(found, printed.rstrip()), (printed, pattern)  # as pasted
