"""Message templates: the message as written → literal parts and holes → regex and slug.

A ``Template`` keeps two views of one message:

* ``written`` — the text as it stands in source, placeholders in the source's
  own syntax (this becomes ``errorMessage``);
* ``parts`` — what the runtime prints: literals and holes, including text the
  runtime adds around the message (Rust's ``.expect`` suffix, the
  ``internal error: entered unreachable code: `` prefix, …) as ``prefix`` and
  ``suffix`` parts.

Patterns are Python ``re`` syntax restricted to what JavaScript ``RegExp``
accepts: no named groups, no lookbehind, no inline flags, and only the escapes
both engines agree on. Holes are lazy groups; they are matched with DOTALL
(``s`` flag in JavaScript) so a value may span lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal as TypingLiteral

from errdex.record import slugify

HoleKind = TypingLiteral["any", "int", "uint", "hex", "HEX", "octal", "binary", "float", "word"]

# Regex bodies for hole kinds. Each is free of nested unbounded quantifiers.
_KIND_REGEX: dict[str, str] = {
    "any": ".+?",
    "int": r"-?\d+",
    "uint": r"\d+",
    "hex": r"-?[0-9a-f]+",
    "HEX": r"-?[0-9A-F]+",
    "octal": r"-?[0-7]+",
    "binary": r"-?[01]+",
    "word": r"\S+?",
}


@dataclass(frozen=True)
class Literal:
    """Text printed exactly as it is."""

    text: str


@dataclass(frozen=True)
class Hole:
    """A value filled in at run time.

    ``name`` is the expression or argument name as written (``dtype``, ``0``,
    ``self.path``), or None for an anonymous positional hole. ``spec`` is the
    placeholder as written (``{:?}``, ``%d``). ``regex`` is the group body.
    """

    name: str | None
    spec: str
    kind: HoleKind = "any"
    regex: str = ".+?"
    precision: int | None = None
    # Text printed before the value only when the value is present at all, e.g. the
    # ``: <error>`` Rust's ``.expect`` adds for a ``Result`` but not for an ``Option``.
    optional_lead: str | None = None

    @classmethod
    def of(
        cls, name: str | None, spec: str, kind: HoleKind = "any", *,
        precision: int | None = None, pad: bool = False, prefix: str = "",
    ) -> Hole:
        """A hole whose regex follows from its kind (and float precision, padding, ``0x``)."""
        if kind == "float":
            if precision == 0:
                body = r"-?\d+"
            elif precision is not None:
                body = rf"-?\d+\.\d{{{precision}}}"
            else:
                body = r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
            body = f"(?:{body}|[-+]?(?:inf|Inf|Infinity)|nan|NaN)"
        else:
            body = _KIND_REGEX[kind]
        if prefix:
            body = escape(prefix) + body if not body.startswith("-?") else (
                "-?" + escape(prefix) + body[2:]
            )
        if pad and kind != "any":
            body = f" *{body} *"
        return cls(name=name, spec=spec, kind=kind, regex=body, precision=precision)


Part = Literal | Hole


def escape(text: str) -> str:
    """Escape literal text so Python ``re`` and JavaScript ``RegExp`` (even with ``u``) agree."""
    out = []
    for ch in text:
        if ch in "\\^$.|?*+()[]{}/":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append(r"\n")
        elif ch == "\t":
            out.append(r"\t")
        elif ch == "\r":
            out.append(r"\r")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return "".join(out)


def merge_literals(parts: list[Part] | tuple[Part, ...]) -> tuple[Part, ...]:
    """Join adjacent literals and drop empty ones."""
    merged: list[Part] = []
    for part in parts:
        if isinstance(part, Literal):
            if not part.text:
                continue
            if merged and isinstance(merged[-1], Literal):
                merged[-1] = Literal(merged[-1].text + part.text)
                continue
        merged.append(part)
    return tuple(merged)


@dataclass(frozen=True)
class Template:
    """A message template: as written, and as printed at run time."""

    written: str
    message: tuple[Part, ...]
    prefix: tuple[Part, ...] = field(default=())
    suffix: tuple[Part, ...] = field(default=())

    @property
    def parts(self) -> tuple[Part, ...]:
        """Everything the runtime prints, wrapper included."""
        return merge_literals((*self.prefix, *self.message, *self.suffix))

    @property
    def holes(self) -> list[Hole]:
        return [p for p in self.parts if isinstance(p, Hole)]

    def pattern(self) -> str:
        """The regex that fullmatches every message this template prints."""
        out = []
        for part in self.parts:
            if isinstance(part, Literal):
                out.append(escape(part.text))
            elif part.optional_lead is not None:
                out.append(f"(?:{escape(part.optional_lead)}({part.regex}))?")
            else:
                out.append(f"({part.regex})")
        return "".join(out)

    def literal_text(self) -> str:
        """The message's literal text, holes dropped (slugs, specificity)."""
        return " ".join(p.text for p in self.message if isinstance(p, Literal))

    def slug(self, fallback: str = "error") -> str:
        return slugify(self.literal_text(), fallback)

    def normalized(self) -> str:
        """Identity of the template: its runtime literals with every hole as ``{}``."""
        return "".join(p.text if isinstance(p, Literal) else "{}" for p in self.parts)

    def render(self, values: list[str | None]) -> str:
        """The message printed when each hole (in order) prints the given value.

        An optional hole given None prints nothing, its lead included.
        """
        holes = iter(values)
        out = []
        for part in self.parts:
            if isinstance(part, Literal):
                out.append(part.text)
                continue
            value = next(holes)
            if part.optional_lead is None:
                out.append(value or "")
            elif value is not None:
                out.append(part.optional_lead + value)
        return "".join(out)

    def with_wrapper(
        self, prefix: tuple[Part, ...] = (), suffix: tuple[Part, ...] = ()
    ) -> Template:
        """The same written message, with text the runtime adds around it."""
        return Template(self.written, self.message, prefix, suffix)


def chomp(parts: tuple[Part, ...]) -> tuple[Part, ...]:
    """A printed line ends before its newline: drop one trailing ``\\n``."""
    if parts and isinstance(parts[-1], Literal) and parts[-1].text.endswith("\n"):
        return merge_literals([*parts[:-1], Literal(parts[-1].text[:-1])])
    return parts


def literal_template(text: str) -> Template:
    """A template with no holes."""
    return Template(text, merge_literals([Literal(text)]))


def compile_pattern(pattern: str) -> re.Pattern[str]:
    """Compile a record's pattern the way lookup matches it (DOTALL, like JS's ``s`` flag)."""
    return re.compile(pattern, re.DOTALL)
