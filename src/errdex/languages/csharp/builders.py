"""C# messages built with a ``StringBuilder``: what ``throw new X(sb.ToString())`` prints.

A local ``var sb = new StringBuilder("…")`` appended to statement by statement in the
block it is declared in (``sb.Append(a)``, ``sb.AppendLine("…")``,
``sb.AppendFormat("{0} …", x)``, chains of them) prints the pieces in order: each
known text as itself, anything else a hole; ``AppendLine`` ends its piece with a line
break (a trailing one is dropped: a pasted message ends at its last line). Appends
under a loop or a branch (``foreach (var x in xs) sb.AppendLine($"  {x}");``) print what
source does not say, any number of lines or none: one hole that may span lines, so the
text before and after it is still known; so does a helper the builder is handed to
(``AddDetail(data, sb)``), which appends what only it knows. A builder started from a
variable (``new StringBuilder(opening)``) starts with its text when source says it, else
with a hole that may be empty (the variable may be a capacity). Appends chained after
the builder at the site (``sb.TrimEnd().AppendLine().ToString()``) end it; a ``Trim…``
step there removes blanks only, which a pasted message loses anyway.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from tree_sitter import Node

from errdex.languages._engine.message import Message
from errdex.languages.base import ancestors, text
from errdex.languages.csharp.strings import composite_format, string_value
from errdex.templates.template import Hole, Literal, Part, merge_literals

_BUILDERS = frozenset({"StringBuilder", "System.Text.StringBuilder"})
_APPENDS = frozenset({"Append", "AppendLine", "AppendFormat"})
# A first argument that is no text: a capacity.
_NOT_TEXT = frozenset({"integer_literal", "binary_expression"})
_REPEATED = frozenset({
    "for_statement", "foreach_statement", "while_statement", "do_statement", "if_statement",
    "switch_statement",
})
# What a loop or a branch appends: any text, over any number of lines, or nothing.
REPEATED = Hole(None, "{…}", "any", r"[\s\S]*?")

Read = Callable[[Node], Message | None]  # an argument's text (None: a hole)
Hole_ = Callable[[Node], Message]


def built(call: Node, declaration: Node | None, at: Node, read: Read, hole: Hole_,
          newline: Hole, arguments: Callable[[Node | None], list[Node]],
          tail: list[tuple[str, list[Node]]] | None = None) -> Message | None:
    """What ``sb.ToString()`` (``call``) prints at ``at``, ``sb`` declared by
    ``declaration`` (a ``variable_declarator``), ``tail`` the steps chained after ``sb``
    at the site; None when source does not say."""
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
    if initial and initial[0].type not in _NOT_TEXT:
        _add(parts, written, _initial(initial[0], read))
    for step in block.named_children:
        if step.end_byte <= statement.end_byte:
            continue
        if step.start_byte <= at.start_byte < step.end_byte or step.start_byte >= at.start_byte:
            break
        if name.encode() not in (step.text or b""):
            continue
        if step.type in _REPEATED and _appends_only(step, name):
            if not parts or parts[-1] != REPEATED:
                parts.append(REPEATED)
                written.append(REPEATED.spec)
            continue
        inner = step.named_children[0] if step.type == "expression_statement" and (
            step.named_children) else None
        if inner is not None and _handed(inner, name):
            if not parts or parts[-1] != REPEATED:
                parts.append(REPEATED)
                written.append(REPEATED.spec)
            continue
        chain = _chain(inner, name) if inner is not None else None
        if chain is None or not _apply(chain, parts, written, read, hole, newline):
            return None
    if not _apply(tail or [], parts, written, read, hole, newline):
        return None
    while parts and parts[-1] == newline:
        parts.pop()
        written.pop()
    if parts and parts[-1] == REPEATED:  # its lines, or none: the breaks before it go too
        while len(parts) > 1 and parts[-2] == newline:
            del parts[-2], written[-2]
    if len(parts) > 1 and isinstance(parts[0], Hole) and parts[0].regex == ".*?" and (
            parts[1] == newline):  # an empty first line: a pasted message starts below it
        parts[1] = replace(newline, regex=f"(?:{newline.regex})?")
    made = merge_literals(parts)
    if not any((isinstance(p, Literal) and any(c.isalpha() for c in p.text))
               or (isinstance(p, Hole) and composable(p.name)) for p in made):
        return None
    return Message("".join(written), made)


_CONSTANT = re.compile(r"[A-Z]\w*(?:\.[A-Z]\w*)+")


def composable(name: str | None) -> bool:
    """Whether a hole's expression may print a text composition finds: a call
    (``times.Describe(count)``) or a constant (``Resources.NotFound``)."""
    return name is not None and (name.endswith(")") or _CONSTANT.fullmatch(name) is not None)


def _apply(chain: list[tuple[str, list[Node]]], parts: list[Part], written: list[str],
           read: Read, hole: Hole_, newline: Hole) -> bool:
    """Add what a chain of appends prints (a ``Trim…`` step removes blanks only, a
    project's own ``Append…`` extension prints what source does not say); False when one
    is not read."""
    for method, args in chain:
        if method not in _APPENDS:
            if method.startswith("Append") and (not parts or parts[-1] != REPEATED):
                parts.append(REPEATED)
                written.append(REPEATED.spec)
            continue
        if method == "AppendFormat" and args and (fmt := string_value(args[0])) is not None:
            found = composite_format(fmt, [text(a) for a in args[1:]])
            _add(parts, written, Message(fmt, found))
        elif method == "AppendFormat" or len(args) > 1:
            return False
        elif args:
            _add(parts, written, read(args[0]) or hole(args[0]))
        if method == "AppendLine":
            parts.append(newline)
            written.append("{Environment.NewLine}")
    return True


def tail_of(node: Node | None) -> tuple[Node | None, list[tuple[str, list[Node]]]]:
    """``sb.TrimEnd().AppendLine()`` as ``sb`` and its steps in order; a step other than
    an ``Append…`` or a ``Trim…`` gives no receiver."""
    steps: list[tuple[str, list[Node]]] = []
    while node is not None and node.type == "invocation_expression":
        function = node.child_by_field_name("function")
        if function is None or function.type != "member_access_expression":
            return None, []
        method = text(function.child_by_field_name("name"))
        if not method.startswith(("Append", "Trim")):
            return None, []
        args = node.child_by_field_name("arguments")
        steps.append((method, [a.named_children[-1] for a in (
            args.named_children if args is not None else ()) if a.type == "argument"
            and a.named_children]))
        node = function.child_by_field_name("expression")
    return node, list(reversed(steps))


def _appends_only(step: Node, name: str) -> bool:
    """Whether every use of ``name`` in a loop or branch is an append chain on it or hands
    it to a helper (not a new builder assigned to it, nor a ``Clear()``/``Insert``/``Remove``)."""
    stack = [step]
    while stack:
        node = stack.pop()
        if node.type == "identifier" and text(node) == name:
            parent = node.parent
            if parent is not None and parent.type == "argument":
                continue
            if parent is None or parent.type != "member_access_expression" or not text(
                    parent.child_by_field_name("name")).startswith(("Append", "Trim")):
                return False
        stack.extend(node.named_children)
    return True


def _initial(value: Node, read: Read) -> Message:
    """What ``new StringBuilder(value)`` starts with: its text when source says it, else a
    hole that may be empty (``value`` may be a capacity)."""
    found = read(value)
    if found is not None and found.has_text():
        return found
    name = text(value)
    return Message("{" + name + "}", (Hole(name, "{" + name + "}", "any", ".*?"),))


def _handed(statement: Node, name: str) -> bool:
    """Whether ``statement`` is a call handing the builder to a helper
    (``AddDetail(data, sb, message)``): the helper appends what source here does not say."""
    if statement.type != "invocation_expression":
        return False
    args = statement.child_by_field_name("arguments")
    return any(a.type == "argument" and a.named_children and a.named_children[-1].type == (
        "identifier") and text(a.named_children[-1]) == name
        for a in (args.named_children if args is not None else ()))


def _add(parts: list[Part], written: list[str], message: Message) -> None:
    parts.extend(message.parts)
    written.append(message.written)


def _chain(node: Node, name: str) -> list[tuple[str, list[Node]]] | None:
    """``sb.Append(a).TrimEnd().AppendLine(b)`` as ``[("Append", [a]), ("TrimEnd", []),
    ("AppendLine", [b])]``; None when it is anything else."""
    receiver, steps = tail_of(node)
    if receiver is None or receiver.type != "identifier" or text(receiver) != name:
        return None
    return steps or None
