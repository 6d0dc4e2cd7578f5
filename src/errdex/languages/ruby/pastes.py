"""Ruby: ``app.rb:12:in 'method': msg (ArgumentError)`` and its ``\\tfrom`` frames.

Ruby 3.4 quotes the method as ``'Foo#bar'``, older Rubies as ```bar'``; both
are read. The first line's location is the innermost frame.
"""

from __future__ import annotations

import re

from errdex.languages._engine.pastes import PasteReader, Pastes
from errdex.languages._engine.pastes.common import Found, Frame, Lines, one

_HEAD = re.compile(r"(?P<file>[^\s:]+):(?P<line>\d+):in [`'](?P<func>[^'\n]*)': ")
_FROM = re.compile(r"\s+from (?P<file>[^\s:]+):(?P<line>\d+):in [`'](?P<func>[^'\n]*)'\s*")
_CLASS = re.compile(r"[A-Z]\w*(?:::[A-Z]\w*)*")
# error_highlight's snippet and did_you_mean's hints sit between message and frames
_DETAIL_LINES = 8


def ruby_trace(lines: Lines, i: int) -> Found | None:
    """An uncaught Ruby exception: the message's location, class and the ``from`` frames."""
    line = lines[i]
    match = _HEAD.match(line) if ":in " in line else None
    if match is None:
        return None
    rest = line[match.end() :].rstrip()
    error_class = None
    open_at = rest.rfind(" (")
    if rest.endswith(")") and open_at >= 0 and _CLASS.fullmatch(rest[open_at + 2 : -1]):
        error_class = rest[open_at + 2 : -1]
        rest = rest[:open_at]
    frames = [Frame(match.group("file"), int(match.group("line")), match.group("func"))]
    stop = j = i + 1
    while j < len(lines) and j - stop < _DETAIL_LINES:
        frame = _FROM.fullmatch(lines[j])
        if frame:
            frames.append(Frame(frame.group("file"), int(frame.group("line")), frame.group("func")))
            stop = j + 1
        elif lines[j].strip() and not lines[j][:1].isspace():
            break
        j += 1
    return one(lines.event(i, stop, rest, error_class, "ruby", frames), stop)


PASTES = Pastes((PasteReader(110, ruby_trace),))
