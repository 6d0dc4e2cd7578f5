"""What VS Code's debugger shows of an exception, which no runtime prints: read as the
runtime's own.

VS Code (any language) heads it ``Exception has occurred: X`` (``CLR/System.X`` for .NET,
whose next line says ``An exception of type 'System.X' occurred in A.dll …: 'msg'``) over
the message, then maybe the frames. Users paste it as it is; without this the header sits
in the message and the class is lost. (Visual Studio's own forms are .NET's alone:
``errdex.languages.csharp.pastes``.)
"""

from __future__ import annotations

import re

from errdex.languages._engine.pastes.common import (
    DOTTED_NAME,
    Found,
    Frame,
    Lines,
    kind_of_class,
    one,
)
from errdex.languages._engine.pastes.stacks import frame_style
from errdex.languages.csharp.pastes import dotnet_message, dotnet_trace

_OCCURRED = "Exception has occurred: "
_CLR_MESSAGE = re.compile(
    r"An (?:unhandled )?exception of type '[^'\n]{1,300}' occurred in [^:'\n]{1,300}?"
    r"(?: but was not handled in user code)?: (?P<message>.+)"
)
_PYTHON_FRAME = re.compile(r"\s*File \"[^\"\n]*\", line \d+")
_MESSAGE_LINES = 40  # a message's lines under the header, at most


def exception_has_occurred(lines: Lines, i: int) -> Found | None:
    """VS Code's ``Exception has occurred: X`` over the message (and maybe frames)."""
    line = lines[i]
    if not line.startswith(_OCCURRED):
        return None
    error_class = line[len(_OCCURRED):].strip().removeprefix("CLR/")
    if DOTTED_NAME.fullmatch(error_class) is None:
        return None
    parts: list[str] = []
    j = i + 1
    while j < len(lines) and j - i <= _MESSAGE_LINES and not _frame_line(lines[j]):
        parts.append(lines[j].rstrip())
        j += 1
    message = "\n".join(parts).strip()
    clr = _CLR_MESSAGE.match(message)
    dotnet = line[len(_OCCURRED):].startswith("CLR/") or clr is not None
    if clr is not None:
        message = clr.group("message")
    if dotnet:
        message = dotnet_message(message)
    if not message:
        return None
    frames: tuple[Frame, ...] = ()
    stop = j
    if j < len(lines) and frame_style(lines[j]) == "dotnet":
        # the frames as the runtime prints them, read by its own reader
        found = dotnet_trace(Lines("System.Exception: x\n" + "\n".join(lines[j:])), 0)
        if found is not None:
            frames = found[0][0].frames
            stop = j + found[1] - 1
    kind = "dotnet" if dotnet else kind_of_class(error_class)
    return one(lines.event(i, stop, message, error_class, kind, frames), stop)


def _frame_line(line: str) -> bool:
    return frame_style(line) is not None or _PYTHON_FRAME.match(line) is not None


__all__ = ["exception_has_occurred"]
