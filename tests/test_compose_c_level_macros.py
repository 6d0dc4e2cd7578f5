"""C reporter macros gated on a verbosity level, and reporters built on them, checked
against what gcc's build prints:

* ``#define SAY_AT(l, ...) { if (g_verbosity >= l) { SAY(__VA_ARGS__); } }``: the ``if``
  reads the level the caller hands, not a failure of the macro, and ``__VA_ARGS__`` is
  the format (before: no reporter, each call of it no record);
* ``#define QUIT(code, ...) { SAY_AT(1, "tool: "); …; exit(code); }``: a bare block is the
  macro's whole body, its ``exit`` what it reports, not an error path of its own; a
  macro named for throwing is a reporter like any other (before: its calls were no
  candidates at all);
* a format with a precision taken from the arguments (``%.*f``) is a float of any
  precision (before: the file it was in was skipped, an extractor error).
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from errdex.templates.formats import parse_printf
from errdex.templates.template import Hole
from tests.compose_steps import fullmatches, line_with, mine_once, missing, records_at
from tests.conftest import GitRepo

SHOW_H = """\
#include <stdio.h>
#include <stdlib.h>

extern int g_verbosity;

#define SAY(...)         fprintf(stderr, __VA_ARGS__)
#define SAY_AT(l, ...)   { if (g_verbosity >= l) { SAY(__VA_ARGS__); } }
#define QUIT_WITH(code, ...)                \\
{                                           \\
    SAY_AT(1, "tool: ");                    \\
    SAY_AT(1, "error %i : ", code);         \\
    SAY_AT(1, __VA_ARGS__);                 \\
    SAY_AT(1, "\\n");                        \\
    exit(code);                             \\
}
"""

TOOL_C = """\
#include <string.h>
#include "show.h"

int g_verbosity = 2;

static double ratio(int a, int b) { return (double)a / b; }

int main(int argc, char **argv) {
    if (strcmp(argv[1], "level") == 0) {
        SAY_AT(1, "cannot read dictionary %s: ratio %.*f too low\\n",  // @level
               argv[2], 2, ratio(1, 3));
        return 0;
    }
    if (strcmp(argv[1], "quiet") == 0) {
        SAY_AT(3, "loading %s\\n", argv[2]);  // @quiet
        return 0;
    }
    QUIT_WITH(31, "Stat failed on dictionary file %s", argv[2]);  // @quit
    return 0;
}
"""


def test_a_level_gated_macro_and_a_macro_built_on_it_are_reporters(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/show.h": SHOW_H, "src/tool.c": TOOL_C})
    [level] = records_at(records, "src/tool.c", line_with(TOOL_C, "// @level"))
    [quiet] = records_at(records, "src/tool.c", line_with(TOOL_C, "// @quiet"))
    [quit] = records_at(records, "src/tool.c", line_with(TOOL_C, "// @quit"))
    assert level.record.error_message == "cannot read dictionary %s: ratio %.*f too low"
    assert quiet.record.error_message == "loading %s"
    assert quit.record.error_message == (
        "tool: error 31 : Stat failed on dictionary file %s")
    if missing("gcc"):
        return
    subprocess.run(["gcc", "-Isrc", "-o", "tool", "src/tool.c"], cwd=root, check=True,
                   capture_output=True)
    printed = {}
    for mode in ("level", "quit"):
        done = subprocess.run(["./tool", mode, "dict.bin"], cwd=root, capture_output=True,
                              text=True, check=False)
        printed[mode] = done.stderr.removesuffix("\n")
    assert printed == {"level": "cannot read dictionary dict.bin: ratio 0.33 too low",
                       "quit": "tool: error 31 : Stat failed on dictionary file dict.bin"}
    assert fullmatches(level, printed["level"]), level.record.message_pattern
    assert fullmatches(quit, printed["quit"]), quit.record.message_pattern


def test_a_precision_from_the_arguments_is_a_float_of_any_precision() -> None:
    [_, hole, _] = parse_printf("ratio %.*f too low", ["2", "value"])
    assert isinstance(hole, Hole) and hole.name == "value"
    for shown in ("0.33", "1", "12.5000"):
        assert re.fullmatch(hole.regex, shown), shown


NOT_REPORTERS_H = """\
#include <stdio.h>

#define SAY(...) fprintf(stderr, __VA_ARGS__)
#define LOG_AT(src, kind, level, ...)                  \\
    {                                                  \\
        Logger &logger_ = Logger::Get(src);            \\
        if (logger_.Ready(kind, level)) {              \\
            logger_.Write(kind, level, __VA_ARGS__);   \\
        }                                              \\
    }
#define LOG_KIND(src, KIND, ...) LOG_AT(src, KIND::NAME, KIND::LEVEL, KIND::Make(__VA_ARGS__))

static int put(char *buf, const char *text) { return buf == text; }

static void advertise(char *buf, const char *name, int version) {
    if (version > 2 || put(buf, name) != 0) {
        SAY("cannot advertise %s\\n", name);
    }
}
"""


def test_a_function_failing_on_its_parameters_and_a_macro_of_others_holes_are_no_reporters(
) -> None:
    """Only a macro's comparison of a level is the caller's choice: a function's condition
    on its own parameters is its failure; a macro printing nothing but other values' holes
    (``{KIND::LEVEL}``) reports nothing of its callers'."""
    from errdex.languages.base import parse
    from errdex.languages.c.compose import reporters

    found = {p.name for p in reporters(parse("cpp", NOT_REPORTERS_H.encode()).root_node,
                                       "src/log.h", "cpp")}
    assert "SAY" in found
    assert not found & {"advertise", "LOG_KIND"}
