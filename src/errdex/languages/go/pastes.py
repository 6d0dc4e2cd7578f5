"""Go: panics and runtime fatal errors with their goroutine traces, and ``go test`` failures.

Go's error *lines* (``log.Fatal``, glog, gRPC statuses) are log formats and
live in ``logs``; wrapped errors (``op: inner: innermost``) need no parsing
here: every event's ``segments`` offer each suffix to the matcher.
"""

from __future__ import annotations

import re

from errdex.languages._engine.pastes import PasteReader, Pastes
from errdex.languages._engine.pastes.common import (
    ErrorEvent,
    Found,
    Frame,
    Lines,
    one,
    split_location,
    strip_call,
)

_RECOVERED = re.compile(r" \[recovered(?:, \w+)?\]$")
_GOROUTINE = re.compile(r"goroutine \d+ [^\[\n]*\[[^\]\n]*\]:")
_TEST_LINE = re.compile(r"\s+(?P<file>[\w.\-/]+_test\.go|[\w.\-/]+\.go):(?P<line>\d+): (?P<msg>.*)")
_FATAL_LOOKAHEAD = 4


def go_panic(lines: Lines, i: int) -> Found | None:
    """``panic: msg`` (or a runtime ``fatal error: msg``) and the goroutine trace after it.

    ``[recovered]`` is taken off the message, and the re-panics Go prints under
    it (``\\tpanic: …``) belong to the same event. Frames are the panicking
    goroutine's only (the first printed), innermost first, as Go prints them.
    """
    line = lines[i]
    if line.startswith("panic: "):
        first = line[len("panic: ") :]
    elif line.startswith("fatal error: ") and _goroutine_follows(lines, i + 1):
        first = line[len("fatal error: ") :]
    else:
        return None
    parts = [_RECOVERED.sub("", first.rstrip())]
    j = i + 1
    while j < len(lines) and not _ends_panic_message(lines[j]):
        parts.append(lines[j])
        j += 1
    while j < len(lines) and _between_message_and_trace(lines, j):
        j += 1
    frames: list[Frame] = []
    if j < len(lines) and _GOROUTINE.match(lines[j]):
        frames, j = go_frames(lines, j)
    message = "\n".join(parts).rstrip()
    return one(lines.event(i, j, message, None, "go-panic", frames), j)


def _between_message_and_trace(lines: Lines, j: int) -> bool:
    """Re-panics under ``[recovered]``, the ``[signal …]`` line, the blank before the trace."""
    if not lines[j].strip():
        return _goroutine_follows(lines, j + 1, 1)
    return lines[j].startswith(("\tpanic: ", "[signal "))


def _ends_panic_message(line: str) -> bool:
    return not line.strip() or line.startswith(("\tpanic: ", "[signal ", "goroutine "))


def _goroutine_follows(lines: Lines, j: int, within: int = _FATAL_LOOKAHEAD) -> bool:
    """Whether a ``goroutine N [state]:`` line comes within the next few lines."""
    return any(_GOROUTINE.match(lines[k]) for k in range(j, min(j + within, len(lines))))


def go_frames(lines: Lines, j: int) -> tuple[list[Frame], int]:
    """Frames of ``goroutine N [running]:`` blocks: ``pkg.f(args)`` then ``\\tfile.go:12 +0x1d``.

    Every goroutine block is consumed (``GOTRACEBACK=all`` prints them all),
    but only the first one's frames are kept: it is the one that failed.
    """
    frames: list[Frame] = []
    function: str | None = None
    blocks = 0
    while j < len(lines):
        line = lines[j]
        if _GOROUTINE.match(line):
            blocks += 1
        elif line.startswith("\t"):
            location = split_location(line.strip().partition(" +0x")[0])
            if location is not None and blocks <= 1:
                frames.append(Frame(location.file, location.line, function))
        elif not line.strip():
            if j + 1 >= len(lines) or not _GOROUTINE.match(lines[j + 1]):
                break
        elif j + 1 < len(lines) and lines[j + 1].startswith("\t"):
            function = _function(line)
        elif not line.startswith("...additional frames elided..."):
            break
        j += 1
    return frames, j


def _function(line: str) -> str:
    """``main.(*T).run(0xc000)`` → ``main.(*T).run``; ``created by main.main in goroutine 1``."""
    line = line.strip()
    if line.startswith("created by "):
        return line[len("created by ") :].partition(" in goroutine ")[0]
    return strip_call(line)


def bare_go_frames(lines: Lines) -> tuple[Frame, ...]:
    """Frames of a goroutine trace without its header, as zap's ``stacktrace`` field holds."""
    frames, _ = go_frames(lines, 0)
    return tuple(frames)


def go_test_failure(lines: Lines, i: int) -> Found | None:
    """``--- FAIL: TestX (0.00s)`` and its ``    x_test.go:12: msg`` lines, one event each."""
    line = lines[i]
    if not line.lstrip().startswith("--- FAIL: "):
        return None
    test = line.lstrip()[len("--- FAIL: ") :].partition(" ")[0]
    events = []
    j = i + 1
    while j < len(lines):
        match = _TEST_LINE.fullmatch(lines[j])
        if match is None:
            break
        first, base = j, len(lines[j]) - len(lines[j].lstrip())
        parts = [match.group("msg")]
        j += 1
        while j < len(lines) and lines[j].strip() and len(lines[j]) - len(lines[j].lstrip()) > base:
            parts.append(lines[j].strip())
            j += 1
        frame = Frame(match.group("file"), int(match.group("line")), test)
        events.append(lines.event(first, j, "\n".join(parts), None, "go", (frame,)))
    return tuple(events), max(j, i + 1)


def bare_go_stack(lines: Lines) -> ErrorEvent | None:
    """A Go trace held alone in a log field: a ``go`` event of its frames, if it has any."""
    frames = bare_go_frames(lines)
    return ErrorEvent("", None, "go", frames, lines.text) if frames else None


# A panic before pytest's and the JVM's readers; a test failure after the structured logs.
PASTES = Pastes(
    (PasteReader(40, go_panic), PasteReader(160, go_test_failure)), bare_stack=bare_go_stack
)
