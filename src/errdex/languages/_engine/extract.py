"""The one extract loop: parse → query → index the file → dispatch each match → sort."""

from __future__ import annotations

import dataclasses

from tree_sitter import Node

from errdex.languages._engine.files import Captures, FileIndex, IndexT, filled
from errdex.languages._engine.literals import LITERAL, keep_literals, with_literals
from errdex.languages._engine.spec import F, LanguageSpec
from errdex.languages.base import (
    FileSites,
    Language,
    Site,
    inside_error,
    load_query,
    matches,
    parse,
    parser_for,
)

# The index of the last file whose sites were read, by grammar, with the root it indexes:
# a composer reading the same tree right after (``producers_of``) takes it instead of
# running its own query and indexing the file again (about a quarter of its work in Java).
_LAST_INDEX: dict[str, tuple[Node, FileIndex]] = {}


def extract(spec: LanguageSpec[F], source: bytes) -> FileSites:
    """All sites of one file, in source order, and whether tree-sitter parsed all of it."""
    tree = parse(spec.grammar, source)
    found = _sites_in(spec, tree.root_node, source, 0, spec.nested_depth, top=True)
    found.sort(key=lambda site: site.line)
    sites = [s for s in found if not s.is_candidate()]
    candidates = [s for s in found if s.is_candidate()] if len(sites) < len(found) else []
    return FileSites(sites, parse_errors=tree.root_node.has_error, candidates=candidates)


def index_file(spec: LanguageSpec[F], found: list[tuple[int, Captures]]) -> F:
    """The file's index: its assignments, and what the spec's ``index`` hook reads."""
    return filled(spec.new_index(), found, spec.index)


def site_index(grammar: str, root: Node, kind: type[IndexT]) -> IndexT | None:
    """The index the site reader built of the tree ``root`` is the root of, when that file
    was the last one of ``grammar`` it read and the index is of the ``kind`` asked; else
    None. Only for a composer whose own index query holds exactly the site query's
    ``assign`` and ``index`` patterns (the same nodes indexed), and whose index hook is
    the spec's: the index is then the same, and shared with its read memos."""
    held = _LAST_INDEX.get(grammar)
    if held is None or held[0] != root or type(held[1]) is not kind:
        return None
    return held[1]


def _sites_in(
    spec: LanguageSpec[F], root: Node, source: bytes, line_offset: int, depth: int,
    top: bool = False,
) -> list[Site]:
    """The sites under ``root``; at a file's ``top``, its literals are found in the same
    walk and kept for ``file_literals`` (the text sites the mine reads next)."""
    if top and spec.strings:
        query, own = with_literals(spec.grammar, spec.query, tuple(sorted(spec.strings)))
        every = matches(query, root)
        found = [m for m in every if m[0] < own]
        keep_literals(source, [caps[LITERAL][0] for index, caps in every if index >= own])
    else:
        found = matches(load_query(spec.grammar, spec.query), root)
    file = index_file(spec, found)
    if top:  # held with its root, which keeps the tree alive: no other tree is equal to it
        _LAST_INDEX[spec.grammar] = (root, file)
    placed: list[tuple[int, Site]] = []
    # no node of a tree parsed whole is inside a parse error: the default ``skip`` would
    # walk each match's ancestors to the root to say so
    skip = None if spec.skip is inside_error and not root.has_error else spec.skip
    for key, handler in spec.handlers:
        for _, caps in found:
            if key not in caps:
                continue
            node = caps[key][0]
            if skip is not None and skip(node):
                continue
            made = handler(caps, file)
            if made is None:
                continue
            for site in [made] if isinstance(made, Site) else made:
                placed.append((node.start_byte, site))
    if spec.finish is not None:
        placed = spec.finish(placed, file)
    placed.sort(key=lambda item: item[0])
    sites = [dataclasses.replace(s, line=s.line + line_offset) if line_offset else s
             for _, s in placed]
    if depth > 0 and spec.nested is not None:
        for inner, offset in spec.nested(root, source):
            tree = parser_for(spec.grammar).parse(inner)  # not ``parse``: it caches the file
            sites.extend(_sites_in(spec, tree.root_node, inner, line_offset + offset, depth - 1))
    return sites


def language(spec: LanguageSpec[F]) -> Language:
    """The registry's ``Language`` for a spec: its extractor is the engine's loop."""
    def run(source: bytes) -> FileSites:
        return extract(spec, source)

    return Language(spec.name, spec.grammar, spec.extensions, run, spec.triggers)
