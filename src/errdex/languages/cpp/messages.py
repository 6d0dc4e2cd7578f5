"""What a C++ expression prints, read for composition: the templates a string built from
parameters, fields and literals can print (holes named after what source does not say).

Strings are read through ``+``, ``concat``/``StrCat``-style calls, ``std::to_string``,
``.c_str()``/``.str()``/``.what()``, a ``std::stringstream`` fed with ``<<``, locals assigned
above, ``a ? b : c`` (one alternative each), ``fmt::format``, and the file's string helpers
(inlined: ``exception::name("parse_error", id_)`` is ``[json.exception.parse_error.<id_>] ``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from tree_sitter import Node

from errdex.languages._engine.walk import nodes_from
from errdex.languages.base import ancestors, text
from errdex.languages.c.family import (
    STRING_TYPES,
    arguments,
    function_name,
    message_string,
    parameter_list,
)
from errdex.languages.facts import Argument, Producer, constant_names, has_text, substitute, unknown
from errdex.templates.formats import parse_rust_format
from errdex.templates.template import Hole, Literal, Part, Template, merge_literals

_CONCATS = frozenset({"concat", "StrCat", "str_concat", "Concat", "strcat_str", "cat"})
_TEXT_OF = frozenset({"c_str", "data", "str", "what", "toStdString", "message"})
_TO_TEXT = frozenset({"to_string", "to_wstring", "std::to_string", "std::to_wstring"})
_STRINGS = frozenset({"std::string", "string", "std::string_view", "std::wstring", "QString"})
_FORMATS = frozenset({"fmt::format", "std::format", "format"})
MAX = 8
CLASSES = ("class_specifier", "struct_specifier")
# What a call to a function of the file that may return ``""`` prints (``messages._call``).
EMPTY_HELPER = Producer("", (), (), "helper", "", 0)


@dataclass
class Scope:
    """What names print inside one function: parameters, fields, locals, streams, helpers."""

    params: tuple[str, ...] = ()
    fields: dict[str, Template] = field(default_factory=dict)
    helpers: dict[str, Producer] = field(default_factory=dict)
    locals: dict[str, list[Node]] = field(default_factory=dict)  # each value assigned
    streams: dict[str, list[Node]] = field(default_factory=dict)
    depth: int = 0


def read(node: Node | None, scope: Scope) -> tuple[Template, ...]:
    """The templates an expression can print (holes named after what source does not say)."""
    if node is None:
        return ()
    if scope.depth > 12:
        return (unknown(text(node)),)
    scope.depth += 1
    try:
        return _read(node, scope)[:MAX]
    finally:
        scope.depth -= 1


def _read(node: Node, scope: Scope) -> tuple[Template, ...]:
    kind = node.type
    if kind in ("parenthesized_expression", "user_defined_literal") and node.named_children:
        return read(node.named_children[0], scope)
    found = message_string(node) if kind in STRING_TYPES else None
    if found is not None:
        return (Template(found.written, found.parts()),)
    if kind == "char_literal":
        value = text(node)[1:-1].replace("\\n", "\n").replace("\\'", "'")
        return (Template(value, merge_literals([Literal(value)])),)
    if kind == "number_literal":
        return (Template(text(node), (Literal(text(node)),)),)
    if kind == "binary_expression" and text(node.child_by_field_name("operator")) == "+":
        if any(c.type == "number_literal" for c in node.named_children):
            return (unknown(text(node)),)  # ``mark.line + 1``: arithmetic
        return _joined([read(node.child_by_field_name("left"), scope),
                        read(node.child_by_field_name("right"), scope)])
    if kind == "conditional_expression":
        return (*read(node.child_by_field_name("consequence"), scope),
                *read(node.child_by_field_name("alternative"), scope))
    if kind == "call_expression":
        return _call(node, scope)
    if kind in ("identifier", "field_expression", "qualified_identifier", "this"):
        return _name(node, scope)
    return (unknown(text(node)),)


def _name(node: Node, scope: Scope) -> tuple[Template, ...]:
    name = text(node).removeprefix("this->")
    if name in scope.fields:
        return (scope.fields[name],)
    if name in scope.locals and name not in scope.params:
        values = scope.locals.pop(name)  # read once: ``w = w + x`` does not loop
        try:  # assigned in branches (``if … msg = "a"; else msg = "b";``): each one
            return tuple(t for value in values for t in read(value, scope))[:MAX]
        finally:
            scope.locals[name] = values
    return (unknown(name),)


def _call(node: Node, scope: Scope) -> tuple[Template, ...]:
    function = node.child_by_field_name("function")
    args = arguments(node.child_by_field_name("arguments"))
    name = text(function).removeprefix("::")
    last = name.replace("->", ".").replace("::", ".").rsplit(".", 1)[-1]
    if message_string(node) is not None:  # _("…"), tr("…")
        found = message_string(node)
        assert found is not None
        return (Template(found.written, found.parts()),)
    if function is not None and function.type == "field_expression" and not args and (
            last in _TEXT_OF):
        target = function.child_by_field_name("argument")
        if target is not None and text(target) in scope.streams:
            return _joined([read(a, scope) for a in scope.streams[text(target)]])
        return read(target, scope)
    if last in _CONCATS or name in ("absl::StrCat", "absl::StrCat"):
        return _joined([read(a, scope) for a in args])
    if name in _STRINGS and len(args) == 1:
        return read(args[0], scope)
    if name in _TO_TEXT and len(args) == 1:
        return (unknown(text(args[0]).removeprefix("this->")),)
    if name in _FORMATS and args:
        fmt = message_string(args[0])
        if fmt is not None:
            holes = [text(a) for a in args[1:]]
            return (Template(fmt.written, fmt.parts(parse_rust_format(fmt.text, holes))),)
    helper = scope.helpers.get(last)
    if helper is EMPTY_HELPER:  # may print nothing: a hole that may be empty
        name = text(node)
        return (Template("{" + name + "}", (Hole(name, "{" + name + "}", regex=".*?"),)),)
    if helper is not None:
        given = [read(a, scope) for a in args]
        out: list[Template] = []
        for combo in itertools.islice(itertools.product(*given), MAX):
            bindings = dict(zip(helper.params, combo, strict=False))
            out.extend(substitute(r, bindings) for r in helper.results if isinstance(r, Template))
        return tuple(out) or (unknown(text(node)),)
    return (unknown(text(node)),)


def _joined(pieces: list[tuple[Template, ...]]) -> tuple[Template, ...]:
    out: list[Template] = []
    for combo in itertools.islice(itertools.product(*pieces), MAX):
        parts: list[Part] = [p for t in combo for p in t.parts]
        out.append(Template("".join(t.written for t in combo), merge_literals(parts)))
    return tuple(out)


def arguments_of(args: list[Node], scope: Scope) -> tuple[Argument, ...]:
    """A call's arguments as template alternatives."""
    return tuple(read(a, scope) or (unknown(text(a)),) for a in args)


