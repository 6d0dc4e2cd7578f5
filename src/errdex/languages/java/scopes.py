"""Where a Java name is declared: the scopes of a file, its locals, parameters and constants.

A message variable is the nearest assignment above its use in the same function, or
a field that cannot change (``final``, or any field of an interface) of an enclosing
class; a parameter of that name in between hides it (its value is the caller's).
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from errdex.languages._engine.files import enclosing
from errdex.languages._jvm.libraries import is_exception_name, simple_name, visible_assignment
from errdex.languages.base import ancestors, text

CLASS_TYPES = frozenset({
    "class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
    "annotation_type_declaration",
})
BODY_TYPES = frozenset({"class_body", "interface_body", "enum_body", "annotation_type_body"})
FUNCTION_TYPES = frozenset({
    "method_declaration", "constructor_declaration", "compact_constructor_declaration",
    "lambda_expression", "static_initializer",
})


@dataclass(frozen=True)
class _Declared:
    """A declared variable: its type and name nodes."""

    type: Node | None
    name: Node | None


def declared_throwable(node: Node) -> bool | None:
    """Whether a variable is declared with a Throwable type; None when its declaration is unseen."""
    if node.type != "identifier":
        return None
    name = text(node)
    for scope in ancestors(node):
        declared = [d.type for d in _declarations(scope) if text(d.name) == name]
        if declared:
            return is_exception_name(simple_name(text(declared[0]).split("|")[0]))
    return None


def declared_string(node: Node) -> bool:
    """Whether a name is a parameter or local declared ``String``: ``message + where()``
    then joins two texts (it is no sum), each a hole of its own."""
    if node.type != "identifier":
        return False
    name = text(node)
    for scope in ancestors(node):
        declared = [d.type for d in _declarations(scope) if text(d.name) == name]
        if declared:
            return declared[0] is not None and simple_name(text(declared[0])) == "String"
    return False


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


def nearest_assignment(name: str, at: Node, candidates: list[Node]) -> Node | None:
    """The assignment a name refers to: the nearest above in its function, else a constant."""
    return visible_assignment(name, at, candidates, FUNCTION_TYPES, BODY_TYPES, _parameters,
                              is_constant)


def scope_of(node: Node) -> Node | None:
    """The function or class body a declaration belongs to."""
    return enclosing(node, FUNCTION_TYPES | BODY_TYPES)


def is_constant(declarator: Node) -> bool:
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
