"""PHP message expressions: what a string, a heredoc, a ``.`` concatenation, ``sprintf``
or a variable assigned above prints (shared by the site reader and the composition
reader; ``spec.py`` lists the forms), and a call's arguments.
"""

from __future__ import annotations

from functools import partial

from tree_sitter import Node

from errdex.languages._engine import FileIndex
from errdex.languages._engine.calls import call_args, nth
from errdex.languages._engine.message import trimmed
from errdex.languages._engine.reader import MessageTable, Reader, read_with
from errdex.languages.base import ancestors, text
from errdex.languages.php.strings import Message, interpolated, nowdoc, plain
from errdex.templates.formats import parse_printf
from errdex.templates.template import Hole, Literal, merge_literals

FUNCTIONS = ("function_definition", "method_declaration", "program")


def split_argument(argument: Node) -> tuple[Node | None, Node] | None:
    """``name: value`` or ``value``; a spread (``...$xs``) is no argument known here."""
    if argument.type != "argument":
        return None
    label = argument.child_by_field_name("name")
    value = next((c for c in argument.named_children if c != label), None)
    if value is None or any(c.type == "..." for c in argument.children):
        return None
    return label, value


arguments = partial(call_args, split=split_argument)


def read(node: Node | None, file: FileIndex) -> Message | None:
    """The message an expression prints, when source says what it is."""
    return read_with(MESSAGES, file, node)


def sprintf(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``sprintf("…%s…", $a)``: C printf conversions, holes named after the arguments."""
    if text(node.child_by_field_name("function")).lstrip("\\") != "sprintf":
        return None
    args = arguments(node.child_by_field_name("arguments"))
    first = nth(args.positional, 0)
    fmt = reader.read(class_constant(first) or first, depth + 1)
    if fmt is None or fmt.literal is None:
        return None
    names = [text(a) for a in args.positional[1:]]
    constants = {
        text(a): m.literal for a in args.positional[1:]
        if a.type in ("string", "encapsed_string") and (m := reader.read(a)) and m.literal
    }
    parts = [  # sprintf('%s', 'literal') prints the literal
        Literal(constants[p.name]) if isinstance(p, Hole) and p.spec == "%s" and (
            p.name in constants) else p
        for p in parse_printf(fmt.literal, names, dialect="c")
    ]
    return Message(fmt.literal, merge_literals(parts))


# Functions whose result is their first argument with blanks cut from its ends: what the
# message says (a blank a trailing empty hole leaves is optional to lookup anyway).
_TRIMS = frozenset({"trim", "rtrim", "ltrim", "chop"})


def called(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``sprintf(…)``, or ``rtrim("…{$reason}")``: the message its first argument is."""
    if text(node.child_by_field_name("function")).lstrip("\\") not in _TRIMS:
        return sprintf(reader, node, depth)
    args = arguments(node.child_by_field_name("arguments"))
    if len(args.positional) != 1 or args.named:  # a second argument names other characters
        return None
    read = reader.read(args.positional[0], depth + 1)
    name = text(node.child_by_field_name("function")).lstrip("\\")
    return trimmed(read, left=name in ("trim", "ltrim"), right=name != "ltrim") if (
        read is not None) else None


def class_constant(node: Node | None) -> Node | None:
    """The value of ``self::X`` / ``static::X`` / ``Cls::X`` when a class of this file
    declares the constant (the enclosing one for ``self``/``static``)."""
    if node is None or node.type != "class_constant_access_expression":
        return None
    named = [c for c in node.named_children if c.type != "comment"]
    if len(named) != 2:
        return None
    scope, name = text(named[0]), text(named[1])
    classes = []
    if scope in ("self", "static"):
        classes = [a for a in ancestors(node) if a.type in _CLASSES][:1]
    else:
        root = next((a for a in ancestors(node) if a.parent is None), None)
        classes = [c for c in (root.named_children if root is not None else ())
                   if c.type in _CLASSES and text(c.child_by_field_name("name")) == scope]
        if root is not None and not classes:  # classes inside a namespace block
            classes = [c for n in root.named_children if n.type == "namespace_definition"
                       for b in n.named_children if b.type == "compound_statement"
                       for c in b.named_children if c.type in _CLASSES
                       and text(c.child_by_field_name("name")) == scope]
    body = classes[0].child_by_field_name("body") if classes else None
    for declaration in body.named_children if body is not None else ():
        if declaration.type != "const_declaration":
            continue
        for element in declaration.named_children:
            parts = [c for c in element.named_children if c.type != "comment"]
            if element.type == "const_element" and len(parts) == 2 and text(parts[0]) == name:
                return parts[1]
    return None


_CLASSES = ("class_declaration", "trait_declaration", "interface_declaration",
            "enum_declaration")


MESSAGES: MessageTable[FileIndex] = MessageTable(
    strings={
        "string": plain, "encapsed_string": interpolated, "heredoc": interpolated,
        "nowdoc": nowdoc,
    },
    binary="binary_expression", plus=".", wrappers=frozenset({"parenthesized_expression"}),
    variables=frozenset({"variable_name"}), scopes=frozenset(FUNCTIONS),
    augmented=frozenset({"augmented_assignment_expression"}),
    rules={"function_call_expression": called}, unwrap_operands=False,
)
