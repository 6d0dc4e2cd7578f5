"""Helpers shared by the Java and Kotlin modules (no language of its own).

Both languages run on the JVM and call the same libraries, so the rules for what
those libraries print live here once: Java string literals and text blocks,
Guava's ``%s``-only ``lenientFormat``, SLF4J's trailing-Throwable rule, and the
joining of ``+`` concatenations into one message.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tree_sitter import Node

from errdex.languages.base import ancestors, text
from errdex.languages.message import Message as Message
from errdex.languages.message import joined as joined
from errdex.languages.message import operand_hole as operand_hole
from errdex.templates.formats import parse_slf4j
from errdex.templates.template import Hole, Literal, Part, merge_literals


def literal_message(value: str) -> Message:
    return Message(value, merge_literals([Literal(value)]), value)


# --- Java string literals -------------------------------------------------------------

_JAVA_ESCAPES = {
    "b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", "s": " ",
    '"': '"', "'": "'", "\\": "\\",
}
_JAVA_ESCAPE = re.compile(r"\\(?:u+([0-9a-fA-F]{4})|([0-3][0-7]{0,2}|[4-7][0-7]?)|(\n)|(.))")


def decode_java_string(source: str) -> str | None:
    """The value of a Java string literal or text block, from its source text."""
    if source.startswith('"""'):
        return _text_block(source)
    if len(source) < 2 or not source.startswith('"') or not source.endswith('"'):
        return None
    return _java_escapes(source[1:-1])


def _java_escapes(body: str) -> str | None:
    def one(match: re.Match[str]) -> str:
        unicode, octal, newline, other = match.groups()
        if unicode:
            return chr(int(unicode, 16))
        if octal:
            return chr(int(octal, 8))
        if newline:
            return ""  # text-block line continuation
        return _JAVA_ESCAPES.get(other, "\\" + other)

    return _JAVA_ESCAPE.sub(one, body)


def _text_block(source: str) -> str | None:
    """A text block: incidental indentation and trailing spaces stripped, then escapes."""
    body = source[3:-3].replace("\r\n", "\n").replace("\r", "\n")
    head, newline, body = body.partition("\n")
    if not newline or head.strip():
        return None  # the opening delimiter must end its line
    lines = body.split("\n")
    closing_alone = not lines[-1].strip()
    significant = [ln for ln in lines if ln.strip()] + ([lines[-1]] if closing_alone else [])
    indent = min((len(ln) - len(ln.lstrip(" \t")) for ln in significant), default=0)
    stripped = [ln[indent:].rstrip(" \t") if ln.strip() else "" for ln in lines]
    return _java_escapes("\n".join(stripped))


# --- Guava lenientFormat ----------------------------------------------------------------


def parse_guava(template: str, args: Sequence[str]) -> tuple[Part, ...]:
    """Guava ``Preconditions``/``Verify``: each ``%s`` takes the next argument, nothing else
    is a placeholder; arguments left over are printed as `` [a, b]`` after the message."""
    parts: list[Part] = []
    pos = 0
    index = 0
    while index < len(args):
        found = template.find("%s", pos)
        if found == -1:
            break
        parts += [Literal(template[pos:found]), Hole.of(args[index], "%s")]
        pos = found + 2
        index += 1
    parts.append(Literal(template[pos:]))
    if index < len(args):
        parts.append(Literal(" ["))
        for i, name in enumerate(args[index:]):
            parts += [Literal(", ") if i else Literal(""), Hole.of(name, "%s")]
        parts.append(Literal("]"))
    return merge_literals(parts)


def guava_message(message: Message, args: Sequence[str]) -> Message | None:
    """A Guava check's message: formatted only when arguments follow the template."""
    if not args:
        return message
    if message.literal is None:
        return None
    return Message(message.literal, parse_guava(message.literal, args))


# --- SLF4J / Log4j ------------------------------------------------------------------------

_THROWABLE_NAMES = frozenset({
    "e", "ex", "exc", "t", "th", "tr", "err", "error", "cause", "throwable", "exception",
    "ioe", "ie", "re", "npe", "iae", "ise",
})


def looks_like_throwable(expression: str) -> bool:
    """Whether a logger's last argument is (by its name) the exception to log with a trace.

    SLF4J and Log4j 2 print a trailing Throwable as a stack trace, not as a placeholder value.
    """
    last = expression.rsplit(".", 1)[-1].strip()
    if last.startswith("new ") or last.endswith(")"):
        name = re.sub(r"^new\s+|\(.*$", "", last, flags=re.S)
        return name.endswith(("Exception", "Error"))
    lowered = last.lower()
    return lowered in _THROWABLE_NAMES or lowered.endswith(("exception", "error", "ex"))


