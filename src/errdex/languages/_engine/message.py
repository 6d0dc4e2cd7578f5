"""The one message type every language reads out of an expression: written and printed.

Shared so that every language joins concatenated pieces and drops a printed line's
newline the same way. ``kind``, ``suffix`` and ``calls`` are for languages whose
printing depends on more than the text (Go's ``fmt.Sprint`` spaces operands by
kind, and a wrapped error's text follows the message); the others leave them be.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from errdex.templates.template import Hole, Literal, Part, Template, chomp, merge_literals

NodeKey = tuple[int, int]  # (start byte, end byte): a node's identity across query matches


@dataclass(frozen=True)
class Message:
    """A message read from source: as written, as printed, and its text when it is one literal.

    ``literal`` is set only when the message is one known string, because only
    then can it serve as a format string (``%``, ``String.format``, a logger's).
    ``kind`` is ``string``, ``error``, ``number`` or ``unknown``; ``suffix`` is printed
    after the parts (a wrapped error's text); ``calls`` are the constructor calls read
    into this message (part of the outer site, not sites of their own).
    """

    written: str
    parts: tuple[Part, ...]
    literal: str | None = None
    kind: str = "string"
    suffix: tuple[Part, ...] = ()
    calls: frozenset[NodeKey] = field(default_factory=frozenset)

    @property
    def printed(self) -> tuple[Part, ...]:
        """The parts and the suffix, as printed one after the other."""
        return merge_literals((*self.parts, *self.suffix)) if self.suffix else self.parts

    def has_text(self) -> bool:
        """Whether some literal text says what the message is (a lone ``{x}`` does not)."""
        return any(isinstance(p, Literal) and any(c.isalnum() for c in p.text)
                   for p in self.parts)

    def template(self) -> Template:
        """The site's template: what is printed, without a printed line's newline."""
        return Template(self.written, chomp(self.parts))


def constant(value: str) -> Message:
    """A message that is one known string."""
    return Message(value, (Literal(value),), value)


def joined(messages: Sequence[Message | None], kind: str = "string") -> Message | None:
    """Messages printed one after another (``a + b``, ``"a" "b"``); None when any is unknown."""
    if not messages or any(m is None for m in messages):
        return None
    present = [m for m in messages if m is not None]
    literals = [m.literal for m in present]
    return Message(
        "".join(m.written for m in present),
        merge_literals([p for m in present for p in m.printed]),
        "".join(x for x in literals if x is not None) if None not in literals else None,
        kind,
        calls=frozenset().union(*(m.calls for m in present)),
    )


def operand_hole(name: str, written: str | None = None) -> Message:
    """A non-literal operand of a concatenation, written ``{name}`` (or as given)."""
    spec = "{" + name + "}" if written is None else written
    return Message(spec, (Hole.of(name, spec),))
