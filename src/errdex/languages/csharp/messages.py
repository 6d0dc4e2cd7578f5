"""C# message expressions: what a string, an interpolation, a ``string.Format`` or a
local variable prints (shared by the site reader and the composition reader).

See ``spec.py`` for the forms read; a variable is the last local of its name declared
above the site in the method around it (``Locals``).
"""

from __future__ import annotations

from contextvars import ContextVar

from tree_sitter import Node

from errdex.languages._engine import FileIndex
from errdex.languages._engine.locals import LocalReader, Locals
from errdex.languages._engine.message import Message, joined
from errdex.languages._engine.reader import MessageTable, Reader
from errdex.languages._engine.walk import nodes_from
from errdex.languages.base import ancestors, text
from errdex.languages.csharp.builders import built, tail_of
from errdex.languages.csharp.strings import (
    character_value,
    composite_format,
    folded_value,
    interpolated,
    string_value,
)
from errdex.templates.template import Hole, Literal, Part

NEWLINE = Hole("Environment.NewLine", "{Environment.NewLine}", "any", r"\r?\n")
STRINGS = ("string_literal", "verbatim_string_literal", "raw_string_literal")
SCOPES = {
    "class_declaration": "name", "struct_declaration": "name", "record_declaration": "name",
    "interface_declaration": "name", "method_declaration": "name",
    "constructor_declaration": "name", "local_function_statement": "name",
    "property_declaration": "name", "operator_declaration": "operator",
}


# Which branch of an ``#if``/``#elif``/``#else`` written inside a message is read (``preproc``).
BRANCH: ContextVar[int] = ContextVar("BRANCH", default=0)


def preproc_branches(node: Node) -> list[Node]:
    """The expressions an ``#if … #elif … #else … #endif`` inside an expression chooses
    among, in order; empty unless each branch is one expression."""
    out: list[Node] = []
    branch: Node | None = node
    while branch is not None and branch.type in ("preproc_if", "preproc_elif", "preproc_else"):
        values = [c for i, c in enumerate(branch.children) if c.is_named
                  and branch.field_name_for_child(i) not in ("condition", "alternative")]
        if len(values) != 1:
            return []
        out.append(values[0])
        branch = branch.child_by_field_name("alternative")
    return out