def slf4j_message(
    message: Message, args: Sequence[str], last_is_throwable: bool | None = None
) -> Message | None:
    """``log.error("a {} b", x, e)``: ``{}`` take the arguments, a trailing Throwable does not.

    Without arguments the text is printed as it is. A ``{}`` left without a value prints
    ``{}`` in SLF4J but the Throwable itself in Log4j 2, so it stays an unnamed hole.
    """
    if not args:
        return message
    if message.literal is None:
        return None
    values = list(args)
    if last_is_throwable or (last_is_throwable is None and looks_like_throwable(values[-1])):
        values.pop()
    return Message(message.literal, parse_slf4j(message.literal, values))


def simple_name(type_text: str) -> str:
    """``java.io.IOException`` → ``IOException``; ``Foo<T>`` → ``Foo``."""
    base = type_text.split("<", 1)[0].strip()
    return base.rsplit(".", 1)[-1].strip()


def is_exception_name(name: str) -> bool:
    """A class name that says it is a Throwable (``IOException``, ``AssertionError``)."""
    return name[:1].isupper() and name.endswith(("Exception", "Error", "Throwable"))


# --- Kotlin string templates -------------------------------------------------------------

_KOTLIN_ESCAPES = {
    "t": "\t", "b": "\b", "n": "\n", "r": "\r", "'": "'", '"': '"', "\\": "\\", "$": "$",
}


def kotlin_string(node: Node) -> Message:
    """A string template: literal text decoded, ``$x`` and ``${expr}`` holes."""
    source = text(node)
    raw = source.startswith('"""')
    written = source[3:-3] if raw else source[1:-1]
    parts: list[Part] = []
    for child in node.named_children:
        if child.type == "string_content":
            parts.append(Literal(text(child) if raw else _unescape(text(child))))
        elif child.type == "interpolated_identifier":
            parts.append(Hole.of(text(child), "$" + text(child)))
        elif child.type == "interpolated_expression":
            parts.append(_interpolation(child))
    merged = merge_literals(parts)
    if all(isinstance(p, Literal) for p in merged):
        value = "".join(p.text for p in merged if isinstance(p, Literal))
        return Message(value if not raw else written, merged, value)
    return Message(written, merged)


def _interpolation(node: Node) -> Part:
    """``${expr}``; ``${'$'}`` and ``${"text"}`` are literal text."""
    expression = node.named_children[0] if node.named_child_count == 1 else None
    if expression is not None and expression.type == "character_literal":
        return Literal(_unescape(text(expression)[1:-1]))
    if expression is not None and expression.type == "string_literal":
        message = kotlin_string(expression)
        if message.literal is not None:
            return Literal(message.literal)
    name = text(node.named_children[0]) if node.named_child_count else ""
    return Hole.of(name, "${" + name + "}")


