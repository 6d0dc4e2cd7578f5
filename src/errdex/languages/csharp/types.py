"""Declared types, where C# source writes them: what tells overloads taking as many
parameters apart.

``throw new ObjectAlreadyExistsException(newTrigger)`` runs the constructor taking an
``ITrigger``, not the one taking an ``IJobDetail``, and each prints its own message. The
compiler knows from types; errdex reads the types that are written: a parameter's or a
local's declared type (not ``var``), a string literal's, a cast's. Anything else is
unknown and decides nothing (``errdex.languages.facts.best_typed``).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from errdex.languages.base import ancestors, text

# Spellings of one type: the keyword and its framework name.
_ALIASES = {
    "String": "string", "Object": "object", "Int32": "int", "Int64": "long", "Boolean": "bool",
    "Double": "double", "Single": "float", "Decimal": "decimal", "Char": "char",
    "Byte": "byte", "Int16": "short", "UInt32": "uint", "UInt64": "ulong",
}
_STRINGS = frozenset({"string_literal", "verbatim_string_literal", "raw_string_literal",
                      "interpolated_string_expression"})
_SCOPES = frozenset({"method_declaration", "constructor_declaration", "local_function_statement",
                     "lambda_expression", "anonymous_method_expression", "accessor_declaration"})
_GENERIC = re.compile(r"<[^<>]*>")


def type_name(written: str) -> str:
    """One spelling of a declared type: ``global::System.String?`` → ``string``,
    ``List<string>`` → ``List``."""
    name = written.strip().removeprefix("global::").rstrip("?")
    while "<" in name and _GENERIC.search(name):
        name = _GENERIC.sub("", name)
    name = name.rsplit(".", 1)[-1].strip()
    return _ALIASES.get(name, name)


def parameter_types(params: Node | None) -> tuple[str | None, ...]:
    """The declared types of a ``parameter_list``'s named parameters, in order (as
    ``compose._names`` lists them)."""
    out: list[str | None] = []
    for param in params.named_children if params is not None else ():
        if param.type != "parameter" or param.child_by_field_name("name") is None:
            continue
        written = param.child_by_field_name("type")
        out.append(type_name(text(written)) if written is not None else None)
    return tuple(out)


def argument_types(args: list[Node], at: Node) -> tuple[str | None, ...]:
    """Each argument's declared type where source says it at ``at``, else None."""
    return tuple(_type_of(a, at) for a in args)


def _type_of(node: Node, at: Node) -> str | None:
    if node.type in _STRINGS:
        return "string"
    if node.type == "binary_expression" and text(node.child_by_field_name("operator")) == "+" \
            and any(c.type in _STRINGS for c in node.named_children):
        return "string"
    if node.type == "cast_expression":
        written = node.child_by_field_name("type")
        return type_name(text(written)) if written is not None else None
    if node.type == "identifier":
        return _declared(text(node), at)
    return None


def _declared(name: str, at: Node) -> str | None:
    """The type ``name`` is declared with in the scopes around ``at``: a local declared
    above it in an enclosing block, else a parameter of the enclosing function."""
    for scope in ancestors(at):
        if scope.type == "block":
            for statement in scope.named_children:
                if statement.start_byte >= at.start_byte:
                    break
                if statement.type == "local_declaration_statement":
                    found = _local(statement, name)
                    if found is not None:
                        return found or None  # ``var``: not written
        elif scope.type in _SCOPES:
            params = scope.child_by_field_name("parameters")
            names = [text(p.child_by_field_name("name")) for p in (
                params.named_children if params is not None else ()) if p.type == "parameter"
                and p.child_by_field_name("name") is not None]
            if name in names:
                return parameter_types(params)[names.index(name)]
            if scope.type != "lambda_expression":
                return None
    return None


def _local(statement: Node, name: str) -> str | None:
    """The declared type of ``name`` in a local declaration; "" when it is ``var``; None
    when the statement declares no such name."""
    declaration = next((c for c in statement.named_children
                        if c.type == "variable_declaration"), None)
    if declaration is None:
        return None
    for declarator in declaration.named_children:
        if declarator.type != "variable_declarator":
            continue
        declared = declarator.child_by_field_name("name") or (
            declarator.named_children[0] if declarator.named_children else None)
        if declared is not None and text(declared) == name:
            written = declaration.child_by_field_name("type")
            if written is None or written.type == "implicit_type":
                return ""
            return type_name(text(written))
    return None
