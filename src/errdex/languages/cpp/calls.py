"""What a C++ throw hands composition: the call ``throw X(args)`` makes (a class or a
factory of the repository may build its message), or for a standard exception the function,
constant or branch-assigned variable its message comes from."""

from __future__ import annotations

import re

from tree_sitter import Node

from errdex.languages.base import ancestors, text
from errdex.languages.c.family import arguments
from errdex.languages.cpp.messages import (
    Scope,
    arguments_of,
    last_name,
    locals_of,
    parameters_of,
    read,
    says,
    scope_owner,
)
from errdex.languages.facts import Call

_FACTORY = re.compile(r"^(?:create\w*|make\w*|build|from\w*|of|[Nn]ew\w*|error)$")
_CONSTANT = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$")


def thrown_class(written: str) -> str | None:
    """``parse_error::create`` → ``parse_error`` (a static factory's class), ``make_error`` →
    None (what it makes composition tells); else the class as written."""
    head, separator, last = written.rpartition("::")
    if _FACTORY.match(last):
        return head if separator else None
    return written


def thrown_call(written: str, args: list[Node], at: Node) -> Call | None:
    """The call composition follows for ``throw X(args)``: ``X``'s own (a class or factory of
    the repository may build the message), or for a standard exception the function or
    constant its message comes from (``std::runtime_error(not_found(key))``)."""
    definition = next((a for a in ancestors(at) if a.type == "function_definition"), None)
    scope = Scope(parameters_of(definition) if definition is not None else ())
    locals_of(definition.child_by_field_name("body") if definition is not None else None, scope)
    owner = scope_owner(at)
    if not written.startswith("std::"):
        return Call(written, arguments_of(args, scope), owner=owner)
    first = args[0] if args else None
    if first is not None and first.type == "identifier" and text(first) in scope.locals:
        values = scope.locals[text(first)]
        if len(values) > 1:  # a message assigned in branches: each its own record
            shown = read(first, scope)
            return Call(written, (shown, *arguments_of(args[1:], scope)), owner=owner,
                        makes_error=True) if any(says(t) for t in shown) else None
        first = values[0]
    if first is None:
        return None
    if first.type == "call_expression":
        function = first.child_by_field_name("function")
        if function is None or function.type not in ("identifier", "qualified_identifier") or (
                text(function).startswith("std::")):
            return None
        return Call(text(function), arguments_of(arguments(
            first.child_by_field_name("arguments")), scope), owner=owner, method=True)
    if first.type in ("identifier", "qualified_identifier") and _CONSTANT.match(
            last_name(text(first))):
        return Call(text(first), owner=owner, method=True)
    return None
