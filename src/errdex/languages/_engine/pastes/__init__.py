"""Reading pasted errors: the vocabulary every runtime's paste reader shares.

A language whose runtime prints errors declares, on its spec, the recognizers that read
them (``Pastes.readers``); ``errdex.lookup.parse`` tries every spec's, with the log
formats' own, in ``rank`` order at each line. A recognizer has the signature
``(lines, i) -> (events, next) | None`` (``common.Found``): at line ``i`` it either owns
the line, reads its events and says where the scan goes on, or returns None.

Ranks (lower first; the first recognizer that owns a line wins). Multi-line formats
come before single lines, and a format's header before the generic ``Class: message``
line it would otherwise look like:

====  ===========================================================
10    Python exception group        20  Python traceback
30    Rust panic                    40  Go panic
50    pytest traceback              60  pytest ``E`` block
70    pytest summary line           80  Java/Kotlin stack
90    .NET stack                    100 Node stack
110   Ruby backtrace                120 PHP error
130   JSON log line                 140 logfmt line
150   glog line                     160 Go test failure
170   Go ``log`` line               1000 ``Class: message`` / log line
====  ===========================================================

``common.py`` holds the event types (``ErrorEvent``, ``Frame``), the line list
(``Lines``) and the class-name and location helpers; ``stacks.py`` tells whose an
indented ``at …`` frame is; ``logs.py`` reads plain-text log prefixes and single lines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from errdex.languages._engine.pastes.common import ErrorEvent, Found, Frame, Lines, Recognizer

__all__ = [
    "ErrorEvent", "Found", "Frame", "Lines", "PasteReader", "Pastes", "Recognizer", "ordered",
]


@dataclass(frozen=True)
class PasteReader:
    """A recognizer and its rank among every language's (see the table above)."""

    rank: int
    recognize: Recognizer


@dataclass(frozen=True)
class Pastes:
    """What a language's runtime prints that a paste may hold.

    ``markers`` are texts that start an event wherever they are on a line, even an
    indented or prefixed one (``Traceback (``, ``panicked at ``): parse's cheap filter
    lets such lines through to the recognizers, as it does unindented lines with a
    colon, an ``=``, a class name or a log prefix. ``bare_stack`` reads a stack trace
    with no header (a log field holding only Go frames) when no recognizer found an
    event in it.
    """

    readers: tuple[PasteReader, ...] = ()
    markers: tuple[str, ...] = ()
    bare_stack: Callable[[Lines], ErrorEvent | None] | None = None


def ordered(readers: Iterable[PasteReader]) -> tuple[Recognizer, ...]:
    """The recognizers by rank, each once (specs of one runtime may share a reader)."""
    unique = list(dict.fromkeys(readers))
    return tuple(reader.recognize for reader in sorted(unique, key=lambda r: r.rank))
