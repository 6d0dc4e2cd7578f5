"""Reading Kotlin message expressions: string templates, ``+``, ``format``, message ``val``s.

``spec.py`` decides what is a site; this module says what text an expression prints.
Messages are read from string templates (``strings.py``: ``$name`` and ``${expr}`` become
holes named after the expression), ``+`` concatenations, ``String.format``/``"…".format(..)``
(printf dialect ``java``), ``MessageFormat.format``, ``.trimIndent()``/``.trimMargin()``,
and ``val``s (or a local ``var`` above) holding one of those.
"""

from __future__ import annotations

from tree_sitter import Node

from errdex.languages._engine import FileIndex, Message, operand_hole
from errdex.languages._engine.reader import MessageTable, Reader
from errdex.languages._jvm.libraries import (
    literal_message,
    message_format,
    printf_message,
    string_concatenation,
    visible_assignment,
)
from errdex.languages.base import ancestors, text
from errdex.languages.kotlin.strings import kotlin_string, map_text, trim_indent, trim_margin

FUNCTION_TYPES = frozenset({
    "function_declaration", "lambda_literal", "anonymous_initializer", "secondary_constructor",
    "getter", "setter", "anonymous_function",
})
TYPE_TYPES = frozenset({"class_declaration", "object_declaration", "companion_object"})
BODY_TYPES = frozenset({"class_body", "enum_class_body", "source_file"})


def arguments(value_arguments: Node) -> list[Node]:
    """The expression of each value argument (``name = value`` gives ``value``)."""
    return [
        arg.named_children[-1] for arg in value_arguments.named_children
        if arg.type == "value_argument" and arg.named_child_count
    ]


def name_of(node: Node) -> str | None:
    """The declared name of a class, object, companion or function."""
    kind = "simple_identifier" if node.type == "function_declaration" else "type_identifier"
    child = next((c for c in node.named_children if c.type == kind), None)
    if child is None:
        return "Companion" if node.type == "companion_object" else None
    return text(child)


def read(node: Node | None, file: FileIndex, depth: int = 0) -> Message | None:
    """The message an expression prints, when source says what it is."""
    return Reader(_TABLE, file).read(node, depth)


def _concatenation(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``"bad " + x``: ``String.plus`` joins text; other operands are holes named after them."""
    if text(node.children[1]) != "+":
        return None
    left, right = node.named_children[0], node.named_children[-1]
    return string_concatenation(left, right, lambda n: reader.read(n, depth + 1), _operand)


def _operand(node: Node) -> Message:
    if node.type == "integer_literal" and text(node).isdigit():
        return literal_message(text(node))
    name = text(node)[1:-1].strip() if node.type == "parenthesized_expression" else text(node)
    return operand_hole(name)


def _text_call(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``String.format(..)``, ``"…".format(..)``, ``.trimIndent()``, ``.trimMargin()``."""
    callee, suffix = node.named_children[0], node.named_children[-1]
    if callee.type != "navigation_expression" or suffix.type != "call_suffix":
        return None
    receiver, method = callee.named_children[0], text(callee.named_children[-1])[1:]
    value_arguments = next((c for c in suffix.named_children if c.type == "value_arguments"), None)
    args = arguments(value_arguments) if value_arguments is not None else []
    if method == "format" and text(receiver) in ("String", "java.lang.String") and args:
        if len(args) > 1 and reader.read(args[0], depth + 1) is None:
            args = args[1:]  # String.format(Locale.ROOT, "…", …)
        return printf_message(reader.read(args[0], depth + 1), [text(a) for a in args[1:]])
    if method == "format" and text(receiver) == "MessageFormat" and args:
        return message_format(reader.read(args[0], depth + 1), [text(a) for a in args[1:]])
    base = reader.read(receiver, depth + 1)
    if method == "format":
        return printf_message(base, [text(a) for a in args])
    if base is not None and method == "trimIndent" and not args:
        return map_text(base, trim_indent)
    if base is not None and method == "trimMargin":
        margin = reader.read(args[0], depth + 1) if args else literal_message("|")
        if margin is not None and margin.literal:
            prefix = margin.literal
            return map_text(base, lambda value: trim_margin(value, prefix))
    return None


def _variable(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """A ``val`` (or a local ``var`` above) holding a message in an enclosing scope."""
    assignment = assignment_of(node, reader.file)
    return reader.read(assignment.named_children[-1], depth + 1) if assignment else None


def assignment_of(node: Node, file: FileIndex) -> Node | None:
    """The ``val`` (or local ``var`` above) a name reads; its value is the last child."""
    name = text(node)
    return visible_assignment(name, node, file.assignments.get(name, []), FUNCTION_TYPES,
                              BODY_TYPES, _parameters, _is_val)


def _qualified_constant(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``Messages.GONE``: a ``val`` of an object, or a companion's, declared in this file."""
    owner, suffix = node.named_children[0], node.named_children[-1]
    if owner.type != "simple_identifier" or suffix.type != "navigation_suffix":
        return None
    for declaration in reader.file.assignments.get(text(suffix)[1:], []):
        holder = next((a for a in ancestors(declaration) if a.type in TYPE_TYPES or
                       a.type in FUNCTION_TYPES), None)
        if holder is not None and holder.type == "companion_object":
            holder = next((a for a in ancestors(holder) if a.type in TYPE_TYPES), None)
        if holder is not None and holder.type in TYPE_TYPES and name_of(holder) == text(owner) and (
            _is_val(declaration)
        ):
            return reader.read(declaration.named_children[-1], depth + 1)
    return None


def _is_val(declaration: Node) -> bool:
    kind = next((c for c in declaration.named_children if c.type == "binding_pattern_kind"), None)
    return text(kind) == "val"


def _parameters(scope: Node) -> set[str]:
    holders = [c for c in scope.named_children
               if c.type in ("function_value_parameters", "lambda_parameters")]
    if scope.type == "setter":
        holders = [scope]  # set(value) { .. }: its parameter_with_optional_type
    names = set()
    for holder in holders:
        for param in holder.named_children:
            if param.type not in ("parameter", "variable_declaration",
                                  "parameter_with_optional_type"):
                continue
            ident = next((c for c in param.named_children if c.type == "simple_identifier"), None)
            if ident is not None:
                names.add(text(ident))
    if scope.type == "lambda_literal" and not holders:
        names.add("it")
    return names


_TABLE: MessageTable[FileIndex] = MessageTable(
    strings={"string_literal": kotlin_string},
    wrappers=frozenset({"parenthesized_expression"}),
    rules={"additive_expression": _concatenation, "call_expression": _text_call,
           "simple_identifier": _variable, "navigation_expression": _qualified_constant},
)

# The string literal decoders, for the text sites of a file (``LanguageSpec.strings``).
STRINGS = _TABLE.strings