def _preproc(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """The branch ``BRANCH`` picks (the last one past the end): one build's text."""
    branches = preproc_branches(node)
    return reader.read(branches[min(BRANCH.get(), len(branches) - 1)], depth + 1) if (
        branches) else None


def read(node: Node | None, at: Node) -> Message | None:
    """The message an expression builds at the site ``at``, when source says what it is."""
    return _AssignedReader(MESSAGES, at, LOCALS).read(node)


class _AssignedReader(LocalReader):
    """A local also holds what a statement on the way to the site last gave it:
    ``string message; … message = string.Format("…", x); throw new X(message);`` (a
    statement of a block around the site, after the declaration; an assignment nested in
    a branch beside the site's path is no value it surely holds, and one naming the local
    itself, ``message = "[store] " + message``, is left as it was)."""

    def assignment(self, node: Node) -> Node | None:
        declared = super().assignment(node)
        name = text(node)
        given = None
        for block in ancestors(self.at):
            if block.type in SCOPES:
                break
            if block.type != "block":
                continue
            for statement in block.named_children:
                if statement.end_byte > self.at.start_byte:
                    break
                made = statement.named_children[0] if (
                    statement.type == "expression_statement" and statement.named_children
                ) else None
                if made is not None and made.type == "assignment_expression" and text(
                        made.child_by_field_name("left")) == name and (
                        given is None or made.start_byte > given.start_byte):
                    given = made
        if declared is None or given is None or declared.start_byte > given.start_byte or (
                text(given.child_by_field_name("operator")) != "=") or any(
                n.type == "identifier" and text(n) == name
                for n in nodes_from(given.child_by_field_name("right"), ())):
            return declared  # a parameter's new values: ``reassigned.py``
        return given


def literal(node: Node) -> Message | None:
    value = string_value(node)
    return None if value is None else Message(value, (Literal(value),))


def format_call(node: Node) -> Message | None:
    """``string.Format([provider,] "…{0}…", a, …)`` and ``"…{0}…".FormatWith([provider,] a)``."""
    function = node.child_by_field_name("function")
    args = arguments(node.child_by_field_name("arguments"))
    if function is not None and function.type == "member_access_expression" and text(
        function.child_by_field_name("name")
    ) == "FormatWith":
        receiver = function.child_by_field_name("expression")
        args = [receiver, *args] if receiver is not None else []
    elif text(function) not in ("string.Format", "String.Format", "System.String.Format"):
        return None
    if args and folded_value(args[0]) is None:
        args = args[1:]  # an IFormatProvider first
    value = folded_value(args[0]) if args else None  # a literal, or a ``+`` chain of them
    if value is None:
        return _format_parameter(node)
    rest = args[1:]
    if rest and any(word in text(rest[0]) for word in ("Culture", "FormatProvider")):
        rest = rest[1:]
    return Message(value, composite_format(value, [text(a) for a in rest]))


def _format_parameter(node: Node) -> Message | None:
    """``string.Format(culture, message, args)`` in a factory that passes on its format and
    ``params`` arguments: it prints the format its caller gave (read there, ``{0}`` as the
    arguments after it), a hole named after the format parameter."""
    args = arguments(node.child_by_field_name("arguments"))
    if args and any(word in text(args[0]) for word in ("Culture", "Provider")):
        args = args[1:]
    if not args or args[0].type != "identifier" or len(args) > 2 or (
            len(args) == 2 and args[1].type != "identifier"):
        return None
    made = hole(args[0])
    return Message("{" + (made.name or "") + "}", (made,))


def coalesced(node: Node) -> Message | None:
    """``note ?? ""``: the value, or nothing when it is null (a hole that may be empty)."""
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    right = node.child_by_field_name("right") if node.type == "binary_expression" else None
    if right is None or text(node.child_by_field_name("operator")) != "??" or (
            right.type not in STRINGS or string_value(right) != ""):
        return None
    name = text(node.child_by_field_name("left"))
    return Message("{" + name + "}", (Hole(name, "{" + name + "}", "any", ".*?"),))


def operand(node: Node) -> Message:
    """What an unknown ``+`` operand prints: ``nameof(x)`` its name, ``Environment.NewLine``
    a line break, ``x ?? ""`` maybe nothing, a ``')'`` character itself, anything else a
    hole named after it."""
    empty = coalesced(node)
    if empty is not None:
        return empty
    if node.type == "character_literal":
        value = character_value(node)
        if value is not None:
            return Message(text(node), (Literal(value),))
    name = name_of(node) if node.type == "invocation_expression" else None
    if name is not None:
        return Message("{" + text(node) + "}", (Literal(name),))
    if text(node) in ("Environment.NewLine", "System.Environment.NewLine"):
        return Message("{Environment.NewLine}", (NEWLINE,))
    made = hole(node)
    return Message("{" + (made.name or "") + "}", (made,))


def hole(node: Node) -> Hole:
    """A value printed as is; ``x.ToString()`` prints ``x``."""
    call = node.type == "invocation_expression"
    function = node.child_by_field_name("function") if call else None
    if function is not None and function.type == "member_access_expression" and text(
        function.child_by_field_name("name")
    ) == "ToString" and not arguments(node.child_by_field_name("arguments")):
        node = function.child_by_field_name("expression") or node
    name = text(node)
    return Hole.of(name, "{" + name + "}")


def name_of(node: Node) -> str | None:
    """The text ``nameof(a.b)`` (``b``) or a plain string literal prints; None otherwise."""
    if node.type in STRINGS:
        return string_value(node)
    if node.type != "invocation_expression" or text(node.child_by_field_name("function")) != (
        "nameof"
    ):
        return None
    args = arguments(node.child_by_field_name("arguments"))
    return text(args[0]).rsplit(".", 1)[-1].split("<")[0] if len(args) == 1 else None


def declared_value(declarator: Node) -> Node | None:
    """``var message = v``: ``v``, the declarator's last child that is not its name."""
    name = declarator.child_by_field_name("name")
    values = [c for c in declarator.named_children if c != name]
    return values[-1] if values else None


def arguments(args: Node | None) -> list[Node]:
    """The expressions of an ``argument_list`` in order (names and ``ref``/``out`` dropped;
    ``this``, a keyword the grammar does not name, kept: ``Create(this, "…")``)."""
    out: list[Node] = []
    for argument in args.named_children if args is not None else ():
        if argument.type != "argument":
            continue
        if argument.named_children:
            out.append(argument.named_children[-1])
        elif argument.children and argument.children[-1].type in ("this", "base"):
            out.append(argument.children[-1])
    return out


MESSAGES: MessageTable[FileIndex] = MessageTable(
    strings={
        **dict.fromkeys(STRINGS, literal),
        "interpolated_string_expression": lambda node: interpolated(node, name_of),
    },
    binary="binary_expression", wrappers=frozenset({"parenthesized_expression"}),
    operators={"??": lambda reader, node, depth: coalesced(node)},
    variables=frozenset({"identifier"}), scopes=frozenset(SCOPES),
    rules={"invocation_expression": lambda reader, node, depth: format_call(node) or (
        _concatenated(reader, node, depth)) or _built(reader, node, depth),
        "interpolated_string_expression": lambda reader, node, depth: interpolated(
            node, name_of, lambda local: _local_text(reader, local, depth)),
        "preproc_if": _preproc},
    hole=operand, unwrap_operands=False, max_depth=8,
)
LOCALS = Locals("variable_declarator", "name", declared_value)


def _local_text(reader: Reader[FileIndex], local: Node, depth: int) -> tuple[Part, ...] | None:
    """What a ``{local}`` of an interpolated string prints when the local is a message
    declared above the site (``var hint = $"set {nameof(X)} to null.";``) that holds
    words; None (a hole) otherwise."""
    if not isinstance(reader, LocalReader):
        return None
    found = reader.variable(local, depth + 1)
    return found.printed if found is not None and found.has_text() else None


_CONCATS = frozenset({"string.Concat", "String.Concat", "System.String.Concat"})
_JOINS = frozenset({"string.Join", "String.Join", "System.String.Join"})


def _concatenated(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``string.Concat(a, b, …)`` prints its arguments one after another;
    ``string.Join(sep, a, b, …)`` with the separator between them (a single element after
    the separator is a collection: how many it holds, source does not say)."""
    name = text(node.child_by_field_name("function"))
    if name not in _CONCATS and name not in _JOINS:
        return None
    args = arguments(node.child_by_field_name("arguments"))
    separator = None
    if name in _JOINS:
        separator = reader.read(args[0], depth + 1) if len(args) > 2 else None
        if separator is None or any(isinstance(p, Hole) for p in separator.parts):
            return None
        args = args[1:]
    elif len(args) < 2:
        return None
    pieces: list[Message | None] = []
    for i, value in enumerate(args):
        if i and separator is not None:
            pieces.append(separator)
        pieces.append(reader.read(value, depth + 1) or operand(value))
    return joined(pieces)


def built_with_start(node: Node, at: Node, start: Message) -> Message | None:
    """``sb.ToString()`` at ``at`` read as ``_built`` reads it, the builder's first
    argument printing ``start`` (one branch of a local the source assigns in several)."""
    reader = LocalReader(MESSAGES, at, LOCALS)
    function = node.child_by_field_name("function")
    receiver, tail = tail_of(function.child_by_field_name("expression")) if (
        function is not None and function.type == "member_access_expression") else (None, [])
    declaration = reader.assignment(receiver) if receiver is not None and (
        receiver.type == "identifier") else None
    value = declared_value(declaration) if declaration is not None else None
    first = arguments(value.child_by_field_name("arguments"))[:1] if value is not None and (
        value.type == "object_creation_expression") else []
    if not first:
        return None
    return built(node, declaration, at, lambda n: start if n == first[0] else reader.read(n, 1),
                 operand, NEWLINE, arguments, tail)


def _built(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``sb.ToString()`` of a local ``StringBuilder`` appended to above the site
    (``builders.py``)."""
    function = node.child_by_field_name("function")
    if not isinstance(reader, LocalReader) or function is None or (
            function.type != "member_access_expression") or text(
            function.child_by_field_name("name")) != "ToString":
        return None
    receiver, tail = tail_of(function.child_by_field_name("expression"))
    if receiver is None or receiver.type != "identifier":
        return None
    return built(node, reader.assignment(receiver), reader.at,
                 lambda n: reader.read(n, depth + 1), operand, NEWLINE, arguments, tail)
