"""Pasted text → error events: message, class, wrapper kind and stack frames.

A user pastes whatever they have: a bare message, ``ValueError: msg``, a whole
traceback (Python, chained or grouped; Java/Kotlin; Node; .NET; Ruby; PHP), a
Rust or Go panic, pytest output, or log lines around any of these (plain text,
JSON, logfmt, glog). This module finds every error event in that text, or in
a whole log file; ``main_event`` picks the one to explain.

The scan is line by line. Each recognizer (a runtime's, declared on its language's
spec in ``errdex.languages``, or a log format's, here and in ``errdex.lookup.pastes``)
looks at one line and, when it owns it, consumes the lines that belong to its events
and says where the scan goes on, so every line is looked at a bounded number of
times. Regexes are anchored and free of nested unbounded quantifiers: a 1 MB
adversarial paste stays fast.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from errdex.errors import InputTooLargeError, UsageError
from errdex.languages import paste_readers
from errdex.languages._engine.pastes import PasteReader, logs, ordered
from errdex.languages._engine.pastes.common import (
    BUILTIN_CLASSES,
    CLASS_SUFFIXES,
    ErrorEvent,
    Found,
    Frame,
    Lines,
    Recognizer,
    looks_like_class,
)
from errdex.lookup.pastes import debugger, glued, rails, structured

if TYPE_CHECKING:  # a spec's type only: a paste is read without the engine
    from errdex.languages._engine import LanguageSpec
    from errdex.languages._engine.files import FileIndex

__all__ = [
    "MAX_INPUT_CHARS",
    "ErrorEvent",
    "Frame",
    "looks_like_class",
    "main_event",
    "parse_events",
    "paste_events",
    "recognizers",
]

MAX_INPUT_CHARS: int = 1_000_000
"""Longest paste accepted; an error plus its traceback is far shorter."""


def _json_log_line(lines: Lines, i: int) -> Found | None:
    """A JSON log line, its stack field read by ``stack_event`` (passed down, not imported
    by the structured module: parse is the one that dispatches)."""
    return structured.json_log_line(lines, i, stack_event)


def _logfmt_line(lines: Lines, i: int) -> Found | None:
    """A logfmt line, its stack field read by ``stack_event``."""
    return structured.logfmt_line(lines, i, stack_event)


# The log formats' readers, which no language owns; each language's runtime's are on
# its spec (``LanguageSpec.pastes``). Ranks: see ``errdex.languages._engine.pastes``.
_LOG_READERS: tuple[PasteReader, ...] = (
    PasteReader(85, debugger.exception_has_occurred),
    PasteReader(115, rails.rails_error),
    PasteReader(116, rails.ruby_frames),
    PasteReader(130, _json_log_line),
    PasteReader(140, _logfmt_line),
    PasteReader(150, structured.glog_line),
    PasteReader(170, structured.go_log_line),
    PasteReader(900, glued.glued_node_error),
    PasteReader(1000, logs.single_line),
)


def recognizers(specs: Iterable[LanguageSpec[FileIndex]]) -> tuple[Recognizer, ...]:
    """The recognizers tried at each line, in rank order: the specs' and the log formats'.

    The first that owns a line wins: multi-line formats come before single lines, and
    a format's header before the generic ``Class: message`` line it would look like.
    """
    return ordered([*(r for spec in specs for r in spec.pastes.readers), *_LOG_READERS])


_PASTES = paste_readers()  # every language's, without its grammar and mining code
_RECOGNIZERS: tuple[Recognizer, ...] = ordered(
    [*(r for pastes in _PASTES for r in pastes.readers), *_LOG_READERS])
_BARE_STACKS = tuple(pastes.bare_stack for pastes in _PASTES if pastes.bare_stack is not None)
# Texts that start an event anywhere on a line (see ``Pastes.markers``), each once.
_MARKERS: tuple[str, ...] = tuple(
    dict.fromkeys(marker for pastes in _PASTES for marker in pastes.markers)
)


# ---------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------


def parse_events(text: str) -> list[ErrorEvent]:
    """Every error event in ``text``, in order of appearance.

    Works for a paste and for a whole log file: each event's ``text`` is its
    own slice and ``line`` its first line. Text with no recognizable structure
    is one ``message`` event holding the whole stripped text, so a non-blank
    paste always yields at least one event. Blank text yields none. Raises
    ``InputTooLargeError`` above the limit.
    """
    _check_size(text)
    if not text.strip():
        return []
    text = unescape_stack(strip_shared_prefix(text))
    return _scan(Lines(text)) or [_plain_event(text)]


# A stack pasted with its line breaks written out (``Error: msg\\n    at f (x.js:1:2)``,
# copied from a string's repr or an escaped log field): a frame follows a literal ``\\n``.
_ESCAPED_FRAME = re.compile(r'\\n(?=\s*(?:at \S|File "|Caused by: |Traceback \(most))')


def unescape_stack(text: str) -> str:
    """``text`` with the written-out line breaks of such a line made real (a line whose
    text before them is quoted is left whole: its own reader unescapes the value)."""
    if "\\n" not in text:
        return text
    lines = text.split("\n")
    changed = False
    for k, line in enumerate(lines):
        found = _ESCAPED_FRAME.search(line)
        if found is None or line.lstrip()[:1] in ("{", "[") or '"' in line[:found.start()]:
            continue  # a quoted value (JSON, a debugger's watch row): its reader unescapes it
        lines[k] = line.replace("\\r\\n", "\n").replace("\\n", "\n").replace("\\t", "\t")
        changed = True
    return "\n".join(lines) if changed else text


# What a tool puts before every line it relays: ``web_1  | `` (docker compose),
# ``== APP == `` (dapr), ``[server] `` (a task runner's tag), ``> `` (a quoted paste).
# Only such separators count, so a shared timestamp or indentation is never taken for one.
_SEPARATOR = re.compile(r"(?:\||>|==|\]) ?")
# ``docker logs --timestamps``: each line after its own RFC 3339 time and one blank (taken
# off a stack's lines, some indented as frames are, not off a log's).
_STAMPED = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d) ")


def strip_shared_prefix(text: str) -> str:
    """``text`` without a relay prefix that every non-blank line of it carries."""
    if text.lstrip()[:4].isdigit():  # a stack relayed line by line, each line stamped
        stamped = [_STAMPED.match(line) for line in text.split("\n") if line.strip()]
        if len(stamped) > 1 and all(stamped) and any(
                m.string[m.end():m.end() + 1].isspace() for m in stamped if m):
            text = "\n".join(_STAMPED.sub("", line, count=1) for line in text.split("\n"))
    first = text.lstrip("\n").partition("\n")[0]
    # Candidate prefixes end at a separator within the first 40 characters, longest first;
    # each is checked with startswith (C speed, and a wrong one fails on the next line).
    ends = sorted((m.end() for m in _SEPARATOR.finditer(first, 0, 42)), reverse=True)
    if not ends:
        return text
    lines = text.split("\n")
    filled = [line for line in lines if line.strip()]
    if len(filled) < 2:
        return text
    for end in ends:
        prefix = first[:end]
        if prefix.strip() and all(line.startswith(prefix) for line in filled):
            return "\n".join(line[end:] if line.strip() else line for line in lines)
    if _QUOTE.match(first):
        # a Markdown quote whose later lines are lazy continuations, without the marker
        return "\n".join(_QUOTE.sub("", line, count=1) for line in lines)
    return text


_QUOTE = re.compile(r"^>(?!>) ?(?=\S)")


def main_event(text: str) -> ErrorEvent:
    """The event to explain: the last exception or panic, else the last message.

    "Last" follows print order, which differs by runtime, and is what the
    user needs in each: a chained Python traceback prints the exception that
    reached the top last; Java's ``Caused by:`` and .NET's ``--->`` print the
    deepest cause (the root, where the problem started) last; an exception
    group's last leaf comes after the group. Log lines and tool chatter
    (``error: test failed``) are only ``message`` events and rank below these.
    A one-line restatement of an error already shown with line-numbered frames
    (pytest's ``FAILED … - ValueError: msg`` summary, a log line repeating it)
    gives way to that fuller report.
    """
    _check_size(text)
    if not text.strip():
        raise UsageError("empty input: paste an error message, a traceback or a panic")
    return _main_event(text)


# Pastes whose main event is kept: one explain reads its paste several times (the ranking,
# then the text sites, their order and whether they win), and an event is immutable.
_RECENT_PASTES = 8


@lru_cache(maxsize=_RECENT_PASTES)
def paste_events(text: str) -> tuple[ErrorEvent, ...]:
    """``parse_events`` of a paste, parsed once however often one explain asks (its main
    event, then its other errors when the main one matches nothing)."""
    return tuple(parse_events(text))


@lru_cache(maxsize=_RECENT_PASTES)
def _main_event(text: str) -> ErrorEvent:
    """``main_event`` of a checked, non-blank paste, parsed once however often asked."""
    events = list(paste_events(text))
    if len(events) == 1:  # a lone event (most pastes) is the one, whatever it is
        return events[0]
    candidates = [event for event in events if event.kind != "message"] or events
    # A tool's closing "error: exit status 1" only says that what it ran failed before it.
    candidates = [event for event in candidates if not _exit_status(event)] or candidates
    located: dict[str | None, list[str]] = {}
    for event in candidates:
        if _has_lines(event):
            located.setdefault(event.error_class, []).append(event.message.partition("\n")[0])
    for event in reversed(candidates):
        if _has_lines(event) or not _restates(event, located):
            return event
    return candidates[-1]


def stack_event(stack: str) -> ErrorEvent | None:
    """The main event of a stack trace held in a structured log line's field.

    For ``errdex.lookup.pastes.structured``; structured log lines are not looked for
    again inside it, so nesting costs one extra pass at most.
    """
    if len(stack) > MAX_INPUT_CHARS or not stack.strip():
        return None
    events = _scan(Lines(stack), nested=True)
    if not events:
        return _bare_stack(stack)
    structured = [event for event in events if event.kind != "message"]
    return (structured or events)[-1]


def _bare_stack(stack: str) -> ErrorEvent | None:
    """A stack with no header (zap's ``stacktrace`` of Go frames), read by a spec's hook."""
    for read in _BARE_STACKS:
        event = read(Lines(stack))
        if event is not None:
            return event
    return None


# ---------------------------------------------------------------------------
# The scan
# ---------------------------------------------------------------------------

_STRUCTURED_LOGS = frozenset({_json_log_line, _logfmt_line})
# Inside a structured line's stack field, structured lines are not looked for again.
_NESTED_RECOGNIZERS = tuple(r for r in _RECOGNIZERS if r not in _STRUCTURED_LOGS)


def _scan(lines: Lines, *, nested: bool = False) -> list[ErrorEvent]:
    """Every event in ``lines``: each line tried once, or skipped by the event owning it."""
    recognizers = _NESTED_RECOGNIZERS if nested else _RECOGNIZERS
    events: list[ErrorEvent] = []
    final = len(lines) - 1
    while final > 0 and not lines[final].strip():
        final -= 1
    i = 0
    while i < len(lines):
        last = i == final
        found = _recognize(recognizers, lines, i) if _may_start_event(lines[i], last) else None
        if found is None:
            i += 1
            continue
        found_events, stop = found
        events.extend(structured.refine_grpc(event) for event in found_events)
        i = max(stop, i + 1)
    return events


def _recognize(recognizers: tuple[Recognizer, ...], lines: Lines, i: int) -> Found | None:
    """The events starting at line ``i`` and the index after them, if any."""
    for recognizer in recognizers:
        found = recognizer(lines, i)
        if found is not None:
            return found
    return None


def _errorish(lowered: str) -> bool:
    """Whether a lowercased line has an error level's or an error message's words.

    Written out as one expression of substring tests: on the hot path of every
    log line, that is several times faster than a loop or a regex.
    """
    return (
        "error" in lowered or "err=" in lowered or "err:" in lowered or "exception" in lowered
        or "panic" in lowered or "fatal" in lowered or "crit" in lowered or "fail" in lowered
        or "traceback" in lowered or "uncaught" in lowered or "warn" in lowered
        or "severe" in lowered or "alert" in lowered or "emerg" in lowered or "assert" in lowered
        or "abort" in lowered or "denied" in lowered or "refused" in lowered
        or "no such" in lowered or "not found" in lowered or "invalid" in lowered
        or "cannot" in lowered or "can't" in lowered or "unable" in lowered
        or "timed out" in lowered or "timeout" in lowered
    )


def _may_start_event(line: str, last: bool = False) -> bool:
    """A cheap filter before the recognizers, for pastes of many short lines.

    True for every line a recognizer could take: a spec's marker anywhere on it (a
    traceback header, a panic), pytest's ``E``, a log line, ``Class: msg``, a lone
    ``Class``, a JSON or logfmt log line.
    """
    for marker in _MARKERS:  # a loop over a few: as fast as the ``in`` tests written out
        if marker in line:
            return True
    if not line or line[0].isspace():
        return False
    if (line[0].isdigit() or line[0] in "{[") and not last:
        # A timestamped, bracketed or JSON log line starts an event only at an error
        # level or with an error's words: the bulk of a log is skipped at one search.
        # (The last line of a paste is always read: it is what the user copied.)
        return _errorish(line.lower())
    return (
        line[0] in logs.LOG_LINE_STARTS
        or ":" in line
        or "=" in line
        or line[0] in "{["
        or line.rstrip().endswith(CLASS_SUFFIXES)
        or line.rstrip() in BUILTIN_CLASSES
    )


def _plain_event(text: str) -> ErrorEvent:
    """Text with no structure: the whole of it, a lone line without its log prefix.

    A lone JSON log line is read even below an error level: it was pasted.
    """
    stripped = text.strip()
    line = text[: len(text) - len(text.lstrip())].count("\n") + 1
    message = stripped
    if "\n" not in stripped:
        if stripped.startswith("{") and stripped.endswith("}"):
            event = structured.structured_event(
                Lines(stripped), 0, stripped, lenient=True, read_stack=stack_event
            )
            if event is not None:
                return replace(event, line=line)
        message = logs.strip_log_prefix(stripped).rest.strip() or stripped
    return ErrorEvent(message, None, "message", (), stripped, line=line)


def _check_size(text: str) -> None:
    """Refuse pastes past the documented limit before doing any work."""
    if len(text) > MAX_INPUT_CHARS:
        raise InputTooLargeError(
            f"input too large: {len(text):,} characters, limit is {MAX_INPUT_CHARS:,}; "
            "paste only the error message and its traceback"
        )


# ``ExitCode(rawValue: 1)`` (Swift's argument parser), ``exit status 1`` (Go),
# ``Process completed with exit code 1.``, ``Command failed with exit code 2``.
_EXIT_STATUS = re.compile(
    r"(?i)ExitCode\(rawValue: -?\d+\)"
    r"|(?:[A-Za-z]+ ){0,4}exit(?:ed)?(?: with)? (?:status|code):? -?\d+\.?"
)
_EXIT_STATUS_CHARS = 80


def _exit_status(event: ErrorEvent) -> bool:
    """Whether an event's whole message is an exit status: the step that failed is above."""
    message = event.message.strip()
    return len(message) <= _EXIT_STATUS_CHARS and _EXIT_STATUS.fullmatch(message) is not None


def _has_lines(event: ErrorEvent) -> bool:
    return any(frame.line is not None for frame in event.frames)


_RESTATED_LOOKBACK = 64


def _restates(event: ErrorEvent, located: dict[str | None, list[str]]) -> bool:
    """Whether ``event`` repeats the first line of a located event of its class.

    pytest cuts summary lines at the terminal's width (``… int() wi...``), so
    a message ending in ``...`` repeats any line it is the start of. Only the
    last few of a class are compared: a log of thousands stays linear.
    """
    shown = located.get(event.error_class)
    if not shown:
        return False
    message = event.message.partition("\n")[0]
    recent = shown[-_RESTATED_LOOKBACK:]
    if message in recent:
        return True
    cut = message.removesuffix("...")
    return cut != message and any(line.startswith(cut) for line in recent)
