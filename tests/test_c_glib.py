"""GLib's checks and logging calls are records worded as GLib prints them (checked against
a GLib program built with gcc when GLib's headers are here); fixtures written here."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import any_fullmatch, line_with, messages, mine_once, records_at
from tests.conftest import GitRepo

WIDGET_C = """\
#include <glib.h>

typedef struct { int ref_count; int frozen; void *owner; } Widget;

static void widget_set_name(Widget *w, const char *name) {
  g_return_if_fail(w != NULL);
  if (w->frozen)
    g_critical("cannot rename frozen widget %s", name);
  if (w->owner == NULL)
    g_warning("widget %s has no owner", name);
  g_debug("renamed widget %s", name);
}

static int widget_size(Widget *w) {
  g_return_val_if_fail(w != NULL, -1);
  return 1;
}

int main(int argc, char **argv) {
  Widget w = {0, 1, NULL};
  widget_set_name(NULL, "a");
  widget_size(NULL);
  widget_set_name(&w, "main");
  if (argc > 1)
    g_assert(w.ref_count  >  0);
  if (argc > 2)
    g_assert_not_reached();
  g_error("widget state %d is broken", w.frozen);
  return 0;
}
"""

# What GLib 2.74 printed for the program above (``./widget``, ``./widget x``).
PRINTED = {
    "g_return_if_fail": "** (process:32396): CRITICAL **: 23:54:56.282: widget_set_name: "
                        "assertion 'w != NULL' failed",
    "g_return_val_if_fail": "** (process:32396): CRITICAL **: 23:54:56.282: widget_size: "
                            "assertion 'w != NULL' failed",
    "g_critical": "** (process:32396): CRITICAL **: 23:54:56.282: cannot rename frozen widget "
                  "main",
    "g_warning": "** (process:32393): WARNING **: 23:54:56.259: widget main has no owner",
    "g_error": "** (process:32393): ERROR **: 23:54:56.259: widget state 1 is broken",
    "g_assert(": "**\nERROR:src/widget.c:25:main: assertion failed: (w.ref_count > 0)\n"
                 "Bail out! ERROR:src/widget.c:25:main: assertion failed: (w.ref_count > 0)",
}


def test_glib_checks_are_records_naming_their_function(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    _, records = mine_once(make_repo, tmp_path, {"src/widget.c": WIDGET_C})
    at = records_at(records, "src/widget.c", line_with(WIDGET_C, "g_return_if_fail"))
    assert messages(at) == ["widget_set_name: assertion 'w != NULL' failed"]
    assert {(r.record.error_type, r.record.severity) for r in at} == {("log", "error")}
    at = records_at(records, "src/widget.c", line_with(WIDGET_C, "g_return_val_if_fail"))
    assert messages(at) == ["widget_size: assertion 'w != NULL' failed"]
    at = records_at(records, "src/widget.c", line_with(WIDGET_C, "g_assert("))
    assert messages(at) == ["main: assertion failed: (w.ref_count > 0)"]
    assert {(r.record.error_type, r.record.severity) for r in at} == {("panic", "fatal")}
    assert any_fullmatch(at, "ERROR:../src/widget.c:25:main: assertion failed: "
                             "(w.ref_count > 0)")
    at = records_at(records, "src/widget.c", line_with(WIDGET_C, "g_assert_not_reached"))
    assert messages(at) == ["main: code should not be reached"]
    severities = {line: r.record.severity for line in ("g_critical", "g_warning", "g_error")
                  for r in records_at(records, "src/widget.c", line_with(WIDGET_C, line))}
    assert severities == {"g_critical": "error", "g_warning": "warning", "g_error": "fatal"}
    assert not records_at(records, "src/widget.c", line_with(WIDGET_C, "g_debug"))


def test_what_glib_prints_finds_its_call(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    root, _ = mine_once(make_repo, tmp_path, {"src/widget.c": WIDGET_C})
    db = tmp_path / "once.sqlite"
    printed = dict(PRINTED)
    if shutil.which("gcc") and shutil.which("pkg-config") and subprocess.run(
            ["pkg-config", "--exists", "glib-2.0"], check=False).returncode == 0:
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "glib-2.0"], check=True,
                               capture_output=True, text=True).stdout.split()
        subprocess.run(["gcc", "-o", "widget", "src/widget.c", *flags], cwd=root, check=True,
                       capture_output=True)
        quiet = subprocess.run(["./widget"], cwd=root, capture_output=True, text=True).stderr
        lines = [line for line in quiet.splitlines() if line.strip()]
        for call, needle in (("g_return_if_fail", "widget_set_name: assertion"),
                             ("g_return_val_if_fail", "widget_size: assertion"),
                             ("g_critical", "frozen"), ("g_warning", "no owner"),
                             ("g_error", "broken")):
            printed[call] = next(line for line in lines if needle in line)
        failed = subprocess.run(["./widget", "x"], cwd=root, capture_output=True, text=True)
        printed["g_assert("] = next(line for line in failed.stderr.splitlines()
                                    if line.startswith("ERROR:"))
    for call, paste in printed.items():
        top = errdex.resolve(paste, db=db).matches[0]
        assert (top.record.file_path, top.record.line_number) == (
            "src/widget.c", line_with(WIDGET_C, call)), paste
