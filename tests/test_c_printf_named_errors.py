"""A C function whose name is an error word with printf's ``f`` (``failf(handle, fmt, …)``)
reports the text it formats, even when its body only stores it for a trace callback (no
stderr the composition could follow) and the call is spelt through a macro alias
(``#define failf Lib_failf``). Its calls are error sites with their format's text; a
library name macro defined per build (``PKG " read: %s"``) stays a hole in front. A name
without an error word (``notef``) is no site. Fixture written here."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import any_fullmatch, line_with, messages, mine_once, records_at
from tests.conftest import GitRepo

TRACE_H = """\
#ifndef TRACE_H
#define TRACE_H
struct handle;
void Lib_failf(struct handle *h, const char *fmt, ...);
void Lib_notef(struct handle *h, const char *fmt, ...);
#define failf Lib_failf
#define notef Lib_notef
#endif
"""

TRACE_C = """\
#include <stdarg.h>
#include <stdio.h>
#include "trace.h"

struct handle { char buffer[256]; void (*trace)(const char *text); };

void Lib_failf(struct handle *h, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(h->buffer, sizeof(h->buffer), fmt, ap);
  va_end(ap);
  if(h->trace)
    h->trace(h->buffer);
}
"""

READ_C = """\
#include "trace.h"

#if defined(USE_FASTTLS)
#define PKG "FastTLS"
#else
#define PKG "OpenTLS"
#endif

int read_block(struct handle *h, const char *user, int code)
{
  if(code == 1) {
    failf(h, "Disk quota exceeded for %s", user);
    return 1;
  }
  if(code == 2) {
    failf(h, PKG " read: %s, errno %d", user, code);
    return 2;
  }
  notef(h, "Block read for user %s", user);
  return 0;
}
"""


def test_a_printf_named_error_function_reports_its_format(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    files = {"lib/trace.h": TRACE_H, "lib/trace.c": TRACE_C, "lib/read.c": READ_C}
    _, records = mine_once(make_repo, tmp_path, files)
    quota = records_at(records, "lib/read.c", line_with(READ_C, '"Disk quota'))
    assert messages(quota) == ["Disk quota exceeded for %s"]
    assert any_fullmatch(quota, "Disk quota exceeded for alice")
    read = records_at(records, "lib/read.c", line_with(READ_C, '" read: '))
    assert any_fullmatch(read, "OpenTLS read: connection reset, errno 104")
    assert not any_fullmatch(read, "OpenTLS write: connection reset, errno 104")
    assert not records_at(records, "lib/read.c", line_with(READ_C, "notef("))
    top = errdex.resolve("curl: (56) FastTLS read: error:0A000126:unexpected eof, errno 0",
                         db=tmp_path / "once.sqlite").matches[0]
    assert (top.record.file_path, top.record.line_number) == (
        "lib/read.c", line_with(READ_C, '" read: '))
