"""C# parameters given new values in a method's body, followed path by path.

A formatting helper decorates the message it is given before returning it, often only
in some cases::

    if (!message.EndsWith("."))
        message += ".";
    message += string.Format(" Path '{0}'", path);
    if (info != null && info.HasLineInfo())
        message += string.Format(", line {0}, position {1}", info.LineNumber, info.LinePosition);
    return message;

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

from errdex.languages.base import text
from errdex.languages.csharp.calls import alternatives, invocation
from errdex.languages.csharp.paths import Paths, walk
from errdex.languages.facts import MAX_ALTERNATIVES, Call, Result, bind, has_text, parameter
from errdex.templates.template import Template


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
    states = Paths(alternatives, invocation).run(body, [{}], assigned, nested, path)
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


def _holes(result: Result) -> set[str]:
    templates = [result] if isinstance(result, Template) else [t for a in result.args for t in a]
    return {h.name for t in templates for h in t.holes if h.name}


def _mentions(call: Call, hole: str) -> bool:
    return hole in _holes(call)
