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
import unicodedata
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Literal as TypingLiteral

import re2  # type: ignore[import-untyped]  # google-re2 ships no type information

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
# Running patterns: RE2, linear in the text whatever the pattern
# ---------------------------------------------------------------------------


class PatternError(ValueError):
    """A pattern that RE2 cannot run (lookaround, backreferences, bad syntax); one line."""


# RE2's memory budget per pattern. Mined patterns of up to about 500,000 characters
# fit the base; longer ones get a budget that grows with their own length (what a
# pattern may cost is bounded by the pattern, never by the text it runs on).
_BASE_MAX_MEM = 8 << 20
_MAX_MEM_PER_BYTE = 16
_MAX_MAX_MEM = 64 << 20

# Python's ``\s`` (``str.isspace``): ASCII whitespace, the separators U+001C-U+001F,
# NEL and every Unicode space separator. RE2's own ``\s`` is ASCII only.
_SPACE_SET = r"\t-\r\x1c-\x1f\x85\p{Z}"
_WORD_SET = r"\p{L}\p{N}_"
# Escapes outside a character class → RE2 spelling with Python's (Unicode) meaning.
_CLASS_ESCAPES = {
    "s": f"[{_SPACE_SET}]", "S": f"[^{_SPACE_SET}]",
    "d": r"\p{Nd}", "D": r"\P{Nd}",
    "w": f"[{_WORD_SET}]", "W": f"[^{_WORD_SET}]",
}
# The same inside a character class (``[\s,]``); ``\S`` and ``\W`` there keep RE2's
# ASCII meaning, since a class cannot hold the complement of a union.
_IN_CLASS_ESCAPES = {"s": _SPACE_SET, "d": r"\p{Nd}", "D": r"\P{Nd}", "w": _WORD_SET}
# The same for a text that is all ASCII (``compile_pattern(ascii_only=True)``): there the Unicode
# classes hold only their ASCII members, and RE2 compiles ``[0-9]`` ten times faster than
# ``\p{Nd}`` (a pattern's first lookup pays for it: ~140 -> ~15 µs for a number's hole).
_ASCII_SPACES = r"\t-\r\x1c-\x1f "  # ``_SPACE_SET``'s ASCII members (``\p{Z}``'s: the space)
_ASCII_WORD = "0-9A-Za-z_"
_ASCII_CLASS_ESCAPES = {
    "s": f"[{_ASCII_SPACES}]", "S": f"[^{_ASCII_SPACES}]", "d": "[0-9]", "D": "[^0-9]",
    "w": f"[{_ASCII_WORD}]", "W": f"[^{_ASCII_WORD}]",
}
_ASCII_IN_CLASS_ESCAPES = {"s": _ASCII_SPACES, "d": "0-9", "D": r"\P{Nd}", "w": _ASCII_WORD}
_HEX = frozenset("0123456789abcdefABCDEF")
_OCTAL = frozenset("01234567")
_INLINE_FLAGS = re.compile(r"\(\?([a-zA-Z]*)(?:-[a-zA-Z]*)?[:)]")
_UPPER_BOUND_ONLY = re.compile(r"\{,(\d{0,9})\}")


def to_re2(pattern: str, *, ascii_only: bool = False) -> str:
    """``pattern`` (Python ``re`` or JavaScript syntax) spelled for RE2, same meaning.

    Rewrites the escapes RE2 spells differently (``\\uXXXX``, ``\\u{…}``,
    ``\\UXXXXXXXX``, ``\\N{NAME}``, ``\\cX``, ``\\Z``, ``{,n}``, ``[\\b]``) and gives
    ``\\d``, ``\\s``, ``\\w`` Python's Unicode meaning; raises ``PatternError`` for
    what no linear-time engine runs (lookaround, backreferences) and for RE2's
    ungreedy flag, which would silently change what the holes capture. ``ascii_only``: spelled
    for texts that are all ASCII, its classes holding only their ASCII members (the same
    matches on such a text, and much cheaper to compile).
    """
    out: list[str] = []
    i = 0
    n = len(pattern)
    in_class = False
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            text, i = _escape_at(pattern, i, in_class, ascii_only)
            out.append(text)
            continue
        if in_class:
            if ch == "]":
                in_class = False
            elif ch == "[" and pattern.startswith("[:", i):
                raise PatternError(f"POSIX class at {i} ([:name:]) is not Python or JavaScript "
                                   "syntax; write the characters out")
            out.append(ch)
            i += 1
            continue
        if ch == "[":
            in_class = True
            start = i + 1
            if pattern.startswith("^", start):
                start += 1
            if pattern.startswith("]", start):  # a leading "]" is a literal one
                start += 1
            out.append(pattern[i:start].replace("]", r"\]") if start > i + 1 else "[")
            i = start
            continue
        if ch == "(" and pattern.startswith("(?", i):
            _check_group(pattern, i)
        if ch == "{" and (counted := _UPPER_BOUND_ONLY.match(pattern, i)):
            out.append(f"{{0,{counted.group(1)}}}")  # Python's {,n} is {0,n}, {,} is {0,}
            i = counted.end()
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _check_group(pattern: str, at: int) -> None:
    """Refuse the ``(?…`` constructs that need backtracking or change the holes."""
    lookaround = next((p for p in ("(?<=", "(?<!", "(?=", "(?!") if pattern.startswith(p, at)),
                      None)
    if lookaround:
        raise PatternError(f"lookaround at {at} ({lookaround}…) cannot run in linear time; "
                           "match the text itself instead")
    if pattern.startswith("(?P=", at):
        raise PatternError(f"backreference at {at} ((?P=…)) cannot run in linear time")
    if pattern.startswith("(?>", at):
        raise PatternError(f"atomic group at {at} ((?>…)) is not supported")
    flags = _INLINE_FLAGS.match(pattern, at)
    if flags and "U" in pattern[at : flags.end()]:
        raise PatternError(f"inline flag U at {at} is not Python or JavaScript syntax")


