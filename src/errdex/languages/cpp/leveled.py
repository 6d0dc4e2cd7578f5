"""A C++ log call naming its level, read as C's are (``c.log_sites``): a severity constant
before a printf format (Abseil's ``ABSL_RAW_LOG(FATAL, "down cast from %s to %s failed",
…)``) or a macro named after its level (RocksDB's ``ROCKS_LOG_WARN(log, "fmt", …)``), in a
``.cc`` file or a C header (parsed as C++).

Only a printf format: ``LOG_ERROR("lucky number ", n)`` prints its pieces one after
another, which only the repository's definition of the macro says (``helper_site``).
"""

from __future__ import annotations

from tree_sitter import Node

from errdex.languages.base import Site
from errdex.languages.c import log_sites
from errdex.languages.c.family import message_string
from errdex.languages.cpp.calls import cpp_symbol


def leveled_sites(name: str, call: Node, args: list[Node], text_node: Node,
                  owner: str | None) -> list[Site] | None:
    """The log sites of a call naming its level (module docstring); None for any other."""
    rest = args[args.index(text_node) + 1:] if text_node in args else []
    found = message_string(text_node)
    if rest and (found is None or "%" not in found.text):
        return None
    return log_sites.leveled_sites(name, call, args, text_node, cpp_symbol(call), owner)
