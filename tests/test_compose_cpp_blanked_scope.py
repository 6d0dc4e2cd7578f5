"""A C++ file read with its namespace macros blanked (``MYLIB_NAMESPACE_BEGIN``,
``cpp.compose.blanked``) keeps its own file scope: a call of the file's ``static`` reporter
reaches that reporter (before: the scope was the blanked text's, the reporter's the file's,
and the call had no record). Checked against what g++'s build prints."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.compose_steps import fullmatches, line_with, mine_once, missing, one_record_at
from tests.conftest import GitRepo

CONFIG_H = """\
#pragma once
#define MYLIB_NAMESPACE_BEGIN namespace mylib {
#define MYLIB_NAMESPACE_END }
"""

STORE_CC = """\
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

#include "config.h"

MYLIB_NAMESPACE_BEGIN

static void bail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "mylib: fatal: ");
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    std::exit(1);
}

void open_store(const char *path) {
    if (path[0] == '-') bail("no store path given to the opener (%s)", path);  // @bail
}

MYLIB_NAMESPACE_END

int main(int argc, char **argv) {
    mylib::open_store(argv[1]);
    return 0;
}
"""


def test_a_static_reporter_of_a_blanked_file_is_reached(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/config.h": CONFIG_H,
                                                    "src/store.cc": STORE_CC})
    bail = one_record_at(records, "src/store.cc", line_with(STORE_CC, "// @bail"))
    assert bail.record.error_message == "mylib: fatal: no store path given to the opener (%s)"
    if missing("g++"):
        return
    subprocess.run(["g++", "-o", "app", "src/store.cc"], cwd=root, check=True,
                   capture_output=True)
    done = subprocess.run(["./app", "-x"], cwd=root, capture_output=True, text=True)
    assert done.stderr == "mylib: fatal: no store path given to the opener (-x)"
    assert fullmatches(bail, done.stderr), bail.record.message_pattern
