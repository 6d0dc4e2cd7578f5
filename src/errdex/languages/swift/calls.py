"""What a Swift call passes to a producer: its arguments as template alternatives, and the
producer call a thrown (or returned) error makes.

An argument is a template per branch (``c ? a : b``, directly or through a ``let``
assigned one), a hole named after what source does not spell; every argument is passed
by position (an enum case binds them so, a memberwise ``init`` takes them in order) and
the labelled ones by label too. Kept apart from ``compose.py``, which reads the producers.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from errdex.languages._engine import FileIndex, Message
from errdex.languages.base import ancestors, text
from errdex.languages.facts import Argument, Call, unknown
from errdex.templates.template import Literal, Template

# How the language reads an expression's message (the spec's reader, given by the spec).
Read = Callable[[Node | None, FileIndex], Message | None]

_MAX_ALTERNATIVES = 8


def argument(node: Node | None, file: FileIndex, read: Read) -> Argument:
    """What an argument can print: a template per branch, a hole for what source hides."""
    out: list[Template] = []
    for branch in _alternatives(node, file, 0) if node is not None else []:
        message = read(branch, file)
        if message is None and branch.type in ("integer_literal", "real_literal"):
            message = Message(text(branch), (Literal(text(branch)),), text(branch))
        template = (Template(message.written, message.parts) if message is not None
                    else unknown(text(branch)))
        if template.normalized() not in {t.normalized() for t in out}:
            out.append(template)
    return tuple(out[:_MAX_ALTERNATIVES])


def _alternatives(node: Node, file: FileIndex, depth: int) -> list[Node]:
    if depth > 4:
        return [node]
    if node.type == "ternary_expression":
        branches = [c for c in (node.child_by_field_name("if_true"),
                                node.child_by_field_name("if_false")) if c is not None]
        return [n for b in branches for n in _alternatives(b, file, depth + 1)]
    if node.type == "simple_identifier":
        assigned = file.nearest(node, _SCOPES)
        value = assigned.child_by_field_name("value") if assigned is not None else None
        if value is not None and value.type == "ternary_expression":
            return _alternatives(value, file, depth + 1)
    return [node]


_SCOPES = frozenset({"function_declaration", "init_declaration", "computed_property",
                     "lambda_literal", "source_file"})


def call_of(callee: str, args: Node | None, file: FileIndex, at: Node, read: Read,
            depth: int = 0) -> Call:
    """The ``Call`` a site makes: every argument by position (an enum case binds them so,
    a memberwise ``init`` takes them in order) and the labelled ones by label too."""
    positional: list[Argument] = []
    keywords: list[tuple[str, Argument]] = []
    nested: list[tuple[str, Call]] = []
    for value_argument in args.named_children if args is not None else ():
        value = value_argument.child_by_field_name("value")
        if value_argument.type != "value_argument" or value is None:
            continue
        read_value = argument(value, file, read)
        case = _case_value(value, file, read, depth) if len(read_value) == 1 and (
            read_value[0].written == "{" + text(value) + "}") else None
        if case is not None:
            nested.append((text(value), case))
        positional.append(read_value)
        label = value_argument.child_by_field_name("name")
        if label is not None:
            keywords.append((text(label).strip(), read_value))
    return Call(callee, tuple(positional), tuple(keywords), owner=owner_name(at),
                nested=tuple(nested))


def _case_value(value: Node, file: FileIndex, read: Read, depth: int) -> Call | None:
    """An argument that is an enum case (``.badStatus(code: s)``, ``Reason.missing``, or a
    ``let`` holding one): the call its printed form composes (``reflection.py``)."""
    if depth > 2:
        return None
    if value.type == "simple_identifier":
        assigned = file.nearest(value, _SCOPES)
        held = assigned.child_by_field_name("value") if assigned is not None else None
        if held is None:
            return None
        value = held
    callee_node, args = value, None
    if value.type == "call_expression" and value.named_child_count == 2:
        callee_node = value.named_children[0]
        suffix = value.named_children[1]
        args = next((c for c in suffix.named_children if c.type == "value_arguments"), None)
        if suffix.type != "call_suffix" or args is None:
            return None
    written = text(callee_node)
    if not (callee_node.type == "prefix_expression" and written.startswith(".")) and not (
            callee_node.type == "navigation_expression" and written[:1].isupper()):
        return None
    case = written.rsplit(".", 1)[-1]
    if not case[:1].islower():
        return None
    # ``.case``: qualifier "", the case's ``IMPLICIT`` producer (its qualified form)
    return call_of("." + case, args, file, value, read, depth + 1)


def thrown_call(value: Node, file: FileIndex, read: Read, result_type: str | None = None
                ) -> Call | None:
    """The producer call an error expression makes: ``E.notFound(key)``, ``E.closed``,
    ``ParseError(…)``, ``Errors.make(key)``, ``.notFound(key)`` of ``result_type``."""
    callee_node, args = value, None
    if value.type == "call_expression":
        callee_node = value.named_children[0] if value.named_child_count else value
        suffix = next((c for c in value.named_children if c.type == "call_suffix"), None)
        args = next((c for c in suffix.named_children if c.type == "value_arguments"),
                    None) if suffix is not None else None
        if suffix is None:
            return None
    if callee_node.type == "prefix_expression" and text(callee_node).startswith("."):
        if result_type is None:
            return None
        callee = result_type + text(callee_node)
    elif callee_node.type in ("navigation_expression", "simple_identifier"):
        callee = text(callee_node)
        if callee_node.type == "simple_identifier" and value.type != "call_expression":
            return None  # ``throw error``: a variable
    else:
        return None
    return call_of(callee, args, file, value, read)


def own_name(node: Node) -> str:
    name = node.child_by_field_name("name")
    if name is not None and name.type == "user_type":
        return ".".join(text(c) for c in name.named_children if c.type == "type_identifier")
    return text(name)


def owner_name(node: Node) -> str | None:
    """The type ``node`` is written in (its last name)."""
    owner = next((a for a in ancestors(node) if a.type == "class_declaration"), None)
    return own_name(owner).rsplit(".", 1)[-1] if owner is not None else None
