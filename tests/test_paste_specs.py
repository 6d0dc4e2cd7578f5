"""Paste readers are declared on language specs: parse tries every spec's, in rank order.

Adding a language's paste reader is one folder: a toy language folder, dropped into a
copy of the package, is read by ``parse_events`` with nothing under ``lookup/`` changed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from errdex.languages import SPECS, spec_for
from errdex.languages._engine.pastes import PasteReader, Pastes, ordered
from errdex.languages._engine.pastes.common import Found, Lines, one
from errdex.lookup.parse import recognizers

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "errdex"

# The order recognizers were tried in when parse listed them by hand: a format's header
# before the generic ``Class: message`` line, multi-line formats before single lines; a
# Node error behind a logger's prefix last but the single line (it is read only when no
# runtime's reader took the line). A C library's failed-assert line follows C++'s terminate.
ORDER_BEFORE = [
    "python_exception_group", "python_traceback", "rust_panic", "go_panic", "terminate",
    "assertion", "pytest_traceback", "pytest_block", "pytest_summary", "jvm_trace",
    "exception_has_occurred", "copied_details", "helper_quoted", "dotnet_trace", "runner_header",
    "watch_window",
    "node_trace", "ruby_trace", "rails_error", "ruby_frames", "php_error", "_json_log_line",
    "_logfmt_line", "glog_line", "go_test_failure", "go_log_line", "glued_node_error",
    "single_line",
]


def _toy_error(lines: Lines, i: int) -> Found | None:
    """``TOY! msg``: the toy runtime's error line."""
    if not lines[i].startswith("TOY! "):
        return None
    return one(lines.event(i, i + 1, lines[i][5:], "ToyError", "toy"), i + 1)


def test_recognizers_come_from_the_specs_in_the_order_parse_used_before() -> None:
    names = [recognizer.__name__ for recognizer in recognizers(SPECS.values())]
    assert names == ORDER_BEFORE


def test_each_runtime_reader_is_declared_by_the_language_whose_runtime_prints_it() -> None:
    owners = {
        name: sorted(s.name for s in SPECS.values()
                     if any(r.recognize.__name__ == name for r in s.pastes.readers))
        for name in ORDER_BEFORE
    }
    assert owners["python_traceback"] == ["python"]
    assert owners["pytest_summary"] == ["python"]
    assert owners["rust_panic"] == ["rust"]
    assert owners["go_test_failure"] == ["go"]
    assert owners["jvm_trace"] == ["java", "kotlin"]
    assert owners["dotnet_trace"] == ["csharp"]
    assert owners["node_trace"] == ["javascript", "tsx", "typescript"]
    assert owners["ruby_trace"] == ["ruby"]
    assert owners["php_error"] == ["php"]
    # the log formats belong to no language: parse holds them
    assert owners["single_line"] == owners["glog_line"] == owners["glued_node_error"] == []
    assert owners["rails_error"] == owners["ruby_frames"] == []
    assert owners["exception_has_occurred"] == []  # VS Code's, whatever the language


def test_a_toy_spec_reader_is_tried_at_its_rank_and_a_shared_reader_once() -> None:
    ruby = spec_for("ruby")
    assert ruby is not None
    toy = replace(ruby, name="toy", pastes=Pastes((PasteReader(15, _toy_error),)))
    names = [r.__name__ for r in recognizers([*SPECS.values(), toy])]
    assert names[:3] == ["python_exception_group", "_toy_error", "python_traceback"]
    assert names.count("jvm_trace") == 1  # declared by Java's spec and Kotlin's
    assert [r.__name__ for r in recognizers([])] == [
        "exception_has_occurred", "rails_error", "ruby_frames", "_json_log_line",
        "_logfmt_line", "glog_line", "go_log_line", "glued_node_error", "single_line",
    ]


def test_ordered_sorts_by_rank_and_keeps_the_first_of_equal_ranks() -> None:
    def a(lines: Lines, i: int) -> Found | None:
        return None

    def b(lines: Lines, i: int) -> Found | None:
        return None

    readers = [PasteReader(5, b), PasteReader(1, a), PasteReader(5, a), PasteReader(1, a)]
    assert ordered(readers) == (a, b, a)


_TOY_FOLDER = '''
"""A toy language whose runtime prints ``TOY! msg``."""
from pathlib import Path

from errdex.languages._engine import FileIndex, LanguageSpec
from errdex.languages._engine.pastes import PasteReader, Pastes
from errdex.languages._engine.pastes.common import one


def toy_error(lines, i):
    if not lines[i].startswith("TOY! "):
        return None
    return one(lines.event(i, i + 1, lines[i][5:], "ToyError", "toy"), i + 1)


SPEC = LanguageSpec(
    name="toy", grammar="python", extensions=(".toy",),
    query=Path(__file__).with_name("queries.scm"), handlers=(), new_index=FileIndex,
    pastes=Pastes((PasteReader(15, toy_error),), markers=("TOY! ",)),
)
'''

_READ = (
    "import json, sys\n"
    "from errdex.lookup.parse import parse_events\n"
    "print(json.dumps([[e.kind, e.error_class, e.message] for e in parse_events(sys.argv[1])]))"
)


def _events_with(pythonpath: Path, text: str) -> list[list[str | None]]:
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    done = subprocess.run(
        [sys.executable, "-c", _READ, text], env=env, capture_output=True, text=True,
        check=True,
    )
    events: list[list[str | None]] = json.loads(done.stdout)
    return events


def test_adding_a_language_folder_is_all_parse_needs_to_read_its_runtime(
    tmp_path: Path,
) -> None:
    copy = tmp_path / "src" / "errdex"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "languages" / "toy").mkdir()
    (copy / "languages" / "toy" / "__init__.py").write_text(_TOY_FOLDER, "utf-8")
    # no colon, no log prefix: only the spec's marker lets parse's cheap filter pass it
    text = "starting\nTOY! the widget is broken\n"

    assert _events_with(copy.parent, text) == [["toy", "ToyError", "the widget is broken"]]
    # the same package without the folder does not know the toy runtime's line
    assert _events_with(PACKAGE.parent, text) == [["message", None, text.strip()]]
