"""C# parameters given new values in a method's body, read in source order.

A formatting helper decorates the message it is given before returning it, often only
in some cases::

    if (!message.EndsWith("."))
        message += ".";
    message += string.Format(" Path '{0}'", path);
    if (info != null && info.HasLineInfo())
        message += string.Format(", line {0}, position {1}", info.LineNumber, info.LinePosition);
    return message;

Each assignment gives the parameter a new value: ``+=`` appends, ``=`` replaces (its old
value a hole of its own where the new one names it). One under a branch or a loop may
not run: the value is then either, so each such assignment doubles the alternatives
(capped). ``message = message.Trim()`` keeps the value (a pasted message is read without
its outer spaces anyway). A new value made by a call of the repository (``message =
Position.Describe(info, path, message)``) is a hole filled by what that call composes
(``Call.nested``). A new value source does not say drops the results that print it.
"""

from __future__ import annotations

from dataclasses import replace

from tree_sitter import Node

from errdex.languages._jvm.compose import unparenthesized
from errdex.languages.base import ancestors, text
from errdex.languages.csharp.calls import alternatives, invocation, walk
from errdex.languages.facts import (
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

MAX_VALUES = 16
_TRIMS = frozenset({"Trim", "TrimEnd", "TrimStart"})
# What an assignment may run under, short of the method's body: it may not run at all.
_CONDITIONAL = frozenset({
    "if_statement", "switch_statement", "switch_section", "for_statement",
    "foreach_statement", "while_statement", "do_statement", "catch_clause",
    "conditional_expression",
})


def reassigned(node: Node, params: tuple[str, ...], results: list[Result],
               path: str) -> list[Result]:
    """``results`` with each parameter given a new value in ``node``'s body (a method)
    printing that value: one result per alternative of the values (module docstring)."""
    body = node.child_by_field_name("body")
    values: dict[str, list[Template] | None] = {}
    nested: list[tuple[str, Call]] = []
    for found in walk(body):
        if found.type != "assignment_expression":
            continue
        name = text(found.child_by_field_name("left"))
        if name not in params or values.get(name, ()) is None:
            continue
        now = values.get(name) or [parameter(name)]
        new = _new_values(found, name, now, nested, path)
        if new is None:
            values[name] = None
            continue
        if _conditional(found, body):
            new = [*now, *new]
        values[name] = _unique(new)[:MAX_VALUES]
    if not values:
        return results
    dropped = {n for n, v in values.items() if v is None}
    known = {n: v for n, v in values.items() if v is not None}
    out: list[Result] = []
    for result in results:
        used = _holes(result)
        if used & dropped:
            continue
        for bindings in _choices({n: v for n, v in known.items() if n in used}):
            made = bind(result, bindings)
            if isinstance(made, Call):
                made = replace(made, nested=(*made.nested, *(
                    (hole, inner) for hole, inner in nested if _mentions(made, hole))))
            elif not has_text(made):
                continue
            out.append(made)
            if len(out) >= MAX_VALUES:
                return out
    return out


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


def _conditional(found: Node, body: Node | None) -> bool:
    """Whether the assignment is under a branch or a loop of the method's body."""
    for above in ancestors(found):
        if above == body:
            return False
        if above.type in _CONDITIONAL:
            return True
    return False


def _choices(values: dict[str, list[Template]]) -> list[dict[str, Template]]:
    """Every choice of one value per parameter (capped)."""
    out: list[dict[str, Template]] = [{}]
    for name, found in values.items():
        out = [{**chosen, name: value} for chosen in out for value in found][:MAX_VALUES]
    return out


def _unique(templates: list[Template]) -> list[Template]:
    seen: set[str] = set()
    out = []
    for template in templates:
        if template.written not in seen:
            seen.add(template.written)
            out.append(template)
    return out


def _holes(result: Result) -> set[str]:
    templates = [result] if isinstance(result, Template) else [t for a in result.args for t in a]
    return {h.name for t in templates for h in t.holes if h.name}


def _mentions(call: Call, hole: str) -> bool:
    return hole in _holes(call)
