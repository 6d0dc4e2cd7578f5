"""The one message type every language reads out of an expression: written and printed.

Shared so that every language joins concatenated pieces and drops a printed line's
newline the same way. ``kind``, ``suffix`` and ``calls`` are for languages whose
printing depends on more than the text (Go's ``fmt.Sprint`` spaces operands by
kind, and a wrapped error's text follows the message); the others leave them be.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

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


def trimmed(message: Message, *, left: bool, right: bool) -> Message:
    """``rtrim("…: {$path}. {$reason}")``: the blanks at the text's ends cut, and the blank
    before a value that ends it printed only when the value prints something (an empty
    ``$reason`` leaves ``…: /x.``)."""
    parts = list(message.parts)
    if left and parts and isinstance(parts[0], Literal):
        parts[0] = Literal(parts[0].text.lstrip())
    if right and parts and isinstance(parts[-1], Literal):
        parts[-1] = Literal(parts[-1].text.rstrip())
    elif right and len(parts) >= 2 and isinstance(last := parts[-1], Hole) and isinstance(
            before := parts[-2], Literal) and last.optional_lead is None:
        kept = before.text.rstrip()
        lead = before.text[len(kept):]
        if lead and kept:
            parts[-2:] = [Literal(kept), replace(last, spec=lead + last.spec, optional_lead=lead)]
    parts = [p for p in parts if not isinstance(p, Literal) or p.text]
    literal = message.literal
    if literal is not None:
        literal = literal.strip() if left and right else literal.rstrip() if right else (
            literal.lstrip())
    return Message(message.written, merge_literals(parts), literal, message.kind,
                   message.suffix, message.calls)
