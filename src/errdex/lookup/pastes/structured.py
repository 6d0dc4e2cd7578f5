"""Structured log lines (JSON, logfmt), Go's loggers (``log``, glog/klog) and gRPC statuses.

A structured line is an event at an error level, or when it carries an error
or a stack. Where it has both a log message (``msg``) and an error
(``error``/``err``), the error is the event's message: it is the text some
``raise``/``errors.New`` site wrote, while ``msg`` is the logging call's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace

from errdex.languages._engine.pastes.common import (
    ErrorEvent,
    Found,
    Frame,
    Lines,
    looks_like_class,
    one,
    split_class,
    split_location,
)
from errdex.languages._engine.pastes.logs import ERROR_LEVELS, LEVEL

# Reads a stack field's text into its main event: ``errdex.lookup.parse.stack_event``,
# passed in by parse (which dispatches to this module, so it cannot be imported here).
StackReader = Callable[[str], ErrorEvent | None]

# ---------------------------------------------------------------------------
# gRPC status errors, inside any Go or log message
# ---------------------------------------------------------------------------

_GRPC = re.compile(r"rpc error: code = (?P<code>\w+) desc = ")


def refine_grpc(event: ErrorEvent) -> ErrorEvent:
    """``… rpc error: code = NotFound desc = msg`` → message ``msg``, class ``NotFound``.

    The ``desc`` is what the server's ``status.Error`` site wrote; what a client
    wrapped around it is call-site context.
    """
    if event.kind not in ("message", "go", "go-panic") or "rpc error: code = " not in event.message:
        return event
    match = _GRPC.search(event.message)
    if match is None:
        return event
    kind = "go" if event.kind == "message" else event.kind
    return replace(
        event, message=event.message[match.end() :].strip(), error_class=match.group("code"),
        kind=kind, segments=(),
    )


# ---------------------------------------------------------------------------
# Go: the standard logger (log.Fatal's last line) and glog/klog
# ---------------------------------------------------------------------------

_GO_STAMP = re.compile(r"\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,9})? ")
_GO_SHORTFILE = re.compile(r"(?P<file>[\w./\-]+\.go):(?P<line>\d+): ")
_ERROR_WORDS = re.compile(
    r"error|fail|cannot|can't|unable|refused|denied|no such|invalid|not found|timed? ?out"
    r"|panic|fatal|exit status",
    re.IGNORECASE,
)
# "E0102 10:11:12.123456   1234 file.go:42] msg" (glog, klog; glog 0.6+ writes the year too:
# "E20240102 10:11:12.123456 1234 file.cc:42] msg")
_GLOG = re.compile(
    r"(?P<level>[IWEF])(?:\d{4})?\d{4} \d{2}:\d{2}:\d{2}\.\d{1,9} +\d+ "
    r"(?P<file>[^\s:\]]+):(?P<line>\d+)\] "
)


def go_log_line(lines: Lines, i: int) -> Found | None:
    """``2026/01/02 10:11:12 open config.yaml: no such file or directory`` (Go's ``log``).

    Go's logger prints no level, so a line counts when it is the paste's last
    (``log.Fatal`` exits right after it) or reads like an error.
    """
    line = lines[i]
    stamp = _GO_STAMP.match(line) if line[:1].isdigit() else None
    if stamp is None:
        return None
    rest = line[stamp.end() :]
    frames: list[Frame] = []
    where = _GO_SHORTFILE.match(rest)
    if where:
        frames.append(Frame(where.group("file"), int(where.group("line"))))
        rest = rest[where.end() :]
    level = LEVEL.match(rest)
    if level is not None:
        if level.group(level.lastgroup or 0) not in ERROR_LEVELS:
            return None
        rest = rest[level.end() :]
    elif not (_is_last_content(lines, i) or _ERROR_WORDS.search(rest)):
        return None
    if not rest.strip():
        return None
    return one(lines.event(i, i + 1, rest.strip(), None, "go", frames), i + 1)


def _is_last_content(lines: Lines, i: int) -> bool:
    j = i + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    return j == len(lines)


def glog_line(lines: Lines, i: int) -> Found | None:
    """glog/klog ``E0102 10:11:12.123456 1234 file.go:42] msg``: the location is a frame."""
    line = lines[i]
    match = _GLOG.match(line) if line[:1] in ("E", "F", "W", "I") else None
    if match is None or match.group("level") not in "EF":
        return None
    message = line[match.end() :].strip()
    file = match.group("file")
    kind = "go" if file.endswith(".go") else "message"
    frame = Frame(file, int(match.group("line")))
    return one(lines.event(i, i + 1, message, None, kind, (frame,)), i + 1)


# ---------------------------------------------------------------------------
# Structured logs: JSON objects and logfmt
# ---------------------------------------------------------------------------

_LEVEL_KEYS = ("level", "lvl", "severity", "levelname", "log.level", "@level", "loglevel")
_MESSAGE_KEYS = ("msg", "message", "@message", "event")
_ERROR_KEYS = ("error", "err", "error.message")
_CLASS_KEYS = ("error.type", "error_class", "exc_type", "exception_class", "class")
_STACK_KEYS = (
    "error.stack_trace", "stack", "stack_trace", "stacktrace", "exc_info", "exception", "traceback",
)
_JSON_ERROR_LEVELS = frozenset(
    {"error", "err", "fatal", "critical", "crit", "alert", "emerg", "emergency", "panic",
     "dpanic", "severe"}
)
_LOGFMT_PAIR = re.compile(r'(?<!\S)(?P<key>[\w.@\-]+)=(?P<value>"(?:[^"\\]|\\.)*"|[^\s"]*)')


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _first(fields: dict[str, object], keys: tuple[str, ...]) -> str:
    return next((text for key in keys if (text := _text(fields.get(key)))), "")


def _is_error_level(value: object) -> bool:
    if isinstance(value, int) and not isinstance(value, bool):
        return value >= 50  # pino and bunyan: 50 error, 60 fatal
    return isinstance(value, str) and value.lower() in _JSON_ERROR_LEVELS


def json_log_line(lines: Lines, i: int, read_stack: StackReader) -> Found | None:
    """One JSON object per line with a message and an error level, error or stack."""
    line = lines[i]
    if not line.startswith("{") or not line.rstrip().endswith("}"):
        return None
    event = structured_event(lines, i, line, lenient=False, read_stack=read_stack)
    return None if event is None else one(event, i + 1)


def structured_event(
    lines: Lines, i: int, line: str, *, lenient: bool, read_stack: StackReader
) -> ErrorEvent | None:
    """The event of a JSON log line; ``lenient`` takes one without an error level too."""
    try:
        fields = json.loads(line)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than a log line is
        return None
    if not isinstance(fields, dict):
        return None
    error = fields.get("error", fields.get("err"))
    nested = error if isinstance(error, dict) else {}
    message = _first(nested, ("message", "msg")) or _first(fields, _ERROR_KEYS)
    error_class = _first(nested, ("type", "name", "class", "kind")) or _first(fields, _CLASS_KEYS)
    stack = _first(nested, ("stack", "stack_trace", "stacktrace")) or _first(fields, _STACK_KEYS)
    code = _first(nested, ("code",)) or None
    level = next((fields[key] for key in _LEVEL_KEYS if key in fields), None)
    if not (lenient or message or stack or _is_error_level(level)):
        return None
    message = message or _first(fields, _MESSAGE_KEYS)
    return _logged_event(lines, i, message, error_class, stack, code, read_stack)


def logfmt_line(lines: Lines, i: int, read_stack: StackReader) -> Found | None:
    """``time=… level=error msg="db down" err="dial tcp: refused" caller=db.go:42``."""
    line = lines[i]
    if "level=" not in line and "lvl=" not in line:
        return None
    fields: dict[str, object] = {}
    for pair in _LOGFMT_PAIR.finditer(line):
        value = pair.group("value")
        if value.startswith('"'):
            value = value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        fields.setdefault(pair.group("key").lower(), value)
    level = next((fields[key] for key in _LEVEL_KEYS if key in fields), None)
    if level is None:
        return None
    message = _first(fields, _ERROR_KEYS)
    if not (message or _is_error_level(level)):
        return None
    event = _logged_event(
        lines, i, message or _first(fields, _MESSAGE_KEYS), "", _first(fields, _STACK_KEYS),
        None, read_stack, split_location(_first(fields, ("caller", "source"))),
    )
    return None if event is None else one(event, i + 1)


def _logged_event(
    lines: Lines, i: int, message: str, error_class: str, stack: str, code: str | None,
    read_stack: StackReader, location: Frame | None = None,
) -> ErrorEvent | None:
    """A structured log line's event; a stack field, parsed, gives the frames and kind."""
    frames: tuple[Frame, ...] = (location,) if location else ()
    kind = "go" if location and location.file.endswith(".go") else "message"
    if stack:
        inner = read_stack(stack)
        if inner is not None:
            frames = inner.frames or frames
            error_class = error_class or inner.error_class or ""
            message = message or inner.message
            kind = inner.kind if inner.kind != "message" else kind
    if not message:
        return None
    if not error_class and (split := split_class(message, looks_like_class)):
        error_class, message = split
    return lines.event(i, i + 1, message, error_class or None, kind, frames, code)
