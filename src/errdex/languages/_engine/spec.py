"""``LanguageSpec``: what the engine, and the stages after it, need to know of a language."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from tree_sitter import Node

from errdex.languages._engine.constants import Constants
from errdex.languages._engine.evidence import EvidenceRules
from errdex.languages._engine.files import Captures, FileIndex
from errdex.languages._engine.message import Message
from errdex.languages._engine.pastes import Pastes
from errdex.languages._engine.snippets import Snippets
from errdex.languages.base import Site, inside_error
from errdex.languages.facts import Composer

F = TypeVar("F", bound=FileIndex)

# What a handler makes of one query match: no site, one, or several (one per branch).
Sites = Site | Sequence[Site] | None
Handler = Callable[[Captures, F], Sites]


# (source, line offset) of text inside a node that tree-sitter left unparsed (Rust's
# item macros): the engine parses each and shifts its sites' lines.
Nested = Callable[[Node, bytes], list[tuple[bytes, int]]]


@dataclass(frozen=True)
class LanguageSpec(Generic[F]):
    """One language: its grammar and files, its query and a handler per site kind.

    ``handlers`` are (outer capture name, handler) in the order they run: every handler
    sees every match holding its capture before the next handler runs, so a handler
    may record what it covered for a later one (JavaScript's ``throw`` before ``new``).
    ``index`` reads a match that is no site (an import, a decorated member) into the
    file's index; assignments (``assign``/``assign.add`` with ``assign.name``) are
    indexed by the engine. ``skip`` drops a match by its outer node (default: inside
    a parse error); ``finish`` filters the file's (start byte, site) list at the end.
    """

    name: str
    grammar: str
    extensions: tuple[str, ...]
    query: Path
    handlers: tuple[tuple[str, Handler[F]], ...]
    new_index: Callable[[], F]
    triggers: tuple[bytes, ...] = ()
    index: Callable[[Captures, F], None] | None = None
    skip: Callable[[Node], bool] = inside_error
    finish: Callable[[list[tuple[int, Site]], F], list[tuple[int, Site]]] | None = None
    nested: Nested | None = None
    nested_depth: int = 0
    # Node types of a function definition and of a scope a variable lives in.
    function_types: frozenset[str] = frozenset()
    scope_types: frozenset[str] = frozenset()
    # What the later stages read of the language (``evidence.py``, ``snippets.py``,
    # ``constants.py``, and ``pastes/``: what its runtime prints that a paste may hold).
    evidence: EvidenceRules = field(default_factory=EvidenceRules)
    snippets: Snippets = field(default_factory=Snippets)
    constants: Constants | None = None
    pastes: Pastes = field(default_factory=Pastes)
    # String literal node type → its decoder (interpolations as holes): the literals a
    # lookup may land on when no record matches (``literals.py``).
    strings: Mapping[str, Callable[[Node], Message | None]] = field(default_factory=dict)
    # The producers a file defines (exception classes with their message, factories,
    # helpers): composed with the sites' calls across the repository (``facts.py``).
    compose: Composer | None = None
