"""Matching a pattern whose holes include integers (``(-?\\d+)``, what ``{:d}`` and ``%d``
become) without compiling it: compiling on RE2 costs a lookup more than all else when the
pattern is met for the first time, and one pattern in eight has such a hole.

The search tries each hole's choices in the order a backtracking engine does (a lazy
``(.+?)`` shortest first, a greedy integer longest first, its ``-`` taken when there), so
the first full match it finds is the one RE2 reports, with the same hole values. It
answers only for ASCII messages (where ``\\d`` is ``[0-9]`` in every engine) of at most
2,000 characters, within a budget of steps; past it, or for any other syntax, ``matching``
compiles the pattern (linear in the text whatever it holds).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["TypedShape", "typed_shape"]

_LAZY, _INTEGER = "(.+?)", r"(-?\d+)"
# A pattern as holes and literal runs (each escape a backslash and a punctuation mark, or
# one of the three control escapes); the whole pattern must read so, else it is not typed.
_TOKEN = re.compile(r"(\(\.\+\?\))|(\(-\?\\d\+\))"
                    r"|((?:[^\\()\[\]{}.^$*+?|]|\\[^A-Za-z0-9]|\\[ntr])+)")
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_CONTROL = {"n": "\n", "t": "\t", "r": "\r"}
_STEPS = 256  # choices tried, at most, before the compiled pattern decides
_LONGEST = 2_000  # a longer message is left to the compiled pattern (linear whatever it holds)
_DIGIT_RUN = re.compile(r"[0-9]*")
_MOST_HOLES = 64  # the search recurses once a hole


def _unescape(run: str) -> str:
    return _ESCAPE.sub(lambda m: _CONTROL.get(m.group(1), m.group(1)), run)


@dataclass(frozen=True)
class TypedShape:
    """A pattern as literal text and holes: each item a literal, ``_LAZY`` or ``_INTEGER``."""

    items: tuple[tuple[bool, str], ...]  # (is a hole, the literal text or the hole's kind)

    def match(self, message: str) -> tuple[bool, tuple[str, ...] | None]:
        """(True, the hole values) if ``message`` fullmatches the pattern, (True, None) if it
        does not, (False, None) when this search cannot say (non-ASCII text, too many
        choices): then the compiled pattern decides."""
        if len(message) > _LONGEST or not message.isascii():
            return False, None
        budget = [_STEPS]
        found = self._from(message, 0, 0, budget)
        return budget[0] >= 0, found

    def _from(self, message: str, at: int, item: int, budget: list[int]
              ) -> tuple[str, ...] | None:
        """The values of the holes from ``item`` on, matching ``message[at:]`` to its end."""
        items = self.items
        while item < len(items) and not items[item][0]:  # literal text: in its place or not
            text = items[item][1]
            if not message.startswith(text, at):
                return None
            at += len(text)
            item += 1
        if item == len(items):
            return () if at == len(message) else None
        after = items[item + 1][1] if item + 1 < len(items) and not items[item + 1][0] else None
        if items[item][1] == _INTEGER:
            ends: Iterable[int] = _integer_ends(message, at, after)
        elif item + 1 == len(items):  # the last hole: the rest of the message
            ends = (len(message),) if len(message) > at else ()
        elif after is None:  # another hole follows at once: every length, shortest first
            ends = range(at + 1, len(message) + 1)
        else:  # shortest first: where the literal after it is found
            ends = _found(message, after, at + 1)
        for end in ends:
            budget[0] -= 1
            if budget[0] < 0:
                return None
            rest = self._from(message, end, item + 1, budget)
            if rest is not None:
                return (message[at:end], *rest)
            if budget[0] < 0:
                return None
        return None


def _found(message: str, text: str, start: int) -> Iterator[int]:
    """Each place ``text`` starts in ``message`` from ``start`` on, in order."""
    at = message.find(text, start)
    while at != -1:
        yield at
        at = message.find(text, at + 1)


def _integer_ends(message: str, at: int, after: str | None) -> Iterable[int]:
    """Where an integer hole starting at ``at`` may end, longest first (``-?`` and ``\\d+``
    are greedy; without its ``-`` the digits could not start at one): each end of its
    digits, or only those where the literal after it is found."""
    start = at + 1 if message.startswith("-", at) else at
    run = _DIGIT_RUN.match(message, start)
    end = run.end() if run is not None else start
    if after is None:
        return range(end, start, -1)
    return _found_backwards(message, after, start + 1, end)


def _found_backwards(message: str, text: str, first: int, last: int) -> Iterator[int]:
    """Each place from ``last`` down to ``first`` where ``text`` starts in ``message``."""
    at = message.rfind(text, first, last + len(text))
    while at != -1:
        yield at
        at = message.rfind(text, first, at - 1 + len(text))


@lru_cache(maxsize=65536)
def typed_shape(pattern: str) -> TypedShape | None:
    """The pattern as literals and holes, None unless it is only literal text, lazy holes and
    integer holes, with one integer hole at least (plain patterns have their own matcher)."""
    items: list[tuple[bool, str]] = []
    at = 0
    for token in _TOKEN.finditer(pattern):
        if token.start() != at:
            return None
        at = token.end()
        lazy, integer, literal = token.groups()
        items.append((False, _unescape(literal)) if literal else (True, lazy or integer))
    holes = sum(1 for hole, _ in items if hole)
    if at != len(pattern) or (True, _INTEGER) not in items or holes > _MOST_HOLES:
        return None
    return TypedShape(tuple(items))
