"""A logging macro that hands its dispatcher an error's text beside the format (OpenSSH's
``error_r(r, …)`` passes ``ssh_err(r)``) prints it after the message as ``: <text>``; its
callers' records end so. Fixture written here, its output checked with gcc."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import (
    any_fullmatch,
    line_with,
    messages,
    mine_once,
    missing,
    native_runs,
    records_at,
)
from tests.conftest import GitRepo

LOG_H = """\
#ifndef LOG_H
#define LOG_H
#include <stddef.h>
#define LOG_LEVEL_ERROR 2
#define LOG_LEVEL_FATAL 1
void tlog(const char *func, int level, const char *suffix, const char *fmt, ...);
const char *tool_err(int r);
#define error(...) tlog(__func__, LOG_LEVEL_ERROR, NULL, __VA_ARGS__)
#define error_r(r, ...) tlog(__func__, LOG_LEVEL_ERROR, tool_err(r), __VA_ARGS__)
#define fatal_r(r, ...) tlog(__func__, LOG_LEVEL_FATAL, tool_err(r), __VA_ARGS__)
#endif
"""

LOG_C = """\
#include <stdarg.h>
#include <stdio.h>
#include "log.h"

const char *tool_err(int r) {
  return r == -2 ? "incomplete message" : "unknown error";
}

void tlog(const char *func, int level, const char *suffix, const char *fmt, ...) {
  char msg[512];
  va_list args;
  va_start(args, fmt);
  vsnprintf(msg, sizeof(msg), fmt, args);
  va_end(args);
  if (suffix != NULL)
    fprintf(stderr, "%s: %s\\n", msg, suffix);
  else
    fprintf(stderr, "%s\\n", msg);
}
"""

MAIN_C = """\
#include "log.h"

static int read_header(int fd) {
  int r = -2;
  if (fd < 0)
    error("bad descriptor %d for the header", fd);
  error_r(r, "cannot parse header of channel %d", fd);
  return r;
}

int main(void) {
  read_header(-1);
  read_header(3);
  return 0;
}
"""


def test_a_macro_handing_an_error_text_prints_it_after_the_message(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    files = {"src/log.h": LOG_H, "src/log.c": LOG_C, "src/main.c": MAIN_C}
    root, records = mine_once(make_repo, tmp_path, files)
    with_text = records_at(records, "src/main.c", line_with(MAIN_C, "error_r("))
    assert messages(with_text) == ["cannot parse header of channel %d: %s"]
    plain = records_at(records, "src/main.c", line_with(MAIN_C, 'error("bad'))
    assert messages(plain) == ["bad descriptor %d for the header"]
    printed = ["bad descriptor -1 for the header",
               "cannot parse header of channel -1: incomplete message"]
    if not missing("gcc"):
        [run] = native_runs(root, ["gcc", "-o", "tool", "src/main.c", "src/log.c"], [()])
        printed = run.splitlines()[:2]
    assert any_fullmatch(plain, printed[0])
    assert any_fullmatch(with_text, printed[1])
    assert not any_fullmatch(with_text, "cannot parse header of channel -1")
    top = errdex.resolve(f"tool: {printed[1]}", db=tmp_path / "once.sqlite").matches[0]
    assert (top.record.file_path, top.record.line_number) == (
        "src/main.c", line_with(MAIN_C, "error_r("))
