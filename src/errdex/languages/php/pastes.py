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
_OLD_UNCAUGHT = re.compile(r"Uncaught exception '(?P<class>[A-Za-z_\\][\w\\]*)' with message '")
_OLD_END = re.compile(r"' in (?P<file>\S+?):(?P<line>\d+)(?=\s|$)")
_ON_LINE = re.compile(r" in (?P<file>\S.*) on line (?P<line>\d+)")
_FRAME = re.compile(r"#\d+ (?P<file>[^(\n]+)\((?P<line>\d+)\): (?P<call>.*)")
_OTHER_FRAME = re.compile(r"#\d+ (?:\[internal function\]: (?P<call>.*)|\{main\})")
_MESSAGE_LINES = 50
_STARTS = ("[", "PHP ", "Fatal", "Recoverable", "Warning", "Notice", "Deprecated", "Parse", "Catch")


def php_error(lines: Lines, i: int) -> Found | None:
    """A PHP error line; an uncaught exception's stack trace and ``thrown in`` line too;
    else what a framework prints of an exception (``_framework_error``)."""
    return _runtime_error(lines, i) or _framework_error(lines, i)


def _runtime_error(lines: Lines, i: int) -> Found | None:
    line = lines[i]
    if ": " not in line or not line.startswith(_STARTS):
        return None
    prefix = _PREFIX.match(line)
    if prefix is None:
        return None
    rest = line[prefix.end() :]
    old = _OLD_UNCAUGHT.match(rest)
    if old is not None:
        return _old_uncaught(lines, i, old.group("class"), rest[old.end() :])
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


def _old_uncaught(lines: Lines, i: int, error_class: str, first: str) -> Found:
    """PHP 5's ``Uncaught exception 'X' with message 'msg' in /x.php:3``: the message ends at
    the first ``' in `` followed by a location (its lines joined; a stack may follow on the
    same line when the paste lost its line ends)."""
    parts, j = [first], i + 1
    while _OLD_END.search("\n".join(parts)) is None and j < min(len(lines), i + _MESSAGE_LINES):
        if lines[j].strip() == "Stack trace:":
            break
        parts.append(lines[j])
        j += 1
    text = "\n".join(parts)
    end = _OLD_END.search(text)
    if end is None:
        return one(lines.event(i, i + 1, first.rstrip("'").strip(), error_class, "php"), i + 1)
    frames = [Frame(end.group("file"), int(end.group("line")))]
    frames, j = _stack(lines, j, frames)
    return one(lines.event(i, j, text[: end.start()].strip(), error_class, "php", frames), j)


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


# --- what frameworks print: Laravel's console (Collision), error pages, log lines -------

# ``App\Errors\NotFound`` (namespaced) or a class named as an error: a header alone on its
# line, maybe in Markdown emphasis, maybe followed by `` in **GET /**`` (the request).
_NAMESPACED = r"\\?[A-Za-z_]\w*(?:\\[A-Za-z_]\w*)+"
_HEADER = re.compile(
    rf"[*`\s]*(?P<class>{_NAMESPACED}(?:Exception|Error))[*`\s]*(?: in \*\*[^*\n]*\*\*)?\s*")
_CLASS_LINE = re.compile(rf"(?P<class>{_NAMESPACED}): (?P<rest>\S.*)")
# what follows the message on a framework's line: ``in file X on line N``, ``in X:N``
_IN_FILE = re.compile(r" in (?:file )?(?P<file>\S+?)(?: on line |:)(?P<line>\d+)\s*$")
_AT = re.compile(r"\s*at (?P<file>\S+):(?P<line>\d+)\s*")
_METHOD = re.compile(rf"{_NAMESPACED}::\w+")  # an error page's frame, not a message
_GUTTER = "\u2595"  # Collision's code frame: ``  ➜ 1019▕     throw new …``


def namespaced_error(lines: Lines, i: int) -> Found | None:
    """``Ns\\Class: msg in file x.php on line 3`` (a namespaced class: PHP's own, surely)."""
    found = _CLASS_LINE.fullmatch(lines[i].rstrip())
    if found is None:
        return None
    message, frames = found.group("rest"), []
    where = _IN_FILE.search(message)
    if where is not None:
        message = message[: where.start()]
        frames.append(Frame(where.group("file"), int(where.group("line"))))
    return one(lines.event(i, i + 1, message.strip(), found.group("class").lstrip("\\"),
                           "php", frames), i + 1)


def header_error(lines: Lines, i: int) -> Found | None:
    """An error page's or the console's header: the class alone on its line, the message
    on the next line that is not blank, then maybe ``at file:line`` and a code frame."""
    found = _HEADER.fullmatch(lines[i])
    if found is None:
        return None
    j = _next_text(lines, i + 1)
    if j is None or _HEADER.fullmatch(lines[j]) or _AT.fullmatch(lines[j]) or _METHOD.fullmatch(
            lines[j].strip()):
        return None
    message, frames = lines[j].strip(), []
    stop = j + 1
    k = _next_text(lines, stop)
    at = _AT.fullmatch(lines[k]) if k is not None else None
    if k is not None and at is not None:
        frames.append(Frame(at.group("file"), int(at.group("line"))))
        stop = k + 1
        while stop < len(lines) and (_GUTTER in lines[stop] or not lines[stop].strip()):
            stop += 1
    return one(lines.event(i, stop, message, found.group("class").lstrip("\\"), "php",
                           frames), stop)


def collision_frame(lines: Lines, i: int) -> Found | None:
    """Laravel's console indents its header, which no reader looks at: its code frame
    (``▕``) is what is seen first, and the header is read from above it."""
    if _GUTTER not in lines[i] or (i > 0 and _GUTTER in lines[i - 1]):
        return None
    start = next((k for k in range(i - 1, max(-1, i - 8), -1) if _HEADER.fullmatch(lines[k])),
                 None)
    if start is None:
        return None
    found = header_error(lines, start)
    if found is None or found[1] <= i:
        return None
    return found


def _next_text(lines: Lines, j: int) -> int | None:
    """The first line at or after ``j`` that is not blank (three at most are skipped)."""
    for k in range(j, min(len(lines), j + 4)):
        if lines[k].strip():
            return k
    return None


def _framework_error(lines: Lines, i: int) -> Found | None:
    # A namespaced class holds a backslash: a line without one is neither reader's (one
    # substring test instead of two regexes on every line a paste is scanned for).
    if "\\" in lines[i]:
        found = namespaced_error(lines, i) or header_error(lines, i)
        if found is not None:
            return found
    return collision_frame(lines, i)


PASTES = Pastes((PasteReader(120, php_error),),
                markers=(_GUTTER, "Exception**", "Exception`**", "Error**", "Error`**"))
