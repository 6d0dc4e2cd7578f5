"""Python tracebacks: plain, chained (one event per exception) and exception groups."""

from __future__ import annotations

import re

from errdex.languages._engine.pastes import PasteReader, Pastes
from errdex.languages._engine.pastes.common import (
    TRACEBACK_HEADER,
    ErrorEvent,
    Found,
    Frame,
    Lines,
    any_class,
    indent,
    split_class,
)
from errdex.languages._engine.pastes.logs import continuation, single_line
from errdex.languages.python.pytest_pastes import pytest_block, pytest_summary, pytest_traceback

_PY_FRAME = re.compile(r'File "(?P<file>[^"]*)", line (?P<line>\d+)(?:, in (?P<func>.+))?')
_GROUP_HEADER = "Exception Group Traceback (most recent call last):"


def python_traceback(lines: Lines, i: int) -> Found | None:
    """``Traceback (most recent call last):``, frames, then ``Class: message``."""
    if "Traceback (" not in lines[i]:
        return None  # the common case, decided cheaply
    header = lines[i].rstrip()
    if not header.endswith(TRACEBACK_HEADER):
        return None
    before = header[: -len(TRACEBACK_HEADER)]
    base = len(before) if not before.strip() else 0
    frames: list[Frame] = []
    j = i + 1
    while j < len(lines):
        line = lines[j]
        frame = _PY_FRAME.match(line.strip())
        if frame:
            func = frame.group("func")
            frames.append(Frame(frame.group("file"), int(frame.group("line")), func))
        elif line.strip() and indent(line) <= base:
            break  # the exception line: source and carets are indented deeper
        j += 1
    frames.reverse()  # Python prints the outermost frame first
    if j >= len(lines):
        return (lines.event(i, j, "", None, "python", frames),), j
    error_class, first = split_class(lines[j][base:], any_class) or (None, lines[j][base:])
    message, stop = continuation(lines, j + 1, first, base)
    return (lines.event(i, stop, message, error_class, "python", frames),), stop


def python_exception_group(lines: Lines, i: int) -> Found | None:
    """A 3.11+ exception group: the boxed ``+ Exception Group Traceback`` block.

    The box drawing (``  | ``, ``+-+---- 1 ----``) is taken off every line, at
    any nesting depth at once (Python nests by indenting, with one bar), and the
    result is read as plain tracebacks and ``Class: message`` lines. Events come
    out in print order: the group, then its leaves (a nested group before its
    own leaves), each with the paste's own slice and line number.
    """
    if "Exception Group Traceback" not in lines[i]:
        return None
    stripped = lines[i].strip()
    if not stripped.endswith(_GROUP_HEADER) or not stripped.startswith(("+", "|")):
        return None
    deboxed: list[str] = []
    j = i
    while j < len(lines):
        line = lines[j].lstrip()
        if not line.startswith(("|", "+")):
            break
        deboxed.append(_debox(line))
        j += 1
    inner = Lines("\n".join(deboxed), parent=lines, origin=range(i, j))
    events: list[ErrorEvent] = []
    k = 0
    while k < len(inner):
        found = python_traceback(inner, k) or single_line(inner, k)
        if found is None:
            k += 1
            continue
        events.extend(found[0])
        k = found[1]
    return tuple(events), j


def _debox(line: str) -> str:
    """One line of an exception group's box, without its margin; separators become blank."""
    if line.startswith("+-"):
        return ""  # "+-+---- 1 ----", "+---- 2 ----", "+--------"
    content = line[2:] if line[1:2] == " " else line[1:]
    return TRACEBACK_HEADER if content.strip() == _GROUP_HEADER else content


# A group's header before a traceback's, both before pytest's and the generic line's.
PASTES = Pastes(
    (
        PasteReader(10, python_exception_group),
        PasteReader(20, python_traceback),
        PasteReader(50, pytest_traceback),
        PasteReader(60, pytest_block),
        PasteReader(70, pytest_summary),
    ),
    markers=("Traceback (",),  # a traceback may be indented (a log's field, a quote)
)
