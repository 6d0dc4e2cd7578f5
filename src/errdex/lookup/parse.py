"""Pasted text → error events: message, class, wrapper kind and stack frames.

A user pastes whatever they have: a bare message, ``ValueError: msg``, a whole
Python traceback (chained or not), pytest's ``E   `` lines, a Rust panic in the
old or the current format, or a log line around any of these. This module finds
every error event in that text; ``main_event`` picks the one to explain.

The scan is line by line. Each recognizer looks at one line, and when it owns
it, consumes the lines that belong to its event and says where the scan goes
on, so every line is looked at a bounded number of times. Regexes are anchored
and free of nested unbounded quantifiers: a 1 MB adversarial paste stays fast.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from operator import add
from typing import NamedTuple

from errdex.errors import InputTooLargeError, UsageError

MAX_INPUT_CHARS: int = 1_000_000
"""Longest paste accepted; an error plus its traceback is far shorter."""


@dataclass(frozen=True)
class Frame:
    """One stack frame: where the code was, as the runtime printed it."""

    file: str  # path as printed (e.g. "/home/u/proj/src/x.py", "src/x.rs")
    line: int | None
    function: str | None = None


@dataclass(frozen=True)
class ErrorEvent:
    """One error found in pasted text, with its language wrapper taken off."""

    message: str  # without "ValueError: " or "thread 'main' panicked at …:"
    error_class: str | None  # "ValueError", "pkg.mod.Error"; None for panics and bare text
    kind: str  # "python" | "rust-panic" | "message"
    frames: tuple[Frame, ...]  # innermost (closest to the raise site) first
    text: str  # the slice of the pasted text this event came from


# ---------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------


def parse_events(text: str) -> list[ErrorEvent]:
    """Every error event in ``text``, in order of appearance.

    Text with no recognizable structure is one ``message`` event holding the
    whole stripped text, so a non-blank paste always yields at least one event.
    Blank text yields none. Raises ``InputTooLargeError`` above the limit.
    """
    _check_size(text)
    if not text.strip():
        return []
    lines = _Lines(text)
    events: list[ErrorEvent] = []
    i = 0
    while i < len(lines):
        found = _recognize(lines, i) if _may_start_event(lines[i]) else None
        if found is None:
            i += 1
            continue
        event, i = found
        events.append(event)
    return events or [_plain_event(text)]


def main_event(text: str) -> ErrorEvent:
    """The event to explain: the last exception or panic, else the last message.

    A chained traceback gives one event per exception; the last one is what
    was raised to the top. Log lines and tool chatter (``error: test failed``)
    after a traceback or panic are only ``message`` events and rank below it.
    """
    _check_size(text)
    if not text.strip():
        raise UsageError("empty input: paste an error message, a traceback or a panic")
    events = parse_events(text)
    structured = [event for event in events if event.kind != "message"]
    return (structured or events)[-1]


def _check_size(text: str) -> None:
    """Refuse pastes past the documented limit before doing any work."""
    if len(text) > MAX_INPUT_CHARS:
        raise InputTooLargeError(
            f"input too large: {len(text):,} characters, limit is {MAX_INPUT_CHARS:,}; "
            "paste only the error message and its traceback"
        )


# ---------------------------------------------------------------------------
# Lines with their offsets, so events can carry their slice of the paste
# ---------------------------------------------------------------------------


class _Lines(list[str]):
    """The pasted text's lines (without line ends), and where each starts in it.

    A list, so the recognizers' many ``lines[j]`` and ``len(lines)`` stay cheap.
    """

    def __init__(self, text: str) -> None:
        raw = text.split("\n")
        super().__init__([line.removesuffix("\r") for line in raw] if "\r" in text else raw)
        self.text = text
        # line k starts after the k lines before it and their k newlines
        self.starts = list(map(add, accumulate(map(len, raw), initial=0), range(len(raw))))

    def slice(self, first: int, stop: int) -> str:
        """Original text of lines ``first`` up to (not including) ``stop``."""
        last = max(first, stop - 1)
        return self.text[self.starts[first] : self.starts[last] + len(self[last])]


_Found = tuple[ErrorEvent, int]


def _may_start_event(line: str) -> bool:
    """A cheap filter before the recognizers, for pastes of many short lines.

    True for every line a recognizer could take: a traceback header, a panic,
    pytest's ``E``, a log line, ``Class: msg`` or a lone ``Class``.
    """
    if "panicked at " in line or "Traceback (" in line:
        return True
    if not line or line[0].isspace():
        return False
    return (
        line[0] in _LOG_LINE_STARTS
        or ":" in line
        or line.rstrip().endswith(_CLASS_SUFFIXES)
        or line.rstrip() in _BUILTIN_CLASSES
    )


def _recognize(lines: _Lines, i: int) -> _Found | None:
    """The event starting at line ``i`` and the index after it, if any."""
    for recognizer in _RECOGNIZERS:
        found = recognizer(lines, i)
        if found is not None:
            return found
    return None


# ---------------------------------------------------------------------------
# Exception class names
# ---------------------------------------------------------------------------

_CLASS_SUFFIXES = ("Error", "Exception", "Warning", "Exit", "Interrupt", "Fault", "Panic")
_BUILTIN_CLASSES = frozenset(
    {
        "BaseException",
        "BaseExceptionGroup",
        "Exception",
        "ExceptionGroup",
        "GeneratorExit",
        "KeyboardInterrupt",
        "StopAsyncIteration",
        "StopIteration",
        "SystemExit",
        "Warning",
    }
)
_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_CAMEL = re.compile(r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*")


def _is_camel(name: str) -> bool:
    return _CAMEL.fullmatch(name) is not None


@lru_cache(maxsize=4096)
def looks_like_class(name: str) -> bool:
    """Whether ``name`` is surely an exception class, in free text.

    ``deform_conv2d_backward`` or ``connection refused`` before a colon are
    parts of a message; ``ValueError``, ``StopIteration``,
    ``requests.exceptions.HTTPError`` and ``psycopg2.errors.UniqueViolation``
    are classes.
    """
    if _DOTTED_NAME.fullmatch(name) is None:
        return False
    if name in _BUILTIN_CLASSES:
        return True
    last = name.rpartition(".")[2]
    if not _is_camel(last):
        return False
    if "." in name:
        return True
    return last.endswith(_CLASS_SUFFIXES) and last not in _CLASS_SUFFIXES


def _split_class(line: str, accept: Callable[[str], bool]) -> tuple[str, str] | None:
    """``Class: message`` or a lone ``Class`` → (class, message), if ``accept`` takes it."""
    name, colon, rest = line.partition(":")
    if not colon:
        name = line.rstrip()
    if not accept(name):
        return None
    if colon and rest and not rest.startswith(" "):
        return None  # "pkg.mod:attr" or "host:port", not "Class: message"
    return name, rest.removeprefix(" ")


def _any_class(name: str) -> bool:
    """In a traceback's last line anything dotted-identifier is a class (``socket.gaierror``)."""
    return _DOTTED_NAME.fullmatch(name) is not None


