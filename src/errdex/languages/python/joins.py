"""A message joined from a list the function builds: ``" ".join(parts)``.

Python code often assembles a long message as a list of sentences, some added only under
a condition, and joins them at the raise (Jinja's ``_fail_ut_eof``)::

    message = [f"Encountered unknown tag {name!r}."]
    if looking:
        message.append(f"Jinja was looking for: {looking}.")
    raise TemplateSyntaxError(" ".join(message))

Each way the list can end up is one alternative: a list assigned in the clauses of one
``if`` is one per clause, an ``append`` in an ``if`` without ``else`` may be there or not,
and appends in the clauses of one ``if`` are one or the other. The fullest texts come
first (a reader that takes one message takes that). A list changed any other way (in a
loop, ``extend``, ``+=``, ``insert``) is not read: what it prints is not known from source.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Callable

from tree_sitter import Node

from errdex.languages._engine import FileIndex, Message, joined, operand_hole
from errdex.languages._engine.message import constant
from errdex.languages.base import ancestors, text
from errdex.languages.facts import MAX_ALTERNATIVES

_SCOPES = frozenset({"function_definition", "class_definition", "module"})
_NESTED = frozenset({"function_definition", "class_definition", "lambda"})
_LOOPS = frozenset({"for_statement", "while_statement"})
_CLAUSES = frozenset({"elif_clause", "else_clause"})

Read = Callable[[Node, FileIndex], Message | None]


def list_join(node: Node | None, file: FileIndex, read: Read) -> list[Message] | None:
    """The texts ``SEP.join(name)`` can print when ``name`` is a list built in the same
    function from literals and ``append``; None when it is anything else."""
    found = _joined_list(node)
    if found is None:
        return None
    separator, name = found
    scope = _scope(name)
    inits = _initial(text(name), name, scope, file)
    if not inits or scope is None:
        return None
    start = max(a.end_byte for a in inits)
    firsts: list[list[Message]] = []
    for assignment in inits:
        elements = _elements(assignment.child_by_field_name("right"), file, read)
        if elements is None:
            return None
        firsts.append(elements)
    groups = _appended(text(name), scope, start, name.start_byte, file, read)
    if groups is None:
        return None
    out: list[Message] = []
    for first, *chosen in itertools.product(firsts, *groups):
        pieces = [*first, *(m for choice in chosen for m in choice)]
        message = _join(pieces, separator)
        if message is not None and message.has_text() and message not in out:
            out.append(message)
        if len(out) >= MAX_ALTERNATIVES:
            break
    return out or None


def _joined_list(node: Node | None) -> tuple[str, Node] | None:
    """``"sep".join(name)``: the separator and the name node."""
    while node is not None and node.type == "parenthesized_expression" and (
            node.named_child_count == 1):
        node = node.named_children[0]
    if node is None or node.type != "call":
        return None
    function, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
    if function is None or args is None or function.type != "attribute" or text(
            function.child_by_field_name("attribute")) != "join":
        return None
    target = function.child_by_field_name("object")
    if target is None or target.type != "string" or text(target)[:1] not in "'\"":
        return None  # a plain literal separator (no f-string, no prefix)
    try:
        separator = ast.literal_eval(text(target))
    except (ValueError, SyntaxError):
        return None
    named = [c for c in args.named_children if c.type != "comment"]
    if not isinstance(separator, str) or len(named) != 1 or named[0].type != "identifier":
        return None
    return separator, named[0]


def _scope(node: Node) -> Node | None:
    return next((a for a in ancestors(node) if a.type in _SCOPES), None)


def _initial(name: str, at: Node, scope: Node | None, file: FileIndex) -> list[Node]:
    """The list assignments the join sees: the last one above it in its scope, and those
    in the other clauses of the same ``if`` (one per clause)."""
    above = [a for a in file.assignments.get(name, [])
             if a.end_byte <= at.start_byte and _scope(a) == scope]
    if not above or not _is_list(above[-1]):
        return []
    last = above[-1]
    where = _clause(last, scope)
    if where is None:
        return [last]
    chosen = [last]
    for other in above[:-1]:
        there = _clause(other, scope)
        if there is not None and there[0] == where[0] and there[1] != where[1]:
            if not _is_list(other):
                return []
            chosen.append(other)
    return sorted(chosen, key=lambda a: a.start_byte)


def _is_list(assignment: Node) -> bool:
    right = assignment.child_by_field_name("right")
    return assignment.type == "assignment" and right is not None and right.type == "list"


def _clause(node: Node, scope: Node | None) -> tuple[Node, Node] | None:
    """The innermost ``if`` a node is in (below ``scope``) and the clause it is in."""
    child = node
    for parent in ancestors(node):
        if parent == scope:
            return None
        if parent.type == "if_statement":
            return parent, child
        child = parent
    return None


def _elements(right: Node | None, file: FileIndex, read: Read) -> list[Message] | None:
    if right is None:
        return None
    out = []
    for element in right.named_children:
        if element.type == "comment":
            continue
        if element.type in ("list_splat", "dictionary_splat"):
            return None
        out.append(_piece(element, file, read))
    return out


def _piece(node: Node, file: FileIndex, read: Read) -> Message:
    """What one element prints: its text when source says, else a hole named after it."""
    return read(node, file) or operand_hole(text(node))


def _appended(name: str, scope: Node, start: int, end: int, file: FileIndex, read: Read
              ) -> list[list[list[Message]]] | None:
    """The appends between the list's assignment and the join, as groups to choose from
    (one group per ``if``: one of its clauses' appends, or none when it may not run);
    None when the list is changed in another way or in a loop."""
    groups: dict[int, tuple[Node | None, dict[int, list[Message]], bool]] = {}
    for node in _between(scope, start, end):
        if node.type == "augmented_assignment" and text(node.child_by_field_name("left")) == name:
            return None
        if node.type != "call":
            continue
        function = node.child_by_field_name("function")
        if function is None or function.type != "attribute" or text(
                function.child_by_field_name("object")) != name:
            continue
        args = node.child_by_field_name("arguments")
        named = [c for c in args.named_children if c.type != "comment"] if args else []
        if text(function.child_by_field_name("attribute")) != "append" or len(named) != 1:
            return None
        if any(a.type in _LOOPS and a.start_byte >= start for a in _up_to(node, scope)):
            return None
        where = _clause(node, scope)
        if where is not None and where[0].start_byte < start:
            where = None  # the ``if`` holds the list's assignment too: always runs
        key = where[0].start_byte if where is not None else node.start_byte
        clause = where[1].start_byte if where is not None else 0
        optional = _optional(node, scope, start)
        if_node, clauses, _ = groups.setdefault(
            key, (where[0] if where is not None else None, {}, optional))
        clauses.setdefault(clause, []).append(_piece(named[0], file, read))
    out = []
    for if_node, clauses, optional in groups.values():
        choices = list(clauses.values())
        if optional or (if_node is not None and len(clauses) < _branches(if_node)):
            choices.append([])
        out.append(choices)
    return out


def _between(scope: Node, start: int, end: int) -> list[Node]:
    """The named nodes of ``scope`` (not of a nested function) wholly between two bytes;
    only the subtrees that overlap the range are walked."""
    out: list[Node] = []
    stack = list(reversed(scope.named_children))
    while stack:
        node = stack.pop()
        if node.end_byte <= start or node.start_byte >= end or node.type in _NESTED:
            continue
        if node.start_byte >= start and node.end_byte <= end:
            out.append(node)
        stack.extend(reversed(node.named_children))
    return out


def _up_to(node: Node, scope: Node) -> list[Node]:
    out = []
    for parent in ancestors(node):
        if parent == scope:
            break
        out.append(parent)
    return out


def _optional(node: Node, scope: Node, start: int) -> bool:
    """Whether an ``if`` around the node (other than its innermost) may skip it: one
    without an ``else``, entered after the list was made."""
    ifs = [a for a in _up_to(node, scope) if a.type == "if_statement" and a.start_byte >= start]
    return any(not any(c.type == "else_clause" for c in a.named_children) for a in ifs[1:])


def _branches(if_node: Node) -> int:
    """How many ways an ``if`` runs: its clauses, plus one when it has no ``else``."""
    clauses = [c for c in if_node.named_children if c.type in _CLAUSES]
    has_else = any(c.type == "else_clause" for c in clauses)
    return len(clauses) + 1 + (0 if has_else else 1)


def _join(pieces: list[Message], separator: str) -> Message | None:
    if not pieces:
        return None
    spaced: list[Message] = []
    for piece in pieces:
        if spaced and separator:
            spaced.append(constant(separator))
        spaced.append(piece)
    return joined(spaced)
