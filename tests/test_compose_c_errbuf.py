"""C messages written into an error buffer for the caller to print (``snprintf(err, len,
"…", …); return -1;``): a record where the text is written, its pattern checked against
what the gcc build prints through its caller."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import fullmatches, line_with, mine_once, missing
from tests.conftest import GitRepo

WIDGETS_C = """\
#include <stdio.h>
#include <string.h>

#define ERR_LEN 256

struct ctx { char errstr[ERR_LEN]; };

static int open_widget(const char *path, char *err, size_t errlen) {
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open widget file '%s'", path);  // @open
        return -1;
    }
    fclose(f);
    return 0;
}

static int check_name(struct ctx *c, const char *name) {
    if (strlen(name) > 8) {
        strcpy(c->errstr, "widget name longer than eight characters");  // @name
        return -1;
    }
    return 0;
}

int main(int argc, char **argv) {
    char err[ERR_LEN];
    char label[64];
    struct ctx c;
    snprintf(label, sizeof label, "widget %s of many", argv[0]);  // @label
    if (argc > 2 && check_name(&c, argv[2]) < 0) {
        fprintf(stderr, "widgets: %s\\n", c.errstr);
        return 1;
    }
    if (open_widget(argc > 1 ? argv[1] : "/nonexistent/w", err, sizeof err) < 0) {
        fprintf(stderr, "widgets: %s\\n", err);
        return 1;
    }
    return 0;
}
"""


def _at(records: list[errdex.StoredRecord], marker: str) -> list[errdex.StoredRecord]:
    line = line_with(WIDGETS_C, f"// @{marker}")
    return [r for r in records if r.record.line_number == line]


def test_a_message_written_into_an_error_buffer_is_a_record_where_it_is_written(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/widgets.c": WIDGETS_C})
    [opened] = _at(records, "open")
    [named] = _at(records, "name")
    assert opened.record.error_message == "cannot open widget file '%s'"
    assert named.record.error_message == "widget name longer than eight characters"
    assert _at(records, "label") == []  # a buffer that holds no error
    if missing("gcc"):
        return
    subprocess.run(["gcc", "-o", "widgets", "src/widgets.c"], cwd=root, check=True,
                   capture_output=True)
    for given, record in ((["/nonexistent/w"], opened), (["/", "overlong-name"], named)):
        done = subprocess.run(["./widgets", *given], cwd=root, capture_output=True, text=True,
                              check=False)
        printed = done.stderr.removesuffix("\n").removeprefix("widgets: ")
        assert fullmatches(record, printed), (printed, record.record.message_pattern)
