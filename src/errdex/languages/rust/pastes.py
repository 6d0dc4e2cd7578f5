"""Rust panics: the current (``at file:l:c:`` + message lines) and old (``'msg', file``) forms."""

from __future__ import annotations

import re

from errdex.languages._engine.pastes import PasteReader, Pastes
from errdex.languages._engine.pastes.common import (
    Found,
    Frame,
    Lines,
    one,
    panic_header,
    split_location,
)

_BACKTRACE_HEADER = "stack backtrace:"
# A log's next timestamped entry ends a panic's message lines (as in logs.TIMESTAMP)
_LOG_ENTRY = re.compile(r"\[?\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}:\d{2}")
_RUST_FRAME = re.compile(r"\s*\d+: +(?:0x[0-9a-fA-F]+ - )?(?P<func>\S.*)")
_RUST_AT = re.compile(r"\s*at (?P<location>\S.*)")


def rust_panic(lines: Lines, i: int) -> Found | None:
    """A panic in the current (``at file:l:c:`` + message lines) or old (``'msg', file``) form."""
    rest = panic_header(lines[i])
    if rest is None:
        return None
    if rest.startswith("'"):
        found = _old_panic_message(lines, i, rest[1:])
        if found is not None:
            message, quoted_at, j = found
            return _finish_panic(lines, i, j, message, quoted_at)
    location = split_location(rest.rstrip().removesuffix(":"))
    j = i + 1
    parts: list[str] = []
    while j < len(lines) and not _ends_panic_message(lines[j]):
        parts.append(lines[j])
        j += 1
    if location is None and parts and _elided(rest):
        # `panicked at ...:` (the location left out by whoever pasted): the message below
        return _finish_panic(lines, i, j, "\n".join(parts).rstrip(), None)
    if location is None:  # not a form we know: keep the header's tail as the message
        tail = rest.strip()
        if len(tail) > 1 and tail[0] == tail[-1] == "'":  # panicked at 'msg' (no location)
            tail = tail[1:-1]
        return _panic_event(lines, i, i + 1, tail, [])
    return _finish_panic(lines, i, j, "\n".join(parts).rstrip(), location)


def _elided(rest: str) -> bool:
    """``...``, ``…``, ``<path>:``: a location someone replaced, not a message of its own."""
    tail = rest.strip().removesuffix(":")
    return not any(c.isalnum() for c in tail) or (tail.startswith("<") and tail.endswith(">"))


def _ends_panic_message(line: str) -> bool:
    stripped = line.strip()
    return (
        not stripped
        or stripped.startswith("note: ")
        or stripped == _BACKTRACE_HEADER
        or panic_header(line) is not None
        or _LOG_ENTRY.match(line) is not None
    )


def _old_panic_message(lines: Lines, i: int, first: str) -> tuple[str, Frame, int] | None:
    """The quoted message of ``panicked at 'msg', src/x.rs:1:2``, which may span lines.

    The message can hold quotes and colons, so the location is after the last
    ``', `` that is followed by a well-formed location.
    """
    parts: list[str] = []
    segment, j = first, i
    while True:
        quote = segment.rfind("', ")
        location = split_location(segment[quote + 3 :].strip()) if quote >= 0 else None
        if location is not None:
            parts.append(segment[:quote])
            return "\n".join(parts), location, j + 1
        parts.append(segment)
        j += 1
        if j >= len(lines) or _ends_panic_message(lines[j]):
            return None
        segment = lines[j]


def _finish_panic(lines: Lines, i: int, j: int, message: str, location: Frame | None) -> Found:
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


def _panic_event(lines: Lines, i: int, stop: int, message: str, frames: list[Frame]) -> Found:
    return one(lines.event(i, stop, message, None, "rust-panic", frames), stop)


def _rust_backtrace(lines: Lines, j: int) -> tuple[list[Frame], int]:
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
            location = split_location(at.group("location").strip())
            if location is not None:
                frames.append(Frame(location.file, location.line, function))
        elif line.strip().startswith("note: "):
            return frames, j + 1
        else:
            break
        j += 1
    return frames, j


# A panic's header may follow a log prefix or a relay's: it is looked for anywhere.
PASTES = Pastes((PasteReader(30, rust_panic),), markers=("panicked at ",))
