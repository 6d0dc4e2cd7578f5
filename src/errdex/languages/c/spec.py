"""C sites: messages printed to stderr by the C library and by project error helpers.

Every site is a call by name; ``family`` says which calls count and what the C library
prints around their message (``perror``'s ``: <strerror>``, ``err``'s ``prog: `` prefix).
``abort()`` and ``assert(cond)`` are not sites: their text is the runtime's own (the
stringified condition), nothing written in the repository explains it. An
``fprintf(stderr, …)`` followed by ``exit(1)`` stays a ``log`` site: the statements are
not tied together, and the message is what matters for lookup.
"""

from __future__ import annotations

from pathlib import Path

from errdex.languages.base import (
    FileSites,
    Language,
    Site,
    inside_error,
    load_query,
    matches,
    parse,
    text,
)
from errdex.languages.c.family import arguments, c_symbol, call_site

_QUERY_PATH = Path(__file__).with_name("queries.scm")


def extract(source: bytes) -> FileSites:
    """All error sites of one C file, in source order."""
    tree = parse("c", source)
    sites: list[tuple[int, Site]] = []
    for _, captured in matches(load_query("c", _QUERY_PATH), tree.root_node):
        call = captured["call"][0]
        if inside_error(call):
            continue
        site = call_site(
            text(captured["call.name"][0]), call, arguments(captured["call.args"][0]), c_symbol
        )
        if site is not None:
            sites.append((call.start_byte, site))
    sites.sort(key=lambda item: item[0])
    return FileSites([site for _, site in sites], parse_errors=tree.root_node.has_error)


LANGUAGE = Language(name="c", grammar="c", extensions=(".c",), extract=extract)
