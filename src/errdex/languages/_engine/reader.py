"""The table-driven message reader: what an expression prints, when source says so.

Every language reads a message the same way: a string literal is its decoded text, a
``+`` chain is its operands printed one after another (unknown ones as holes, none
known: no message, ``a + b`` may be arithmetic), a wrapper (``(x)``, ``x as T``) is what
it wraps, a variable is what its nearest assignment above gives. ``MessageTable`` says
which node types those are in one grammar; ``rules`` take the node types the language
reads its own way (f-strings, ``.format``, ``sprintf``), tried before the table.
A language that needs more (an environment of constructor parameters) subclasses
``Reader`` and overrides ``read``/``hole``/``unwrap``/``assignment``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Generic

from tree_sitter import Node

from errdex.languages._engine.files import FileIndex
from errdex.languages._engine.message import Message, joined, operand_hole
from errdex.languages._engine.pieces import concatenation
from errdex.languages._engine.spec import F
from errdex.languages.base import plus_operands, text

MAX_DEPTH = 12  # variables that refer to variables: stops cycles

# A language's own reading of one node type: (reader, node, depth) → message.
Rule = Callable[["Reader[F]", Node, int], Message | None]


@dataclass(frozen=True)
class MessageTable(Generic[F]):
    """What the reader needs to know of one grammar.

    ``strings``: literal node type → its decoder. ``binary``: the binary expression node
    type; ``plus`` its concatenation operator; ``operators`` other operators a language
    reads (Python's ``%``). ``wrappers``: node types that print what they wrap.
    ``variables``: identifier node types; ``scopes``: node types a variable lives in;
    ``values``: assignment node type → the field holding the value (default ``right``);
    ``augmented``: assignment node types that append (``+=``). ``resolve``: finds the
    assignment a variable use sees (default: the nearest above, in its own scope).
    ``hole``: what an unknown ``+`` operand prints (default ``{its text}``).
    """

    strings: Mapping[str, Callable[[Node], Message | None]]
    binary: str | None = None
    plus: str = "+"
    operators: Mapping[str, Rule[F]] = field(default_factory=dict)
    wrappers: frozenset[str] = frozenset()
    variables: frozenset[str] = frozenset()
    scopes: frozenset[str] = frozenset()
    values: Mapping[str, str] = field(default_factory=dict)
    augmented: frozenset[str] = frozenset()
    rules: Mapping[str, Rule[F]] = field(default_factory=dict)
    resolve: Callable[[F, Node], Node | None] | None = None
    hole: Callable[[Node], Message] = lambda node: operand_hole(text(node))
    unwrap_operands: bool = True  # ``(x)`` as a ``+`` operand is a hole named ``x``
    max_depth: int = MAX_DEPTH


class Reader(Generic[F]):
    """Reads the message an expression prints, with the file's index at hand."""

    def __init__(self, table: MessageTable[F], file: F) -> None:
        self.table = table
        self.file = file

    def read(self, node: Node | None, depth: int = 0) -> Message | None:
        """The message ``node`` prints, or None when source does not say."""
        node = self.unwrap(node)
        if node is None or depth > self.table.max_depth:
            return None
        kind = node.type
        rule = self.table.rules.get(kind)
        if rule is not None:
            return rule(self, node, depth)
        decoder = self.table.strings.get(kind)
        if decoder is not None:
            return decoder(node)
        if kind == self.table.binary:
            operator = text(node.child_by_field_name("operator"))
            if operator == self.table.plus:
                return self.concatenation(node, depth)
            other = self.table.operators.get(operator)
            return other(self, node, depth) if other is not None else None
        if kind in self.table.variables:
            return self.variable(node, depth)
        return None

    def unwrap(self, node: Node | None) -> Node | None:
        """``(x)`` → ``x``, through every wrapper with one named child."""
        while node is not None and node.type in self.table.wrappers and (
            node.named_child_count == 1
        ):
            node = node.named_children[0]
        return node

    def hole(self, node: Node, depth: int) -> Message:
        """What an operand whose text is unknown prints."""
        return self.table.hole(node)

    def operands(self, node: Node) -> list[Node]:
        """The operands of a ``+`` chain, left to right, wrappers removed."""
        if self.table.binary is None:
            return [node]
        if not self.table.unwrap_operands:
            return plus_operands(node, self.table.binary, operator=self.table.plus)
        return plus_operands(
            node, self.table.binary, lambda n: self.unwrap(n) or n, self.table.plus
        )

    def concatenation(self, node: Node, depth: int) -> Message | None:
        """``"a " + x + " b"``: known operands as text, the others as holes."""
        return concatenation(
            self.operands(node),
            lambda op: self.read(op, depth + 1),
            lambda op: self.hole(op, depth + 1),
        )

    def assignment(self, node: Node) -> Node | None:
        """The assignment a variable use sees."""
        if self.table.resolve is not None:
            return self.table.resolve(self.file, node)
        return self.file.nearest(node, self.table.scopes)

    def variable(self, node: Node, depth: int) -> Message | None:
        """A message variable: what its assignment gives (``+=`` appends to what was)."""
        assignment = self.assignment(node)
        if assignment is None:
            return None
        value = self.read(
            assignment.child_by_field_name(self.table.values.get(assignment.type, "right")),
            depth + 1,
        )
        if assignment.type not in self.table.augmented:
            return value
        operator = assignment.child_by_field_name("operator")
        if operator is not None and text(operator) not in ("+=", ".="):
            return None
        left = assignment.child_by_field_name("left") or assignment
        return joined([self.variable(left, depth + 1), value])


def read_with(table: MessageTable[FileIndex], file: FileIndex, node: Node | None) -> Message | None:
    """One expression read with a fresh reader (for callers without one at hand)."""
    return Reader(table, file).read(node)
