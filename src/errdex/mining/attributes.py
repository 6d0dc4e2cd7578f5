"""What ``self.<name>`` prints inside a method that runs on an object of a known class.

Validators and fields keep their messages on the object: ``self.error = error or
self.default_message`` in the constructor, ``default_message = "Not a valid URL."`` in the
class (a subclass overriding it), ``self.message_min = self.message_min.format(min_op=…)``,
and a method formats the text only when it fails (``self.error.format(input=value)``).
Such a hole is spelled out from the object's class up its bases: the field a constructor
sets first, else the class attribute; the class is the one ``self`` is (the site's class
for a call through ``self``, not the class the method is written in). A ``FORMAT`` call
is applied once its text is known, by the language's formatter.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from functools import lru_cache
from typing import Protocol, TypeVar

from errdex.languages import SPECS, language_for_path
from errdex.languages.facts import (
    FORMAT,
    Call,
    Formatter,
    Producer,
    Result,
    has_text,
    substitute,
    unknown,
)
from errdex.templates.template import Hole, Template


class Producers(Protocol):
    """What spelling out needs of ``errdex.mining.producers.Producers`` (a protocol, so the
    two modules do not import each other)."""

    by_name: dict[str, list[Producer]]

    def chain(self, owner: str | None, path: str) -> list[str]: ...

    def nearest_in_chain(self, found: list[Producer], owner: str | None, path: str
                         ) -> list[Producer]: ...

T = TypeVar("T")
MAX_TEXTS = 16  # alternatives one hole, or one formatted text, may spell out

# Where a spelled-out text is written: (path, line, role) of the field or attribute.
Written = tuple[str, int, str]
# A template and the places its spelled-out parts are written.
Spelled = tuple[Template, tuple[Written, ...]]
_DEPTH = 6
_QUOTED = ("!r", "?}")


def self_attribute(hole: Hole) -> str | None:
    """``self.error`` / ``this.error`` → ``error`` (a plain attribute, printed as it is)."""
    name = hole.name or ""
    head, dot, attribute = name.partition(".")
    if not dot or head not in ("self", "this", "cls") or not attribute.isidentifier():
        return None
    if any(q in hole.spec for q in _QUOTED):
        return None
    return attribute


def spell_self(producers: Producers, template: Template, this: str | None, path: str,
               depth: int = 0, skip: frozenset[str] = frozenset()) -> list[Spelled]:
    """``template`` with each ``self.<name>`` hole it prints spelled out as ``this``'s
    field or class attribute (one template per combination of their alternatives), and
    where what it spelled is written."""
    if this is None or depth > _DEPTH:
        return [(template, ())]
    choices: list[list[tuple[str, Spelled]]] = []
    seen: set[str] = set()
    for hole in template.holes:
        name = self_attribute(hole)
        if name is None or hole.name is None or hole.name in seen:
            continue  # a field printed twice prints one value twice
        seen.add(hole.name)
        texts = attribute_texts(producers, name, this, path, depth, skip)
        if texts:
            choices.append([(hole.name, t) for t in texts])
    if not choices:
        return [(template, ())]
    combos = itertools.islice(itertools.product(*choices), MAX_TEXTS)
    return [(substitute(template, {name: t for name, (t, _) in combo}),
             tuple(w for _, (_, written) in combo for w in written)) for combo in combos]


def attribute_texts(producers: Producers, name: str, this: str, path: str, depth: int,
                    skip: frozenset[str]) -> list[Spelled] | None:
    """What ``self.<name>`` holds on an object of class ``this``: the field a constructor
    of the class or a base sets (a field's own value reads the class attribute of that
    name: ``self.x = self.x.format(…)``), else the nearest class attribute; None when
    neither is known."""
    found = _nearest(producers, name, this, path, "field" if name not in skip else None)
    if found is None:
        found = _nearest(producers, name, this, path, "attribute")
    if found is None:
        return None
    out: list[Spelled] = []
    for held in (found, *overrides(producers, found, this, path)):
        inner = skip | {name} if held.role == "field" else skip
        where = this if held is found or held.owner is None else held.owner
        for result in held.results:
            own: tuple[Written, ...] = ((held.path, held.line, held.role),) if isinstance(
                result, Template) and has_text(result) else ()
            out.extend((t, (*written, *own)) for t, written in
                       evaluate(producers, result, where, held.path, depth + 1, inner))
    return out[:MAX_TEXTS]


def overrides(producers: Producers, found: Producer, this: str, path: str) -> list[Producer]:
    """What subclasses of ``this`` hold under ``found``'s name and role: ``self`` may be an
    object of any of them (``param_type_name`` is "argument" in one, "option" in another)."""
    out = []
    for other in producers.by_name.get(found.name, ()):
        if other.role == found.role and other.owner not in (None, found.owner) and (
                this in producers.chain(other.owner, other.path)[1:]):
            out.append(other)
    return out


def evaluate(producers: Producers, result: Result, this: str | None, path: str,
             depth: int = 0, skip: frozenset[str] = frozenset()) -> list[Spelled]:
    """A field's or method's result as templates: ``self`` attributes spelled out and a
    ``FORMAT`` call applied (any other call: nothing known here)."""
    if depth > _DEPTH:
        return []
    if isinstance(result, Template):
        return spell_self(producers, result, this, path, depth, skip)
    if result.callee != FORMAT or not result.args:
        return []
    formatter = _formatter(path)
    if formatter is None:
        return []
    given = [_spelled_argument(producers, a, this, path, depth, skip) or ((unknown("?"), ()),)
             for a in result.args[1:]]
    names = [k for k, _ in result.keywords]
    named = [_spelled_argument(producers, a, this, path, depth, skip) or ((unknown(k), ()),)
             for k, a in result.keywords]
    out: list[Spelled] = []
    for text, written in _spelled_argument(producers, result.args[0], this, path, depth, skip):
        # one choice of each argument at a time: each result knows where its parts are written
        for combo in itertools.islice(itertools.product(*given, *named), MAX_TEXTS):
            args = tuple((t,) for t, _ in combo[:len(given)])
            keywords = tuple((k, (t,)) for k, (t, _) in zip(names, combo[len(given):],
                                                             strict=True))
            filled = tuple(w for _, ws in combo for w in ws)
            out.extend((t, (*written, *filled)) for t in formatter(text, args, keywords))
        if len(out) >= MAX_TEXTS:
            break
    return out[:MAX_TEXTS]


def _spelled_argument(producers: Producers, argument: tuple[Template, ...], this: str | None,
                      path: str, depth: int, skip: frozenset[str]) -> tuple[Spelled, ...]:
    return tuple(s for given in argument
                 for s in spell_self(producers, given, this, path, depth + 1, skip))[:MAX_TEXTS]


def _nearest(producers: Producers, name: str, this: str, path: str,
             role: str | None) -> Producer | None:
    """The ``role`` producer named ``name`` of ``this`` or its nearest base that has one."""
    if role is None:
        return None
    candidates = [p for p in producers.by_name.get(name, ()) if p.role == role]
    found = producers.nearest_in_chain(candidates, this, path)
    return found[0] if found else None


def spell_call(producers: Producers, call: Call, context: str | None
               ) -> tuple[Call, tuple[Written, ...]]:
    """A call's arguments with the ``self`` attributes they print spelled out as the
    caller's (``context``): arguments are evaluated where the call is made; and where
    what was spelled out is written."""
    if context is None or not any(
            self_attribute(h) for arg in (*call.args, *(a for _, a in call.keywords))
            for t in arg for h in t.holes):
        return call, ()
    given = [_spelled_argument(producers, a, context, call.path, 0, frozenset())
             for a in call.args]
    named = [(k, _spelled_argument(producers, a, context, call.path, 0, frozenset()))
             for k, a in call.keywords]
    written = tuple(w for a in (*given, *(a for _, a in named)) for _, ws in a for w in ws)
    return Call(call.callee, tuple(tuple(t for t, _ in a) for a in given),
                tuple((k, tuple(t for t, _ in a)) for k, a in named), call.owner, call.path,
                call.method, call.makes_error, call.nested), written


def expanded(call: Call, composed: list[list[tuple[Template, T]]]
             ) -> Iterator[tuple[Call, tuple[T, ...]]]:
    """The call once for each choice of what its nested calls print (``composed``, in the
    order of ``call.nested``, each with what goes with it), the hole each fills replaced
    (capped)."""
    names = [name for name, _ in call.nested]
    for combo in itertools.islice(itertools.product(*composed), MAX_TEXTS):
        bindings = {name: t for name, (t, _) in zip(names, combo, strict=True)}
        yield Call(
            call.callee,
            tuple(tuple(substitute(t, bindings) for t in arg) for arg in call.args),
            tuple((k, tuple(substitute(t, bindings) for t in arg)) for k, arg in call.keywords),
            call.owner, call.path, call.method, call.makes_error), tuple(x for _, x in combo)


@lru_cache(maxsize=256)
def _formatter(path: str) -> Formatter | None:
    language = language_for_path(path) if path else None
    spec = SPECS.get(language.name) if language is not None else None
    return spec.compose.format if spec is not None and spec.compose is not None else None
