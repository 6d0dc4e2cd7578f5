"""Format-string dialects → template parts.

Each parser turns a format string (escapes already decoded) into literal and
hole parts, typing a hole when its conversion fixes its shape (``%d`` prints an
integer, ``{:x}`` lowercase hex). Positional holes are named after the argument
expression they print when the caller passes the arguments.

Dialects: Rust ``format!`` (``{}`` ``{:?}`` ``{0}`` ``{name}`` ``{:>8}`` ``{{``),
Python ``%`` (also C printf and Go verbs share its shape) and Python
``str.format`` / f-string specs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from errdex.templates.template import Hole, HoleKind, Literal, Part, merge_literals


class _Args:
    """Resolves placeholder references to argument source text."""

    def __init__(self, args: Sequence[str] = (), kwargs: Mapping[str, str] | None = None):
        self.args = list(args)
        self.kwargs = dict(kwargs or {})
        self.next_index = 0

    def positional(self) -> str | None:
        index = self.next_index
        self.next_index += 1
        return self.args[index] if index < len(self.args) else None

    def indexed(self, index: int) -> str | None:
        return self.args[index] if index < len(self.args) else str(index)

    def named(self, name: str) -> str:
        return self.kwargs.get(name, name)

    def field(self, key: str) -> str | None:
        """A ``{}`` / ``{0}`` / ``{name}`` field's argument: next, by index, or by name."""
        if key == "":
            return self.positional()
        if key.isdigit():
            return self.indexed(int(key))
        return self.named(key)


def _braced(
    text: str, close_of: Callable[[str, int], int], hole: Callable[[str, str], Hole]
) -> tuple[Part, ...]:
    """The parts of a ``{…}`` format string (Rust's, Python's ``str.format``): ``{{`` and
    ``}}`` are braces, ``close_of`` finds the ``}`` closing the field at an index (-1:
    malformed, the rest is kept as text), and ``hole`` reads a field from its inner text
    and its text as written."""
    parts: list[Part] = []
    literal: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "{}" and text.startswith(ch * 2, i):
            literal.append(ch)
            i += 2
            continue
        if ch != "{":
            literal.append(ch)
            i += 1
            continue
        close = close_of(text, i)
        if close == -1:  # malformed: the compiler would reject it; keep as text
            literal.append(text[i:])
            break
        parts.append(Literal("".join(literal)))
        literal = []
        parts.append(hole(text[i + 1 : close], text[i : close + 1]))
        i = close + 1
    parts.append(Literal("".join(literal)))
    return merge_literals(parts)


# --- Rust ------------------------------------------------------------------------------

_RUST_SPEC = re.compile(
    r"^(?:(?P<fill>.)?(?P<align>[<^>]))?(?P<sign>[+-])?(?P<alt>#)?(?P<zero>0)?"
    r"(?P<width>\d+\$?|[A-Za-z_][A-Za-z0-9_]*\$)?(?:\.(?P<precision>\d+\$?|[A-Za-z_]\w*\$|\*))?"
    r"(?P<type>x\?|X\?|\?|[xXobeE])?$"
)

_RUST_KIND: dict[str, HoleKind] = {"x": "hex", "X": "HEX", "o": "octal", "b": "binary"}


def parse_rust_format(
    text: str, args: Sequence[str] = (), kwargs: Mapping[str, str] | None = None
) -> tuple[Part, ...]:
    """Parts of a Rust format string (``format!``, ``panic!``, thiserror ``#[error]``)."""
    resolver = _Args(args, kwargs)

    def hole(inner: str, written: str) -> Hole:
        arg, _, spec = inner.partition(":")
        match = _RUST_SPEC.match(spec)
        if match and match.group("precision") == "*":
            resolver.positional()  # `.*` takes the precision from the next argument
        return _rust_hole(resolver.field(arg.strip()), written, match)

    return _braced(text, lambda t, i: t.find("}", i), hole)


def _rust_hole(name: str | None, written: str, match: re.Match[str] | None) -> Hole:
    if match is None:
        return Hole.of(name, written)
    kind = _RUST_KIND.get(match.group("type") or "", "any")
    if kind == "any":
        return Hole.of(name, written)
    fill = match.group("fill")
    padded = bool(match.group("width")) and not match.group("zero") and fill in (None, " ")
    if match.group("width") and fill not in (None, " ", "0"):
        return Hole.of(name, written)
    prefix = {"hex": "0x", "HEX": "0x", "octal": "0o", "binary": "0b"}[kind] if match.group(
        "alt"
    ) else ""
    return Hole.of(name, written, kind, pad=padded, prefix=prefix)


