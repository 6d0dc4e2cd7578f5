"""What every recognizer shares: the event types, the line list, class names, locations."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from operator import add

MAX_SEGMENTS = 16
"""Most suffixes kept in ``ErrorEvent.segments``: wrapped chains are short, pastes need not be."""


@dataclass(frozen=True)
class Frame:
    """One stack frame: where the code was, as the runtime printed it."""

    file: str  # path as printed (e.g. "/home/u/proj/src/x.py", "src/x.rs")
    line: int | None
    function: str | None = None


@dataclass(frozen=True)
class ErrorEvent:
    """One error found in pasted text, with its language wrapper taken off.

    ``code`` is a machine code printed beside the class (Node's ``ERR_X`` in
    ``Error [ERR_X]: msg``, ``code: 'ENOENT'``). ``line`` is the 1-based line of
    the input the event starts on (0 when not parsed from text), so a log scan
    can point at it. ``segments`` are the message's ``": "``-separated suffixes,
    longest first (``"a: b: c"`` → ``("a: b: c", "b: c", "c")``): wrapped errors
    (Go's ``op: inner: innermost``, Java's ``X: Y: msg``) carry the raise site's
    text at the end, so the matcher tries each. Derived from ``message`` when
    not given.
    """

    message: str  # without "ValueError: " or "thread 'main' panicked at …:"
    error_class: str | None  # "ValueError", "java.io.IOException"; None for panics and bare text
    kind: str  # "python" | "rust-panic" | "go-panic" | "go" | "jvm" | "node" | "dotnet" |
    #            "ruby" | "php" | "message" (a log line or bare text, language unknown)
    frames: tuple[Frame, ...]  # innermost (closest to the raise site) first
    text: str  # the slice of the pasted text this event came from
    code: str | None = None
    line: int = 0
    segments: tuple[str, ...] = ()
    # The message as the runtime printed it, when reading it took parts off that a record
    # may hold (.NET's `` (Parameter 'x')`` and ``Object name: 'X'.`` lines): read too.
    printed: str | None = None

    def __post_init__(self) -> None:
        if not self.segments and self.message:
            object.__setattr__(self, "segments", message_segments(self.message))


def message_segments(message: str) -> tuple[str, ...]:
    """``message`` and its suffixes after each ``": "`` of its first line, longest first.

    Only the first line is cut: later lines of a multi-line message are detail
    (``left: 4``), not wrapping. Past ``MAX_SEGMENTS`` the innermost suffixes
    are kept, since the raise site's text is at the end.
    """
    if ": " not in message:
        return (message,)  # the common case, decided cheaply
    first_line_end = message.find("\n")
    if first_line_end < 0:
        first_line_end = len(message)
    cuts: list[int] = []
    at = message.find(": ", 0, first_line_end)
    while at >= 0:
        cuts.append(at + 2)
        at = message.find(": ", at + 2, first_line_end)
    suffixes = [message[cut:] for cut in cuts[-(MAX_SEGMENTS - 1) :]]
    return (message, *(suffix for suffix in suffixes if suffix.strip()))


# ---------------------------------------------------------------------------
# Lines with their offsets, so events can carry their slice of the paste
# ---------------------------------------------------------------------------


class Lines(list[str]):
    """The pasted text's lines (without line ends), and where each starts in it.

    A list, so the recognizers' many ``lines[j]`` and ``len(lines)`` stay cheap.
    A derived list (an exception group with its box drawing taken off) keeps
    ``origin``: its lines' indices in the paste, so events still carry the
    paste's own slice and line number.
    """

    def __init__(
        self, text: str, *, parent: Lines | None = None, origin: Sequence[int] = ()
    ) -> None:
        raw = text.split("\n")
        super().__init__([line.removesuffix("\r") for line in raw] if "\r" in text else raw)
        self.text = text
        self.parent = parent
        self.origin = origin
        self.frame_style_cache: list[str | None] | None = None  # see stacks.first_frame_style
        # line k starts after the k lines before it and their k newlines
        self.starts = list(map(add, accumulate(map(len, raw), initial=0), range(len(raw))))

    def slice(self, first: int, stop: int) -> str:
        """Original text of lines ``first`` up to (not including) ``stop``."""
        last = max(first, stop - 1)
        if self.parent is not None:
            return self.parent.slice(self.origin[first], self.origin[last] + 1)
        return self.text[self.starts[first] : self.starts[last] + len(self[last])]

    def number(self, index: int) -> int:
        """1-based line number in the paste of line ``index``."""
        if self.parent is not None:
            return self.parent.number(self.origin[index])
        return index + 1

    def event(
        self,
        first: int,
        stop: int,
        message: str,
        error_class: str | None,
        kind: str,
        frames: Sequence[Frame] = (),
        code: str | None = None,
        printed: str | None = None,
    ) -> ErrorEvent:
        """An event made of lines ``first`` to ``stop``, with its text and line number."""
        return ErrorEvent(
            message, error_class, kind, tuple(frames), self.slice(first, stop),
            code=code, line=self.number(first), printed=printed if printed != message else None,
        )


Found = tuple[tuple[ErrorEvent, ...], int]
"""What a recognizer returns: the events it read (maybe none) and the line after them."""

Recognizer = Callable[[Lines, int], Found | None]


def one(event: ErrorEvent, stop: int) -> Found:
    return (event,), stop


TRACEBACK_HEADER = "Traceback (most recent call last):"
CHAIN_MARKERS = frozenset(
    {
        "During handling of the above exception, another exception occurred:",
        "The above exception was the direct cause of the following exception:",
    }
)
# A Rust panic's first line: it ends any message before it, whoever printed that message.
_PANIC_HEADER = re.compile(r"thread '[^'\n]*'(?: \(\d+\))? panicked at ")


def panic_header(line: str) -> str | None:
    """What follows ``thread '…' panicked at `` on a panic's first line."""
    if "panicked at " not in line:
        return None
    match = _PANIC_HEADER.search(line)
    return line[match.end() :] if match else None