def _escape_at(pattern: str, i: int, in_class: bool, ascii_only: bool = False) -> tuple[str, int]:
    """The RE2 spelling of the escape starting at ``pattern[i]`` and the index after it."""
    if i + 1 >= len(pattern):
        raise PatternError("pattern ends with a lone backslash")
    nxt = pattern[i + 1]
    if nxt == "u":
        return _unicode_escape(pattern, i)
    if nxt == "U":
        digits = pattern[i + 2 : i + 10]
        if len(digits) < 8 or not set(digits) <= _HEX:
            raise PatternError(f"bad escape at {i}: \\U needs 8 hex digits")
        return _code_point(int(digits, 16), i), i + 10
    if nxt == "N":
        end = pattern.find("}", i)
        if not pattern.startswith("{", i + 2) or end < 0:
            raise PatternError(f"bad escape at {i}: \\N needs {{NAME}}")
        try:
            char = unicodedata.lookup(pattern[i + 3 : end])
        except KeyError:
            raise PatternError(f"bad escape at {i}: no character named "
                               f"{pattern[i + 3 : end]!r}") from None
        return _code_point(ord(char), i), end + 1
    if nxt == "c":
        letter = pattern[i + 2 : i + 3]
        if not (letter.isascii() and letter.isalpha()):
            raise PatternError(f"bad escape at {i}: \\c needs a letter")
        return _code_point(ord(letter) % 32, i), i + 3
    if nxt in ("Z", "z") and not in_class:
        return r"\z", i + 2
    if nxt == "b" and in_class:
        return r"\x08", i + 2  # a backspace inside a class, in Python and JavaScript
    if nxt == "C":
        raise PatternError(f"escape \\C at {i} (any byte) is not supported")
    if nxt.isdigit():
        return _digit_escape(pattern, i)
    if ascii_only:
        table = _ASCII_IN_CLASS_ESCAPES if in_class else _ASCII_CLASS_ESCAPES
    else:
        table = _IN_CLASS_ESCAPES if in_class else _CLASS_ESCAPES
    if nxt in table:
        return table[nxt], i + 2
    return pattern[i : i + 2], i + 2


def _unicode_escape(pattern: str, i: int) -> tuple[str, int]:
    """``\\uXXXX`` (a UTF-16 pair joined into one code point) or ``\\u{X…}``."""
    if pattern.startswith("{", i + 2):
        end = pattern.find("}", i)
        digits = pattern[i + 3 : end] if end > 0 else ""
        if not digits or len(digits) > 6 or not set(digits) <= _HEX:
            raise PatternError(f"bad escape at {i}: \\u{{…}} needs 1 to 6 hex digits")
        return _code_point(int(digits, 16), i), end + 1
    digits = pattern[i + 2 : i + 6]
    if len(digits) < 4 or not set(digits) <= _HEX:
        raise PatternError(f"bad escape at {i}: \\u needs 4 hex digits")
    value = int(digits, 16)
    if 0xD800 <= value < 0xDC00:  # a high surrogate: JavaScript's spelling of one character
        low = pattern[i + 6 : i + 12]
        if low.startswith("\\u") and set(low[2:]) <= _HEX and len(low) == 6:
            low_value = int(low[2:], 16)
            if 0xDC00 <= low_value < 0xE000:
                joined = 0x10000 + ((value - 0xD800) << 10) + (low_value - 0xDC00)
                return _code_point(joined, i), i + 12
    return _code_point(value, i), i + 6


def _code_point(value: int, at: int) -> str:
    if 0xD800 <= value < 0xE000:
        return r"\x{FFFD}"  # texts are matched with a lone surrogate read as U+FFFD (``utf8``)
    if value > 0x10FFFF:
        raise PatternError(f"escape at {at} is past U+10FFFF")
    return f"\\x{{{value:X}}}"


def _digit_escape(pattern: str, i: int) -> tuple[str, int]:
    """Octal escapes stay (``\\0``, ``\\101``); ``\\1``…``\\99`` are backreferences."""
    digits = pattern[i + 1 : i + 4]
    if digits[0] == "0":
        run = 1
        while run < 3 and run < len(digits) and digits[run] in _OCTAL:
            run += 1
        return f"\\x{{{int(digits[:run], 8):X}}}", i + 1 + run
    if len(digits) == 3 and set(digits) <= _OCTAL:
        return f"\\x{{{int(digits, 8):X}}}", i + 4
    raise PatternError(f"backreference at {i} (\\{digits[0]}) cannot run in linear time")


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


def compile_pattern(pattern: str, *, ascii_only: bool = False) -> CompiledPattern:
    """Compile a record's pattern the way lookup matches it: RE2, DOTALL (JS's ``s`` flag).

    Raises ``PatternError`` (one line: what and where) for a pattern RE2 cannot run.
    """
    encoded = utf8(to_re2(pattern, ascii_only=ascii_only))
    options = re2.Options()
    options.log_errors = False
    options.dot_nl = True
    options.max_mem = min(_MAX_MAX_MEM, max(_BASE_MAX_MEM, _MAX_MEM_PER_BYTE * len(encoded)))
    try:
        regex = re2.compile(encoded.decode("utf-8"), options)
    except re2.error as error:
        reason = error.args[0] if error.args else "invalid"
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        raise PatternError(f"pattern not valid for RE2: {reason}") from None
    return CompiledPattern(pattern, regex, int(regex.groups))
