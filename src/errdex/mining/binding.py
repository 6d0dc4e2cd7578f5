"""Binding a call's arguments to a producer's parameters: each parameter an alternative
of what is passed (or its default), ``*args``/``**kwargs`` what is left over, passed on."""

from __future__ import annotations

import itertools
from dataclasses import replace

from errdex.languages.facts import Argument, Call, Producer
from errdex.templates.template import Hole, Template

MAX_BINDINGS = 16


def bindings_of(producer: Producer, call: Call) -> list[dict[str, Template]]:
    """Each parameter bound to an alternative of what the call passes (product, capped).
    ``*args`` / ``**kwargs`` parameters take what is left over (``spread_of``)."""
    defaults = dict(producer.defaults)
    keywords = dict(call.keywords)
    choices: list[list[tuple[str, Template]]] = []
    positional = _positional(producer.params)
    for param in producer.params:
        if param.startswith("*"):
            continue
        i = positional.index(param) if param in positional else len(call.args)
        given = call.args[i] if i < len(call.args) else keywords.get(param)
        if given:
            choices.append([(param, t) for t in given])
        elif param in defaults:
            choices.append([(param, defaults[param])])
    combos = itertools.islice(itertools.product(*choices), MAX_BINDINGS + 1)
    return [dict(combo) for combo in combos]


def _positional(params: tuple[str, ...]) -> list[str]:
    """The parameters a positional argument can fill: those before a ``*args``."""
    out = []
    for param in params:
        if param.startswith("*"):
            break
        out.append(param)
    return out


def spread_of(producer: Producer, call: Call) -> dict[str, tuple[tuple[str | None, Argument], ...]]:
    """What a producer's ``*args`` and ``**kwargs`` receive: the arguments no named
    parameter took (a keyword's name kept), by the parameter's name."""
    out: dict[str, tuple[tuple[str | None, Argument], ...]] = {}
    named = {p for p in producer.params if not p.startswith("*")}
    for param in producer.params:
        if param.startswith("**"):
            out[param] = tuple((k, a) for k, a in call.keywords if k not in named)
        elif param.startswith("*"):
            rest = call.args[len(_positional(producer.params)):]
            out[param] = tuple((None, a) for a in rest)
    return out


def forwarded(inner: Call, spread: dict[str, tuple[tuple[str | None, Argument], ...]],
               bindings: dict[str, Template]) -> Call:
    """A call a producer makes with its ``*args``/``**kwargs`` expanded, and its callee
    replaced when it is a parameter the caller passed a class name in
    (``def parse_error(self, exception, *args): return exception(line, col, *args)``)."""
    args: list[Argument] = []
    keywords = [(k, a) for k, a in inner.keywords if not k.startswith("**")]
    for arg in inner.args:
        name = _splat(arg)
        if name is None:
            args.append(arg)
        else:
            args.extend(a for k, a in spread.get(name, ()) if k is None)
    for key, _ in inner.keywords:
        if key.startswith("**"):
            keywords.extend((k, a) for k, a in spread.get(key, ()) if k is not None)
    callee = inner.callee
    bound = bindings.get(callee)
    if bound is not None and len(bound.parts) == 1 and isinstance(bound.parts[0], Hole) and (
            bound.parts[0].name):
        callee = bound.parts[0].name
    return replace(inner, callee=callee, args=tuple(args), keywords=tuple(keywords))


def _splat(arg: Argument) -> str | None:
    """``*args`` passed on: the argument is one hole named with its star."""
    if len(arg) == 1 and len(arg[0].parts) == 1 and isinstance(arg[0].parts[0], Hole):
        name = arg[0].parts[0].name
        if name and name.startswith("*") and not name.startswith("**"):
            return name
    return None
