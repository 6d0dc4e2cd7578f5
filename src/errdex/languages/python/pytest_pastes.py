"""pytest output: ``E`` blocks with their frames, and the ``FAILED … - msg`` summary lines."""

from __future__ import annotations

import re

from errdex.languages._engine.pastes.common import (
    Found,
    Frame,
    Lines,
    any_class,
    indent,
    is_number,
    one,
    split_class,
)

# "src/app/parse.py:12: in parse" (--tb=short) or "tests/test_a.py:5: " (--tb=long)
_FRAME = re.compile(r"(?P<file>\S+?\.py):(?P<line>\d+):(?: in (?P<func>\S+))? ?")
# "tests/x.py::TestA::test_b[1-2]" → file, the test's name
_SUMMARY = re.compile(r"(?:FAILED|ERROR) (?P<file>[^\s:]+)(?:::(?P<test>\S+))? - (?P<rest>.+)")
_LOCALS = re.compile(r"[A-Za-z_]\w* = ")  # "raw = 'x'": a test's arguments, shown unindented


def _pytest_class(name: str) -> bool:
    """pytest's ``E`` lines: classes like ``Failed`` too, but not ``assert``."""
    return any_class(name) and ("." in name or name[:1].isupper())


def is_e_line(line: str) -> bool:
    return line == "E" or line.startswith(("E ", "E\t"))


def pytest_traceback(lines: Lines, i: int) -> Found | None:
    """Frames (``path.py:12: in func``) and source down to an ``E`` block: one event.

    The frames are printed outermost first, between source lines, ``_ _ _``
    rules and argument values. When no ``E`` block follows, the lines read are
    skipped without an event (each line is still read once).
    """
    if ".py:" not in lines[i] or _FRAME.fullmatch(lines[i]) is None:
        return None
    outer: list[Frame] = []
    j = i
    while j < len(lines):
        line = lines[j]
        frame = _FRAME.fullmatch(line)
        if frame:
            outer.append(Frame(frame.group("file"), int(frame.group("line")), frame.group("func")))
        elif is_e_line(line) and line[1:].strip() and (block := pytest_block(lines, j)):
            events, stop = block
            event = events[0]
            frames = (*event.frames, *reversed(outer))
            whole = lines.event(i, stop, event.message, event.error_class, "python", frames)
            return one(whole, stop)
        elif not _in_traceback(line):
            break
        j += 1
    return (), j


def _in_traceback(line: str) -> bool:
    """Source, markers, rules and values between pytest's frames; not another error."""
    if not line.strip():
        return True
    if line[0].isspace():
        return "Traceback (" not in line and "panicked at " not in line
    return line.startswith((">", "_ _")) or _LOCALS.match(line) is not None


def pytest_block(lines: Lines, i: int) -> Found | None:
    """pytest's ``E   Class: message`` lines, and the ``path:line: Class`` after them."""
    if not is_e_line(lines[i]) or not lines[i][1:].strip():
        return None  # pytest never starts a block with an empty "E"
    body = lines[i][1:]
    width = indent(body)
    parts: list[str] = []
    j = i
    while j < len(lines) and is_e_line(lines[j]):
        part = lines[j][1:]
        parts.append(part[min(width, indent(part)) :])
        j += 1
    error_class, first = split_class(parts[0], _pytest_class) or (None, parts[0])
    message = "\n".join([first, *parts[1:]]).rstrip()
    frames: tuple[Frame, ...] = ()
    stop = j
    after = j + 1 if j < len(lines) and not lines[j].strip() else j  # pytest prints a blank
    location = _pytest_location(lines[after]) if after < len(lines) else None
    if location is not None:
        frame, location_class = location
        frames = (frame,)
        error_class = error_class or location_class
        stop = after + 1
    return one(lines.event(i, stop, message, error_class, "python", frames), stop)


def _pytest_location(line: str) -> tuple[Frame, str] | None:
    """``tests/test_x.py:12: ValueError`` → (frame, class)."""
    head, sep, name = line.rpartition(": ")
    if not sep or not any_class(name):
        return None
    file, colon, number = head.rpartition(":")
    if not colon or not file or not is_number(number):
        return None
    return Frame(file, int(number)), name


def pytest_summary(lines: Lines, i: int) -> Found | None:
    """``FAILED tests/x.py::test_y - ValueError: msg`` (and ``ERROR …`` for setup errors).

    The frame is the test (file and function, no line). pytest rewrites a
    failed ``assert`` into its message, so ``- assert 1 == 2`` is an
    ``AssertionError``.
    """
    line = lines[i]
    if not line.startswith(("FAILED ", "ERROR ")):
        return None
    match = _SUMMARY.fullmatch(line.rstrip())
    if match is None:
        return None
    rest = match.group("rest")
    error_class, message = split_class(rest, _pytest_class) or (None, rest)
    if error_class is None and rest.startswith("assert "):
        error_class = "AssertionError"
    test = match.group("test")
    function = test.rpartition("::")[2].partition("[")[0] if test else None
    frame = Frame(match.group("file"), None, function)
    return one(lines.event(i, i + 1, message, error_class, "python", (frame,)), i + 1)
