"""Variants of one statement's entries, told apart by the values in its holes as a log
parser would tell them apart: ``%s password for %s`` printed ``Accepted``/``Failed``, or
a state ``LOOKING``/``FOLLOWING``, is several events to an operator, one statement to
the source.

A hole's value is split into words. A word holding a digit, a path or an address varies
from the start (numbers, hex, ids, IPs, paths, uuids). The number of words of each hole
is part of the variant. At the end, a word of a slot (a hole, its word count, a
position) stays in the variant when the slot takes few distinct words (an enum: a state,
a verb, a type) and the word came back in several entries; a slot of many distinct
words (user names, hosts, keys), or one that also held a number or an id, varies.
Memory grows with the distinct shapes of a statement's entries, capped: past the cap a
new shape keeps only the words its slots held before (the others vary), and past twice
the cap only its word counts.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from errdex.templates.analysis import shape_of

WILDCARD = "<*>"
_OVER = "<+>"  # a word past the cap: varies, and tells nothing about its slot
Shape = tuple[tuple[str, tuple[str, ...]], ...]  # (hole name, its words), hole by hole

_MAX_WORDS = 24  # words of a hole past this are one tail (a pasted trace, a long text)
_MAX_SHAPES = 2048  # distinct shapes kept per statement; past it only word counts
ENUM_WORDS = 8  # a slot taking more distinct words than this varies (names, keys)
MIN_REPEAT = 2  # a word seen in fewer entries than this at its slot varies
_VARIABLE = re.compile(r"\d|[/\\@]|^[0-9a-fA-F]{8,}$|^[-_.:=,;]*$")


def value_words(value: str) -> tuple[str, ...]:
    """A hole value's words, those that vary by nature (numbers, ids, paths) masked."""
    words = value.split()
    if len(words) > _MAX_WORDS:
        words = [*words[:_MAX_WORDS - 1], WILDCARD]
    return tuple(WILDCARD if _VARIABLE.search(word) else word for word in words)


def shape_of_values(bound: Mapping[str, str]) -> Shape:
    """The raw shape of one entry's hole values (before the statement's slots are known)."""
    return tuple((name, value_words(value)) for name, value in bound.items())


@dataclass
class Variant:
    """One variant of a statement: its hole words, entries, lines and an example."""

    shape: Shape
    count: int
    first_line: int
    last_line: int
    example: str
    text: str | None = None  # the statement's message with this variant's words in its holes

    @property
    def values(self) -> dict[str, str]:
        """Each hole's words as the variant fixes them (``<*>``: a word that varies)."""
        return {name: " ".join(words) for name, words in self.shape}

    @property
    def label(self) -> str:
        """The holes that tell this variant apart (a hole that is all ``<*>`` left out,
        unless every hole is)."""
        every = [f"{_shown(name, i)}={text}" for i, (name, text) in
                 enumerate(self.values.items())]
        shown = [pair for pair, text in zip(every, self.values.values(), strict=True)
                 if text and set(text.split()) != {WILDCARD}]
        return ", ".join(shown or every) or "(no values read)"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"values": self.values, "count": self.count,
                                  "firstLine": self.first_line, "lastLine": self.last_line,
                                  "example": self.example}
        if self.text is not None:
            out["template"] = self.text
        return out


_NAME = re.compile(r"[\w.$()\[\]#-]+")


def _shown(name: str, index: int) -> str:
    """A hole's name for the label, or its place when the name read off the source is
    no name (a quote or a blank in it: the holes did not line up with the code)."""
    return name if _NAME.fullmatch(name) else f"#{index + 1}"


@dataclass
class _Seen:
    count: int
    first_line: int
    last_line: int
    example: str