def _pytest_class(name: str) -> bool:
    """pytest's ``E`` lines: classes like ``Failed`` too, but not ``assert``."""
    return _any_class(name) and ("." in name or name[:1].isupper())


# ---------------------------------------------------------------------------
# Log-line prefixes
# ---------------------------------------------------------------------------

_TIMESTAMP = re.compile(
    r"\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?\]?"
    r"(?: +- +| +|$)"
)
_UPPER_LEVELS = "ERROR|E|WARNING|WARN|CRITICAL|FATAL"
_LOWER_LEVELS = "error|warning|warn|critical|fatal"
_ERROR_LEVELS = frozenset({"ERROR", "error", "E", "CRITICAL", "critical", "FATAL", "fatal"})
# Lowercase words are levels only with a colon: "error: x" is cargo's, "error while …" is prose.
_LEVEL = re.compile(
    rf"\[(?P<bracket>{_UPPER_LEVELS}|{_LOWER_LEVELS})\]:? *"
    rf"|(?P<basic>{_UPPER_LEVELS}):(?=[A-Za-z_][\w.\-]*:)"
    rf"|(?P<upper>{_UPPER_LEVELS})(?::? +|$)"
    rf"|(?P<lower>{_LOWER_LEVELS}): *"
)
_LOG_LINE_STARTS = frozenset("0123456789[ECFWecfw")  # of a timestamp or a level
# "%(asctime)s - %(name)s - %(levelname)s - %(message)s" (the logging cookbook's format)
_NAME_DASH_LEVEL = re.compile(rf"[A-Za-z_][\w.\-]* - (?P<level>{_UPPER_LEVELS}) - ")
# "%(levelname)s:%(name)s:%(message)s" (logging.basicConfig's format), after the level
_BASIC_CONFIG_NAME = re.compile(r"(?P<name>[A-Za-z_][\w.\-]*):")
# A logger after the level: dotted ("myapp.db: ") or "root: ", or any name before " - "
_LOGGER = re.compile(r"(?P<name>[A-Za-z_]\w*(?:\.[\w\-]+)+|root)(?::? - |: )|[A-Za-z_][\w.\-]* - ")