# ---------------------------------------------------------------------------
# Exception class names
# ---------------------------------------------------------------------------

CLASS_SUFFIXES = ("Error", "Exception", "Warning", "Exit", "Interrupt", "Fault", "Panic")
BUILTIN_CLASSES = frozenset(
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
DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_CAMEL = re.compile(r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*")
# JVM names may hold "$" (inner classes: com.x.Outer$InnerException)
JVM_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
# Where a bare "pkg.Class: msg" line says which runtime printed it
JVM_PACKAGES = (
    "java.", "javax.", "jakarta.", "kotlin.", "kotlinx.", "android.", "androidx.",
    "org.", "com.", "scala.", "groovy.", "clojure.",
)
DOTNET_NAMESPACES = ("System.", "Microsoft.")


def is_camel(name: str) -> bool:
    return _CAMEL.fullmatch(name) is not None


@lru_cache(maxsize=4096)
def looks_like_class(name: str) -> bool:
    """Whether ``name`` is surely an exception class, in free text.

    ``deform_conv2d_backward`` or ``connection refused`` before a colon are
    parts of a message; ``ValueError``, ``StopIteration``,
    ``requests.exceptions.HTTPError`` and ``psycopg2.errors.UniqueViolation``
    are classes.
    """
    if DOTTED_NAME.fullmatch(name) is None:
        return False
    if name in BUILTIN_CLASSES:
        return True
    last = name.rpartition(".")[2]
    if not is_camel(last):
        return False
    if "." in name:
        return True
    return last.endswith(CLASS_SUFFIXES) and last not in CLASS_SUFFIXES


def looks_like_jvm_class(name: str) -> bool:
    """A class by ``looks_like_class``, or a JVM one with ``$`` (``a.Outer$InnerError``)."""
    if "$" not in name:
        return looks_like_class(name)
    return JVM_NAME.fullmatch(name) is not None and looks_like_class(name.replace("$", ""))


def kind_of_class(name: str) -> str:
    """The runtime a lone ``pkg.Class: msg`` line most likely came from, by its package."""
    if name.startswith(JVM_PACKAGES):
        return "jvm"
    if name.startswith(DOTNET_NAMESPACES):
        return "dotnet"
    return "python"


def split_class(line: str, accept: Callable[[str], bool]) -> tuple[str, str] | None:
    """``Class: message`` or a lone ``Class`` → (class, message), if ``accept`` takes it."""
    name, colon, rest = line.partition(":")
    if not colon:
        name = line.rstrip()
    if not accept(name):
        return None
    if colon and rest and not rest.startswith(" "):
        return None  # "pkg.mod:attr" or "host:port", not "Class: message"
    return name, rest.removeprefix(" ")


def any_class(name: str) -> bool:
    """In a traceback's last line anything dotted-identifier is a class (``socket.gaierror``)."""
    return DOTTED_NAME.fullmatch(name) is not None


# ---------------------------------------------------------------------------
# Locations and small helpers
# ---------------------------------------------------------------------------


def is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


def indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def split_location(text: str) -> Frame | None:
    """``src/x.rs:12:5`` or ``src/x.rs:12`` → Frame; the path may hold colons."""
    head, colon, last = text.rpartition(":")
    if not colon or not is_number(last):
        return None
    file, colon, number = head.rpartition(":")
    if colon and file and is_number(number):
        return Frame(file, int(number))
    return Frame(head, int(last)) if head else None


def strip_call(text: str) -> str:
    """``main.(*T).run(0xc000, {0x1})`` → ``main.(*T).run``: the last balanced ``(…)`` goes."""
    text = text.rstrip()
    if not text.endswith(")"):
        return text
    depth = 0
    for at in range(len(text) - 1, -1, -1):
        char = text[at]
        if char == ")":
            depth += 1
        elif char == "(":
            depth -= 1
            if depth == 0:
                return text[:at] if at else text
    return text
