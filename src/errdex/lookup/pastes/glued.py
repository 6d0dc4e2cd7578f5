"""A Node error whose ``Class: message`` line carries text before it, with its ``at`` frames.

What a logger or a framework prints before the error it relays (``[ioredis] Unhandled error
event: Error: msg``, ``Error while uploading MulterError: msg``, ``- error unhandledRejection:
Error [Name]: msg``, ``{ Error: msg`` from ``util.inspect``) hides the header from Node's own
reader, which wants it at the line's start; so does a paste that lost the frames' indent.
The frames that follow say it is an error, and the class is the first ``…Error:`` word.
"""

from __future__ import annotations

import re

from errdex.languages._engine.pastes.common import Found, Frame, Lines, one
from errdex.languages._engine.pastes.stacks import frame_style
from errdex.languages.javascript.pastes import node_frame

# The class: a CamelCase word ending in Error or Exception, at the line's start or after a
# space or an opening bracket, then Node's `` [Name]`` (an error named apart from its class).
# Each start is a delimiter and the word after it is read once: linear in the line.
_HEADER = re.compile(
    r"(?:^|(?<=[\s{(\[]))(?P<class>(?:[A-Z][\w$]*)?(?:Error|Exception))"
    r"(?: \[(?P<name>[A-Za-z_$][\w$]*)\])?: (?=\S)"
)
_LINE_CHARS = 2_000  # a header is found in the first this many characters of a line
_MESSAGE_LINES = 20  # a message's lines before its first frame, at most


def glued_node_error(lines: Lines, i: int) -> Found | None:
    """The error on line ``i`` whatever precedes its class, when ``at`` frames follow it."""
    line = lines[i]
    if "Error: " not in line and "Exception: " not in line and "]: " not in line:
        return None
    j = i + 1
    while j < len(lines) and j - i <= _MESSAGE_LINES and lines[j].strip() and not _at(lines[j]):
        j += 1
    if j >= len(lines) or not _at(lines[j]):
        return None
    header = _HEADER.search(line, 0, _LINE_CHARS)
    if header is None:
        return None
    error_class = header.group("name") or header.group("class")
    message = "\n".join([line[header.end():], *lines[i + 1 : j]]).rstrip()
    frames: list[Frame] = []
    while j < len(lines) and _at(lines[j]):
        frame = _frame(lines[j])
        if frame is not None:
            frames.append(frame)
        j += 1
    if not frames:
        return None
    return one(lines.event(i, j, message, error_class, "node", frames), j)


def _at(line: str) -> bool:
    """A Node ``at …`` line, indented (as Node prints it) or not (as some pastes lose it)."""
    return frame_style(line if line[:1].isspace() else " " + line) == "node"


def _frame(line: str) -> Frame | None:
    """A frame with a line number (``at Array.forEach (<anonymous>)`` has none)."""
    frame = node_frame(line)
    return frame if frame is not None and frame.line is not None else None


__all__ = ["glued_node_error"]
