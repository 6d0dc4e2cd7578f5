"""Text a format is given that may print nothing: a string local declared with no value
(``string did_you_mean;``), set only under a condition (``if (!hint.empty()) did_you_mean =
"\\nDid you mean " + hint;``), then formatted (``Format("%s does not exist!%s", name,
did_you_mean)``). Its hole may match no text; a hole of anything else matches some."""

from __future__ import annotations

from dataclasses import replace

from tree_sitter import Node

from errdex.languages.base import ancestors, text
from errdex.templates.template import Hole, Template

_STRINGS = frozenset({"string", "std::string", "wstring", "std::wstring"})
MAY_BE_EMPTY = ".*?"


def declared_empty(args: list[Node]) -> set[str]:
    """The holes among ``args`` printing a string local their function declares with no
    value (``hint``, ``hint.c_str()``)."""
    names = {local: text(a) for a in args if (local := _local(a)) is not None}
    function = next((a for a in ancestors(args[0]) if a.type == "function_definition"),
                    None) if names else None
    if function is None:
        return set()
    found: set[str] = set()
    stack = [function.child_by_field_name("body")]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if node.type == "declaration" and text(node.child_by_field_name("type")) in _STRINGS:
            found.update(names[text(d)] for d in node.children_by_field_name("declarator")
                         if d.type == "identifier" and text(d) in names)
        stack.extend(node.named_children)
    return found


def _local(arg: Node) -> str | None:
    """``hint`` for ``hint`` and ``hint.c_str()``; None for any other argument."""
    if arg.type == "call_expression" and (called := arg.child_by_field_name("function")) and (
            called.type == "field_expression") and text(called.child_by_field_name(
                "field")) in ("c_str", "data"):
        arg = called.child_by_field_name("argument") or arg
    return text(arg) if arg.type == "identifier" else None


def loosened(template: Template, names: set[str]) -> Template:
    """``template`` with the holes printing ``names`` free to match no text."""
    if not names:
        return template
    return replace(template, message=tuple(
        replace(p, regex=MAY_BE_EMPTY) if isinstance(p, Hole) and p.name in names else p
        for p in template.message))
