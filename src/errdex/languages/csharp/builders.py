"""C# messages built with a ``StringBuilder``: what ``throw new X(sb.ToString())`` prints.

A local ``var sb = new StringBuilder("…")`` appended to statement by statement in the
block it is declared in (``sb.Append(a)``, ``sb.AppendLine("…")``,
``sb.AppendFormat("{0} …", x)``, chains of them) prints the pieces in order: each
known text as itself, anything else a hole; ``AppendLine`` ends its piece with a line
break (a trailing one is dropped: a pasted message ends at its last line). An append
under a branch or a loop makes the text unknown (which pieces ran is not said).
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from errdex.languages._engine.message import Message
from errdex.languages.base import ancestors, text
from errdex.languages.csharp.strings import composite_format, string_value
from errdex.templates.template import Hole, Literal, Part, merge_literals

_BUILDERS = frozenset({"StringBuilder", "System.Text.StringBuilder"})
_APPENDS = frozenset({"Append", "AppendLine", "AppendFormat"})
_STRINGS = ("string_literal", "verbatim_string_literal", "raw_string_literal")

Read = Callable[[Node], Message | None]  # an argument's text (None: a hole)
Hole_ = Callable[[Node], Message]


def built(call: Node, declaration: Node | None, at: Node, read: Read, hole: Hole_,
          newline: Hole, arguments: Callable[[Node | None], list[Node]]) -> Message | None:
    """What ``sb.ToString()`` (``call``) prints at ``at``, ``sb`` declared by
    ``declaration`` (a ``variable_declarator``); None when source does not say."""
    value = declaration.named_children[-1] if declaration is not None and (
        declaration.named_child_count > 1) else None
    if value is None or value.type != "object_creation_expression" or text(
            value.child_by_field_name("type")) not in _BUILDERS or declaration is None:
        return None
    name = text(declaration.child_by_field_name("name"))
    statement = next((a for a in ancestors(declaration)
                      if a.type == "local_declaration_statement"), None)
    block = statement.parent if statement is not None else None
    if statement is None or block is None or block.type != "block":
        return None
    parts: list[Part] = []
    written: list[str] = []
    initial = arguments(value.child_by_field_name("arguments"))
    if initial and initial[0].type in _STRINGS:
        _add(parts, written, read(initial[0]) or hole(initial[0]))
    for step in block.named_children:
        if step.end_byte <= statement.end_byte:
            continue
        if step.start_byte <= at.start_byte < step.end_byte or step.start_byte >= at.start_byte:
            break
        if name.encode() not in (step.text or b""):
            continue
        inner = step.named_children[0] if step.type == "expression_statement" and (
            step.named_children) else None
        chain = _chain(inner, name) if inner is not None else None
        if chain is None:
            return None
        for method, args in chain:
            if method == "AppendFormat" and args and (fmt := string_value(args[0])) is not None:
                found = composite_format(fmt, [text(a) for a in args[1:]])
                _add(parts, written, Message(fmt, found))
            elif method == "AppendFormat" or len(args) > 1:
                return None
            elif args:
                _add(parts, written, read(args[0]) or hole(args[0]))
            if method == "AppendLine":
                parts.append(newline)
                written.append("{Environment.NewLine}")
    while parts and parts[-1] == newline:
        parts.pop()
        written.pop()
    made = merge_literals(parts)
    if not any(isinstance(p, Literal) and any(c.isalpha() for c in p.text) for p in made):
        return None
    return Message("".join(written), made)


def _add(parts: list[Part], written: list[str], message: Message) -> None:
    parts.extend(message.parts)
    written.append(message.written)


def _chain(node: Node, name: str) -> list[tuple[str, list[Node]]] | None:
    """``sb.Append(a).AppendLine(b)`` as ``[("Append", [a]), ("AppendLine", [b])]``; None
    when it is anything else."""
    steps: list[tuple[str, list[Node]]] = []
    while node.type == "invocation_expression":
        function = node.child_by_field_name("function")
        if function is None or function.type != "member_access_expression":
            return None
        method = text(function.child_by_field_name("name"))
        if method not in _APPENDS:
            return None
        args = node.child_by_field_name("arguments")
        steps.append((method, [a.named_children[-1] for a in (
            args.named_children if args is not None else ()) if a.type == "argument"
            and a.named_children]))
        node = function.child_by_field_name("expression") or node
        if node.type == "identifier":
            return list(reversed(steps)) if text(node) == name else None
    return None
