"""A call's arguments and its receiver's name, read alike by the languages with labels.

Ruby (``key: value``), PHP (``name: value``) and Swift (``label: value``) pass arguments
by position and by name; each grammar says which child is an argument and how to split
it, and the rest is one reader. Whether a receiver names a logger is one rule for all.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from errdex.languages.base import CallArgs, text

# An argument node → (its label, or None when positional; its value), or None to skip it.
Split = Callable[[Node], tuple[Node | None, Node] | None]

_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_LOGGER_WORDS = ("log", "logger", "logging")


def call_args(node: Node | None, split: Split, label: Callable[[Node], str] = text) -> CallArgs:
    """The arguments below ``node``, positional in order and labelled by ``label(key)``."""
    positional: list[Node] = []
    named: dict[str, Node] = {}
    for argument in node.named_children if node is not None else ():
        parts = split(argument)
        if parts is None:
            continue
        key, value = parts
        if key is not None:
            named[label(key)] = value
        else:
            positional.append(value)
    return CallArgs(positional, named)


def nth(nodes: list[Node], index: int) -> Node | None:
    """The ``index``-th node, None past the end."""
    return nodes[index] if index < len(nodes) else None


def names_a_logger(name: str) -> bool:
    """``logger``, ``@log``, ``errorLogger``, ``LOG``; not ``catalog`` or ``dialog``."""
    return any(w.lower() in _LOGGER_WORDS for w in _WORDS.findall(name))
