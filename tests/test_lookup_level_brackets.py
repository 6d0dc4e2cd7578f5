"""A C program's log line with its level in brackets and the errno its reporter appends
(``app: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)``, as nginx prints
them), pasted under the command that printed it: the line is read without the bracketed
level and without the appended group, and finds the statement (before: nothing at all,
since a paste's single lines were read only as their wrapped parts)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import line_with, mine_once, missing
from tests.conftest import GitRepo

APP_C = """\
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *levels[] = {"emerg", "error", "warn"};

static void print_level(int level) {
    fputs("app: [", stderr);
    fputs(levels[level], stderr);
    fputs("] ", stderr);
}

void log_error(int level, int err, const char *fmt, ...) {
    va_list args;
    print_level(level);
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    if (err) {
        fprintf(stderr, " (%d: %s)", err, strerror(err));
    }
    fprintf(stderr, "\\n");
}

int listen_on(const char *addr) {
    log_error(0, EADDRINUSE, "bind() to %s failed", addr);  /* @bind */
    return -1;
}

int main(int argc, char **argv) {
    return listen_on(argc > 1 ? argv[1] : "0.0.0.0:80") ? 1 : 0;
}
"""

PRINTED = "app: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)"


def _paste(printed: str) -> str:
    return f"`service app restart`\nRestarting app: {printed}\n{printed}\n"


def test_a_bracketed_level_and_an_appended_errno_are_read_off_a_pasted_line(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, _ = mine_once(make_repo, tmp_path, {"src/app.c": APP_C})
    found = errdex.resolve(_paste(PRINTED), db=tmp_path / "once.sqlite")
    assert [(m.record.file_path, m.record.line_number) for m in found.matches[:1]] == [
        ("src/app.c", line_with(APP_C, "/* @bind */"))]
    assert "bind() to 0.0.0.0:80 failed" in found.matches[0].reason
    if missing("gcc"):
        return
    subprocess.run(["gcc", "-o", "app", "src/app.c"], cwd=root, check=True,
                   capture_output=True)
    done = subprocess.run(["./app"], cwd=root, capture_output=True, text=True)
    printed = done.stderr.removesuffix("\n")  # the errno's text is the C library's own
    assert printed.startswith("app: [emerg] bind() to 0.0.0.0:80 failed (98: ")
    rerun = errdex.resolve(_paste(printed), db=tmp_path / "once.sqlite")
    assert [m.record.line_number for m in rerun.matches[:1]] == [
        line_with(APP_C, "/* @bind */")]


def test_a_bracketed_word_that_is_no_level_is_not_read_off() -> None:
    from errdex.lookup.parse import ErrorEvent
    from errdex.lookup.variants import _variants

    def readings(message: str) -> list[str]:
        return _variants(ErrorEvent(message, None, "message", (), message))

    assert "bind() to 0.0.0.0:80 failed" in readings("[emerg] bind() to 0.0.0.0:80 failed")
    assert "disk full on /var" in readings("[ERROR] disk full on /var")
    assert readings("[main] disk full on /var") == ["[main] disk full on /var"]
