"""C# values followed path by path through a method body: each assignment of a name
gives it new values (``+=`` appends, ``=`` replaces, its old value a hole of its own where
the new one names it); an ``if`` runs one of its branches (an assignment nested in one that
did not run never runs), a loop, ``switch`` or ``try`` its body or not. Each path's values
are one alternative (capped at ``MAX_ALTERNATIVES``). ``x = x.Trim()`` keeps the value (a
pasted message is read without its outer spaces anyway). A new value made by a call of the
repository is a hole filled by what that call composes (``Call.nested``); a new value
source does not say is None.

Used for a method's parameters (``reassigned``) and for a local built up before the throw
that prints it (``built_local``). What an expression prints and what a call composes are
the caller's readers (``Paths``), so this module reads no argument itself.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from errdex.languages._engine.walk import nodes_from
from errdex.languages._jvm.compose import unparenthesized
from errdex.languages.base import ancestors, text
from errdex.languages.facts import (
    MAX_ALTERNATIVES,
    Call,
    bind_call,
    parameter,
    substitute,
    unknown,
)
from errdex.templates.template import Template

__all__ = ["Paths", "State", "built_local", "walk"]

_TRIMS = frozenset({"Trim", "TrimEnd", "TrimStart"})
_NESTED = ("lambda_expression", "local_function_statement", "anonymous_method_expression")
_BODIES = frozenset({"method_declaration", "constructor_declaration",
                     "local_function_statement", "accessor_declaration"})
# A state: each followed name's value on one path through the body (None: unknown).
State = dict[str, Template | None]
Values = Callable[[Node, Node], list[Template]]  # what an expression prints, read at a node
Invocation = Callable[[Node, Node, str], Call | None]  # a call of the repository, composed


def walk(node: Node | None) -> list[Node]:
    """Nodes under ``node`` in source order, not inside a nested lambda or local function."""
    return nodes_from(node, _NESTED)


class Paths:
    """Follows names through a body with the caller's readers of values and calls."""

    def __init__(self, values: Values, invocation: Invocation) -> None:
        self._values = values
        self._invocation = invocation

    def run(self, node: Node, states: list[State], assigned: list[Node],
            nested: list[tuple[str, Call]], path: str) -> list[State]:
        """The states after ``node`` runs from each of ``states``: an ``if`` each of its
        branches, a loop, ``switch`` or ``try`` its body or not, an assignment (one of
        ``assigned``) its new values."""
        if node.type in _NESTED or not any(
                node.start_byte <= a.start_byte and a.end_byte <= node.end_byte
                for a in assigned):
            return states  # no followed assignment in it
        if node.type == "if_statement":
            then = node.child_by_field_name("consequence")
            other = node.child_by_field_name("alternative")
            ran = self.run(then, states, assigned, nested, path) if then is not None else states
            skipped = self.run(other, states, assigned, nested, path) if (
                other is not None) else states
            return unique([*ran, *skipped])
        if node.type == "assignment_expression":
            return unique([made for state in states
                           for made in self._assigned(node, state, nested, path)])
        if node.type in ("block", "expression_statement"):
            for child in node.named_children:
                states = self.run(child, states, assigned, nested, path)
            return states
        ran = states  # a loop, a switch, a try: its body may run or not
        for child in node.named_children:
            ran = self.run(child, ran, assigned, nested, path)
        return unique([*states, *ran])

    def _assigned(self, found: Node, state: State, nested: list[tuple[str, Call]],
                  path: str) -> list[State]:
        """The states one assignment leads to from ``state`` (a name not in it is a
        parameter: its own hole)."""
        name = text(found.child_by_field_name("left"))
        now = state.get(name, parameter(name))
        if now is None:
            return [state]
        new = self._new_values(found, name, [now], nested, path)
        if new is None:
            return [{**state, name: None}]
        return [{**state, name: value} for value in new]

    def _new_values(self, found: Node, name: str, now: list[Template],
                    nested: list[tuple[str, Call]], path: str) -> list[Template] | None:
        """The values one assignment to ``name`` gives it, each of its current ``now``."""
        right = unparenthesized(found.child_by_field_name("right"))
        appends = text(found.child_by_field_name("operator")) == "+="
        if right is None:
            return None
        if not appends and _trimmed(right, name):
            return now
        read = self._values(right, found)
        if not read and right.type == "invocation_expression":
            call = self._invocation(right, found, path)
            if call is None or len(now) != 1:
                return None
            hole = text(right)
            nested.append((hole, bind_call(call, {name: now[0]})))
            read = [unknown(hole)]
        if not read:
            return None
        out: list[Template] = []
        for value in read:
            for old in now:
                if appends:
                    out.append(Template(old.written + value.written, (*old.parts, *value.parts)))
                else:
                    out.append(substitute(value, {name: old}))
        return out


def unique(states: list[State]) -> list[State]:
    """The distinct states, at most ``MAX_ALTERNATIVES``."""
    seen: set[tuple[tuple[str, str | None], ...]] = set()
    out = []
    for state in states:
        key = tuple(sorted((n, v.written if v is not None else None) for n, v in state.items()))
        if key not in seen:
            seen.add(key)
            out.append(state)
    return out[:MAX_ALTERNATIVES]


def _trimmed(right: Node, name: str) -> bool:
    """``name.Trim()`` (``TrimEnd()``, ``TrimStart()``): the value, its spaces aside."""
    function = right.child_by_field_name("function") if (
        right.type == "invocation_expression") else None
    return function is not None and function.type == "member_access_expression" and text(
        function.child_by_field_name("expression")) == name and text(
        function.child_by_field_name("name")) in _TRIMS


def built_local(node: Node, at: Node, initial: list[Template], paths: Paths) -> list[Template]:
    """The texts the local ``node`` (an identifier read at ``at``) holds there when it is
    given more text after its declaration (``message += "…"`` in some branches): one per
    path from its declared values ``initial`` (module docstring); empty when it is not
    appended to, or a new value source does not say (``var message = $"Failed to create
    {kind}"; if (…) message += " - install X?"; … throw new ConfigException(message);``)."""
    name = text(node)
    scope = next((a for a in ancestors(at) if a.type in _BODIES), None)
    body = scope.child_by_field_name("body") if scope is not None else None
    if body is None or not initial:
        return []
    declared = [d for d in walk(body) if d.type == "variable_declarator"
                and text(d.child_by_field_name("name")) == name and d.end_byte <= at.start_byte]
    if not declared:
        return []
    after, before = declared[-1].end_byte, at.start_byte
    assigned = [n for n in walk(body) if n.type == "assignment_expression"
                and after <= n.start_byte and n.end_byte <= before
                and text(n.child_by_field_name("left")) == name]
    if not any(text(a.child_by_field_name("operator")) == "+=" for a in assigned):
        return []
    nested: list[tuple[str, Call]] = []
    states = paths.run(body, [{name: value} for value in initial[:MAX_ALTERNATIVES]], assigned,
                  nested, "")
    values = [state.get(name) for state in states]
    if nested or any(value is None for value in values):
        return []  # a new value made by a call, or one source does not say
    return [value for value in values if value is not None]