class Variants:
    """The shapes one statement's entries took, counted as they go by; its variants made
    from them once the entries are all seen (``variant_of``, ``ordered``)."""

    def __init__(self, pattern: str | None = None) -> None:
        """``pattern``: the statement's regex, to write each variant as a message (a
        plain pattern's literal text around its holes)."""
        shape = shape_of(pattern) if pattern else None
        self._fragments = shape.fragments if shape is not None and shape.plain else None
        self.seen: dict[Shape, _Seen] = {}
        self._final: dict[Shape, Shape] | None = None
        self._slots: dict[tuple[str, int, int], set[str]] = {}  # words held, before the cap

    def add(self, shape: Shape, line: int, example: str) -> Shape:
        """Count one entry; the raw shape it is filed under (``variant_of`` reads it)."""
        self._final = None
        shape = self._filed(shape)
        seen = self.seen.get(shape)
        if seen is None:
            if len(self.seen) < _MAX_SHAPES:
                for name, words in shape:
                    for i, word in enumerate(words):
                        self._slots.setdefault((name, len(words), i), set()).add(word)
            self.seen[shape] = _Seen(1, line, line, example)
        else:
            seen.count += 1
            seen.last_line = line
        return shape

    def variant_of(self, shape: Shape) -> Shape:
        """The variant an entry of raw ``shape`` belongs to, over every entry seen."""
        final = self._finish()
        filed = self._filed(shape)
        return final.get(filed) or tuple((name, tuple(WILDCARD if w == _OVER else w
                                                      for w in words))
                                          for name, words in filed)

    def _filed(self, shape: Shape) -> Shape:
        """``shape``, or past the cap the words its slots held before it (the slots are
        no longer added to then, so an entry is filed the same way every time)."""
        if shape in self.seen or len(self.seen) < _MAX_SHAPES:
            return shape
        known = tuple((name, tuple(
            w if w in self._slots.get((name, len(words), i), ()) else _OVER
            for i, w in enumerate(words))) for name, words in shape)
        if known in self.seen or len(self.seen) < 2 * _MAX_SHAPES:
            return known
        return tuple((name, (_OVER,) * len(words)) for name, words in shape)

    def ordered(self) -> list[Variant]:
        """The variants, most entries first (the first line breaks ties)."""
        final = self._finish()
        merged: dict[Shape, Variant] = {}
        for raw, seen in sorted(self.seen.items(), key=lambda item: item[1].first_line):
            key = final[raw]
            variant = merged.get(key)
            if variant is None:
                merged[key] = Variant(key, seen.count, seen.first_line, seen.last_line,
                                      seen.example, self._text(key))
                continue
            variant.count += seen.count
            variant.last_line = max(variant.last_line, seen.last_line)
        return sorted(merged.values(), key=lambda v: (-v.count, v.first_line))

    def _text(self, shape: Shape) -> str | None:
        """The message with the variant's words in its holes (``<*>`` where they vary);
        None when the holes read are not the pattern's (a hole left unread)."""
        fragments = self._fragments
        if fragments is None or len(fragments) != len(shape) + 1:
            return None
        parts = [fragments[0]]
        for (_, words), fragment in zip(shape, fragments[1:], strict=True):
            parts.append(" ".join(WILDCARD if w == _OVER else w for w in words))
            parts.append(fragment)
        return "".join(parts)

    def _finish(self) -> dict[Shape, Shape]:
        if self._final is None:
            self._final = _variants(self.seen)
        return self._final


def _variants(seen: Mapping[Shape, _Seen]) -> dict[Shape, Shape]:
    """Each raw shape's variant: in each slot, the words of an enum that came back kept,
    the others masked. A slot that also held a number or an id varies whole: its words
    are values that happen to hold no digit (the hex ``b`` of ``0xb``, a user ``root``
    beside ``user1``)."""
    slots: dict[tuple[str, int, int], Counter[str]] = {}
    for shape, info in seen.items():
        for name, words in shape:
            for position, word in enumerate(words):
                slot = slots.setdefault((name, len(words), position), Counter())
                if word != _OVER:
                    slot[word] += info.count
    kept = {slot: {w for w, n in words.items() if n >= MIN_REPEAT}
            for slot, words in slots.items()
            if len(words) <= ENUM_WORDS and WILDCARD not in words}
    out: dict[Shape, Shape] = {}
    for shape in seen:
        out[shape] = tuple(
            (name, tuple(word if word in kept.get((name, len(words), i), ()) else WILDCARD
                         for i, word in enumerate(words)))
            for name, words in shape)
    return out


__all__ = ["ENUM_WORDS", "MIN_REPEAT", "WILDCARD", "Shape", "Variant", "Variants",
           "shape_of_values", "value_words"]
