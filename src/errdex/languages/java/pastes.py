"""Java and Kotlin stack traces: ``Exception in thread …``, ``at`` frames, ``Caused by:``.

Each exception of a chain is one event, in print order: the top exception,
then each ``Caused by:``. The last is the deepest cause (the root), which
``main_event`` picks. ``Suppressed:`` blocks are read as part of the exception
they are attached to, without events or frames of their own.

Pastes are seldom as the JVM printed them, and each of these is still read with its
frames: a header indented like the rest of a quoted paste, a blank line between the
message and its frames (a message ending in a newline prints one), frames whose
indentation was lost in the copy, a log prefix on every line (``12:20:46 [SEVERE] ``,
``E/AndroidRuntime: ``), Spring's ``…; nested exception is pkg.Error: msg``, Kotlin/Native's
``Uncaught Kotlin exception: kotlin.Error: msg`` and the ``(Coroutine boundary)`` lines
kotlinx.coroutines writes between the frames it recovers.
"""

from __future__ import annotations

import re

from errdex.languages._engine.pastes import PasteReader, Pastes
from errdex.languages._engine.pastes.common import (
    JVM_NAME,
    JVM_PACKAGES,
    ErrorEvent,
    Found,
    Frame,
    Lines,
    looks_like_jvm_class,
    split_class,
    split_location,
)
from errdex.languages._engine.pastes.logs import ends_message
from errdex.languages._engine.pastes.stacks import first_frame_style, frame_style

_IN_THREAD = re.compile(r'Exception in thread "[^"\n]*" ')
_CAUSED_BY = "Caused by: "
_NESTED = "nested exception is "  # Spring's NestedRuntimeException: the cause follows
_NATIVE = "Uncaught Kotlin exception: "  # Kotlin/Native's header before the class
_FRAME = re.compile(r"\s+at (?P<func>[^\s(]+)\((?P<where>[^()\n]*)\)")
# A frame that lost its indentation in the copy: only a JVM file or marker inside.
_BARE_FRAME = re.compile(
    r"at (?P<func>[\w$.<>/\-]+)\((?P<where>[\w$.\-]+\.(?:java|kt|kts|scala|groovy|clj)"
    r"(?::\d+)?|Native Method|Unknown Source(?::\d+)?)\)\s*"
)
_MORE = re.compile(r"\s*\.\.\. \d+ (?:more|common frames omitted)\s*|\s*\(Coroutine boundary\)\s*")
_PREFIX_SCAN = 80  # a log prefix ends within this many characters of a line
_PREFIXED_FRAME = re.compile(r"(?P<prefix>.{0,80}?)(?P<frame>\s+at [^\s(]+\([^()\n]*\)\s*)")
Split = tuple[str, str]


def _any_jvm_name(name: str) -> bool:
    """After ``Exception in thread "main"`` or ``Caused by:`` any JVM name is a class."""
    return JVM_NAME.fullmatch(name) is not None


def _qualified(name: str) -> bool:
    """A header found by its frames alone names its class with its package."""
    return "." in name and looks_like_jvm_class(name)


def jvm_trace(lines: Lines, i: int) -> Found | None:
    """A JVM exception and its causes: one event each, with their frames."""
    line = lines[i]
    split: Split | None
    if line.startswith('Exception in thread "'):
        match = _IN_THREAD.match(line)
        if match is None:
            return None
        split = split_class(line[match.end() :], _any_jvm_name)
    elif line.startswith(_CAUSED_BY):
        split = split_class(line[len(_CAUSED_BY) :], _any_jvm_name)
    elif line.startswith(_NATIVE):
        split = split_class(line[len(_NATIVE) :], _any_jvm_name)
    elif line[:1].isspace():
        return _indented(lines, i)
    else:
        split = _header(lines, i, line)
        if split is None:
            return _prefixed(lines, i)
    if split is None:
        return None
    return _chain(lines, i, split)


def _header(lines: Lines, i: int, line: str) -> Split | None:
    """``pkg.Error: msg`` followed by JVM frames, or after Spring's ``nested exception is``."""
    nested = line.rfind(_NESTED)
    if nested >= 0:
        return split_class(line[nested + len(_NESTED) :], _qualified)
    below = _skip_blank(lines, i + 1)
    style = first_frame_style(lines, below)
    known = style == "jvm" or (style is None and line.startswith(JVM_PACKAGES))
    if not known and (style is not None or _bare_frames_at(lines, below) is None):
        return None
    return split_class(line, looks_like_jvm_class)


def _skip_blank(lines: Lines, j: int) -> int:
    """The first line from ``j`` on that is not blank (``len(lines)`` if none)."""
    while j < len(lines) and not lines[j].strip():
        j += 1
    return j


def _indented(lines: Lines, i: int) -> Found | None:
    """A header indented like the frames under it (a quoted or nested paste)."""
    line = lines[i]
    if frame_style(line) is not None or first_frame_style(lines, i + 1) != "jvm":
        return None
    body = line.lstrip()
    split = split_class(body, _qualified)
    if split is None:
        return None
    return _chain(lines, i, split, indent=len(line) - len(body))


