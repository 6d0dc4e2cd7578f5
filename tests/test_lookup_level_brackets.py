"""A C program's log line with its level in brackets and the errno its reporter appends
(``app: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)``, as nginx prints
them), pasted under the command that printed it: the line is read without the bracketed
level and without the appended group, and finds the statement (before: nothing at all,
since a paste's single lines were read only as their wrapped parts). Read so, a line may
also fullmatch a generic template whose hole takes words a close one spells out: the close
one ranks first."""

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


CONF_C = """\
#include <stdarg.h>
#include <stdio.h>

static const char *conf_file = "/etc/app/app.conf";
static int conf_line = 93;

static void print_where(void) {
    fputs(" in ", stderr);
    fputs(conf_file, stderr);
    fprintf(stderr, ":%d", conf_line);
}

void conf_log_error(const char *fmt, ...) {
    va_list args;
    fputs("app: [emerg] ", stderr);
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    print_where();
    fputs("\\n", stderr);
}

int handle(const char *name, const char *rv, int found) {
    if (rv != NULL) {
        conf_log_error("\\"%s\\" directive %s", name, rv);  /* @generic */
        return -1;
    }
    if (found) {
        conf_log_error("\\"%s\\" directive is not allowed here", name);  /* @here */
        return -1;
    }
    return 0;
}

int main(void) { return handle("location", NULL, 1) ? 1 : 0; }
"""


def test_a_close_template_spelling_out_what_a_generic_ones_hole_took_ranks_first(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, _ = mine_once(make_repo, tmp_path, {"src/conf.c": CONF_C})
    printed = 'app: [emerg] "location" directive is not allowed here in /etc/app/app.conf:93'
    if not missing("gcc"):
        subprocess.run(["gcc", "-o", "conf", "src/conf.c"], cwd=root, check=True,
                       capture_output=True)
        done = subprocess.run(["./conf"], cwd=root, capture_output=True, text=True)
        assert done.stderr.removesuffix("\n") == printed
    found = errdex.resolve(f"$ app -t\n{printed}\napp: configuration test failed\n",
                           db=tmp_path / "once.sqlite")
    assert [m.record.line_number for m in found.matches[:2]] == [
        line_with(CONF_C, "/* @here */"), line_with(CONF_C, "/* @generic */")]
    assert "spells out as its own words" in found.matches[0].reason
