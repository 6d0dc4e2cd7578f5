"""JavaScript pastes as users cut them: a stack with its line breaks written out (``\\n``),
a frame cut short before its ``)``, and a frame of a compiled ``x.js`` naming the method of
a module that moved to ``x/index.ts``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import errdex
from errdex.languages.javascript.pastes import node_frame
from errdex.lookup.parse import main_event, unescape_stack
from tests.compose_steps import mine_once
from tests.conftest import GitRepo

ESCAPED = (r"Error: Connection is closed.\n    at Cluster.sendCommand"
           r" (/srv/app/lib/cluster.js:404:20")


def test_a_stack_with_written_out_line_breaks_reads_as_the_error_and_its_frames() -> None:
    event = main_event(ESCAPED)
    assert (event.error_class, event.message) == ("Error", "Connection is closed.")
    assert [(f.file, f.line, f.function) for f in event.frames] == [
        ("/srv/app/lib/cluster.js", 404, "Cluster.sendCommand")]


def test_a_python_traceback_with_written_out_line_breaks_reads_as_its_exception() -> None:
    pasted = r'Traceback (most recent call last):\n  File "app.py", line 3, in run\n' \
             r"    go()\nValueError: the widget is broken"
    event = main_event(pasted)
    assert (event.error_class, event.message) == ("ValueError", "the widget is broken")


def test_a_message_holding_a_written_out_break_and_a_json_line_stay_as_they_are() -> None:
    plain = r"bad escape \n in the pattern"
    logged = r'{"level":"error","stack":"Error: boom\n    at run (/app/x.js:1:2)"}'
    assert unescape_stack(plain) == plain
    assert unescape_stack(logged) == logged
    prefixed = "2024-05-01 ERROR " + logged
    assert unescape_stack(prefixed) == prefixed


def test_a_frame_cut_short_still_names_its_function_and_place() -> None:
    frame = node_frame("    at Cluster.sendCommand (/srv/app/lib/cluster.js:404:20")
    assert frame is not None
    assert (frame.file, frame.line, frame.function) == (
        "/srv/app/lib/cluster.js", 404, "Cluster.sendCommand")
    whole = node_frame("    at Object.<anonymous> (/srv/app/index.js:3:9)")
    assert whole is not None and whole.function == "Object.<anonymous>"


def test_a_compiled_frame_names_the_method_of_a_module_moved_into_a_folder(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """``lib/cluster.js`` of an old release is ``lib/cluster/index.ts`` now: among the sites
    throwing one shared message, the frame's ``Cluster.sendCommand`` decides."""
    shared = 'export const CLOSED = "Connection is closed.";\n'
    mine_once(make_repo, tmp_path, {
        "lib/utils.ts": shared,
        "lib/redis.ts": (
            'import { CLOSED } from "./utils";\n\n'
            "export class Redis {\n"
            "  sendCommand(): void {\n"
            "    throw new Error(CLOSED);\n"
            "  }\n"
            "}\n"),
        "lib/cluster/index.ts": (
            'import { CLOSED } from "../utils";\n\n'
            "export class Cluster {\n"
            "  connect(): void {\n"
            "    throw new Error(CLOSED);\n"
            "  }\n\n"
            "  sendCommand(): void {\n"
            "    throw new Error(CLOSED);\n"
            "  }\n"
            "}\n"),
    })
    found = errdex.resolve(ESCAPED, db=tmp_path / "once.sqlite", top=5)
    best = found.matches[0]
    assert (best.record.file_path, best.record.line_number) == ("lib/cluster/index.ts", 9)
    assert not best.approximate