def locals_of(body: Node | None, scope: Scope) -> None:
    """Locals assigned a value (``std::string w = …;``) and streams fed with ``<<``."""
    for node in nodes_from(body, ("lambda_expression", "class_specifier"), keep_nested=True):
        if node.type == "init_declarator":
            value = node.child_by_field_name("value")
            if value is not None and value.type in ("argument_list", "initializer_list"):
                inner = arguments(value)
                value = inner[0] if len(inner) == 1 else None
            name = name_of(node.child_by_field_name("declarator"))
            if value is not None and name:
                scope.locals.setdefault(name, []).append(value)
        elif node.type == "assignment_expression" and text(
                node.child_by_field_name("operator")) == "=":
            left, value = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and left.type == "identifier" and value is not None:
                scope.locals.setdefault(text(left), []).append(value)
        elif node.type == "declaration" and "stream" in text(node.child_by_field_name("type")):
            for declarator in node.children_by_field_name("declarator"):
                scope.streams[name_of(declarator) or text(declarator)] = []
        elif node.type == "expression_statement" and node.named_children:
            operands = _shifted(node.named_children[0])
            if operands and text(operands[0]) in scope.streams:
                scope.streams[text(operands[0])].extend(operands[1:])


def _shifted(node: Node) -> list[Node]:
    out: list[Node] = []
    while node.type == "binary_expression" and text(node.child_by_field_name("operator")) == "<<":
        right, left = node.child_by_field_name("right"), node.child_by_field_name("left")
        if right is None or left is None:
            return []
        out.append(right)
        node = left
    return [node, *reversed(out)] if out else []


def name_of(node: Node | None) -> str | None:
    while node is not None and node.type not in ("identifier", "field_identifier"):
        node = node.child_by_field_name("declarator") or (
            node.named_children[0] if node.named_children else None)
    return text(node) if node is not None else None


def says(template: Template) -> bool:
    """Some text, or a constant that composition fills in (``KEY_NOT_FOUND << ": " << k``)."""
    return has_text(template) or bool(constant_names(template))


def parameters_of(definition: Node) -> tuple[str, ...]:
    """A function's parameter names, in order."""
    params = parameter_list(definition)
    names = [name_of(p.child_by_field_name("declarator"))
             for p in (params.named_children if params is not None else ())
             if p.type in ("parameter_declaration", "optional_parameter_declaration")]
    return tuple(n for n in names if n)


# --- where code is ------------------------------------------------------------------------


def walk(node: Node | None) -> list[Node]:
    """The nodes of a body in source order, nested lambdas and classes left out."""
    return nodes_from(node, ("lambda_expression", "class_specifier", "struct_specifier"),
                      keep_nested=True)


def last_name(name: str | None) -> str:
    """``mylib::NotFound`` → ``NotFound``."""
    return (name or "").rsplit("::", 1)[-1]


def class_of(node: Node) -> str | None:
    """The class a definition is written in."""
    for ancestor in ancestors(node):
        if ancestor is not node and ancestor.type in CLASSES:
            return text(ancestor.child_by_field_name("name")) or None
    return None


def scope_owner(node: Node) -> str | None:
    """The class the code at ``node`` belongs to: its enclosing class, or the qualifier of an
    out-of-class method (``Store::open`` → ``Store``)."""
    owner = class_of(node)
    if owner is not None:
        return owner
    definition = next((a for a in ancestors(node) if a.type == "function_definition"), None)
    full = function_name(definition) if definition is not None else None
    return full.rsplit("::", 1)[0].rsplit("::", 1)[-1] if full and "::" in full else None
