"""An error table written as an X-macro (``#define NET_ERRNO_MAP(XX) XX(EPIPE, "broken
pipe") …``) gives each entry a record at its line, its code the entry's name; a table not
named for errors (colours) gives none. The fixture is built with gcc and its output
looked up."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import line_with, messages, mine_once, missing, records_at
from tests.conftest import GitRepo

NET_H = """\
#ifndef NET_H
#define NET_H

#define NET_ERRNO_MAP(XX)                                  \\
  XX(EPIPE, "broken pipe on the peer's side")              \\
  XX(ECONNREFUSED, "connection refused")                   \\
  XX(ETIMEDOUT, "operation timed out")                     \\
  XX(EOF, "eof")

#define COLOR_MAP(X)                                       \\
  X(RED, "dark red tone")                                  \\
  X(BLUE, "light blue tone")

typedef enum {
#define XX(code, _) NET_##code,
  NET_ERRNO_MAP(XX)
#undef XX
} net_errno;

const char *net_strerror(int err);

#endif
"""

NET_C = """\
#include <stdio.h>
#include <stdlib.h>
#include "net.h"

#define NET_STRERROR_GEN(name, msg) case NET_##name: return msg;
const char *net_strerror(int err) {
  switch (err) {
    NET_ERRNO_MAP(NET_STRERROR_GEN)
  }
  return "unknown error";
}
#undef NET_STRERROR_GEN

int main(int argc, char **argv) {
  fprintf(stderr, "net_listen: %s\\n", net_strerror(argc > 1 ? atoi(argv[1]) : 1));
  return 1;
}
"""


def test_an_x_macro_error_table_gives_each_entry_a_record(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/net.h": NET_H, "src/net.c": NET_C})
    refused = records_at(records, "src/net.h", line_with(NET_H, "ECONNREFUSED"))
    assert messages(refused) == ["connection refused"]
    assert {(r.record.error_type, r.record.error_code) for r in refused} == {
        ("error", "ECONNREFUSED")}
    assert messages(records_at(records, "src/net.h", line_with(NET_H, "EPIPE"))) == [
        "broken pipe on the peer's side"]
    assert not records_at(records, "src/net.h", line_with(NET_H, "EOF,"))  # two words at least
    assert not records_at(records, "src/net.h", line_with(NET_H, "RED,"))  # not an error table
    printed = "net_listen: connection refused"
    if not missing("gcc"):
        subprocess.run(["gcc", "-o", "net", "src/net.c"], cwd=root, check=True,
                       capture_output=True)
        printed = subprocess.run(["./net"], cwd=root, capture_output=True,
                                 text=True).stderr.strip()
    top = errdex.resolve(printed, db=tmp_path / "once.sqlite").matches[0]
    assert (top.record.file_path, top.record.line_number) == (
        "src/net.h", line_with(NET_H, "ECONNREFUSED")), printed
