"""JavaScript/TypeScript messages: string and template literals, ``+``, ``util.format``.

Shared by ``spec.py`` (sites) and ``classes.py`` (Error subclasses). A
message is read only when source says what its text is: string literals,
template literals (each ``${…}`` a hole named after its expression), ``+``
concatenations that contain text (each other operand a hole), ``util.format``
with a known format string, and a variable assigned one of those earlier in the
same function (or an enclosing one, or the module). ``written`` keeps literal
text decoded and placeholders as written: ``${expr}``, ``%s``.

Node's ``util.format`` (also what ``console.error`` applies to its arguments)
differs from C printf: no flags or widths (``%5d`` prints as is), ``%d`` is
``Number(x)`` (``1.5``, ``NaN``, ``10n``), ``%i`` ``parseInt``, ``%f``
``parseFloat``, ``%c`` consumes an argument and prints nothing, ``%%`` is ``%``
only when arguments follow, and arguments left over are appended after a space.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from tree_sitter import Node

from errdex.languages._engine import FileIndex, Message, constant, joined
from errdex.languages._engine.pieces import substitute
from errdex.languages._engine.reader import MessageTable
from errdex.languages._engine.reader import Reader as EngineReader
from errdex.languages._engine.strings import Escapes, literal_pieces, unescape
from errdex.languages.base import ancestors, text
from errdex.templates.template import Hole, Literal, Part, escape, merge_literals

SCOPES = frozenset({
    "program", "function_declaration", "function_expression", "function", "arrow_function",
    "method_definition", "generator_function", "generator_function_declaration",
    "class_static_block",
})
# Wrappers that do not change a value: (x), x as T, x!, x satisfies T, <T>x.
TRANSPARENT = frozenset({
    "parenthesized_expression", "as_expression", "non_null_expression",
    "satisfies_expression", "type_assertion",
})

_NUMBER = r"-?(?:\d+(?:\.\d+)?(?:e[-+]\d+)?|Infinity)|NaN"
_FORMAT_HOLES: dict[str, tuple[str, str]] = {  # conversion → (kind, regex) of what Node prints
    "d": ("float", _NUMBER + r"|-?\d+n"),
    "i": ("int", r"-?\d+n?|NaN"),
    "f": ("float", _NUMBER),
}
_ESCAPES = Escapes(
    {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"},
    exact_hex=True, short_unicode=True, unknown="body", continuations="\r\n\u2028\u2029",
)


Env = Mapping[str, Message]  # parameter name → what the caller passed (Error subclass constructors)


def hole(node: Node) -> Message:
    """An operand whose value is unknown: a hole named after it (``String(x)`` → ``x``).

    ``cond ? 'a' : 'b'`` with two constant strings is a hole that prints one of them.
    """
    name = " ".join(text(unwrap_call(node)).split())  # a call over lines reads as one line
    spec = "${" + name + "}"
    choices = _choices(unwrap(node))
    if choices is not None:
        regex = "|".join(escape(c) for c in sorted(set(choices), key=len, reverse=True))
        return Message(spec, (Hole(name, spec, "any", regex),))
    return Message(spec, (Hole.of(name, spec),))


def _choices(node: Node | None) -> list[str] | None:
    """The strings a ternary of constant strings can print (nested ternaries too)."""
    if node is None:
        return None
    if node.type == "ternary_expression":
        sides = [
            _choices(unwrap(node.child_by_field_name(f))) for f in ("consequence", "alternative")
        ]
        if any(side is None for side in sides):
            return None
        return [c for side in sides for c in side or ()]
    value = string_value(node)
    return [value] if value is not None else None


@dataclass
class JsIndex(FileIndex):
    """The file's variables, and the local names that are Node's ``util.format``."""

    format_names: set[str] = field(default_factory=lambda: {"util.format"})
    packages: frozenset[str] | None = None  # names imported from packages, once read

    def sees(self, name: str, at: Node) -> Node | None:
        """The assignment of ``name`` that ``at`` sees: above it, in the innermost scope
        that has one, unless a parameter of that name comes first."""
        return self.visible(name, at, SCOPES, parameter_names)


def scope_of(node: Node) -> Node | None:
    return next((a for a in ancestors(node) if a.type in SCOPES), None)


def parameters(function: Node) -> list[tuple[str, Node | None, bool]]:
    """(name, default value, is a TS parameter property) for each simple parameter."""
    single = function.child_by_field_name("parameter")
    if single is not None:
        return [(text(single), None, False)]
    params = function.child_by_field_name("parameters")
    out: list[tuple[str, Node | None, bool]] = []
    for param in params.named_children if params is not None else ():
        default = None
        is_property = any(c.type in ("accessibility_modifier", "readonly", "override_modifier")
                          for c in param.children)
        if param.type in ("required_parameter", "optional_parameter"):
            default = param.child_by_field_name("value")
            param = param.child_by_field_name("pattern") or param
        if param.type == "assignment_pattern":
            default = param.child_by_field_name("right")
            param = param.child_by_field_name("left") or param
        out.append((text(param) if param.type == "identifier" else "", default, is_property))
    return out


def parameter_names(scope: Node) -> set[str]:
    if scope.type == "program":
        return set()
    return {name for name, _, _ in parameters(scope)} | _pattern_names(scope)


def _pattern_names(function: Node) -> set[str]:
    """Names bound by destructuring parameters (``{ a, b: c }``, ``[x]``, ``...rest``)."""
    params = function.child_by_field_name("parameters")
    names: set[str] = set()
    stack = list(params.named_children) if params is not None else []
    while stack:
        node = stack.pop()
        if node.type in ("shorthand_property_identifier_pattern", "identifier"):
            names.add(text(node))
        elif node.type not in ("type_annotation", "string", "number"):
            stack.extend(node.named_children)
    return names


def unwrap(node: Node | None) -> Node | None:
    while node is not None and node.type in TRANSPARENT and node.named_child_count:
        node = node.named_children[0]
    return node


def unwrap_call(node: Node) -> Node:
    """``String(x)`` and ``x.toString()`` print ``x``."""
    node = unwrap(node) or node
    if node.type != "call_expression":
        return node
    function = node.child_by_field_name("function")
    args = arguments(node)
    if text(function) == "String" and len(args) == 1:
        return args[0]
    if function is not None and function.type == "member_expression" and not args and (
        text(function.child_by_field_name("property")) == "toString"
    ):
        return function.child_by_field_name("object") or node
    return node


def arguments(call: Node) -> list[Node]:
    """The argument nodes of a call or ``new`` (comments dropped; a spread ends the list)."""
    args = call.child_by_field_name("arguments")
    out: list[Node] = []
    for child in args.named_children if args is not None else ():
        if child.type == "spread_element":
            break
        if child.type != "comment":
            out.append(child)
    return out


def object_pairs(node: Node | None) -> dict[str, Node]:
    """``{ code: 'X', "status": 404 }`` → key → value node."""
    node = unwrap(node)
    out: dict[str, Node] = {}
    for pair in node.named_children if node is not None and node.type == "object" else ():
        key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
        if pair.type == "pair" and key is not None and value is not None:
            out[string_value(key) or text(key)] = value
        elif pair.type == "shorthand_property_identifier":  # { message }
            out[text(pair)] = pair
    return out


# --- reading messages --------------------------------------------------------------------


class Reader(EngineReader[JsIndex]):
    """The engine's reader with ``env``: what a constructor's parameters were passed."""

    def __init__(self, index: JsIndex, env: Env | None = None) -> None:
        super().__init__(_TABLE, index)
        self.env = env

    @property
    def index(self) -> JsIndex:
        return self.file

    def with_env(self, env: Env | None) -> Reader:
        """This reader with parameters bound (None: none)."""
        if env is self.env:
            return self
        return Reader(self.file, env)

    def unwrap(self, node: Node | None) -> Node | None:
        return unwrap(node)

    def hole(self, node: Node, depth: int) -> Message:
        if self.env is not None and node.type == "identifier" and text(node) in self.env:
            return self.env[text(node)]
        if node.type == "number" and text(node).isdigit():
            return constant(text(node))
        return hole(node)

    def read_or_hole(self, node: Node, depth: int = 0) -> Message:
        """The message of an argument, or a hole named after it when it is unknown."""
        message = self.read(node, depth)
        return message if message is not None else self.hole(node, depth)

    def assignment(self, node: Node) -> Node | None:
        return self.file.sees(text(node), node)

    def variable(self, node: Node, depth: int) -> Message | None:
        """A bound parameter, or a variable's value read where it is assigned (where no
        parameters are bound)."""
        if self.env is None:
            return super().variable(node, depth)
        if text(node) in self.env:
            return self.env[text(node)]
        return self.with_env(None).variable(node, depth)


def _env(reader: EngineReader[JsIndex]) -> Env | None:
    return reader.env if isinstance(reader, Reader) else None


def _template(reader: EngineReader[JsIndex], node: Node, depth: int) -> Message | None:
    if node.parent is not None and node.parent.type == "call_expression":
        return None  # a tagged template: the tag decides what it prints
    env = _env(reader)
    pieces: list[Message | None] = []
    for chunk, child in _string_pieces(node):
        if chunk:
            pieces.append(constant(chunk))
        if child is not None and child.type == "template_substitution":
            expression = next((c for c in child.named_children if c.type != "comment"), None)
            if expression is None:
                continue
            if env is not None and expression.type == "identifier" and text(expression) in env:
                pieces.append(env[text(expression)])
            elif expression.type == "identifier" and (
                    known := reader.read(expression, depth + 1)) is not None:
                pieces.append(known)  # const message = `Knex: run …`; `${message}\n${e}`
            else:
                pieces.append(hole(expression))
    return joined(pieces) or constant("")


def _format_call(reader: EngineReader[JsIndex], node: Node, depth: int) -> Message | None:
    """``util.format(fmt, …args)``."""
    if text(node.child_by_field_name("function")) not in reader.file.format_names:
        return None
    args = arguments(node)
    first = reader.read(args[0], depth + 1) if args else None
    if first is None:
        return None
    return node_format(first, [_or_hole(reader, a, depth + 1) for a in args[1:]])


def _or_hole(reader: EngineReader[JsIndex], node: Node, depth: int) -> Message:
    message = reader.read(node, depth)
    return message if message is not None else reader.hole(node, depth)


_TABLE: MessageTable[JsIndex] = MessageTable(
    strings={"string": lambda node: _string(node)},
    binary="binary_expression",
    wrappers=TRANSPARENT,
    variables=frozenset({"identifier", "shorthand_property_identifier"}),
    scopes=SCOPES,
    values={"variable_declarator": "value"},
    augmented=frozenset({"augmented_assignment_expression"}),
    rules={"template_string": _template, "call_expression": _format_call},
)


# --- literals ----------------------------------------------------------------------------


def _string(node: Node) -> Message:
    value = "".join(chunk for chunk, _ in _string_pieces(node))
    return constant(value)


def string_value(node: Node | None) -> str | None:
    """The value of a plain string literal (``'…'`` or a template without ``${}``)."""
    node = unwrap(node)
    if node is None or node.type not in ("string", "template_string"):
        return None
    pieces = list(_string_pieces(node))
    if any(c is not None and c.type == "template_substitution" for _, c in pieces):
        return None
    return "".join(chunk for chunk, _ in pieces)


def _string_pieces(node: Node) -> Iterator[tuple[str, Node | None]]:
    """Decoded text up to each substitution of a string/template (then the substitution node)."""
    return literal_pieces(
        node, lambda sequence: unescape(sequence, _ESCAPES), frozenset({"template_substitution"})
    )


# --- util.format -------------------------------------------------------------------------

_SPEC = re.compile(r"%[sdifjoOc%]")


def node_format(first: Message, args: list[Message], append: bool = True) -> Message:
    """What ``util.format(first, ...args)`` prints (a first argument with no arguments is as is).

    ``append=False`` drops arguments left over (loggers such as pino ignore them).
    """
    if not args:
        return first
    remaining = list(args)

    def conversion(match: re.Match[str]) -> Sequence[Part]:
        spec = match.group()
        if spec == "%%":
            return (Literal("%"),)
        if not remaining:
            return (Literal(spec),)
        return _format_hole(spec, remaining.pop(0))

    parts = substitute(first.parts, _SPEC, conversion)
    written = first.written
    for extra in remaining if append else ():
        parts.append(Literal(" "))
        parts.extend(extra.parts)
        written += " " + extra.written
    return Message(written, merge_literals(parts))


def _format_hole(spec: str, arg: Message) -> tuple[Part, ...]:
    conversion = spec[1]
    if conversion == "c":
        return ()
    name = arg.written[2:-1] if _is_hole(arg) else arg.written
    if conversion in _FORMAT_HOLES:
        kind, regex = _FORMAT_HOLES[conversion]
        return (Hole(name, spec, kind, regex),)  # type: ignore[arg-type]
    if conversion == "s" and arg.literal is not None:
        return arg.parts  # a string argument prints as it is
    return (Hole.of(name, spec),)


def _is_hole(message: Message) -> bool:
    return len(message.parts) == 1 and isinstance(message.parts[0], Hole)


def _template_text(node: Node) -> Message:
    """A template literal's text, each ``${…}`` a hole (for the file's text sites)."""
    parts: list[Part] = []
    for chunk, hole in _string_pieces(node):
        parts.append(Literal(chunk))
        if hole is not None:
            parts.append(Hole.of(text(hole), text(hole)))
    return Message(text(node), tuple(parts))


# The string literal decoders, for the text sites of a file (``LanguageSpec.strings``).
STRINGS: dict[str, Callable[[Node], Message | None]] = {
    "string": _string, "template_string": _template_text,
}
