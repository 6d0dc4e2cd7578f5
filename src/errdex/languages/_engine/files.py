"""The per-file index: what one file tells about messages, gathered before any site is read.

Every language reads a message variable the same way: the assignments of the file by
the name they assign, in source order, and the nearest one above a use in a scope the
use sees. A language whose file tells more (imports, decorated members, static
imports) subclasses ``FileIndex`` and fills its own fields from the spec's ``index``
hook; the engine fills ``assignments`` and ``imports`` itself.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import TypeVar

from tree_sitter import Node, Query
from tree_sitter_language_pack import get_language

from errdex.languages.base import ancestors, text

Captures = dict[str, list[Node]]
# The parameter names of a scope node (empty for a scope that is no function).
ParameterNames = Callable[[Node], Collection[str]]


@dataclass
class FileIndex:
    """A file's message variables by name (each list in source order) and its imports.

    ``imports`` maps a local name to what it was imported as (``from fastapi import
    status as st``: ``st`` → ``fastapi.status``).
    """

    assignments: dict[str, list[Node]] = field(default_factory=dict)
    imports: dict[str, str] = field(default_factory=dict)

    def add(self, name: str, node: Node) -> None:
        self.assignments.setdefault(name, []).append(node)

    def sort(self) -> None:
        """Each name's assignments in source order (query matches need not come so)."""
        for nodes in self.assignments.values():
            nodes.sort(key=lambda n: n.start_byte)

    def qualified(self, dotted: str) -> str:
        """``exceptions.NotFound`` → ``rest_framework.exceptions.NotFound`` through the imports."""
        head, dot, rest = dotted.partition(".")
        origin = self.imports.get(head)
        return dotted if origin is None else origin + dot + rest

    def nearest(self, name: Node, scopes: Collection[str]) -> Node | None:
        """The last assignment to ``name``'s identifier that ends before it, in its own
        scope (the innermost ancestor whose type is in ``scopes``)."""
        scope = enclosing(name, scopes)
        above = [
            a for a in self.assignments.get(text(name), [])
            if a.end_byte <= name.start_byte and enclosing(a, scopes) == scope
        ]
        return above[-1] if above else None

    def visible(
        self, name: str, at: Node, scopes: Collection[str], parameters: ParameterNames
    ) -> Node | None:
        """The assignment of ``name`` that ``at`` sees: the last one above it in the
        innermost visible scope that has one; None when a function's parameter of that
        name comes first (its value is the caller's)."""
        candidates = self.assignments.get(name, [])
        for scope in scopes_seen(at, scopes):
            above = [a for a in candidates
                     if a.end_byte <= at.start_byte and enclosing(a, scopes) == scope]
            if above:
                return max(above, key=lambda a: a.start_byte)
            if name in parameters(scope):
                return None
        return None

    @classmethod
    def of(cls, found: list[tuple[int, Captures]]) -> FileIndex:
        """The index of a file's ``assign``/``assign.name`` captures alone."""
        return filled(cls(), found)


IndexT = TypeVar("IndexT", bound=FileIndex)


def filled(index: IndexT, found: Iterable[tuple[int, Captures]],
           more: Callable[[Captures, IndexT], None] | None = None) -> IndexT:
    """``index`` with each match's assignment, or what ``more`` reads from a match that is
    none (a static import, an assigned name), each name's in source order: the site
    reader and a composer reading a file on its own index it alike."""
    for _, caps in found:
        if not index_assignment(caps, index) and more is not None:
            more(caps, index)
    index.sort()
    return index


@cache
def index_query(grammar: str, patterns: str) -> Query:
    """The patterns of a site query that a composer's file index reads, compiled once."""
    return Query(get_language(grammar), patterns)  # type: ignore[arg-type]


def index_assignment(caps: Captures, index: FileIndex) -> bool:
    """Index an ``assign``/``assign.add`` capture by its ``assign.name``; whether it was one."""
    if "assign.name" not in caps:
        return False
    outer = caps.get("assign") or caps.get("assign.add")
    if outer:
        index.add(text(caps["assign.name"][0]), outer[0])
    return True


def enclosing(node: Node, scopes: Collection[str]) -> Node | None:
    """The innermost ancestor of ``node`` whose type is in ``scopes``."""
    return next((a for a in ancestors(node) if a.type in scopes), None)


def scopes_seen(node: Node, scopes: Collection[str]) -> Iterator[Node]:
    """The scopes around ``node``, innermost first."""
    return (a for a in ancestors(node) if a.type in scopes)
