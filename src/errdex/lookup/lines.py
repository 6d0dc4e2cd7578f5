"""A paste's own lines, read one by one as messages: the parsed event's message may be a
wrapper line, or a paste may hold several messages, while another line is the one a
record raises. Bounded: the first ``MAX_LINES`` lines that are not stack frames."""

from __future__ import annotations

import re

from errdex.languages._engine.pastes.common import ErrorEvent
from errdex.languages._engine.pastes.logs import strip_log_prefix
from errdex.lookup.parse import paste_events

MAX_LINES = 40  # lines read as messages, at most, per paste
_MIN_CHARS = 8  # a shorter line says too little to be a message of its own
_MAX_CHARS = 2_000  # a longer line is data, not a message
# A stack frame or a frame's continuation: JVM/.NET/Node ``at …``, Python ``File "…"``,
# Ruby ``from …``, Rust ``12: …``, a numbered native frame ``#3 …``, ``... 12 more``,
# a Go frame's ``/path/file.go:12 +0x1d`` and a bare ``path:line``.
_FRAME = re.compile(
    r"\s*(?:at\s|File \"|from\s|\d+:\s|#\d+\s|\.\.\.\s\d+\smore|goroutine\s\d+"
    r"|\S+\.\w{1,6}:\d+(?::\d+)?\)?(?:\s\+0x[0-9a-f]+)?\s*$)"
)


def message_lines(paste: str, already: str) -> list[str]:
    """The paste's first ``MAX_LINES`` lines that could be messages, each without its log
    prefix, in order, without ``already`` (the event's message, tried first)."""
    found: list[str] = []
    seen = {already.strip(), already.partition("\n")[0].strip()}
    start = 0
    looked = 0
    while start <= len(paste) and len(found) < MAX_LINES and looked < 8 * MAX_LINES:
        end = paste.find("\n", start)
        if end < 0:
            end = len(paste)
        line = paste[start:end].strip()
        start = end + 1
        looked += 1
        if not _MIN_CHARS <= len(line) <= _MAX_CHARS or _FRAME.match(line):
            continue
        rest = strip_log_prefix(line).rest.strip() or line
        if rest not in seen:
            seen.add(rest)
            found.append(rest)
        if end == len(paste):
            break
    return found


def line_event(line: str, error_class: str | None) -> ErrorEvent:
    """One line of a paste as an event of its own (the paste's class kept: it may name it)."""
    return ErrorEvent(line, error_class, "message", (), line)


def other_events(paste: str, event: ErrorEvent) -> list[ErrorEvent]:
    """The paste's errors other than ``event``, last first, as the parser read them (class
    and quotes apart): the wrapper of a cause another library raised may be the one a
    record of the repository throws."""
    mine = event.message.strip()
    return [other for other in reversed(paste_events(paste))
            if other.kind != "message" and other.message.strip() not in ("", mine)]
