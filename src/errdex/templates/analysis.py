"""Reading stored patterns back: their literal fragments (for the prefilter) and hole names.

Works on any record's pattern, mined or imported, so it reads the regex rather
than trusting side data: a fragment is text outside every group; any regex
syntax outside groups that errdex itself never emits makes the pattern
"opaque" (always verified, never prefiltered).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

_WORD = re.compile(r"[A-Za-z0-9_]+")
_HEX = frozenset("0123456789abcdefABCDEF")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "0": "\0"}


@dataclass(frozen=True)
class PatternShape:
    """What the prefilter and ranking need to know about one pattern."""

    fragments: tuple[str, ...]  # literal runs between groups, in order
    opaque: bool  # regex syntax outside groups: no safe literal requirement
    groups: int  # capturing groups (holes)
    plain: bool = False  # every group is a mandatory ``(.+?)``: matchable without a regex

    def match(self, message: str) -> tuple[str, ...] | None:
        """Hole values if ``message`` fullmatches a plain pattern (same result as the regex).

        With only "one or more of anything" holes, placing each literal fragment at
        its leftmost possible position decides the match and yields exactly the
        values lazy ``(.+?)`` groups capture, without compiling a regex.
        """
        fragments = self.fragments
        first, last = fragments[0], fragments[-1]
        if len(fragments) == 1:
            return () if message == first else None
        if not message.startswith(first):
            return None
        end_limit = len(message) - len(last)
        if end_limit < len(first) or not message.endswith(last):
            return None
        values: list[str] = []
        position = len(first)
        for fragment in fragments[1:-1]:
            found = message.find(fragment, position + 1, end_limit - 1) if fragment else (
                position + 1
            )
            if found == -1 or found + len(fragment) > end_limit - 1:
                return None
            values.append(message[position:found])
            position = found + len(fragment)
        if end_limit - position < 1:
            return None
        values.append(message[position:end_limit])
        return tuple(values)

    @property
    def literal_length(self) -> int:
        return sum(len(f) for f in self.fragments)

    def required_words(self) -> list[str]:
        """Whole words every matching message must contain as tokens.

        A word touching a hole may run into the hole's value, so it is left out.
        """
        if self.opaque:
            return []
        words: list[str] = []
        last = len(self.fragments) - 1
        for index, fragment in enumerate(self.fragments):
            for match in _WORD.finditer(fragment):
                at_hole_before = match.start() == 0 and index > 0
                at_hole_after = match.end() == len(fragment) and index < last
                if at_hole_before or at_hole_after:
                    continue
                words.append(match.group())
        return words

    def edge_words(self) -> list[str]:
        """The words touching a hole, which ``required_words`` leaves out: a message holds
        each as a token unless a hole's value runs into it. A pattern whose every word
        touches a hole (``(.*?)Assertion(.+?)IsObject\\(\\)(.+?)``) is filed under these,
        or no lookup would ever reach it."""
        if self.opaque:
            return []
        return [match.group() for fragment in self.fragments for match in _WORD.finditer(fragment)]


# The common pattern, as errdex writes it: literal text (only punctuation escaped, ``\.``)
# and ``(.+?)`` holes, no other regex syntax.
_PLAIN = re.compile(r"(?:[^\\()\[\]{}.^$*+?|]|\\[^A-Za-z0-9]|\(\.\+\?\))*")
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)


def shape_of(pattern: str) -> PatternShape:
    """Split a pattern into literal fragments around its groups."""
    if _PLAIN.fullmatch(pattern):  # one regex call: what ``_read_shape`` makes of it
        runs = pattern.split("(.+?)")
        if "\\\\" in pattern:  # an escaped backslash: each escape read in turn
            runs = [_ESCAPED.sub(r"\1", run) for run in runs]
        elif "\\" in pattern:  # every backslash escapes the punctuation after it
            runs = [run.replace("\\", "") for run in runs]
        return PatternShape(tuple(runs), False, len(runs) - 1, True)
    if _SIMPLE.fullmatch(pattern):  # typed holes (``(-?\d+)``), escaped line breaks
        return _simple_shape(pattern)
    return _read_shape(pattern)


# What ``_read_shape`` reads without a question: literal text (punctuation escaped, and
# ``\n``-style escapes) and groups (maybe optional) holding character classes and groups two
# levels deep. Each alternative starts with its own character, so matching stays linear in
# any stored pattern. Such a pattern (typed holes, an optional tail, escaped line breaks) is
# read token by token at C speed, to the same shape, where the character loop cost ~10 µs.
_CLASS = r"\[(?:[^\]\\]|\\.)*\]"
_DEEPEST = rf"\((?:[^()\\\[]|\\.|{_CLASS})*\)"
_INNER = rf"\((?:[^()\\\[]|\\.|{_CLASS}|{_DEEPEST})*\)"
_GROUP = rf"\((?:[^()\\\[]|\\.|{_CLASS}|{_INNER})*\)\??"
_SIMPLE = re.compile(rf"(?:[^\\()\[\]{{}}.^$*+?|]|\\[\W_]|\\[ntrfv0]|{_GROUP})*", re.DOTALL)
_TOKEN = re.compile(rf"\\.|{_GROUP}|[^\\(]+", re.DOTALL)


def _simple_shape(pattern: str) -> PatternShape:
    """``_read_shape`` of a pattern ``_SIMPLE`` fullmatches."""
    fragments: list[str] = []
    current: list[str] = []
    groups = 0
    plain = True
    for token in _TOKEN.findall(pattern):
        first = token[0]
        if first == "(":
            if token.count("(") == 1:
                groups += not token.startswith("(?")
            else:  # a group inside, or a parenthesis escaped or in a class
                groups += _count_groups(token)
            plain = plain and token == "(.+?)"
            fragments.append("".join(current))
            current = []
        elif first == "\\":
            current.append(_ESCAPES.get(token[1], token[1]))
        else:
            current.append(token)
    fragments.append("".join(current))
    return PatternShape(tuple(fragments), False, groups, plain)


def _read_shape(pattern: str) -> PatternShape:
    """``shape_of`` read character by character: any pattern."""
    fragments: list[str] = []
    current: list[str] = []
    opaque = False
    plain = True
    groups = 0
    i = 0
    n = len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            if nxt == "x":
                digits = pattern[i + 2 : i + 4]
                if len(digits) == 2 and all(c in _HEX for c in digits):
                    current.append(chr(int(digits, 16)))
                    i += 4
                    continue
            if nxt in _ESCAPES:
                current.append(_ESCAPES[nxt])
            elif nxt.isalnum():  # \d, \s, \b, \x{…} …: a class or code, not a literal
                opaque = True
            else:
                current.append(nxt)
            i += 2
            continue
        if ch == "(":
            end = _group_end(pattern, i)
            if end == -1:
                return PatternShape((), True, 0)
            groups += _count_groups(pattern[i : end + 1])
            plain = plain and pattern[i : end + 1] == "(.+?)"
            i = end + 1
            if i < n and pattern[i] == "?":  # an optional group (…)?
                plain = False
                i += 1
            fragments.append("".join(current))
            current = []
            continue
        if ch in ".^$*+?{}[]|)":
            opaque = True
        current.append(ch)
        i += 1
    fragments.append("".join(current))
    return PatternShape(tuple(fragments), opaque, groups, plain and not opaque)


def _structure(pattern: str, start: int = 0) -> Iterator[tuple[int, str]]:
    """Each character of a regex from ``start`` that is neither escaped nor inside a
    character class (nor the ``[`` opening one), with its index."""
    i = start
    in_class = False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        else:
            yield i, ch
        i += 1


def _group_end(pattern: str, start: int) -> int:
    depth = 0
    for i, ch in _structure(pattern, start):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _count_groups(group_text: str) -> int:
    return sum(
        1 for i, ch in _structure(group_text) if ch == "(" and not group_text.startswith("(?", i)
    )


def prefilter_words(shape: PatternShape) -> list[str]:
    """The pattern's required words, most selective first (longest, then alphabetical).

    The first is the key the lookup index files the pattern under; the rest are
    checked against the message's words before any regex runs.
    """
    return sorted(set(shape.required_words()), key=lambda w: (-len(w), w))


# Each bracketed run stops at the next opening bracket too, so scanning a stored
# message is linear even when it holds thousands of unclosed ``%(`` or ``#{``.
_PLACEHOLDER = re.compile(
    r"\{\{|\}\}|%%|\{[^{}]*\}|%(?:\([^()]*\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d*))?[hlLqjzt]*"
    r"[diouxXeEfFgGcrsavqTwpb]|#\{[^{}]*\}|\$\{[^{}]*\}"
)

_NAME_END = re.compile(r"[:!]")  # a format spec or conversion after a placeholder's name


def placeholder_names(error_message: str, groups: int) -> list[str]:
    """Names for a pattern's holes read off the written message, when they line up."""
    names = []
    for match in _PLACEHOLDER.finditer(error_message):
        text = match.group()
        if text in ("{{", "}}", "%%"):
            continue
        inner = text.strip("{}$#%")
        name = _NAME_END.split(inner, maxsplit=1)[0].strip()
        names.append(name if name and not name.isdigit() else text)
    if len(names) != groups:
        return [str(i) for i in range(1, groups + 1)]
    return names
