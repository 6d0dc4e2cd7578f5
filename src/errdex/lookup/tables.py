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
from errdex.templates.analysis import shape_of

__all__ = ["Details", "Shared", "bucket", "build_tables", "load_tables", "shared_lines"]

ByKey = dict[str, "Sequence[int] | dict[str, Sequence[int]]"]
Shared = dict[int, tuple[int, ...]]  # a shared line's filed id → every template line it is
Tables = tuple[ByKey, dict[int, tuple[str, ...]], int, dict[int, tuple[str, int]], Shared]

_SPLIT_BUCKET = 32  # key buckets longer than this are split by a second word
_SPARSE = 2  # pattern ids past this many times their count: details are read, not kept
_GAP = 65_536  # ... plus this many (the ids of a small store after deletions)


class Details:
    """Every pattern's text and literal length, by pattern id, held in memory: a hit's
    candidates are then verified without a database read. The texts are one UTF-8 blob cut
    by offsets (about 60 bytes a pattern: ~60 MB at a million), not a million objects.
    Pattern ids are dense (SQLite's row ids); an id without a text reads None."""

    def __init__(self, blob: bytes | bytearray, offsets: array[int], literal: array[int]):
        self.blob, self.offsets, self.literal = blob, offsets, literal

    def get(self, pid: int) -> tuple[str, int] | None:
        """(pattern, literal length) of a pattern, None for an id it does not hold."""
        if 0 <= pid < len(self.literal):
            start, end = self.offsets[pid], self.offsets[pid + 1]
            if end > start:
                return self.blob[start:end].decode(), self.literal[pid]
        return None

    def dump(self) -> tuple[bytes | bytearray, bytes, bytes]:
        return self.blob, self.offsets.tobytes(), self.literal.tobytes()

    @classmethod
    def load(cls, dumped: object) -> Details | None:
        """The details of a snapshot, None for one saved without them."""
        if not isinstance(dumped, tuple) or len(dumped) != 3:
            return None
        blob, offset_bytes, literal_bytes = dumped
        offsets, literal = array("q"), array("l")
        offsets.frombytes(offset_bytes)
        literal.frombytes(literal_bytes)
        return cls(blob, offsets, literal) if len(offsets) == len(literal) + 1 else None


class _Collected:
    """Each pattern's details as the rows stream past, in id order (gaps left empty), or
    None once the ids turn out too sparse."""

    def __init__(self) -> None:
        self.blob = bytearray()
        self.offsets = array("q", [0])
        self.literal = array("l")
        self.count = 0
        self.dense = True
        self.late: dict[int, tuple[str, int]] = {}  # ids below one already seen (rare)

    def rows(self, rows: Iterator[tuple[int, str, str, int]]) -> Iterator[tuple[int, str]]:
        """(pid, pattern) of every row, keeping its details on the way."""
        blob, offsets, literal = self.blob, self.offsets, self.literal
        for pid, pattern, _, length in rows:
            yield pid, pattern
            if not self.dense:
                continue
            if pid < 0 or pid > _SPARSE * (self.count + 1) + _GAP:
                self.dense = False
                continue
            self.count += 1
            if pid < len(literal):
                self.late[pid] = (pattern, length)
                continue
            gap = pid - len(literal)
            if gap:
                offsets.extend([len(blob)] * gap)
                literal.extend([0] * gap)
            blob += pattern.encode()
            offsets.append(len(blob))
            literal.append(length)

    def details(self) -> Details | None:
        if not self.dense or len(self.literal) > _SPARSE * self.count + _GAP:
            return None
        if self.late:  # out of order: laid out again, every id in its place
            again = _Collected()
            held = Details(self.blob, self.offsets, self.literal)
            known = {pid: item for pid in range(len(self.literal))
                     if (item := held.get(pid)) is not None} | self.late
            rows = ((pid, text, "", length) for pid, (text, length) in sorted(known.items()))
            list(again.rows(rows))
            return again.details()
        return Details(self.blob, self.offsets, self.literal)  # a bytearray: not copied


