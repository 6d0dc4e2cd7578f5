"""Reading a message where variables are locals declared above the site (C++, C#).

In these languages a message variable is a local declaration (``std::string msg = …;``,
``var msg = …;``) that comes before the statement raising it, in the function around
that statement; what it holds is read like any message. ``Locals`` says how one grammar
spells such a declaration; ``LocalReader`` is the engine's reader with that lookup.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tree_sitter import Node

from errdex.languages._engine.files import FileIndex
from errdex.languages._engine.message import Message
from errdex.languages._engine.reader import MessageTable, Reader
from errdex.languages.base import ancestors, last_declaration, text


@dataclass(frozen=True)
class Locals:
    """A local declaration: its node type, the field naming it, and its value."""

    declaration: str
    name: str
    value: Callable[[Node], Node | None]


class LocalReader(Reader[FileIndex]):
    """Reads messages at ``at``, a site: a variable is the last local of its name declared
    above ``at`` in the innermost ``table.scopes`` node around it."""

    def __init__(self, table: MessageTable[FileIndex], at: Node, locals_: Locals) -> None:
        super().__init__(table, FileIndex())
        self.at = at
        self.locals = locals_

    def assignment(self, node: Node) -> Node | None:
        scope = next((a for a in ancestors(self.at) if a.type in self.table.scopes), None)
        if scope is None:
            return None
        return last_declaration(
            scope, self.at, text(node), self.locals.declaration, self.locals.name
        )

    def variable(self, node: Node, depth: int) -> Message | None:
        found = self.assignment(node)
        return None if found is None else self.read(self.locals.value(found), depth + 1)
