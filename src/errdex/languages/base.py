"""What every language provides: sites found in one file's syntax tree, and the
tree-sitter helpers every language reads with.

A language parses one file with tree-sitter and returns ``Site`` values: the message
template, what kind of error it is, and where it is raised. It knows nothing about
repositories, ids, slugs or storage (that is ``records/`` and ``mining/``). How a
language is declared and run is the engine's (``_engine/``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from tree_sitter import Node, Parser, Query, QueryCursor, Tree
from tree_sitter_language_pack import get_language, get_parser

from errdex.languages.facts import Call
from errdex.languages.logs import severity_of
from errdex.records.log_statements import LogLevel, is_record_level
from errdex.records.model import ErrorType, Severity
from errdex.templates.template import Template


@dataclass(frozen=True)
class Site:
    """One place in a file that produces an error message."""

    template: Template
    error_type: ErrorType
    line: int  # 1-based line where the raising statement starts
    error_class: str | None = None
    error_code: str | None = None
    http_status: int | None = None
    severity: Severity = "error"
    symbol: str | None = None  # enclosing symbol, e.g. ``Flex::conv3d`` or ``Store.open``
    # The producer call whose message this is (``raise NotFound(key)``), composed once the
    # whole repository is read (``errdex.mining.compose``). With an empty template, the
    # site is only a candidate: kept when its call reaches a producer, dropped otherwise.
    call: Call | None = None
    # A log call's level (``errdex.languages.logs.level_of``): at warning and above the
    # site is a record of that severity; below, a scan-only log statement, never a record.
    level: LogLevel | None = None
    logger: str | None = None  # the logger's name, where the source tells it

    def is_candidate(self) -> bool:
        """A call whose message only composition can tell (no template of its own)."""
        return self.call is not None and not self.template.parts

    def __post_init__(self) -> None:
        # `abort(999)` is written in real code but is no HTTP status: a record keeps only
        # what a response can carry, so every mined record re-imports (100..599).
        if self.http_status is not None and not 100 <= self.http_status <= 599:
            object.__setattr__(self, "http_status", None)
        severity = severity_of(self.level) if self.level is not None else None
        if severity is not None:
            object.__setattr__(self, "severity", severity)

    def is_log_statement(self) -> bool:
        """A log call below warning: indexed for scan only, never a record."""
        return self.level is not None and not is_record_level(self.level)


@dataclass(frozen=True)
class FileSites:
    """The sites of one file, and whether tree-sitter could parse all of it."""

    sites: list[Site] = field(default_factory=list)
    parse_errors: bool = False
    # Calls whose message only composition across the repository can tell: no sites of
    # the file on their own (``Site.is_candidate``), so not compared as sites are.
    candidates: list[Site] = field(default_factory=list, compare=False)


@dataclass(frozen=True)
class Language:
    """A registered language: its name, file extensions and site extractor."""

    name: str
    grammar: str
    extensions: tuple[str, ...]
    extract: Callable[[bytes], FileSites]
    # Byte strings one of which every file with a site contains (empty: no such set).
    # A file with none of them is not parsed at all: most of a code base raises nothing.
    triggers: tuple[bytes, ...] = ()

    def may_have_sites(self, source: bytes) -> bool:
        return not self.triggers or any(t in source for t in self.triggers)


@cache
def parser_for(grammar: str) -> Parser:
    return get_parser(grammar)  # type: ignore[arg-type]


@cache
def load_query(grammar: str, path: Path) -> Query:
    """A tree-sitter query kept in a ``.scm`` file beside its language module."""
    return Query(get_language(grammar), path.read_text(encoding="utf-8"))  # type: ignore[arg-type]


# The last trees parsed per grammar: a later stage reading the same file (``mine_file``'s
# evidence and text sites, after the language's ``extract``) reuses its tree instead of
# parsing again. More than one, for enrichment parses snippets of the same grammar between
# those stages (with one kept, every file holding sites was parsed twice).
_LAST_TREES: dict[str, list[tuple[bytes, Tree]]] = {}
_TREES_KEPT = 4


def parse(grammar: str, source: bytes) -> Tree:
    kept = _LAST_TREES.setdefault(grammar, [])
    for held, tree in kept:
        if held is source:
            return tree
    tree = parser_for(grammar).parse(source)
    kept.insert(0, (source, tree))
    del kept[_TREES_KEPT:]
    return tree


def captures(query: Query, node: Node) -> dict[str, list[Node]]:
    return QueryCursor(query).captures(node)


@dataclass(frozen=True)
class CallArgs:
    """A call's arguments: positional in order, and named (``key: value``) by name."""

    positional: list[Node]
    named: dict[str, Node]


