"""Every worded string literal of a file, read with its language's own string decoders.

One implementation over the specs: a query for the spec's string node types, each
outermost match decoded (``LanguageSpec.strings``), the literal pieces of an
interpolated string taken apart. Docstrings (a statement that is only a string) are
documentation, not output, and are left out.
"""

from __future__ import annotations

import re
from functools import cache
from itertools import islice
from pathlib import Path
from typing import Any

from tree_sitter import Node, Query
from tree_sitter_language_pack import get_language

from errdex.languages._engine.spec import LanguageSpec
from errdex.languages.base import load_query, matches, parse
from errdex.records.text_sites import MAX_CHARS, MIN_WORDS, is_worded
from errdex.templates.template import Literal

# Most text sites kept per file, in source order: a file of thousands of messages (a
# translation table) still costs a bounded number of rows.
MAX_PER_FILE = 200


# Format placeholders (``%s``, ``{}``, ``{name}``, ``${x}``) and line breaks split a literal
# into pieces: the printed text has a value there (or a paste may stop at the line's end),
# so each piece is matched on its own.
# A literal whose source has fewer word-like runs than MIN_WORDS cannot decode to enough
# words: most literals (keys, encodings, single words) are skipped without decoding.
_RAW_WORD = re.compile(rb"[A-Za-z0-9\x80-\xff]+")
_PLACEHOLDER = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?[a-zA-Z]|\$?\{[^{}]*\}")


# The capture of the string patterns a site query carries along (``with_literals``).
LITERAL = "__literal"


@cache
def _patterns(grammar: str, types: tuple[str, ...], capture: str = "s") -> str | None:
    """One pattern per string type the grammar has (a type it lacks is left out)."""
    language = get_language(grammar)  # type: ignore[arg-type]
    known = []
    for kind in types:
        try:
            Query(language, f"({kind}) @s")
        except Exception:
            continue
        known.append(kind)
    return " ".join(f"({t}) @{capture}" for t in known) if known else None


@cache
def _query(grammar: str, types: tuple[str, ...]) -> Query | None:
    """One query for every string type the grammar has."""
    patterns = _patterns(grammar, types)
    return Query(get_language(grammar), patterns) if patterns else None  # type: ignore[arg-type]


@cache
def with_literals(grammar: str, query: Path, types: tuple[str, ...]) -> tuple[Query, int]:
    """A site query with the string patterns after its own, and how many its own are: one
    walk of a file's tree finds its sites and its literals (the walk costs about as much
    as a query's work; a second query walked the whole tree again)."""
    own = load_query(grammar, query)
    patterns = _patterns(grammar, types, LITERAL)
    if patterns is None:
        return own, own.pattern_count
    text = query.read_text(encoding="utf-8") + "\n" + patterns
    return Query(get_language(grammar), text), own.pattern_count  # type: ignore[arg-type]


# The literal nodes a site query found in the last file it read (``keep_literals``), for
# ``file_literals`` of the same bytes: one file at a time, so one entry.
_KEPT: list[tuple[bytes, list[Node]]] = []


def keep_literals(source: bytes, nodes: list[Node]) -> None:
    _KEPT[:] = [(source, nodes)]


def _kept(source: bytes) -> list[Node] | None:
    return _KEPT[0][1] if _KEPT and _KEPT[0][0] is source else None


def file_literals(spec: LanguageSpec[Any], source: bytes) -> list[tuple[int, str]]:
    """(line, text) of each literal piece of at least ``MIN_WORDS`` words, at most
    ``MAX_PER_FILE`` of them."""
    if not spec.strings:
        return []
    found_nodes = _kept(source)
    if found_nodes is None:
        query = _query(spec.grammar, tuple(sorted(spec.strings)))
        if query is None:
            return []
        root = parse(spec.grammar, source).root_node
        found_nodes = [caps["s"][0] for _, caps in matches(query, root)]
    _KEPT.clear()
    nodes = sorted(found_nodes, key=lambda n: (n.start_byte, -n.end_byte))
    found: list[tuple[int, str]] = []
    covered = -1
    for node in nodes:
        if node.start_byte < covered:
            continue  # inside a literal already read (a concatenation, an interpolation)
        covered = node.end_byte
        if _documentation(node):
            continue
        for piece in _pieces(spec, node):
            found.append((node.start_point[0] + 1, piece))
            if len(found) >= MAX_PER_FILE:
                return found
    return found


def _pieces(spec: LanguageSpec[Any], node: Node) -> list[str]:
    if sum(1 for _ in islice(_RAW_WORD.finditer(node.text or b""), MIN_WORDS)) < MIN_WORDS:
        return []
    try:
        message = spec.strings[node.type](node)
    except (ValueError, IndexError, KeyError, AttributeError):  # a decoder's odd corner
        return []
    if message is None:
        return []
    # Each line on its own too: a paste often holds only the first line of a long message.
    texts = (line.strip() for part in message.parts if isinstance(part, Literal)
             for piece in _PLACEHOLDER.split(part.text) for line in piece.split("\n"))
    return [t[:MAX_CHARS] for t in texts if is_worded(t)]


# Where a string that is a statement of its own sits (Python's grammar puts a docstring
# straight in the block or module).
_STATEMENT_PARENTS = frozenset({"block", "module"})


def _documentation(node: Node) -> bool:
    """A string that is a whole statement: a docstring, or ``"use strict"``."""
    parent = node.parent
    if parent is None:
        return False
    return parent.type in _STATEMENT_PARENTS or (
        parent.type == "expression_statement" and parent.named_child_count == 1)
