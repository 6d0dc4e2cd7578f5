""".NET stack traces: ``Unhandled exception. X: msg``, ``at … in file:line N``, ``--->`` inners.

``Outer: a ---> Inner: b`` prints the inner exception's frames first, then
``--- End of inner exception stack trace ---`` and the outer's. Each exception
is one event, outer first, so the innermost (the root cause) comes last, as
Java's deepest ``Caused by:`` does.
"""

from __future__ import annotations

import re

from errdex.languages._engine.pastes import PasteReader, Pastes
from errdex.languages._engine.pastes.common import (
    DOTNET_NAMESPACES,
    DOTTED_NAME,
    ErrorEvent,
    Found,
    Frame,
    Lines,
    looks_like_class,
    split_class,
)
from errdex.languages._engine.pastes.stacks import first_frame_style

_UNHANDLED = re.compile(r"Unhandled [Ee]xception[.:] +")
_INNER = " ---> "
_END_OF_INNER = "--- End of inner exception stack trace ---"
_FRAME = re.compile(
    r"\s+at (?P<func>[^(\n]+)\([^)\n]*\)(?: in (?P<file>\S.*):line (?P<line>\d+))?\s*"
)
# ArgumentException's Message adds the parameter; the throw site's text has not got it
_PARAMETER = re.compile(r" \(Parameter '[^'\n]*'\)$")


def _any_dotnet_name(name: str) -> bool:
    return DOTTED_NAME.fullmatch(name) is not None


def dotnet_trace(lines: Lines, i: int) -> Found | None:
    """A .NET exception with its inner exceptions and frames: one event per exception."""
    line = lines[i]
    unhandled = _UNHANDLED.match(line) if line.startswith("Unhandled") else None
    if unhandled:
        header = line[unhandled.end() :]
    else:
        style = first_frame_style(lines, i + 1)
        if style != "dotnet" and not (style is None and line.startswith(DOTNET_NAMESPACES)):
            return None
        if split_class(line, looks_like_class) is None:
            return None
        header = line
    j = i + 1
    while j < len(lines) and lines[j].startswith(_INNER):
        header += lines[j]
        j += 1
    chain = [split_class(part, _any_dotnet_name) or (None, part) for part in header.split(_INNER)]
    groups: list[tuple[list[Frame], int]] = [([], j)]  # frames, and the line after them
    while j < len(lines):
        stripped = lines[j].strip()
        frame = _FRAME.fullmatch(lines[j])
        if frame:
            if frame.group("file"):
                function = frame.group("func").strip()
                groups[-1][0].append(Frame(frame.group("file"), int(frame.group("line")), function))
        elif stripped == _END_OF_INNER:
            groups.append(([], j + 1))
        elif not stripped.startswith("--- End of stack trace from previous location"):
            break
        j += 1
        groups[-1] = (groups[-1][0], j)
    events: list[ErrorEvent] = []
    for depth, (error_class, message) in enumerate(chain):
        group = len(chain) - 1 - depth  # the innermost exception's frames are printed first
        frames, stop = groups[group] if group < len(groups) else ([], j)
        stop = j if depth == 0 else stop
        message = _PARAMETER.sub("", message.rstrip())
        events.append(lines.event(i, stop, message, error_class, "dotnet", frames))
    return tuple(events), j


PASTES = Pastes((PasteReader(90, dotnet_trace),))