def matches(query: Query, node: Node) -> list[tuple[int, dict[str, list[Node]]]]:
    return QueryCursor(query).matches(node)


def text(node: Node | None) -> str:
    """The source text of a node (empty for None); ``node.text`` read once (each read
    copies the bytes out of the tree, and this runs for most nodes a mine looks at)."""
    raw = node.text if node is not None else None
    return "" if raw is None else raw.decode("utf-8", errors="replace")


def line_of(node: Node) -> int:
    """1-based line where a node starts."""
    return node.start_point[0] + 1


def ancestors(node: Node) -> Iterator[Node]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def plus_operands(
    node: Node, binary: str, unwrap: Callable[[Node], Node] = lambda n: n, operator: str = "+"
) -> list[Node]:
    """The operands of a ``+`` chain (``"a " + x + " b"``), left to right.

    ``binary`` is the grammar's binary-expression node type; ``unwrap`` strips what
    the language may wrap an operand in (parentheses, type assertions); ``operator`` is
    the grammar's concatenation (PHP's ``.``).
    """
    node = unwrap(node)
    if node.type == binary and text(node.child_by_field_name("operator")) == operator:
        operands: list[Node] = []
        for side in (node.child_by_field_name("left"), node.child_by_field_name("right")):
            if side is not None:
                operands += plus_operands(side, binary, unwrap, operator)
        return operands
    return [node]


def last_declaration(
    scope: Node, before: Node, name: str, kind: str, name_field: str
) -> Node | None:
    """The last ``kind`` node in ``scope`` that starts before ``before`` and declares
    ``name`` (its ``name_field`` child): a local message variable in C-like languages."""
    found = None
    stack = [scope]
    while stack:
        current = stack.pop()
        if current.start_byte >= before.start_byte:
            continue
        if current.type == kind and text(current.child_by_field_name(name_field)) == name and (
            found is None or current.start_byte > found.start_byte
        ):
            found = current
        stack.extend(current.named_children)
    return found


# The bytes of an ASCII identifier (``\w`` of a bytes pattern)
WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def whole_words(source: bytes, word: bytes, word_bytes: frozenset[int] = WORD_BYTES,
                start: int = 0, end: int | None = None) -> Iterator[int]:
    """Each position where ``word`` stands whole in ``source[start:end]`` (no byte of
    ``word_bytes`` touches it; the window's end is a boundary): a byte search and a look at
    the neighbours, where a pattern opening with ``\\b`` or a look-behind is tried at every
    byte of the text."""
    stop = len(source) if end is None else end
    at = source.find(word, start, stop)
    while at != -1:
        after = at + len(word)
        if (at == 0 or source[at - 1] not in word_bytes) and (
                after >= stop or source[after] not in word_bytes):
            yield at
        at = source.find(word, at + 1, stop)


def inside_error(node: Node) -> bool:
    """Whether tree-sitter had to recover around this node (then its meaning is unsure)."""
    parent = node.parent  # a loop, not ``ancestors``: asked of most nodes a mine reads
    while parent is not None:
        if parent.type == "ERROR":
            return True
        parent = parent.parent
    return False