def load_tables(store: Store, layout: int, literal_of: Callable[[str], str]
                ) -> tuple[ByKey, dict[int, tuple[str, ...]], int, dict[int, tuple[str, int]],
                           Retrieval, Details | None, Shared]:
    """The tables, the retrieval, the patterns' details and the shared lines of the store's
    generation: read from its saved snapshot (``layout``: the snapshot format), else built
    (``literal_of``: a pattern's literal text) and saved for the next opening. A snapshot of
    another layout is built again; one saved without details is used without them (read
    from the store), one without shared lines files every line on its own."""
    generation = store.generation()
    saved = store.load_snapshot(generation, layout)
    if saved is not None:
        loaded = marshal.loads(saved)
        del saved  # a hundred megabytes at a million patterns: gone before the arrays come
        by_key, rest, size, parts, dumped, *more = loaded
        retrieval = Retrieval.load(dumped)
        if retrieval is not None:
            return (by_key, rest, size, parts, retrieval,
                    Details.load(more[0] if more else None), more[1] if len(more) > 1 else {})
    by_key, rest, size, parts, shared = build_tables(store)
    collected = _Collected()
    retrieval = Retrieval.build(
        (pid, literal_of(pattern)) for pid, pattern in collected.rows(store.pattern_rows()))
    details = collected.details()
    store.save_snapshot(generation, layout, marshal.dumps(
        (by_key, rest, size, parts, retrieval.dump(), details.dump() if details else None,
         shared)))
    return by_key, rest, size, parts, retrieval, details, shared


def build_tables(store: Store) -> Tables:
    """key word → pattern ids, each pattern's other required words, the lines of
    multi-line patterns (``parts``), filed like patterns under ids of their own, and the
    lines several templates share, each filed once (``shared_lines``).

    A pattern is filed under its rarest word across the whole store, which keeps
    every bucket small: a query then touches few patterns per word of its message.
    """
    intern = sys.intern
    rows: list[tuple[int, list[str]]] = []
    parts: dict[int, tuple[str, int]] = {}
    for pid, pattern, required_words, _ in store.pattern_rows():
        words = required_words.split(" ") if required_words else edge_words(pattern)
        rows.append((pid, [intern(w) for w in words]))
        for line, text, literal, required in pattern_parts(pattern):
            parts[part_id(pid, line)] = (text, literal)
            rows.append((part_id(pid, line), [intern(w) for w in required]))
    size = len(rows) - len(parts)
    # every line counts toward its words' frequency, shared or not: keys as ever
    frequency = Counter(word for _, words in rows for word in words)
    shared = shared_lines(parts)
    filed_elsewhere = {line for lines in shared.values() for line in lines[1:]}
    by_key: dict[str, list[int]] = {}
    rest_words: dict[int, tuple[str, ...]] = {}
    for pid, words in rows:
        if not words or pid in filed_elsewhere:
            continue
        key = min(words, key=lambda w: (frequency[w], -len(w)))
        by_key.setdefault(key, []).append(pid)
        if len(words) > 1:
            rest_words[pid] = tuple(w for w in words if w is not key)
    del rows  # a million small lists, gone before the buckets are laid out again
    # A key word shared by many patterns is split again by each pattern's next rarest
    # word, so a query never walks a long bucket ("" holds the one-word patterns). Buckets
    # are tuples: the collector stops tracking a tuple of numbers, so a million of them are
    # not walked again at each of its passes (lists would be). Each list goes as its tuple
    # comes, so the two are never all held at once.
    tables: ByKey = {}
    for key in list(by_key):
        pids = by_key.pop(key)
        if len(pids) > _SPLIT_BUCKET:
            split: dict[str, list[int]] = {}
            for pid in pids:
                rest = rest_words.get(pid, ())
                second = min(rest, key=lambda w: (frequency[w], -len(w))) if rest else ""
                split.setdefault(second, []).append(pid)
            tables[key] = {second: tuple(ids) for second, ids in split.items()}
        else:
            tables[key] = tuple(pids)
    return tables, rest_words, size, parts, shared


def edge_words(pattern: str) -> list[str]:
    """A pattern's words that touch its holes, once each, for one that has no other word
    to be filed under (``PatternShape.edge_words``)."""
    return list(dict.fromkeys(shape_of(pattern).edge_words()))


def shared_lines(parts: dict[int, tuple[str, int]]) -> Shared:
    """The template lines written alike in several templates (``cannot print margins:\\n
    printer offline`` in each of a thousand functions), by the first one's id: each such
    line is filed, probed and verified once, then stands for all (``Index``). Their
    entries in ``parts`` become one shared object."""
    first: dict[str, int] = {}
    together: dict[int, list[int]] = {}
    for line, (text, _) in parts.items():
        found = first.setdefault(text, line)
        if found != line:
            together.setdefault(found, [found]).append(line)
            parts[line] = parts[found]
    return {line: tuple(lines) for line, lines in together.items()}


def bucket(
    entry: Sequence[int] | dict[str, Sequence[int]] | None, words: set[str]
) -> Sequence[int]:
    """The pattern ids filed under one key word that could fit a message with ``words``."""
    if entry is None:
        return ()
    if not isinstance(entry, dict):  # a list in a snapshot saved before buckets were tuples
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
