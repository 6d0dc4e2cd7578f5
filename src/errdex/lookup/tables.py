"""The index's word tables: each pattern filed under its rarest required word.

A pattern is filed under its rarest word across the whole store, which keeps every bucket
small: a query then touches few patterns per word of its message. Apart from ``index`` so
that it reads as one concern: building the tables, and the bucket a word reaches.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence

from errdex.lookup.parts import part_id, pattern_parts
from errdex.store.protocol import Store

__all__ = ["bucket", "build_tables"]

_SPLIT_BUCKET = 32  # key buckets longer than this are split by a second word


def build_tables(store: Store) -> tuple[
    dict[str, list[int] | dict[str, list[int]]], dict[int, tuple[str, ...]], int,
    dict[int, tuple[str, int]],
]:
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
