"""Java and Kotlin stack traces: ``Exception in thread …``, ``at`` frames, ``Caused by:``.

Each exception of a chain is one event, in print order: the top exception,
then each ``Caused by:``. The last is the deepest cause (the root), which
``main_event`` picks. ``Suppressed:`` blocks are read as part of the exception
they are attached to, without events or frames of their own.
"""

from __future__ import annotations

import re

from errdex.languages._engine.pastes import PasteReader, Pastes
from errdex.languages._engine.pastes.common import (
    JVM_NAME,
    JVM_PACKAGES,
    ErrorEvent,
    Found,
    Frame,
    Lines,
    looks_like_jvm_class,
    split_class,
    split_location,
)
from errdex.languages._engine.pastes.logs import ends_message
from errdex.languages._engine.pastes.stacks import first_frame_style, frame_style

_IN_THREAD = re.compile(r'Exception in thread "[^"\n]*" ')
_CAUSED_BY = "Caused by: "
_FRAME = re.compile(r"\s+at (?P<func>[^\s(]+)\((?P<where>[^()\n]*)\)")
_MORE = re.compile(r"\s+\.\.\. \d+ (?:more|common frames omitted)\s*")


def _any_jvm_name(name: str) -> bool:
    """After ``Exception in thread "main"`` or ``Caused by:`` any JVM name is a class."""
    return JVM_NAME.fullmatch(name) is not None


def jvm_trace(lines: Lines, i: int) -> Found | None:
    """A JVM exception and its causes: one event each, with their frames."""
    line = lines[i]
    if line.startswith('Exception in thread "'):
        match = _IN_THREAD.match(line)
        if match is None:
            return None
        split = split_class(line[match.end() :], _any_jvm_name)
    elif line.startswith(_CAUSED_BY):
        split = split_class(line[len(_CAUSED_BY) :], _any_jvm_name)
    else:
        style = first_frame_style(lines, i + 1)
        if style != "jvm" and not (style is None and line.startswith(JVM_PACKAGES)):
            return None
        split = split_class(line, looks_like_jvm_class)
    if split is None:
        return None
    events: list[ErrorEvent] = []
    start = i
    while True:
        event, j = _one_exception(lines, start, *split)
        events.append(event)
        if j >= len(lines) or not lines[j].startswith(_CAUSED_BY):
            return tuple(events), j
        split = split_class(lines[j][len(_CAUSED_BY) :], _any_jvm_name)
        if split is None:
            return tuple(events), j
        start = j


def _one_exception(lines: Lines, i: int, error_class: str, first: str) -> tuple[ErrorEvent, int]:
    """The exception whose header is line ``i``: its message lines, then its frames."""
    parts = [first]
    j = i + 1
    while j < len(lines) and _continues_message(lines[j]):
        parts.append(lines[j])
        j += 1
    frames: list[Frame] = []
    suppressed = False
    while j < len(lines):
        line = lines[j]
        stripped = line.strip()
        frame = _FRAME.match(line)
        if frame and not suppressed:
            frames.extend(_frame(frame.group("func"), frame.group("where")))
        elif frame or _MORE.fullmatch(line):
            pass
        elif line[:1].isspace() and stripped.startswith(("Suppressed: ", _CAUSED_BY)):
            suppressed = True  # its causes are indented too; its frames are not this one's
        else:
            break
        j += 1
    message = "\n".join(parts).rstrip()
    return lines.event(i, j, message, error_class, "jvm", frames), j


def _continues_message(line: str) -> bool:
    """Message lines run to the first frame, ``Caused by:`` or anything else starting."""
    return frame_style(line) is None and not line.startswith(_CAUSED_BY) and not ends_message(line)


def _frame(function: str, where: str) -> list[Frame]:
    """``java.base/java.lang.Integer.parseInt`` + ``Integer.java:668`` → one frame.

    The module or class loader before ``/`` is dropped from the function;
    ``Native Method`` and ``Unknown Source`` frames have no file and are left out.
    """
    location = split_location(where)
    if location is None:
        return []
    return [Frame(location.file, location.line, function.rpartition("/")[2])]


PASTES = Pastes((PasteReader(80, jvm_trace),))
