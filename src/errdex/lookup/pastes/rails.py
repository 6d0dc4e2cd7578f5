"""Ruby errors as Rails and error trackers print them, and a paste of Ruby frames alone.

Ruby's own ``file:line:in 'm': msg (Class)`` is read by its language's reader. A Rails
log prints ``RuntimeError (msg):`` then the backtrace; its error page prints ``RuntimeError
in UsersController#create``, the message, ``Rails.root: …`` and the trace under
``Application Trace | Framework Trace | Full Trace``. A gem's frame there is ``devise (4.7.2)
lib/devise/mapping.rb:46:in `find_scope!'``; trackers print ``path.rb:44 in find_scope!``. A
paste that is only such frames (the message went in the issue's title) is an event with no
message: its innermost frame in a mined file finds the site.
"""

from __future__ import annotations

import re

from errdex.languages._engine.pastes.common import Found, Frame, Lines, one

_CLASS = re.compile(r"[A-Z]\w*(?:::[A-Z]\w*)*")
# [gem (version) ]path.rb:line, then ``:in `m'`` / `` in m`` or nothing. Anchored; the path
# is one run without spaces or colons: a line is read once.
_FRAME = re.compile(
    r"(?:[\w.\-]+ \([\w.\-]+\) )?(?P<file>[^\s:]+\.rb):(?P<line>\d+)"
    r"(?:(?::in | in )[`']?(?P<func>[^'\n]*)'?)?\s*"
)
_PAGE_HEADER = " in "  # ``RuntimeError in UsersController#create``
_GAP_LINES = 4  # blank lines, ``Rails.root:`` and the trace's tabs between header and frames
_MESSAGE_LINES = 20
_FIRST_LINES = 4  # a paste of frames alone starts within its first few lines


def rails_error(lines: Lines, i: int) -> Found | None:
    """``Class (message):`` or a Rails error page's ``Class in Controller#action``, with the
    Ruby frames after it."""
    line = lines[i].strip()
    if line.endswith("):") and " (" in line:
        name, _, rest = line.partition(" (")
        if not _CLASS.fullmatch(name):
            return None
        error_class, message, j = name, rest[:-2], i + 1
    elif _PAGE_HEADER in line and not line[:1].isspace():
        name, _, where = line.partition(_PAGE_HEADER)
        if not _CLASS.fullmatch(name) or "#" not in where or " " in where.strip():
            return None
        j = i + 1
        while j < len(lines) and not lines[j].strip() and j - i <= _GAP_LINES:
            j += 1
        start = j
        while j < len(lines) and j - start < _MESSAGE_LINES and lines[j].strip() and not (
                lines[j].startswith("Rails.root:")):
            j += 1
        error_class, message = name, "\n".join(lines[start:j]).strip()
    else:
        return None
    frames, stop = _frames(lines, j)
    if not frames or not message:
        return None
    return one(lines.event(i, stop, message, error_class, "ruby", frames), stop)


def ruby_frames(lines: Lines, i: int) -> Found | None:
    """A paste of Ruby frames and nothing else: an event without a message."""
    # Its first line is a frame (``_frames`` skips none here): tried on every pasted line,
    # one substring test turns the rest away before any frame is parsed.
    if ".rb:" not in lines[i] or i >= _FIRST_LINES or any(lines[k].strip() for k in range(i)):
        return None
    frames, stop = _frames(lines, i, gap=0)
    if not frames or any(lines[k].strip() for k in range(stop, len(lines))):
        return None
    return one(lines.event(i, stop, "", None, "ruby", frames), stop)


def _frames(lines: Lines, j: int, gap: int = _GAP_LINES) -> tuple[list[Frame], int]:
    """The Ruby frames from line ``j`` on, after at most ``gap`` lines between, and the line
    after them."""
    frames: list[Frame] = []
    skipped = 0
    while j < len(lines):
        line = lines[j].strip()
        match = _FRAME.fullmatch(line) if ".rb:" in line else None
        if match is not None:
            frames.append(Frame(match.group("file"), int(match.group("line")),
                                match.group("func") or None))
        elif frames or skipped >= gap:
            break
        else:
            skipped += 1
        j += 1
    return frames, j


__all__ = ["rails_error", "ruby_frames"]
