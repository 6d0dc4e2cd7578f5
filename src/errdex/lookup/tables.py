"""The index's word tables: each pattern filed under its rarest required word.

A pattern is filed under its rarest word across the whole store, which keeps every bucket
small: a query then touches few patterns per word of its message. Apart from ``index`` so
that it reads as one concern: building the tables, and the bucket a word reaches.
"""

from __future__ import annotations

import marshal
import sys
from collections import Counter
from collections.abc import Callable, Sequence

from errdex.lookup.parts import part_id, pattern_parts
from errdex.lookup.retrieval import Retrieval
from errdex.store.protocol import Store

__all__ = ["bucket", "build_tables", "load_tables"]

ByKey = dict[str, "list[int] | dict[str, list[int]]"]
Tables = tuple[ByKey, dict[int, tuple[str, ...]], int, dict[int, tuple[str, int]]]

_SPLIT_BUCKET = 32  # key buckets longer than this are split by a second word


def load_tables(store: Store, layout: int, literal_of: Callable[[str], str]
                ) -> tuple[ByKey, dict[int, tuple[str, ...]], int,
                                     dict[int, tuple[str, int]], Retrieval]:
    """The tables and the retrieval of the store's generation: read from its saved snapshot
    (``layout``: the snapshot format), else built (``literal_of``: a pattern's literal text)
    and saved for the next opening. A snapshot of another layout is built again."""
    generation = store.generation()
    saved = store.load_snapshot(generation, layout)
    if saved is not None:
        by_key, rest, size, parts, dumped = marshal.loads(saved)
        retrieval = Retrieval.load(dumped)
        if retrieval is not None:
            return by_key, rest, size, parts, retrieval
    by_key, rest, size, parts = build_tables(store)
    retrieval = Retrieval.build(
        (pid, literal_of(pattern)) for pid, pattern, _, _ in store.pattern_rows())
    store.save_snapshot(generation, layout, marshal.dumps(
        (by_key, rest, size, parts, retrieval.dump())))
    return by_key, rest, size, parts, retrieval


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
