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

Lookup runs every pattern — mined or imported — on RE2 (``compile_pattern``),
whose time is linear in the text whatever the pattern: a stored pattern can
never backtrack. Patterns RE2 cannot run (lookaround, backreferences) are
refused with ``PatternError``; errdex never generates one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any
from typing import Literal as TypingLiteral

import re2  # type: ignore[import-untyped]  # google-re2 ships no type information

from errdex.templates.re2_syntax import PatternError as PatternError
from errdex.templates.re2_syntax import to_re2 as to_re2
from errdex.templates.slug import slugify

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
    # one table lookup per character (a loop in Python over every character of every
    # literal cost more than the rest of building a pattern)
    out = text.translate(_ESCAPES)
    if _LONE_SURROGATE.search(out):  # a lone surrogate has no UTF-8: spelled as an escape
        out = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", out)
    return out


_ESCAPES: dict[int, str] = {
    **{code: f"\\x{code:02x}" for code in (*range(0x20), 0x7F)},
    **{ord(ch): "\\" + ch for ch in "\\^$.|?*+()[]{}/"},
    ord("\n"): r"\n", ord("\t"): r"\t", ord("\r"): r"\r",
}


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


ONE_CHARACTER = "."  # what one character (a C/C++ ``char``) prints


def lost_last_character(template: Template) -> Template:
    """A message ending in one character after a blank (``"bad escape: " + ch``): the
    character may be a space or a control character, which a pasted line loses with the
    blank before it, so both are optional (``Hole.optional_lead``)."""
    parts = list(template.parts)
    if len(parts) < 2 or not isinstance(last := parts[-1], Hole) or (
            last.regex != ONE_CHARACTER) or last.optional_lead is not None or not isinstance(
            before := parts[-2], Literal):
        return template
    kept = before.text.rstrip()
    lead = before.text[len(kept):]
    if not lead or not kept:
        return template
    parts[-2:] = [Literal(kept), replace(last, spec=lead + last.spec, optional_lead=lead)]
    return Template(template.written, tuple(parts))


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Template:
    """A message template: as written, and as printed at run time."""

    written: str
    message: tuple[Part, ...]
    prefix: tuple[Part, ...] = field(default=())
    suffix: tuple[Part, ...] = field(default=())

    def __post_init__(self) -> None:
        # Python's "\udc80" decodes to a lone surrogate, which no UTF-8 store, id hash or
        # page can carry: the written form keeps it as the escape the source spells.
        if _LONE_SURROGATE.search(self.written):
            spelled = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", self.written)
            object.__setattr__(self, "written", spelled)

    @cached_property
    def parts(self) -> tuple[Part, ...]:
        """Everything the runtime prints, wrapper included (worked out once: a mine asks a
        template for it many times, for its pattern, holes and slug)."""
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


# ---------------------------------------------------------------------------
# Running patterns: RE2, linear in the text whatever the pattern (spelled for it by
# ``re2_syntax.to_re2``)
# ---------------------------------------------------------------------------

# RE2's memory budget per pattern. Mined patterns of up to about 500,000 characters
# fit the base; longer ones get a budget that grows with their own length (what a
# pattern may cost is bounded by the pattern, never by the text it runs on).
_BASE_MAX_MEM = 8 << 20
_MAX_MEM_PER_BYTE = 16
_MAX_MAX_MEM = 64 << 20


@dataclass(frozen=True)
class PatternMatch:
    """A full match of a pattern: the text and what each group captured (None: not taking part)."""

    text: str
    values: tuple[str | None, ...]

    def groups(self) -> tuple[str | None, ...]:
        return self.values

    def group(self, index: int = 0) -> str | None:
        return self.text if index == 0 else self.values[index - 1]


def utf8(text: str) -> bytes:
    """``text`` as UTF-8 for RE2, surrogates read as UTF-16 reads them (as patterns do):
    a pair is the character it encodes, a lone one is U+FFFD."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        units = text.encode("utf-16-le", "surrogatepass")
        return units.decode("utf-16-le", "replace").encode("utf-8")


class CompiledPattern:
    """A record's pattern compiled for RE2; ``fullmatch`` is linear in the text."""

    __slots__ = ("_regex", "groups", "pattern")

    def __init__(self, pattern: str, regex: object, groups: int) -> None:
        self.pattern = pattern
        self._regex = regex
        self.groups = groups

    def fullmatch(self, text: str | bytes) -> PatternMatch | None:
        """The groups if all of ``text`` matches (bytes: already ``utf8``-encoded)."""
        data = text if isinstance(text, bytes) else utf8(text)
        found = self._regex.fullmatch(data)  # type: ignore[attr-defined]
        if found is None:
            return None
        values = tuple(None if v is None else v.decode("utf-8", "replace")
                       for v in found.groups())
        return PatternMatch(text if isinstance(text, str) else data.decode("utf-8", "replace"),
                            values)

    def __repr__(self) -> str:
        return f"CompiledPattern({self.pattern!r})"


# ``re2.compile`` reads every option back (a dozen calls into C++, ~25 µs) to key a cache of
# 128 regexes that a lookup's patterns run through at once; the regex class it would make is
# made directly (the pinned google-re2's; ``re2.compile`` for a release without it). RE2
# copies the options into each regex: one object per memory budget serves them all.
_REGEX: Any = getattr(re2, "_Regexp", None)


@lru_cache(maxsize=16)
def _options(max_mem: int) -> Any:
    """RE2's options for a lookup's pattern with this memory budget (made once, never
    changed after)."""
    options = re2.Options()
    options.log_errors = False
    options.dot_nl = True
    options.max_mem = max_mem
    return options


def compile_pattern(pattern: str, *, ascii_only: bool = False) -> CompiledPattern:
    """Compile a record's pattern the way lookup matches it: RE2, DOTALL (JS's ``s`` flag).

    Raises ``PatternError`` (one line: what and where) for a pattern RE2 cannot run.
    """
    encoded = utf8(to_re2(pattern, ascii_only=ascii_only))
    options = _options(min(_MAX_MAX_MEM, max(_BASE_MAX_MEM, _MAX_MEM_PER_BYTE * len(encoded))))
    try:
        if _REGEX is None:
            regex = re2.compile(encoded.decode("utf-8"), options)
        else:
            regex = _REGEX(encoded.decode("utf-8"), options)
    except re2.error as error:
        reason = error.args[0] if error.args else "invalid"
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        raise PatternError(f"pattern not valid for RE2: {reason}") from None
    return CompiledPattern(pattern, regex, int(regex.groups))
