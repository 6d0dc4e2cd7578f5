"""The index's word tables: each pattern filed under its rarest required word.

A pattern is filed under its rarest word across the whole store, which keeps every bucket
small: a query then touches few patterns per word of its message. Apart from ``index`` so
that it reads as one concern: building the tables, and the bucket a word reaches.
"""

from __future__ import annotations

import marshal
import sys
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from errdex.lookup.parts import part_id, pattern_parts
from errdex.lookup.retrieval import Retrieval
from errdex.store.protocol import Store

__all__ = ["Details", "bucket", "build_tables", "load_tables"]

ByKey = dict[str, "list[int] | dict[str, list[int]]"]
Tables = tuple[ByKey, dict[int, tuple[str, ...]], int, dict[int, tuple[str, int]]]

_SPLIT_BUCKET = 32  # key buckets longer than this are split by a second word
_SPARSE = 2  # pattern ids past this many times their count: details are read, not kept
_GAP = 65_536  # ... plus this many (the ids of a small store after deletions)


class Details:
    """Every pattern's text and literal length, by pattern id, held in memory: a hit's
    candidates are then verified without a database read (about 100 bytes a pattern:
    ~100 MB at a million patterns). Pattern ids are dense (SQLite's row ids)."""

    def __init__(self, texts: list[str], literal: array[int]):
        self.texts, self.literal = texts, literal

    def get(self, pid: int) -> tuple[str, int] | None:
        """(pattern, literal length) of a pattern, None for an id it does not hold."""
        if 0 <= pid < len(self.texts) and (text := self.texts[pid]):
            return text, self.literal[pid]
        return None

    def dump(self) -> tuple[list[str], bytes]:
        return self.texts, self.literal.tobytes()

    @classmethod
    def load(cls, dumped: object) -> Details | None:
        """The details of a snapshot, None for one saved without them."""
        if not isinstance(dumped, tuple) or len(dumped) != 2:
            return None
        texts, literal = dumped
        lengths = array("l")
        lengths.frombytes(literal)
        return cls(texts, lengths) if len(lengths) == len(texts) else None


class _Collected:
    """Each pattern's details as the rows stream past (in id order: no dict of a million
    tuples while the index is built), or None once the ids turn out too sparse."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.literal = array("l")
        self.count = 0
        self.dense = True

    def rows(self, rows: Iterator[tuple[int, str, str, int]]) -> Iterator[tuple[int, str]]:
        """(pid, pattern) of every row, keeping its details on the way."""
        texts, literal = self.texts, self.literal
        for pid, pattern, _, length in rows:
            yield pid, pattern
            if not self.dense:
                continue
            if pid < 0 or pid > _SPARSE * (self.count + 1) + _GAP:
                self.dense = False
                texts.clear()
                del literal[:]
                continue
            if pid == len(texts):  # the usual next id
                texts.append(pattern)
                literal.append(length)
            else:
                if pid > len(texts):
                    gap = pid + 1 - len(texts)
                    texts.extend([""] * gap)
                    literal.extend([0] * gap)
                texts[pid], literal[pid] = pattern, length
            self.count += 1

    def details(self) -> Details | None:
        dense = self.dense and len(self.texts) <= _SPARSE * self.count + _GAP
        return Details(self.texts, self.literal) if dense else None


def load_tables(store: Store, layout: int, literal_of: Callable[[str], str]
                ) -> tuple[ByKey, dict[int, tuple[str, ...]], int,
                                     dict[int, tuple[str, int]], Retrieval, Details | None]:
    """The tables, the retrieval and the patterns' details of the store's generation: read
    from its saved snapshot (``layout``: the snapshot format), else built (``literal_of``: a
    pattern's literal text) and saved for the next opening. A snapshot of another layout is
    built again; one saved without details is used without them (read from the store)."""
    generation = store.generation()
    saved = store.load_snapshot(generation, layout)
    if saved is not None:
        by_key, rest, size, parts, dumped, *more = marshal.loads(saved)
        retrieval = Retrieval.load(dumped)
        if retrieval is not None:
            return by_key, rest, size, parts, retrieval, Details.load(more[0] if more else None)
    by_key, rest, size, parts = build_tables(store)
    collected = _Collected()
    retrieval = Retrieval.build(
        (pid, literal_of(pattern)) for pid, pattern in collected.rows(store.pattern_rows()))
    details = collected.details()
    store.save_snapshot(generation, layout, marshal.dumps(
        (by_key, rest, size, parts, retrieval.dump(), details.dump() if details else None)))
    return by_key, rest, size, parts, retrieval, details


def build_tables(store: Store) -> Tables:
    """key word → pattern ids, each pattern's other required words, and the lines of
    multi-line patterns (``parts``), filed like patterns under ids of their own.

    A pattern is filed under its rarest word across the whole store, which keeps
    every bucket small: a query then touches few patterns per word of its message.
    """
    intern = sys.intern
    rows: list[tuple[int, list[str]]] = []
    parts: dict[int, tuple[str, int]] = {}
    for pid, pattern, required_words, _ in store.pattern_rows():
        rows.append((pid, [intern(w) for w in required_words.split(" ")] if required_words
                     else []))
        for line, text, literal, required in pattern_parts(pattern):
            parts[part_id(pid, line)] = (text, literal)
            rows.append((part_id(pid, line), [intern(w) for w in required]))
    size = len(rows) - len(parts)
    frequency = Counter(word for _, words in rows for word in words)
    by_key: dict[str, list[int]] = {}
    rest_words: dict[int, tuple[str, ...]] = {}
    for pid, words in rows:
        if not words:
            continue
        key = min(words, key=lambda w: (frequency[w], -len(w)))
        by_key.setdefault(key, []).append(pid)
        if len(words) > 1:
            rest_words[pid] = tuple(w for w in words if w is not key)
    # A key word shared by many patterns is split again by each pattern's next rarest
    # word, so a query never walks a long bucket ("" holds the one-word patterns).
    tables: dict[str, list[int] | dict[str, list[int]]] = dict(by_key)
    for key, pids in by_key.items():
        if len(pids) > _SPLIT_BUCKET:
            split: dict[str, list[int]] = {}
            for pid in pids:
                rest = rest_words.get(pid, ())
                second = min(rest, key=lambda w: (frequency[w], -len(w))) if rest else ""
                split.setdefault(second, []).append(pid)
            tables[key] = split
    return tables, rest_words, size, parts


def bucket(
    entry: list[int] | dict[str, list[int]] | None, words: set[str]
) -> Sequence[int]:
    """The pattern ids filed under one key word that could fit a message with ``words``."""
    if entry is None:
        return ()
    if isinstance(entry, list):
        return entry
    found: list[int] = list(entry.get("", ()))
    if len(entry) < len(words):  # a long paste: walk the bucket's few second words
        for second, pids in entry.items():
            if second and second in words:
                found.extend(pids)
        return found
    for word in words:
        found.extend(entry.get(word, ()))
    return found
