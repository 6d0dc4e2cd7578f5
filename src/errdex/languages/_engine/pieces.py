"""Messages pieced together, and the site a message makes: one rule for every language.

A concatenation is text when one operand at least is known text (``a + b`` with none
may be arithmetic); the unknown operands are holes named after them. A message makes a
site when something is left once a printed line's newline is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from tree_sitter import Node

from errdex.languages._engine.message import Message, joined
from errdex.languages.base import Site, line_of
from errdex.records.model import ErrorType, Severity
from errdex.templates.template import Literal, Part, Template, chomp


def concatenation(
    operands: Sequence[Node],
    read: Callable[[Node], Message | None],
    hole: Callable[[Node], Message],
) -> Message | None:
    """The operands printed one after another; None when no operand is known text."""
    known = [read(op) for op in operands]
    if all(m is None for m in known):
        return None
    return joined([m if m is not None else hole(op) for op, m in zip(operands, known, strict=True)])


def substitute(
    parts: Sequence[Part], pattern: re.Pattern[str],
    replace: Callable[[re.Match[str]], Sequence[Part]],
) -> list[Part]:
    """Each match of ``pattern`` in literal text replaced by what ``replace`` makes of it
    (a placeholder, a format conversion), in order; holes and other text kept."""
    out: list[Part] = []
    for part in parts:
        if not isinstance(part, Literal):
            out.append(part)
            continue
        pos = 0
        for match in pattern.finditer(part.text):
            out.append(Literal(part.text[pos : match.start()]))
            out.extend(replace(match))
            pos = match.end()
        out.append(Literal(part.text[pos:]))
    return out


def has_words(parts: Sequence[Part]) -> bool:
    """Whether literal text says something (a letter), so the message is worth a record."""
    return any(isinstance(p, Literal) and any(ch.isalpha() for ch in p.text) for p in parts)


def message_site(
    at: Node,
    message: Message | None,
    error_type: ErrorType,
    symbol: str | None,
    error_class: str | None = None,
    *,
    severity: Severity = "error",
    http_status: int | None = None,
    prefix: tuple[Part, ...] = (),
) -> Site | None:
    """The site ``message`` makes at ``at``, a printed line's newline dropped; None when
    there is no message or nothing is left of it."""
    if message is None:
        return None
    parts = chomp(message.parts)
    if not parts:
        return None
    return Site(
        Template(message.written, parts, prefix), error_type, line_of(at),
        error_class, http_status=http_status, severity=severity, symbol=symbol,
    )