def _unescape(value: str) -> str:
    """Kotlin escapes: ``\\n \\t \\$ \\uXXXX`` …"""
    out: list[str] = []
    i = 0
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value):
            nxt = value[i + 1]
            digits = value[i + 2 : i + 6]
            if nxt == "u" and len(digits) == 4 and all(c in string.hexdigits for c in digits):
                out.append(chr(int(digits, 16)))
                i += 6
                continue
            out.append(_KOTLIN_ESCAPES.get(nxt, "\\" + nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


# --- Kotlin text functions on templates -------------------------------------------------

_MARK = 0xE000  # private-use characters stand for holes while text functions run


def map_text(message: Message, function: Callable[[str], str]) -> Message:
    """Apply a text function (``trimIndent``) to a message whose holes are single marks.

    A hole counts as one non-blank character, which is what it is unless its value
    spans lines. The written form is trimmed too: placeholders are non-blank text.
    """
    holes = [p for p in message.parts if isinstance(p, Hole)]
    marked = "".join(
        p.text if isinstance(p, Literal) else chr(_MARK + holes.index(p)) for p in message.parts
    )
    parts: list[Part] = []
    for ch in function(marked):
        index = ord(ch) - _MARK
        parts.append(holes[index] if 0 <= index < len(holes) else Literal(ch))
    literal = function(message.literal) if message.literal is not None else None
    return Message(function(message.written), merge_literals(parts), literal)


def trim_indent(value: str) -> str:
    """Kotlin ``String.trimIndent()``."""
    lines = value.split("\n")
    widths = [len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()]
    indent = min(widths, default=0)
    return _reindent(lines, lambda ln: ln[indent:])


def trim_margin(value: str, prefix: str = "|") -> str:
    """Kotlin ``String.trimMargin(prefix)``: lines without the margin are kept as they are."""
    def cut(line: str) -> str:
        stripped = line.lstrip()
        return stripped[len(prefix):] if stripped.startswith(prefix) and stripped else line

    return _reindent(value.split("\n"), cut)


def _reindent(lines: list[str], cut: Callable[[str], str]) -> str:
    last = len(lines) - 1
    kept = [
        cut(line) for i, line in enumerate(lines) if not ((i in (0, last)) and not line.strip())
    ]
    return "\n".join(kept)


# --- Java declarations -------------------------------------------------------------------
# Tree-walking for java.py, kept here to keep that module small.

JAVA_CLASSES = frozenset({
    "class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
    "annotation_type_declaration",
})
JAVA_BODIES = frozenset({"class_body", "interface_body", "enum_body", "annotation_type_body"})
_FUNCTIONS = frozenset({
    "method_declaration", "constructor_declaration", "compact_constructor_declaration",
    "lambda_expression", "static_initializer",
})


@dataclass(frozen=True)
class _Declared:
    """A declared variable: its type and name nodes."""

    type: Node | None
    name: Node | None


def java_declared_throwable(node: Node) -> bool | None:
    """Whether a variable is declared with a Throwable type; None when its declaration is unseen."""
    if node.type != "identifier":
        return None
    name = text(node)
    for scope in ancestors(node):
        declared = [d.type for d in _declarations(scope) if text(d.name) == name]
        if declared:
            return is_exception_name(simple_name(text(declared[0]).split("|")[0]))
    return None


def _declarations(scope: Node) -> list[_Declared]:
    """Parameters, catch parameters and locals declared directly in one scope."""
    if scope.type in ("method_declaration", "constructor_declaration", "lambda_expression"):
        params = scope.child_by_field_name("parameters")
        return [
            _Declared(p.child_by_field_name("type"), p.child_by_field_name("name"))
            for p in (params.named_children if params else ()) if p.type == "formal_parameter"
        ]
    if scope.type == "catch_clause":
        param = next((c for c in scope.named_children if c.type == "catch_formal_parameter"), None)
        catch_type = param.named_children[-2] if param and param.named_child_count >= 2 else None
        return [_Declared(catch_type, param.child_by_field_name("name"))] if param else []
    if scope.type == "block":
        return [
            _Declared(c.child_by_field_name("type"), d.child_by_field_name("name"))
            for c in scope.named_children if c.type == "local_variable_declaration"
            for d in c.children_by_field_name("declarator")
        ]
    return []


def nearest_java_assignment(name: str, at: Node, candidates: list[Node]) -> Node | None:
    """The assignment a name refers to: the nearest above in its function, else a constant."""
    for scope in ancestors(at):
        if scope.type in _FUNCTIONS:
            above = [
                a for a in candidates if a.end_byte <= at.start_byte and java_scope(a) == scope
            ]
            if above:
                return above[-1]
            if name in _parameters(scope):
                return None
        elif scope.type in JAVA_BODIES:
            fields = [a for a in candidates if java_scope(a) == scope and is_java_constant(a)]
            if fields:
                return fields[-1]
    return None


def java_scope(node: Node) -> Node | None:
    return next((a for a in ancestors(node) if a.type in _FUNCTIONS or a.type in JAVA_BODIES), None)


def is_java_constant(declarator: Node) -> bool:
    """A field that cannot change: ``final``, or any field of an interface."""
    declaration = declarator.parent
    if declaration is None or declaration.type not in ("field_declaration",
                                                       "constant_declaration"):
        return False
    if declaration.type == "constant_declaration":
        return True
    modifiers = next((c for c in declaration.children if c.type == "modifiers"), None)
    return modifiers is not None and any(c.type == "final" for c in modifiers.children)


def _parameters(function: Node) -> set[str]:
    params = function.child_by_field_name("parameters")
    if params is None:
        return set()
    if params.type == "identifier":  # x -> ...
        return {text(params)}
    names = set()
    for param in params.named_children:
        name = param.child_by_field_name("name") if param.type != "identifier" else param
        if name is not None:
            names.add(text(name))
    return names
