"""The nodes of one function's own code: not those of a function, lambda or class nested in
it, whose code runs elsewhere (or never) and whose returns and throws are its own.

Every composer reads a function's returns, throws, assignments and calls this way; only
which node types nest differs by grammar, and whether a composer wants the nested node
itself (a lambda passed as an argument is still an argument).
"""

from __future__ import annotations

from collections.abc import Collection

from tree_sitter import Node


def nodes_below(node: Node | None, nested: Collection[str], *,
                keep_nested: bool = False) -> list[Node]:
    """The named nodes under ``node`` in source order, none inside a node of a ``nested``
    type (that node itself listed only when ``keep_nested``)."""
    out: list[Node] = []
    stack = list(reversed(node.named_children)) if node is not None else []
    while stack:
        child = stack.pop()
        if child.type in nested:
            if keep_nested:
                out.append(child)
            continue
        out.append(child)
        stack.extend(reversed(child.named_children))
    return out


def nodes_from(node: Node | None, nested: Collection[str], *,
               keep_nested: bool = False) -> list[Node]:
    """``node`` itself (a function's body), then ``nodes_below`` it."""
    if node is None:
        return []
    return [node, *nodes_below(node, nested, keep_nested=keep_nested)]