def _prefixed(lines: Lines, i: int) -> Found | None:
    """A header after a log prefix, its frames under it bare or each behind one prefix.

    ``E/Tag: pkg.Error: msg`` over indented frames; ``12:20:46 [SEVERE] pkg.Error: msg``
    over ``12:20:46 [SEVERE]     at …``; ``System.err: pkg.Error: msg`` over
    ``W/System.err:     at …``. A prefixed trace is read again without its prefix.
    """
    line = lines[i]
    if i + 1 >= len(lines) or ": " not in line:
        return None
    below = _PREFIXED_FRAME.fullmatch(lines[i + 1])
    if below is None or frame_style(below.group("frame")) != "jvm":
        return None
    prefix = below.group("prefix")
    for space in re.finditer(r"\s+", line[:_PREFIX_SCAN]):
        split = split_class(line[space.end() :], _qualified)
        if split is None:
            continue
        if not prefix:
            return _chain(lines, i, split)
        stop = i + 1
        while stop < len(lines) and lines[stop].startswith(prefix):
            stop += 1
        rest = (text[len(prefix) :] for text in lines[i + 1 : stop])
        inner = Lines("\n".join((line[space.end() :], *rest)), parent=lines,
                      origin=range(i, stop))
        events, after = _chain(inner, 0, split)
        return events, i + max(after, 1)
    return None


def _chain(lines: Lines, start: int, split: Split, indent: int = 0) -> Found:
    """The exception whose header is line ``start`` and each ``Caused by:`` after it."""
    events: list[ErrorEvent] = []
    while True:
        event, j = _one_exception(lines, start, *split, indent=indent)
        events.append(event)
        if j >= len(lines) or not lines[j].lstrip().startswith(_CAUSED_BY):
            return tuple(events), j
        caused = lines[j].lstrip()
        next_split = split_class(caused[len(_CAUSED_BY) :], _any_jvm_name)
        if next_split is None:
            return tuple(events), j
        split, start, indent = next_split, j, len(lines[j]) - len(caused)


def _one_exception(
    lines: Lines, i: int, error_class: str, first: str, *, indent: int = 0
) -> tuple[ErrorEvent, int]:
    """The exception whose header is line ``i``: its message lines, then its frames."""
    parts = [first]
    j = i + 1
    while j < len(lines) and _continues_message(lines[j]):
        bare = _bare_frames_at(lines, j)
        if bare is not None:
            break  # the rest are its frames, copied without their indentation
        parts.append(_dedent(lines[j], indent))
        j += 1
    frames: list[Frame] = []
    suppressed = False
    while j < len(lines):
        line = lines[j]
        stripped = line.strip()
        frame = _FRAME.match(line) or _BARE_FRAME.fullmatch(line)
        if frame and not suppressed:
            frames.extend(_frame(frame.group("func"), frame.group("where")))
        elif frame or _MORE.fullmatch(line):
            pass
        elif line[:1].isspace() and stripped.startswith(("Suppressed: ", _CAUSED_BY)):
            suppressed = True  # its causes are indented too; its frames are not this one's
        elif not stripped and (after := _frames_after_blank(lines, j)) is not None:
            j = after  # a blank line between a message and its frames, or inside them
            continue
        else:
            break
        j += 1
    message = "\n".join(parts).rstrip()
    return lines.event(i, j, message, error_class, "jvm", frames), j


def _dedent(line: str, indent: int) -> str:
    """A message line of an indented header, without the header's indentation."""
    if not indent:
        return line
    body = line[:indent]
    return line[indent:] if body.isspace() else line.lstrip()


def _continues_message(line: str) -> bool:
    """Message lines run to the first frame, ``Caused by:`` or anything else starting."""
    return frame_style(line) is None and not line.startswith(_CAUSED_BY) and not ends_message(line)


def _bare_frames_at(lines: Lines, j: int) -> int | None:
    """Where the unindented frames starting at line ``j`` end, if they are a stack's.

    They are when the paste ends after them, or a cause or indented frames follow:
    ``at x.Y.z(Y.java:3)`` inside a message (Mockito prints one) is followed by
    more of the message.
    """
    stop = j
    while stop < len(lines) and (_BARE_FRAME.fullmatch(lines[stop]) or _MORE.fullmatch(
            lines[stop])):
        stop += 1
    if stop == j:
        return None
    after = stop
    while after < len(lines) and not lines[after].strip():
        after += 1
    if after == len(lines) or lines[after].lstrip().startswith(_CAUSED_BY):
        return stop
    return stop if frame_style(lines[after]) == "jvm" else None


def _frames_after_blank(lines: Lines, j: int) -> int | None:
    """The line after blank line ``j`` (and the blank ones after it) when a frame is there."""
    k = j
    while k < len(lines) and not lines[k].strip():
        k += 1
    if k == len(lines):
        return None
    line = lines[k]
    if frame_style(line) == "jvm" or _bare_frames_at(lines, k) is not None:
        return k
    return None


def _frame(function: str, where: str) -> list[Frame]:
    """``java.base/java.lang.Integer.parseInt`` + ``Integer.java:668`` → one frame.

    The module or class loader before ``/`` is dropped from the function;
    ``Native Method`` and ``Unknown Source`` frames have no file and are left out.
    """
    location = split_location(where)
    if location is None or location.file == "Unknown Source":
        return []
    return [Frame(location.file, location.line, function.rpartition("/")[2])]


# An indented header gets to the readers by its marker (parse lets only unindented lines
# through otherwise); ``_indented`` takes it only above JVM frames.
PASTES = Pastes((PasteReader(80, jvm_trace),), markers=("Exception: ", "Error: "))
