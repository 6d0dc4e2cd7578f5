"""Plain-text log lines and free text: prefixes taken off, ``Class: msg`` lines, messages.

A log line is an event only at an error level: a whole log file has many
info lines that are not errors. Structured logs (JSON, logfmt, glog, Go's
``log``) are in ``structured``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from errdex.languages._engine.pastes.common import (
    CHAIN_MARKERS,
    TRACEBACK_HEADER,
    Found,
    Lines,
    indent,
    kind_of_class,
    looks_like_class,
    one,
    panic_header,
    split_class,
)

# ---------------------------------------------------------------------------
# Plain-text prefixes: timestamp, level, logger
# ---------------------------------------------------------------------------

TIMESTAMP = re.compile(
    r"\[?\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?\]?"
    r"(?: +- +| +|$)"
)
_UPPER_LEVELS = "ERROR|E|WARNING|WARN|CRITICAL|FATAL"
# Capitalised "Error:"/"Fatal:" too, with their colon: what cobra and many CLIs print.
_LOWER_LEVELS = "error|warning|warn|critical|fatal|Error|Fatal"
ERROR_LEVELS = frozenset(
    {"ERROR", "error", "Error", "E", "CRITICAL", "critical", "FATAL", "fatal", "Fatal"}
)
# Lowercase words are levels only with a colon: "error: x" is cargo's, "error while …" is prose.
LEVEL = re.compile(
    rf"\[(?P<bracket>{_UPPER_LEVELS}|{_LOWER_LEVELS})\]:? *"
    rf"|(?P<basic>{_UPPER_LEVELS}):(?=[A-Za-z_][\w.\-]*:)"
    rf"|(?P<upper>{_UPPER_LEVELS})(?::? +|$)"
    rf"|(?P<lower>{_LOWER_LEVELS}): *"
)
# Of a timestamp, a level, or a syslog month
LOG_LINE_STARTS = frozenset("0123456789[ECFWecfwADJMNOS")
# "%(asctime)s - %(name)s - %(levelname)s - %(message)s" (the logging cookbook's format)
_NAME_DASH_LEVEL = re.compile(rf"[A-Za-z_][\w.\-]* - (?P<level>{_UPPER_LEVELS}) - ")
# "%(levelname)s:%(name)s:%(message)s" (logging.basicConfig's format), after the level
_BASIC_CONFIG_NAME = re.compile(r"(?P<name>[A-Za-z_][\w.\-]*):")
# A logger after the level: dotted ("myapp.db: "), a Rust path ("app::db: ", tracing's
# target) or "root: ", or any name before " - "
_LOGGER = re.compile(
    r"(?P<name>[A-Za-z_]\w*(?:(?:\.|::)[\w\-]+)+|root)(?::? - |: )|[A-Za-z_][\w.\-]* - "
)
# Spring Boot, after the level: "4242 --- [main] c.a.App : " ("[app] [main]" in 3.x)
_SPRING = re.compile(r"\d+ --- (?:\[[^\]\n]*\] *)+[\w.$]+ +: ")
# "Jan  2 10:11:12 host app[123]: " (BSD syslog)
_SYSLOG = re.compile(
    r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} "
    r"[^\s:]+ [^\s:\[]+(?:\[\d+\])?: "
)
# env_logger: "[2026-01-02T10:11:12Z ERROR app::db] "
_ENV_LOGGER = re.compile(
    r"\[(?:[^\]\s]+ +)?(?P<level>ERROR|WARN|INFO|DEBUG|TRACE) +[\w:.\-]+\] "
)


class LogLine(NamedTuple):
    rest: str  # the line without timestamp, level and logger
    level: str | None
    prefixed: bool  # whether anything was stripped


def strip_log_prefix(line: str) -> LogLine:
    """Take a leading timestamp, level word and clear logger name off one line.

    Conservative: a logger is only taken when it is dotted, a Rust path,
    ``root``, between colons after the level (``ERROR:myapp:msg``) or followed
    by `` - ``, and never when it looks like an exception class.
    ``ERROR deform_conv2d: bad`` keeps its ``deform_conv2d:``.
    """
    if not line or line[0] not in LOG_LINE_STARTS:
        return LogLine(line, None, False)  # the common case, decided cheaply
    env = _ENV_LOGGER.match(line) if line[0] == "[" else None
    if env:
        return LogLine(line[env.end() :], env.group("level"), True)
    rest = line
    stamp = _stamp(rest)
    if stamp:
        rest = rest[stamp.end() :]
    named = _NAME_DASH_LEVEL.match(rest) if stamp else None
    if named:
        return LogLine(rest[named.end() :], named.group("level"), True)
    level_match = LEVEL.match(rest)
    if level_match is None:
        return LogLine(rest, None, stamp is not None)
    level = level_match.group(level_match.lastgroup or 0)
    after = rest[level_match.end() :]
    spring = _SPRING.match(after)
    if spring:
        return LogLine(after[spring.end() :], level, True)
    logger = (_BASIC_CONFIG_NAME if level_match.group("basic") else _LOGGER).match(after)
    if logger and not looks_like_class(logger.group("name") or ""):
        after = after[logger.end() :]
    return LogLine(after, level, True)


def _stamp(line: str) -> re.Match[str] | None:
    """A leading ISO/Go timestamp, or a syslog prefix (which ends in the program's name)."""
    return TIMESTAMP.match(line) or (_SYSLOG.match(line) if line[0].isalpha() else None)


def is_error_log_line(line: str) -> LogLine | None:
    """The stripped line when it is a log line at an error level."""
    if not line or line[0].isspace():
        return None
    parsed = strip_log_prefix(line)
    if parsed.level in ERROR_LEVELS and parsed.rest.strip():
        return parsed
    return None


# ---------------------------------------------------------------------------
# Single lines: ``Class: message`` and error-level log lines
# ---------------------------------------------------------------------------


def continuation(lines: Lines, j: int, first: str, base: int = 0) -> tuple[str, int]:
    """A message's first line plus the lines that continue it, and where it ends.

    Python prints multi-line messages verbatim, so a message ends only where
    something else clearly starts: a blank line, a chain marker, a traceback, a
    panic, a log line or an unindented ``OtherError: …`` line.
    """
    parts = [first]
    while j < len(lines) and not ends_message(lines[j]):
        parts.append(lines[j][base:] if indent(lines[j]) >= base else lines[j].lstrip())
        j += 1
    return "\n".join(parts).rstrip(), j


def ends_message(line: str) -> bool:
    """Whether ``line`` starts something else: a marker, another error, a log line."""
    stripped = line.strip()
    return (
        not stripped
        or stripped in CHAIN_MARKERS
        or stripped.endswith(TRACEBACK_HEADER)
        or panic_header(line) is not None
        or TIMESTAMP.match(line) is not None
        or is_error_log_line(line) is not None
        or (not line[0].isspace() and split_class(line, looks_like_class) is not None)
    )


def single_line(lines: Lines, i: int) -> Found | None:
    """``ValueError: msg`` (with the lines continuing it) or an error-level log line.

    ``2026-01-02 10:11:12,123 ERROR myapp.db: could not connect`` is a
    ``message`` event; the same prefix before ``ValueError: bad`` is taken off.
    """
    line = lines[i]
    if not line or line[0].isspace():
        return None
    split = split_class(line, looks_like_class)
    parsed = None if split else strip_log_prefix(line)
    if parsed and parsed.prefixed:
        split = split_class(parsed.rest, looks_like_class)
    if split:
        error_class, first = split
        message, stop = continuation(lines, i + 1, first, 0)
        event = lines.event(i, stop, message, error_class, kind_of_class(error_class))
        return one(event, stop)
    if parsed and parsed.level in ERROR_LEVELS and parsed.rest.strip():
        return one(lines.event(i, i + 1, parsed.rest.strip(), None, "message"), i + 1)
    if "rpc error: code = " in line:
        return one(lines.event(i, i + 1, line.strip(), None, "go"), i + 1)
    return None