class _LogLine(NamedTuple):
    rest: str  # the line without timestamp, level and logger
    level: str | None
    prefixed: bool  # whether anything was stripped


def _strip_log_prefix(line: str) -> _LogLine:
    """Take a leading timestamp, level word and clear logger name off one line.

    Conservative: a logger is only taken when it is dotted, ``root``, between
    colons after the level (``ERROR:myapp:msg``) or followed by `` - ``, and
    never when it looks like an exception class. ``ERROR deform_conv2d: bad``
    keeps its ``deform_conv2d:``.
    """
    if not line or line[0] not in _LOG_LINE_STARTS:
        return _LogLine(line, None, False)  # the common case, decided cheaply
    rest = line
    stamp = _TIMESTAMP.match(rest)
    if stamp:
        rest = rest[stamp.end() :]
    named = _NAME_DASH_LEVEL.match(rest) if stamp else None
    if named:
        return _LogLine(rest[named.end() :], named.group("level"), True)
    level_match = _LEVEL.match(rest)
    if level_match is None:
        return _LogLine(rest, None, stamp is not None)
    level = level_match.group(level_match.lastgroup or 0)
    after = rest[level_match.end() :]
    logger = (_BASIC_CONFIG_NAME if level_match.group("basic") else _LOGGER).match(after)
    if logger and not looks_like_class(logger.group("name") or ""):
        after = after[logger.end() :]
    return _LogLine(after, level, True)


def _is_error_log_line(line: str) -> _LogLine | None:
    """The stripped line when it is a log line at an error level."""
    if not line or line[0].isspace():
        return None
    parsed = _strip_log_prefix(line)
    if parsed.level in _ERROR_LEVELS and parsed.rest.strip():
        return parsed
    return None


# ---------------------------------------------------------------------------
# Python tracebacks
# ---------------------------------------------------------------------------

_TRACEBACK_HEADER = "Traceback (most recent call last):"
_CHAIN_MARKERS = frozenset(
    {
        "During handling of the above exception, another exception occurred:",
        "The above exception was the direct cause of the following exception:",
    }
)
_PY_FRAME = re.compile(r'File "(?P<file>[^"]*)", line (?P<line>\d+)(?:, in (?P<func>.+))?')


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _python_traceback(lines: _Lines, i: int) -> _Found | None:
    """``Traceback (most recent call last):``, frames, then ``Class: message``."""
    header = lines[i].rstrip()
    if not header.endswith(_TRACEBACK_HEADER):
        return None
    before = header[: -len(_TRACEBACK_HEADER)]
    base = len(before) if not before.strip() else 0
    frames: list[Frame] = []
    j = i + 1
    while j < len(lines):
        line = lines[j]
        frame = _PY_FRAME.match(line.strip())
        if frame:
            func = frame.group("func")
            frames.append(Frame(frame.group("file"), int(frame.group("line")), func))
        elif line.strip() and _indent(line) <= base:
            break  # the exception line: source and carets are indented deeper
        j += 1
    frames.reverse()  # Python prints the outermost frame first
    if j >= len(lines):
        return ErrorEvent("", None, "python", tuple(frames), lines.slice(i, j)), j
    error_class, first = _split_class(lines[j][base:], _any_class) or (None, lines[j][base:])
    message, stop = _continuation(lines, j + 1, first, base)
    return ErrorEvent(message, error_class, "python", tuple(frames), lines.slice(i, stop)), stop


