"""What most language modules read out of an expression: a message, written and printed.

Shared so that every language joins concatenated pieces and drops a printed
line's newline the same way. (Go keeps a richer message of its own: it needs
``fmt.Sprint``'s operand kinds.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from errdex.templates.template import Hole, Literal, Part, Template, chomp, merge_literals


@dataclass(frozen=True)
class Message:
    """A message read from source: as written, as printed, and its text when it is one literal.

    ``literal`` is set only when the message is one known string, because only
    then can it serve as a format string (``%``, ``String.format``, a logger's).
    """

    written: str
    parts: tuple[Part, ...]
    literal: str | None = None

    def has_text(self) -> bool:
        """Whether some literal text says what the message is (a lone ``{x}`` does not)."""
        return any(isinstance(p, Literal) and any(c.isalnum() for c in p.text)
                   for p in self.parts)

    def template(self) -> Template:
        """The site's template: what is printed, without a printed line's newline."""
        return Template(self.written, chomp(self.parts))


def joined(messages: Sequence[Message | None]) -> Message | None:
    """Messages printed one after another (``a + b``, ``"a" "b"``); None when any is unknown."""
    if not messages or any(m is None for m in messages):
        return None
    present = [m for m in messages if m is not None]
    literals = [m.literal for m in present]
    return Message(
        "".join(m.written for m in present),
        merge_literals([p for m in present for p in m.parts]),
        "".join(x for x in literals if x is not None) if None not in literals else None,
    )


def operand_hole(name: str) -> Message:
    """A non-literal operand of a concatenation, written ``{name}``."""
    return Message("{" + name + "}", (Hole.of(name, "{" + name + "}"),))
