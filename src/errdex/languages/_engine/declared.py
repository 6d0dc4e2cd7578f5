"""Declared types, where source writes them: what tells overloads taking as many
parameters apart (C#, Java).

``throw new ObjectAlreadyExistsException(newTrigger)`` runs the constructor taking an
``ITrigger``, not the one taking an ``IJobDetail``, and each prints its own message. The
compiler knows from types; errdex reads the types that are written: a parameter's or a
local's declared type (not ``var``), a string literal's, a cast's. Anything else is
unknown and decides nothing (``errdex.languages.facts.best_typed``). Each language names
its nodes in a ``TypeSyntax``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from errdex.languages.base import ancestors, text


@dataclass(frozen=True)
class TypeSyntax:
    """The node types a language declares parameters and locals with."""

    strings: frozenset[str]  # expressions that are a string
    parameters: frozenset[str]  # a parameter (``type`` and ``name`` fields)
    locals: frozenset[str]  # a local declaration statement
    scopes: frozenset[str]  # functions whose ``parameters`` a name may be
    blocks: frozenset[str] = frozenset({"block"})
    cast: str = "cast_expression"
    lambdas: frozenset[str] = frozenset({"lambda_expression"})


CSHARP = TypeSyntax(
    strings=frozenset({"string_literal", "verbatim_string_literal", "raw_string_literal",
                       "interpolated_string_expression"}),
    parameters=frozenset({"parameter"}),
    locals=frozenset({"local_declaration_statement"}),
    scopes=frozenset({"method_declaration", "constructor_declaration",
                      "local_function_statement", "lambda_expression",
                      "anonymous_method_expression", "accessor_declaration"}),
)
JAVA = TypeSyntax(
    strings=frozenset({"string_literal", "text_block"}),
    parameters=frozenset({"formal_parameter", "spread_parameter"}),
    locals=frozenset({"local_variable_declaration"}),
    scopes=frozenset({"method_declaration", "constructor_declaration",
                      "compact_constructor_declaration", "lambda_expression"}),
    blocks=frozenset({"block", "constructor_body"}),
)

# Spellings of one type: the keyword and its framework name.
_ALIASES = {
    "String": "string", "Object": "object", "Int32": "int", "Int64": "long", "Boolean": "bool",
    "boolean": "bool", "Double": "double", "Single": "float", "Decimal": "decimal",
    "Char": "char", "Byte": "byte", "Int16": "short", "UInt32": "uint", "UInt64": "ulong",
}
_GENERIC = re.compile(r"<[^<>]*>")
_IMPLICIT = frozenset({"var", ""})


def type_name(written: str) -> str:
    """One spelling of a declared type: ``global::System.String?`` → ``string``,
    ``List<string>`` → ``List``, ``final JobDetail`` → ``JobDetail``."""
    name = written.strip().removeprefix("global::").rstrip("?")
    while "<" in name and _GENERIC.search(name):
        name = _GENERIC.sub("", name)
    name = name.rsplit(".", 1)[-1].split()[-1] if name.split() else ""
    return _ALIASES.get(name, name)


def parameter_types(params: Node | None, syntax: TypeSyntax) -> tuple[str | None, ...]:
    """The declared types of a parameter list's named parameters, in order."""
    return tuple(_written(p) for p in _parameters(params, syntax))


def argument_types(args: list[Node], at: Node, syntax: TypeSyntax) -> tuple[str | None, ...]:
    """Each argument's declared type where source says it at ``at``, else None."""
    return tuple(_type_of(a, at, syntax) for a in args)


def _parameters(params: Node | None, syntax: TypeSyntax) -> list[Node]:
    return [p for p in (params.named_children if params is not None else ())
            if p.type in syntax.parameters and p.child_by_field_name("name") is not None]


def _written(declared: Node) -> str | None:
    written = declared.child_by_field_name("type")
    if written is None or written.type == "implicit_type":
        return None
    name = type_name(text(written))
    return None if name in _IMPLICIT else name


def _type_of(node: Node, at: Node, syntax: TypeSyntax) -> str | None:
    if node.type in syntax.strings:
        return "string"
    if node.type == "binary_expression" and text(node.child_by_field_name("operator")) == "+" \
            and any(c.type in syntax.strings for c in node.named_children):
        return "string"
    if node.type == syntax.cast:
        return _written(node)
    if node.type == "identifier":
        return _declared(text(node), at, syntax)
    return None


def _declared(name: str, at: Node, syntax: TypeSyntax) -> str | None:
    """The type ``name`` is declared with in the scopes around ``at``: a local declared
    above it in an enclosing block, else a parameter of the enclosing function."""
    for scope in ancestors(at):
        if scope.type in syntax.blocks:
            for statement in scope.named_children:
                if statement.start_byte >= at.start_byte:
                    break
                if statement.type in syntax.locals:
                    found = _local(statement, name)
                    if found is not None:
                        return found or None  # ``var``: not written
        elif scope.type in syntax.scopes:
            for param in _parameters(scope.child_by_field_name("parameters"), syntax):
                if text(param.child_by_field_name("name")) == name:
                    return _written(param)
            if scope.type not in syntax.lambdas:
                return None
    return None


def _local(statement: Node, name: str) -> str | None:
    """The declared type of ``name`` in a local declaration; "" when it is not written
    (``var``); None when the statement declares no such name."""
    declaration = statement if statement.child_by_field_name("type") is not None else next(
        (c for c in statement.named_children if c.type == "variable_declaration"), None)
    if declaration is None:
        return None
    for declarator in declaration.named_children:
        if declarator.type != "variable_declarator":
            continue
        declared = declarator.child_by_field_name("name") or (
            declarator.named_children[0] if declarator.named_children else None)
        if declared is not None and text(declared) == name:
            return _written(declaration) or ""
    return None