def _continuation(lines: _Lines, j: int, first: str, base: int = 0) -> tuple[str, int]:
    """A message's first line plus the lines that continue it, and where it ends.

    Python prints multi-line messages verbatim, so a message ends only where
    something else clearly starts: a blank line, a chain marker, a traceback, a
    panic, a log line or an unindented ``OtherError: …`` line.
    """
    parts = [first]
    while j < len(lines) and not _ends_message(lines[j]):
        parts.append(lines[j][base:] if _indent(lines[j]) >= base else lines[j].lstrip())
        j += 1
    return "\n".join(parts).rstrip(), j


def _ends_message(line: str) -> bool:
    """Whether ``line`` starts something else: a marker, another error, a log line."""
    stripped = line.strip()
    return (
        not stripped
        or stripped in _CHAIN_MARKERS
        or stripped.endswith(_TRACEBACK_HEADER)
        or _panic_header(line) is not None
        or _TIMESTAMP.match(line) is not None
        or _is_error_log_line(line) is not None
        or (not line[0].isspace() and _split_class(line, looks_like_class) is not None)
    )


def _pytest_block(lines: _Lines, i: int) -> _Found | None:
    """pytest's ``E   Class: message`` lines, and the ``path:line: Class`` after them."""
    if not _is_pytest_e_line(lines[i]) or not lines[i][1:].strip():
        return None  # pytest never starts a block with an empty "E"
    body = lines[i][1:]
    width = _indent(body)
    parts: list[str] = []
    j = i
    while j < len(lines) and _is_pytest_e_line(lines[j]):
        part = lines[j][1:]
        parts.append(part[min(width, _indent(part)) :])
        j += 1
    error_class, first = _split_class(parts[0], _pytest_class) or (None, parts[0])
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
    return ErrorEvent(message, error_class, "python", frames, lines.slice(i, stop)), stop


def _is_pytest_e_line(line: str) -> bool:
    return line == "E" or line.startswith(("E ", "E\t"))


def _pytest_location(line: str) -> tuple[Frame, str] | None:
    """``tests/test_x.py:12: ValueError`` → (frame, class)."""
    head, sep, name = line.rpartition(": ")
    if not sep or not _any_class(name):
        return None
    file, colon, number = head.rpartition(":")
    if not colon or not file or not _is_number(number):
        return None
    return Frame(file, int(number)), name


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


# ---------------------------------------------------------------------------
# Rust panics
# ---------------------------------------------------------------------------

_PANIC_HEADER = re.compile(r"thread '[^'\n]*'(?: \(\d+\))? panicked at ")
_BACKTRACE_HEADER = "stack backtrace:"
_RUST_FRAME = re.compile(r"\s*\d+: +(?:0x[0-9a-fA-F]+ - )?(?P<func>\S.*)")
_RUST_AT = re.compile(r"\s*at (?P<location>\S.*)")


def _panic_header(line: str) -> str | None:
    """What follows ``thread '…' panicked at `` on a panic's first line."""
    if "panicked at " not in line:
        return None
    match = _PANIC_HEADER.search(line)
    return line[match.end() :] if match else None


def _split_location(text: str) -> Frame | None:
    """``src/x.rs:12:5`` or ``src/x.rs:12`` → Frame; the path may hold colons."""
    head, colon, last = text.rpartition(":")
    if not colon or not _is_number(last):
        return None
    file, colon, number = head.rpartition(":")
    if colon and file and _is_number(number):
        return Frame(file, int(number))
    return Frame(head, int(last)) if head else None


def _rust_panic(lines: _Lines, i: int) -> _Found | None:
    """A panic in the current (``at file:l:c:`` + message lines) or old (``'msg', file``) form."""
    rest = _panic_header(lines[i])
    if rest is None:
        return None
    if rest.startswith("'"):
        found = _old_panic_message(lines, i, rest[1:])
        if found is not None:
            message, location, j = found
            return _finish_panic(lines, i, j, message, location)
    location = _split_location(rest.rstrip().removesuffix(":"))
    j = i + 1
    parts: list[str] = []
    while j < len(lines) and not _ends_panic_message(lines[j]):
        parts.append(lines[j])
        j += 1
    if location is None:  # not a form we know: keep the header's tail as the message
        return _panic_event(lines, i, i + 1, rest.strip(), [])
    return _finish_panic(lines, i, j, "\n".join(parts).rstrip(), location)


