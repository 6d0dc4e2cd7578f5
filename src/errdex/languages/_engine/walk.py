"""The nodes of one function's own code: not those of a function, lambda or class nested in
it, whose code runs elsewhere (or never) and whose returns and throws are its own.

Every composer reads a function's returns, throws, assignments and calls this way; only
which node types nest differs by grammar, and whether a composer wants the nested node
itself (a lambda passed as an argument is still an argument).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from tree_sitter import Node

from errdex.languages.base import text


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


def keyword_nodes(body: Node | None, keyword: bytes, kind: str,
                  nested: Collection[str]) -> list[Node]:
    """``[n for n in nodes_from(body, nested) if n.type == kind]`` for a ``kind`` of node
    that always starts with the ``keyword`` token (a ``return`` statement): found where
    the keyword is written (a search of the body's bytes, then the node there) instead of
    a walk in Python over every node of the body, most of which are something else."""
    if body is None:
        return []
    source = body.text or b""
    found: list[Node] = []
    at = source.find(keyword)
    while at >= 0:
        start = body.start_byte + at
        token = body.descendant_for_byte_range(start, start + len(keyword))
        node = token.parent if token is not None else None
        if node is not None and node.type == kind and node.start_byte == start and (
                _reached(node, body, nested)):
            found.append(node)
        at = source.find(keyword, at + len(keyword))
    return found


def _reached(node: Node, body: Node, nested: Collection[str]) -> bool:
    """Whether ``node`` is ``body`` or under it with no node of a ``nested`` type between."""
    current: Node | None = node
    while current is not None and current != body:
        if current is not node and current.type in nested:
            return False
        current = current.parent
    return current is not None


def returned_values(body: Node | None, blocks: Collection[str]) -> Iterator[Node]:
    """The values of the ``return`` statements in ``body`` reached through statements of
    ``blocks`` types only: a return is no expression's part, and a closure's is its own."""
    stack = [body] if body is not None and b"return" in (body.text or b"") else []
    while stack:
        node = stack.pop()
        if node.type == "return_statement" and node.named_children:
            yield node.named_children[0]
            continue
        stack.extend(c for c in reversed(node.named_children)
                     if c.type in blocks or c.type == "return_statement")


def class_declarations(node: Node, outer: str | None, classes: Collection[str],
                       containers: Collection[str]) -> Iterator[tuple[Node, str | None]]:
    """Declarations of ``classes`` types under ``node``, through ``containers`` (a
    namespace, a body) and nested in class bodies, each with the class it is written in."""
    for child in node.named_children:
        if child.type in classes:
            yield child, outer
            body = child.child_by_field_name("body")
            if body is not None:
                yield from class_declarations(body, text(child.child_by_field_name("name")),
                                              classes, containers)
        elif child.type in containers:
            yield from class_declarations(child, outer, classes, containers)