# --- printf family (Python %, C/C++, Go, Java String.format) -----------------------------

_PRINTF_DIALECTS: dict[str, re.Pattern[str]] = {
    "python": re.compile(
        r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[-#0 +]*)(?P<width>\*|\d+)?"
        r"(?:\.(?P<precision>\*|\d*))?(?P<length>[hlL])?(?P<conv>[diouxXeEfFgGcrsa%])"
    ),
    "c": re.compile(
        r"%(?:(?P<index>\d+)\$)?(?P<flags>[-#0 +']*)(?P<width>\*|\d+)?"
        r"(?:\.(?P<precision>\*|\d*))?(?P<length>hh|h|ll|l|L|q|j|z|t|I64|I32)?"
        r"(?P<conv>[diouxXeEfFgGaAcspn%])"
    ),
    "go": re.compile(
        r"%(?P<flags>[-#0 +]*)(?:\[(?P<index>\d+)\])?(?P<width>\*|\d+)?"
        r"(?:\.(?P<precision>\*|\d*))?(?P<conv>[vTtbcdoOqxXUeEfFgGspw%])"
    ),
    "java": re.compile(
        r"%(?:(?P<index>\d+)\$)?(?P<flags>[-#+ 0,(]*)(?P<width>\d+)?"
        r"(?:\.(?P<precision>\d+))?(?P<conv>[bBhHsScCdoxXeEfgGaA%n]|[tT][a-zA-Z])"
    ),
}

_INT_KINDS: dict[str, HoleKind] = {
    "d": "int", "i": "int", "u": "int", "x": "hex", "X": "HEX", "o": "octal", "O": "octal",
}


def parse_percent_format(
    text: str, args: Sequence[str] = (), kwargs: Mapping[str, str] | None = None
) -> tuple[Part, ...]:
    """Parts of a Python ``%`` format string (the C printf shape with ``%(name)s``)."""
    return parse_printf(text, args, kwargs, dialect="python")


def parse_printf(
    text: str, args: Sequence[str] = (), kwargs: Mapping[str, str] | None = None,
    dialect: str = "c",
) -> tuple[Part, ...]:
    """Parts of a printf-family format string: ``python``, ``c`` (C/C++, PHP sprintf,
    Ruby format), ``go`` (fmt verbs incl. ``%v %+v %#v %T %q %w``) or ``java``
    (``String.format``; ``%n`` prints a line separator)."""
    resolver = _Args(args, kwargs)
    parts: list[Part] = []
    pos = 0
    for match in _PRINTF_DIALECTS[dialect].finditer(text):
        parts.append(Literal(text[pos : match.start()]))
        pos = match.end()
        conv = match.group("conv")
        if conv == "%":
            parts.append(Literal("%"))
            continue
        if conv == "n":
            if dialect == "java":
                parts.append(Literal("\n"))
            continue  # C's %n prints nothing
        groups = match.groupdict()
        if groups.get("width") == "*":
            resolver.positional()
        if groups.get("precision") == "*":
            resolver.positional()
        name: str | None
        if groups.get("key") is not None:
            name = resolver.named(groups["key"])
        elif groups.get("index"):
            name = resolver.indexed(int(groups["index"]) - 1)
        else:
            name = resolver.positional()
        parts.append(_printf_hole(name, match, dialect))
    parts.append(Literal(text[pos:]))
    return merge_literals(parts)


def _printf_hole(name: str | None, match: re.Match[str], dialect: str) -> Hole:
    conv = match.group("conv")
    written = match.group(0)
    flags = match.group("flags") or ""
    if "," in flags or "'" in flags or "(" in flags:  # grouping / parenthesised negatives
        return Hole.of(name, written)
    padded = bool(match.group("width")) and "0" not in flags
    prefix = ("0X" if conv == "X" else "0x") if "#" in flags and conv in "xX" else ""
    if conv in _INT_KINDS and not (dialect == "go" and conv in "xX"):
        return Hole.of(name, written, _INT_KINDS[conv], pad=padded, prefix=prefix)
    if conv in "fF":
        precision_text = match.group("precision")  # ``.*``: the precision is an argument
        precision = (6 if precision_text is None else None if precision_text == "*"
                     else int(precision_text or 0))
        return Hole.of(name, written, "float", precision=precision, pad=padded)
    if conv in "eEgG":
        return Hole.of(name, written, "float", pad=padded)
    if conv == "t" and dialect == "go":
        return Hole(name, written, "word", r"true|false")
    return Hole.of(name, written)


# --- SLF4J / Log4j ``{}`` and java.text.MessageFormat ``{0}`` ----------------------------------


def parse_slf4j(text: str, args: Sequence[str] = ()) -> tuple[Part, ...]:
    """Parts of an SLF4J/Log4j message: each ``{}`` takes the next argument; ``\\{}`` is text."""
    resolver = _Args(args)
    parts: list[Part] = []
    pos = 0
    for match in re.finditer(r"\\?\{\}", text):
        if match.group().startswith("\\"):
            parts.append(Literal(text[pos : match.start()] + "{}"))
        else:
            parts.append(Literal(text[pos : match.start()]))
            parts.append(Hole.of(resolver.positional(), "{}"))
        pos = match.end()
    parts.append(Literal(text[pos:]))
    return merge_literals(parts)


def parse_message_format(text: str, args: Sequence[str] = ()) -> tuple[Part, ...]:
    """Parts of a ``java.text.MessageFormat`` pattern (``{0}``, ``{1,number}``; ``''`` quotes)."""
    resolver = _Args(args)
    parts: list[Part] = []
    literal: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "'":
            close = text.find("'", i + 1)
            if close == i + 1:
                literal.append("'")
                i += 2
                continue
            if close == -1:
                literal.append(text[i + 1 :])
                break
            literal.append(text[i + 1 : close])
            i = close + 1
            continue
        if ch == "{":
            close = text.find("}", i)
            index = text[i + 1 : close].split(",")[0].strip() if close != -1 else ""
            if index.isdigit():
                parts.append(Literal("".join(literal)))
                literal = []
                parts.append(Hole.of(resolver.indexed(int(index)), text[i : close + 1]))
                i = close + 1
                continue
        literal.append(ch)
        i += 1
    parts.append(Literal("".join(literal)))
    return merge_literals(parts)


# --- Python str.format and f-string specs -------------------------------------------------

_BRACE_SPEC = re.compile(
    r"^(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?(?P<z>z)?(?P<alt>#)?(?P<zero>0)?"
    r"(?P<width>\d+)?(?P<grouping>[,_])?(?:\.(?P<precision>\d+))?(?P<type>[bcdeEfFgGnosxX%])?$"
)

# Integer presentation types of a format spec and the hole kind each prints.
_INTEGER_KINDS: dict[str, HoleKind] = {
    "d": "int", "n": "int", "x": "hex", "X": "HEX", "o": "octal", "b": "binary",
}


def brace_hole(name: str | None, conversion: str | None, spec: str, written: str) -> Hole:
    """The hole of one ``{name!conv:spec}`` field (``str.format`` or an f-string)."""
    if conversion or "{" in spec:
        return Hole.of(name, written)
    match = _BRACE_SPEC.match(spec)
    if match is None:  # a custom __format__ spec (datetime etc.)
        return Hole.of(name, written)
    conv = match.group("type") or ""
    fill = match.group("fill")
    if match.group("width") and fill not in (None, " ", "0"):
        return Hole.of(name, written)
    if match.group("grouping"):
        return Hole.of(name, written)
    padded = bool(match.group("width")) and not match.group("zero") and fill in (None, " ")
    prefix = "0x" if match.group("alt") and conv in "xX" and conv else ""
    kind = _INTEGER_KINDS.get(conv)
    if kind is not None:
        return Hole.of(name, written, kind, pad=padded, prefix=prefix)
    if conv in ("f", "F"):
        precision = int(match.group("precision") or 6)
        return Hole.of(name, written, "float", precision=precision, pad=padded)
    if conv in ("e", "E", "g", "G"):
        return Hole.of(name, written, "float", pad=padded)
    return Hole.of(name, written)


def parse_brace_format(
    text: str, args: Sequence[str] = (), kwargs: Mapping[str, str] | None = None
) -> tuple[Part, ...]:
    """Parts of a Python ``str.format`` string."""
    resolver = _Args(args, kwargs)

    def hole(inner: str, written: str) -> Hole:
        field_part, _, spec = inner.partition(":")
        field_name, _, conversion = field_part.partition("!")
        base = re.split(r"[.\[]", field_name, maxsplit=1)[0]
        name = resolver.field(base)
        if name is not None and field_name != base:
            name += field_name[len(base) :]
        return brace_hole(name, conversion or None, spec, written)

    return _braced(text, _matching_brace, hole)


def _matching_brace(text: str, start: int) -> int:
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    return -1
