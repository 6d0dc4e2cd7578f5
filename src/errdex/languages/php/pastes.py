"""PHP: ``PHP Fatal error:  Uncaught X: msg in file:line``, its stack trace, and warnings.

PHP's ``#0 /app/y.php(10): X->m()`` means ``X->m()`` was called from line 10,
so each frame's function comes from the line below it, and the innermost frame
is the ``in file:line`` of the message. Warnings and notices have no class.
"""

from __future__ import annotations

import re

from errdex.languages._engine.pastes import PasteReader, Pastes
from errdex.languages._engine.pastes.common import Found, Frame, Lines, one, split_location

# "[02-Jan-2026 10:11:12 UTC] " (the error log's stamp), then "PHP " when logged
_PREFIX = re.compile(
    r"(?:\[[^\]\n]{1,40}\] )?(?:PHP )?(?P<level>Fatal error|Recoverable fatal error|Warning"
    r"|Notice|Deprecated|Parse error|Catchable fatal error): +"
)
_UNCAUGHT_CLASS = re.compile(r"Uncaught (?P<class>[A-Za-z_\\][\w\\]*): ")
_ON_LINE = re.compile(r" in (?P<file>\S.*) on line (?P<line>\d+)")
_FRAME = re.compile(r"#\d+ (?P<file>[^(\n]+)\((?P<line>\d+)\): (?P<call>.*)")
_OTHER_FRAME = re.compile(r"#\d+ (?:\[internal function\]: (?P<call>.*)|\{main\})")
_MESSAGE_LINES = 50
_STARTS = ("[", "PHP ", "Fatal", "Recoverable", "Warning", "Notice", "Deprecated", "Parse", "Catch")


def php_error(lines: Lines, i: int) -> Found | None:
    """A PHP error line; an uncaught exception's stack trace and ``thrown in`` line too."""
    line = lines[i]
    if ": " not in line or not line.startswith(_STARTS):
        return None
    prefix = _PREFIX.match(line)
    if prefix is None:
        return None
    rest = line[prefix.end() :]
    uncaught = _UNCAUGHT_CLASS.match(rest)
    if uncaught is None:
        return _located_message(lines, i, rest)
    error_class = uncaught.group("class")
    parts = [rest[uncaught.end() :]]
    j = i + 1
    while _at(parts[-1]) is None and j < min(len(lines), i + _MESSAGE_LINES):
        if lines[j].strip() == "Stack trace:":
            break
        parts.append(lines[j])
        j += 1
    message = "\n".join(parts)
    where = _at(message)
    frames: list[Frame] = []
    if where is not None:
        message, location = where
        frames.append(location)
    else:
        message, j = parts[0], i + 1
    frames, j = _stack(lines, j, frames)
    return one(lines.event(i, j, message.strip(), error_class, "php", frames), j)


def _at(message: str) -> tuple[str, Frame] | None:
    """``msg in /app/x.php:42`` → (``msg``, frame)."""
    head, sep, tail = message.rpartition(" in ")
    location = split_location(tail.strip()) if sep else None
    return (head, location) if location is not None else None


def _located_message(lines: Lines, i: int, rest: str) -> Found:
    """``msg in /x.php on line 3``: warnings, notices, fatal errors without an exception."""
    frames: list[Frame] = []
    at = rest.rfind(" in ")
    on_line = _ON_LINE.fullmatch(rest, at) if at >= 0 else None
    if on_line:
        frames.append(Frame(on_line.group("file"), int(on_line.group("line"))))
        rest = rest[:at]
    return one(lines.event(i, i + 1, rest.strip(), None, "php", frames), i + 1)


def _stack(lines: Lines, j: int, frames: list[Frame]) -> tuple[list[Frame], int]:
    """``Stack trace:`` frames and the ``thrown in … on line N`` after them."""
    if j >= len(lines) or lines[j].strip() != "Stack trace:":
        return frames, j
    j += 1
    while j < len(lines):
        line = lines[j].strip()
        frame = _FRAME.fullmatch(line)
        other = None if frame else _OTHER_FRAME.fullmatch(line)
        if frame is None and other is None:
            break
        call = (frame or other).group("call")  # type: ignore[union-attr]
        if call and frames and frames[-1].function is None:
            # the call on line #k ran the code of the frame above it
            last = frames[-1]
            frames[-1] = Frame(last.file, last.line, call.partition("(")[0])
        elif not call and frames and frames[-1].function is None:
            frames[-1] = Frame(frames[-1].file, frames[-1].line, "{main}")
        if frame:
            frames.append(Frame(frame.group("file"), int(frame.group("line"))))
        j += 1
    if j < len(lines) and lines[j].strip().startswith("thrown in "):
        j += 1
    return frames, j


PASTES = Pastes((PasteReader(120, php_error),))