def _ends_panic_message(line: str) -> bool:
    stripped = line.strip()
    return (
        not stripped
        or stripped.startswith("note: ")
        or stripped == _BACKTRACE_HEADER
        or _panic_header(line) is not None
    )


def _old_panic_message(lines: _Lines, i: int, first: str) -> tuple[str, Frame, int] | None:
    """The quoted message of ``panicked at 'msg', src/x.rs:1:2``, which may span lines.

    The message can hold quotes and colons, so the location is after the last
    ``', `` that is followed by a well-formed location.
    """
    parts: list[str] = []
    segment, j = first, i
    while True:
        quote = segment.rfind("', ")
        location = _split_location(segment[quote + 3 :].strip()) if quote >= 0 else None
        if location is not None:
            parts.append(segment[:quote])
            return "\n".join(parts), location, j + 1
        parts.append(segment)
        j += 1
        if j >= len(lines) or _ends_panic_message(lines[j]):
            return None
        segment = lines[j]


def _finish_panic(lines: _Lines, i: int, j: int, message: str, location: Frame | None) -> _Found:
    """Add the ``stack backtrace:`` frames after the panic location, if printed."""
    frames = [location] if location else []
    if j < len(lines) and lines[j].strip().startswith("note: "):
        note_end = j + 1
        if note_end < len(lines) and lines[note_end].strip() == _BACKTRACE_HEADER:
            j = note_end
        else:
            return _panic_event(lines, i, note_end, message, frames)
    if j < len(lines) and lines[j].strip() == _BACKTRACE_HEADER:
        backtrace, j = _rust_backtrace(lines, j + 1)
        frames.extend(backtrace)
    return _panic_event(lines, i, j, message, frames)


def _panic_event(lines: _Lines, i: int, stop: int, message: str, frames: list[Frame]) -> _Found:
    return ErrorEvent(message, None, "rust-panic", tuple(frames), lines.slice(i, stop)), stop


def _rust_backtrace(lines: _Lines, j: int) -> tuple[list[Frame], int]:
    """``3: crate::f`` then ``at ./src/lib.rs:40:9`` pairs; frames with no file are left out."""
    frames: list[Frame] = []
    function: str | None = None
    while j < len(lines):
        line = lines[j]
        numbered = _RUST_FRAME.fullmatch(line)
        at = None if numbered else _RUST_AT.fullmatch(line)
        if numbered:
            function = numbered.group("func").strip()
        elif at:
            location = _split_location(at.group("location").strip())
            if location is not None:
                frames.append(Frame(location.file, location.line, function))
        elif line.strip().startswith("note: "):
            return frames, j + 1
        else:
            break
        j += 1
    return frames, j


# ---------------------------------------------------------------------------
# Single lines: ``Class: message`` and error-level log lines
# ---------------------------------------------------------------------------


def _single_line(lines: _Lines, i: int) -> _Found | None:
    """``ValueError: msg`` (with the lines continuing it) or an error-level log line.

    ``2026-01-02 10:11:12,123 ERROR myapp.db: could not connect`` is a
    ``message`` event; the same prefix before ``ValueError: bad`` is taken off.
    """
    line = lines[i]
    if not line or line[0].isspace():
        return None
    split = _split_class(line, looks_like_class)
    parsed = None if split else _strip_log_prefix(line)
    if parsed and parsed.prefixed:
        split = _split_class(parsed.rest, looks_like_class)
    if split:
        error_class, first = split
        message, stop = _continuation(lines, i + 1, first)
        return ErrorEvent(message, error_class, "python", (), lines.slice(i, stop)), stop
    if parsed and parsed.level in _ERROR_LEVELS and parsed.rest.strip():
        return ErrorEvent(parsed.rest.strip(), None, "message", (), lines.slice(i, i + 1)), i + 1
    return None


def _plain_event(text: str) -> ErrorEvent:
    """Text with no structure: the whole of it, a lone line without its log prefix."""
    stripped = text.strip()
    message = stripped
    if "\n" not in stripped:
        message = _strip_log_prefix(stripped).rest.strip() or stripped
    return ErrorEvent(message, None, "message", (), stripped)


_RECOGNIZERS: tuple[Callable[[_Lines, int], _Found | None], ...] = (
    _python_traceback,
    _rust_panic,
    _pytest_block,
    _single_line,
)
