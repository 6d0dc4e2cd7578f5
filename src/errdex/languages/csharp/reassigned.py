"""C# parameters given new values in a method's body, followed path by path.

A formatting helper decorates the message it is given before returning it, often only
in some cases::

    if (!message.EndsWith("."))
        message += ".";
    message += string.Format(" Path '{0}'", path);
    if (info != null && info.HasLineInfo())
        message += string.Format(", line {0}, position {1}", info.LineNumber, info.LinePosition);
    return message;

A local is followed the same way from its declaration to the throw that prints it
(``var message = $"Failed to create {kind}"; if (…) message += " - install X?"; … throw
new ConfigException(message);``, ``built_local``): each path's text is one alternative.

Each assignment gives the parameter a new value: ``+=`` appends, ``=`` replaces (its old
value a hole of its own where the new one names it). The body is followed path by path:
an ``if`` runs one of its branches (an assignment nested in one that did not run never
runs), a loop, ``switch`` or ``try`` its body or not; each path's values are one
alternative (capped at ``MAX_ALTERNATIVES``). ``message = message.Trim()`` keeps the value (a
pasted message is read without its outer spaces anyway). A new value made by a call of
the repository (``message = Position.Describe(info, path, message)``) is a hole filled by
what that call composes (``Call.nested``). A new value source does not say drops the
results that print it.
"""

from __future__ import annotations

from dataclasses import replace

from tree_sitter import Node

from errdex.languages._jvm.compose import unparenthesized
from errdex.languages.base import ancestors, text
from errdex.languages.csharp.calls import alternatives, invocation, walk
from errdex.languages.facts import (
    MAX_ALTERNATIVES,
    Call,
    Result,
    bind,
    bind_call,
    has_text,
    parameter,
    substitute,
    unknown,
)
from errdex.templates.template import Template

_TRIMS = frozenset({"Trim", "TrimEnd", "TrimStart"})
_NESTED = frozenset({"lambda_expression", "local_function_statement",
                     "anonymous_method_expression"})
# A state: each reassigned parameter's value on one path through the body (None: unknown).
State = dict[str, Template | None]


def reassigned(node: Node, params: tuple[str, ...], results: list[Result],
               path: str) -> list[Result]:
    """``results`` with each parameter given a new value in ``node``'s body (a method)
    printing that value: one result per path through the body's branches (module
    docstring)."""
    body = node.child_by_field_name("body")
    assigned = [n for n in walk(body) if n.type == "assignment_expression" and text(
        n.child_by_field_name("left")) in params] if body is not None else []
    if body is None or not assigned:
        return results
    nested: list[tuple[str, Call]] = []
    states = _run(body, [{}], assigned, nested, path)
    out: list[Result] = []
    for result in results:
        used = _holes(result)
        for state in states:
            if any(state.get(n, parameter(n)) is None for n in used):
                continue  # a value source does not say
            made = bind(result, {n: v for n, v in state.items() if v is not None and n in used})
            if isinstance(made, Call):
                made = replace(made, nested=(*made.nested, *(
                    (hole, inner) for hole, inner in nested if _mentions(made, hole))))
            elif not has_text(made):
                continue
            if made not in out:
                out.append(made)
            if len(out) >= MAX_ALTERNATIVES:
                return out
    return out


def built_local(node: Node, at: Node, initial: list[Template]) -> list[Template]:
    """The texts the local ``node`` (an identifier read at ``at``) holds there when it is
    given more text after its declaration (``message += "…"`` in some branches): one per
    path from its declared values ``initial`` (module docstring); empty when it is not
    appended to, or a new value source does not say."""
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
    states = _run(body, [{name: value} for value in initial[:MAX_ALTERNATIVES]], assigned,
                  nested, "")
    values = [state.get(name) for state in states]
    if nested or any(value is None for value in values):
        return []  # a new value made by a call, or one source does not say
    return [value for value in values if value is not None]


_BODIES = frozenset({"method_declaration", "constructor_declaration",
                     "local_function_statement", "accessor_declaration"})


def _run(node: Node, states: list[State], assigned: list[Node],
         nested: list[tuple[str, Call]], path: str) -> list[State]:
    """The states after ``node`` runs from each of ``states``: an ``if`` each of its
    branches, a loop, ``switch`` or ``try`` its body or not, an assignment its new values."""
    if node.type in _NESTED or not any(
            node.start_byte <= a.start_byte and a.end_byte <= node.end_byte for a in assigned):
        return states  # no assignment of a parameter in it
    if node.type == "if_statement":
        then = node.child_by_field_name("consequence")
        other = node.child_by_field_name("alternative")
        ran = _run(then, states, assigned, nested, path) if then is not None else states
        skipped = _run(other, states, assigned, nested, path) if other is not None else states
        return _unique([*ran, *skipped])
    if node.type == "assignment_expression":
        return _unique([made for state in states
                        for made in _assigned(node, state, nested, path)])
    if node.type in ("block", "expression_statement"):
        for child in node.named_children:
            states = _run(child, states, assigned, nested, path)
        return states
    ran = states  # a loop, a switch, a try: its body may run or not
    for child in node.named_children:
        ran = _run(child, ran, assigned, nested, path)
    return _unique([*states, *ran])


def _assigned(found: Node, state: State, nested: list[tuple[str, Call]],
              path: str) -> list[State]:
    """The states one assignment to a parameter leads to from ``state``."""
    name = text(found.child_by_field_name("left"))
    now = state.get(name, parameter(name))
    if now is None:
        return [state]
    new = _new_values(found, name, [now], nested, path)
    if new is None:
        return [{**state, name: None}]
    return [{**state, name: value} for value in new]


def _unique(states: list[State]) -> list[State]:
    """The distinct states, at most ``MAX_ALTERNATIVES``."""
    seen: set[tuple[tuple[str, str | None], ...]] = set()
    out = []
    for state in states:
        key = tuple(sorted((n, v.written if v is not None else None) for n, v in state.items()))
        if key not in seen:
            seen.add(key)
            out.append(state)
    return out[:MAX_ALTERNATIVES]


def _new_values(found: Node, name: str, now: list[Template], nested: list[tuple[str, Call]],
                path: str) -> list[Template] | None:
    """The values one assignment to ``name`` gives it, each of its current ``now``."""
    right = unparenthesized(found.child_by_field_name("right"))
    appends = text(found.child_by_field_name("operator")) == "+="
    if right is None:
        return None
    if not appends and _trimmed(right, name):
        return now
    read = alternatives(right, found)
    if not read and right.type == "invocation_expression":
        call = invocation(right, found, path)
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


def _trimmed(right: Node, name: str) -> bool:
    """``name.Trim()`` (``TrimEnd()``, ``TrimStart()``): the value, its spaces aside."""
    function = right.child_by_field_name("function") if (
        right.type == "invocation_expression") else None
    return function is not None and function.type == "member_access_expression" and text(
        function.child_by_field_name("expression")) == name and text(
        function.child_by_field_name("name")) in _TRIMS


def _holes(result: Result) -> set[str]:
    templates = [result] if isinstance(result, Template) else [t for a in result.args for t in a]
    return {h.name for t in templates for h in t.holes if h.name}


def _mentions(call: Call, hole: str) -> bool:
    return hole in _holes(call)
