"""C# string literals and format strings → message parts.

Regular, verbatim and raw literals; interpolated strings (``$"…{x}…"``); composite
formats (``string.Format``) and logging message templates (``{Name}``). Kept apart from
``spec.py`` so that the spec holds the sites and this module the C# text rules.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from errdex.languages._engine.message import Message
from errdex.languages._engine.strings import C_ESCAPES, Escapes, unescape
from errdex.languages.base import text
from errdex.templates.template import Hole, HoleKind, Literal, Part, merge_literals

_ESCAPES = Escapes(
    {**C_ESCAPES, "a": "\a", "b": "\b", "f": "\f", "v": "\v", "e": "\x1b"},
    braced=False, continuations="", long_hex=True, long_unicode=True,
)


def string_value(node: Node) -> str | None:
    """The value of a regular, verbatim or raw string literal (a line break of a file
    saved with CRLF is one ``\n``, as it is pasted)."""
    if node.type == "verbatim_string_literal":
        return text(node)[2:-1].replace('""', '"').replace("\r\n", "\n")
    if node.type == "raw_string_literal":
        content = "".join(text(c) for c in node.named_children
                          if c.type == "raw_string_content").replace("\r\n", "\n")
        dedented = _dedent_raw([Literal(content)])[0] if content else None
        return dedented.text if isinstance(dedented, Literal) else ""
    if node.type != "string_literal":
        return None
    return "".join(
        _unescape(text(c)) if c.type == "escape_sequence" else text(c)
        for c in node.named_children if c.type in ("string_literal_content", "escape_sequence")
    )


def folded_value(node: Node | None) -> str | None:
    """A literal's value, or a ``+`` chain of literals' (``"… outside the " + "range …"``:
    one constant, as the compiler folds it)."""
    if node is not None and node.type == "binary_expression" and text(
            node.child_by_field_name("operator")) == "+":
        left = folded_value(node.child_by_field_name("left"))
        right = folded_value(node.child_by_field_name("right"))
        return None if left is None or right is None else left + right
    return string_value(node) if node is not None else None


def character_value(node: Node) -> str | None:
    """The character a ``'x'`` or ``'\\n'`` literal prints; None for any other node."""
    if node.type != "character_literal":
        return None
    inner = [c for c in node.named_children
             if c.type in ("character_literal_content", "escape_sequence")]
    if len(inner) != 1:
        return None
    return _unescape(text(inner[0])) if inner[0].type == "escape_sequence" else text(inner[0])


def _unescape(sequence: str) -> str:
    return unescape(sequence, _ESCAPES) or sequence


def interpolated(node: Node, name_of: Callable[[Node], str | None],
                 expand: Callable[[Node], tuple[Part, ...] | None] | None = None) -> Message:
    """``$"…{x}…"``, ``$@"…"``, ``$\"\"\"…\"\"\"``: each interpolation a hole named after it,
    or what ``expand`` says a plain ``{local}`` prints (a message built above the site)."""
    start = text(node.children[0]) if node.children else "$"
    verbatim, raw = "@" in start, any(c.type == "interpolation_quote" for c in node.children)
    parts: list[Part] = []
    for child in node.named_children:
        if child.type == "string_content":
            value = text(child).replace("\r\n", "\n")  # a CRLF file's line break
            if not raw:
                value = value.replace("{{", "{").replace("}}", "}")
            parts.append(Literal(value.replace('""', '"') if verbatim else value))
        elif child.type == "escape_sequence":
            parts.append(Literal(_unescape(text(child))))
        elif child.type == "interpolation":
            parts.extend(_interpolation(child, name_of, expand))
    if raw:
        parts = _dedent_raw(parts)
    quotes = [c for c in node.children if c.type in ('"', "interpolation_quote")]
    source = node.text or b""
    written = source[quotes[0].end_byte - node.start_byte : quotes[-1].start_byte
                     - node.start_byte] if len(quotes) >= 2 else source
    return Message(written.decode("utf-8", errors="replace").replace("\r\n", "\n"),
                   merge_literals(parts))


def _interpolation(node: Node, name_of: Callable[[Node], str | None],
                   expand: Callable[[Node], tuple[Part, ...] | None] | None) -> tuple[Part, ...]:
    """``{x}``, ``{x,5}``, ``{x:D}``, ``{nameof(x)}`` (prints ``x``); a plain ``{local}``
    what ``expand`` reads of it, when it says."""
    expression = next((c for c in node.named_children if not c.type.startswith("interpolation")),
                      None)
    if expression is None:
        return (Hole.of(None, text(node)),)
    constant = name_of(expression)
    if constant is not None:
        return (Literal(constant),)
    aligned = any(c.type == "interpolation_alignment_clause" for c in node.named_children)
    clause = next((c for c in node.named_children if c.type == "interpolation_format_clause"),
                  None)
    if expand is not None and expression.type == "identifier" and not aligned and clause is None:
        found = expand(expression)
        if found is not None:
            return found
    return (_typed_hole(text(expression), text(node), text(clause)[1:] if clause else "",
                        aligned),)


_NUMERIC_KINDS: dict[str, HoleKind] = {"D": "int", "d": "int", "X": "HEX", "x": "hex"}


def _typed_hole(name: str | None, written: str, spec: str, aligned: bool) -> Hole:
    """Integer formats (``D``, ``X``, ``x`` with digits) fix a hole's shape; others don't."""
    kind = _NUMERIC_KINDS.get(spec[:1]) if spec[1:].isdigit() or not spec[1:] else None
    return Hole.of(name, written, kind, pad=aligned) if kind else Hole.of(name, written)


def _dedent_raw(parts: list[Part]) -> list[Part]:
    """A multi-line raw string drops its first and last line breaks and the closing indent."""
    if not parts or not isinstance(parts[0], Literal) or not isinstance(parts[-1], Literal):
        return parts
    head, tail = parts[0].text, parts[-1].text
    indent = tail.rsplit("\n", 1)[-1]
    if not head.startswith(("\n", "\r\n")) or "\n" not in tail or indent.strip():
        return parts
    out = [Literal(p.text.replace("\n" + indent, "\n")) if isinstance(p, Literal) else p
           for p in parts]
    first, last = out[0], out[-1]
    assert isinstance(first, Literal) and isinstance(last, Literal)
    out[-1] = Literal(last.text.removesuffix("\n").removesuffix("\r"))
    first = out[0]
    assert isinstance(first, Literal)
    out[0] = Literal(first.text.removeprefix("\r").removeprefix("\n"))
    return out


def composite_format(value: str, args: list[str]) -> tuple[Part, ...]:
    """``string.Format``: ``{index[,alignment][:format]}`` holes, ``{{``/``}}`` escapes."""
    return _braces(value, lambda inner, written: _composite_hole(inner, written, args))


def _composite_hole(inner: str, written: str, args: list[str]) -> Part:
    index, _, spec = inner.partition(":")
    position, comma, _ = index.partition(",")
    position = position.strip()
    name = args[int(position)] if position.isdigit() and int(position) < len(args) else position
    return _typed_hole(name, written, spec, bool(comma))


def message_template(value: str, args: list[str]) -> tuple[Part, ...]:
    """Logging message templates: ``{Name}``, ``{@Name}``, ``{Name:fmt}`` take args in order."""
    remaining = iter(args)

    def hole(inner: str, written: str) -> Part:
        name = next(remaining, inner.lstrip("@$").split(",")[0].split(":")[0])
        return Hole.of(name, written)

    return _braces(value, hole)


def _braces(value: str, hole: Callable[[str, str], Part]) -> tuple[Part, ...]:
    """Split ``{…}`` fields from text; ``{{`` and ``}}`` print one brace."""
    parts: list[Part] = []
    literal: list[str] = []
    i = 0
    while i < len(value):
        pair = value[i : i + 2]
        if pair in ("{{", "}}"):
            literal.append(pair[0])
            i += 2
            continue
        close = value.find("}", i) if value[i] == "{" else -1
        if close == -1:
            literal.append(value[i])
            i += 1
            continue
        parts += [Literal("".join(literal)), hole(value[i + 1 : close], value[i : close + 1])]
        literal = []
        i = close + 1
    parts.append(Literal("".join(literal)))
    return merge_literals(parts)
