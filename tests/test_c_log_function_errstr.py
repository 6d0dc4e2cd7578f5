"""A logging function that hands its dispatcher an error's text beside the format
(libevent's ``event_warn(fmt, ...)`` does ``event_logv_(LOG_WARN, strerror(errno), fmt,
ap)``, and the dispatcher appends ``: <text>``) prints it after the message; one taking
arguments before its format (``event_sock_err(int eval, int sock, const char *fmt, ...)``)
is handed its caller's format, not the caller's first argument (its record read ``1``).
Fixture written here, its output checked with gcc."""

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

LOG_C = """\
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOOL_LOG_WARN 2
#define TOOL_LOG_ERR 3

static void tool_logv(int severity, const char *errstr, const char *fmt, va_list ap) {
  char buf[512];
  size_t len;
  (void)severity;
  vsnprintf(buf, sizeof(buf), fmt, ap);
  if (errstr) {
    len = strlen(buf);
    snprintf(buf + len, sizeof(buf) - len, ": %s", errstr);
  }
  fprintf(stderr, "%s\\n", buf);
}

void tool_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tool_logv(TOOL_LOG_WARN, strerror(errno), fmt, ap);
  va_end(ap);
}

void tool_warnx(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tool_logv(TOOL_LOG_WARN, NULL, fmt, ap);
  va_end(ap);
}

void tool_sock_err(int eval, int sock, const char *fmt, ...) {
  va_list ap;
  int err = sock < 0 ? EINVAL : errno;
  va_start(ap, fmt);
  tool_logv(TOOL_LOG_ERR, strerror(err), fmt, ap);
  va_end(ap);
  exit(eval);
}
"""

MAIN_C = """\
#include <errno.h>

void tool_warn(const char *fmt, ...);
void tool_warnx(const char *fmt, ...);
void tool_sock_err(int eval, int sock, const char *fmt, ...);

static int wait_events(int fd) {
  errno = ENOSYS;
  if (fd < 0)
    tool_warnx("%s: no descriptor given", __func__);  // @plain
  tool_warn("epoll_wait");  // @errno
  return -1;
}

static int make_pair(void) {
  tool_sock_err(1, -1, "%s: socketpair", __func__);  // @sock
  return -1;
}

int main(void) {
  wait_events(-1);
  make_pair();
  return 0;
}
"""


def test_a_logging_function_handing_an_error_text_prints_it_after_the_message(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    files = {"src/log.c": LOG_C, "src/main.c": MAIN_C}
    root, records = mine_once(make_repo, tmp_path, files)
    plain = records_at(records, "src/main.c", line_with(MAIN_C, "// @plain"))
    assert messages(plain) == ["%s: no descriptor given"]
    with_text = records_at(records, "src/main.c", line_with(MAIN_C, "// @errno"))
    assert messages(with_text) == ["epoll_wait: %s"]
    socket = records_at(records, "src/main.c", line_with(MAIN_C, "// @sock"))
    assert messages(socket) == ["%s: socketpair: %s"]
    printed = ["wait_events: no descriptor given", "epoll_wait: Function not implemented",
               "make_pair: socketpair: Invalid argument"]
    if not missing("gcc"):
        [run] = native_runs(root, ["gcc", "-o", "tool", "src/main.c", "src/log.c"], [()])
        printed = run.splitlines()[:3]
    assert any_fullmatch(plain, printed[0])
    assert any_fullmatch(with_text, printed[1])
    assert any_fullmatch(socket, printed[2])
    assert not any_fullmatch(with_text, "epoll_wait")
    top = errdex.resolve(f"[warn] {printed[1]}", db=tmp_path / "once.sqlite").matches[0]
    assert (top.record.file_path, top.record.line_number) == (
        "src/main.c", line_with(MAIN_C, "// @errno"))
