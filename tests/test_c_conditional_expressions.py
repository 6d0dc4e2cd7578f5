"""A conditional directive inside an expression (``if (path == NULL`` / ``#if
defined(_WIN32)`` / ``&& wpath == NULL`` / ``#endif`` / ``) {``, as libarchive writes them):
tree-sitter reads directives between statements only, so the condition is a parse error,
and with a few more the whole function can be one, none of its error sites read (17 in
libarchive's ``archive_write_set_format_gnutar.c``). Now the expression reads as its first
branch (``c.conditionals``), on the lines where it was, and a call of the file's own
``static`` reporter still reaches it (its file scope is the file's, not the rewritten
text's). Checked against what gcc's build prints."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from errdex.languages.base import parse
from errdex.languages.c.conditionals import unconditioned
from tests.compose_steps import fullmatches, line_with, mine_once, missing, one_record_at
from tests.conftest import GitRepo

TAR_C = """\
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
set_error(const char *fmt, ...)
{
\tva_list ap;

\tfprintf(stderr, "tar: ");
\tva_start(ap, fmt);
\tvfprintf(stderr, fmt, ap);
\tva_end(ap);
\tfprintf(stderr, "\\n");
}

static int
write_header(const char *path, const char *wpath, size_t size)
{
\tif (path == NULL
#if defined(_WIN32) && !defined(__CYGWIN__)
\t    && wpath == NULL
#endif
\t    ) {
\t\tset_error("Can't record entry in tar file without pathname");  /* @path */
\t\treturn -1;
\t}
\tif (size > (
#if defined(LARGE_ENTRIES)
\t    (size_t)1 << 40
#else
\t    (size_t)8589934591
#endif
\t    )) {
\t\tset_error("File size %zu too large for ustar", size);  /* @size */
\t\treturn -1;
\t}
\treturn 0;
}

int
main(int argc, char **argv)
{
\treturn write_header(argv[1][0] == '-' ? NULL : argv[1], NULL,
\t    (size_t)strtoull(argv[2], NULL, 10)) == 0 ? 0 : 1;
}
"""


def test_an_expression_with_a_conditional_directive_is_read(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"tar/write.c": TAR_C})
    path = one_record_at(records, "tar/write.c", line_with(TAR_C, "/* @path */"))
    size = one_record_at(records, "tar/write.c", line_with(TAR_C, "/* @size */"))
    assert path.record.error_message == "tar: Can't record entry in tar file without pathname"
    assert size.record.error_message == "tar: File size %zu too large for ustar"
    if missing("gcc"):
        return
    subprocess.run(["gcc", "-o", "app", "tar/write.c"], cwd=root, check=True,
                   capture_output=True)
    printed = []
    for args in (["-", "12"], ["a.txt", "99999999999"]):
        done = subprocess.run(["./app", *args], cwd=root, capture_output=True, text=True)
        printed.append(done.stderr.removesuffix("\n"))
    assert printed == ["tar: Can't record entry in tar file without pathname",
                       "tar: File size 99999999999 too large for ustar"]
    assert fullmatches(path, printed[0]), path.record.message_pattern
    assert fullmatches(size, printed[1]), size.record.message_pattern


def test_the_rewritten_text_parses_on_the_same_lines() -> None:
    read = unconditioned(TAR_C.encode())
    assert read is not None and len(read) == len(TAR_C.encode())
    assert read.count(b"\n") == TAR_C.count("\n")
    assert parse("c", TAR_C.encode()).root_node.has_error
    assert not parse("c", read).root_node.has_error
    assert b"&& wpath == NULL" in read and b"(size_t)1 << 40" in read  # the first branches
    assert b"8589934591" not in read and b"#endif" not in read
    assert unconditioned(b"#if A\nint f(void) { return (1); }\n#endif\n") is None


def test_cpp_reads_such_an_expression_alike(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    _, records = mine_once(make_repo, tmp_path, {"tar/write.cc": TAR_C})
    size = one_record_at(records, "tar/write.cc", line_with(TAR_C, "/* @size */"))
    assert size.record.error_message == "tar: File size %zu too large for ustar"
