"""Producers, by name: what a call to one prints, composed through the producers it calls.

Once every file is read, each site that calls a producer (``raise NotFound(key)``, ``throw
Errors.create(reader, "Unexpected token {0}", tok)``, ``fail("no config")``) gets the
templates that producer prints with the call's arguments in place, followed through the
producers it calls in turn (``super(…)``, ``return Error(…)``). The same rules serve every
language (``errdex.languages.facts`` holds the facts):

* a callee is found by its last name, among producers of the caller's language family
  (``_fits``): the caller's class and its bases for ``self.x``/``this.x``/``super``; the
  qualifier's class for ``ParseError::create``; the one method of that name when the
  receiver is some other object (``self._src.parse_error``); then the one namesake, or
  the one nearest the caller's file (same file, then most folders shared); overloads
  (namesakes of one file and owner) by how many arguments the call passes; two as near:
  not composed (which one runs depends on imports the facts do not hold);
* a class with no message of its own takes its base's; a class whose bases are not in the
  repository prints its first argument, as the language's own error classes do;
* depth is bounded (``MAX_DEPTH``), results are memoized per (producer, arguments), a cycle
  is cut, and a site keeps at most ``MAX_ALTERNATIVES`` templates (the cut is counted).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from functools import lru_cache

from errdex.languages import language_for_path
from errdex.languages.facts import (
    Argument,
    Call,
    Producer,
    Result,
    bind,
    has_text,
    message_reference,
    substitute,
    table_key,
    with_constants,
)
from errdex.templates.template import Hole, Template

MAX_DEPTH = 6
MAX_ALTERNATIVES = 16


@dataclass(frozen=True)
class Source:
    """Where a part of a composed template is written (the record's ``templateSources``)."""

    path: str
    line: int
    role: str


@dataclass(frozen=True)
class Composed:
    """One template a call prints, the places it was put together from, and its class."""

    template: Template
    sources: tuple[Source, ...] = ()
    error_class: str | None = None


@dataclass
class Producers:
    """Every producer of a repository, by last name, and what composing cost."""

    by_name: dict[str, list[Producer]] = field(default_factory=dict)
    capped: int = 0  # sites whose alternatives were cut to ``MAX_ALTERNATIVES``
    _memo: dict[tuple[Producer, tuple[object, ...]], list[Composed] | None] = field(
        default_factory=dict)
    _constants: dict[str, str] | None = None
    # What each helper printed for the calls that reached it: the raise inside a helper
    # that only passes its parameter on prints these (``compose_records``).
    reached: dict[Producer, list[Composed]] = field(default_factory=dict)

    def add(self, producers: list[Producer]) -> None:
        for producer in producers:
            self.by_name.setdefault(producer.name, []).append(producer)

    def names(self) -> set[str]:
        return set(self.by_name)

    def spelled(self, composed: Composed, owner: str | None, path: str) -> list[Composed]:
        """``composed`` with the constants and message methods its holes print spelled out:
        one alternative per template such a method can return (capped)."""
        choices: list[list[tuple[str, Template]]] = []
        sources: list[Source] = []
        for hole in composed.template.holes:
            key = table_key(hole)
            if key is not None and hole.name is not None:
                entry = self._table_entry(key, owner, path)
                if entry is not None:
                    choices.append([(hole.name, t) for t in entry.results
                                    if isinstance(t, Template)])
                    sources.append(Source(entry.path, entry.line, entry.role))
                continue
            reference = message_reference(hole)
            if reference is None or hole.name is None:
                continue
            name, through_self = reference
            found = self.find(Call(f"self.{name}" if through_self else name, owner=owner,
                                   path=path))
            if found is None or found.role != "message" or found.params:
                continue
            texts = [r for r in found.results if isinstance(r, Template)]
            if texts:
                choices.append([(hole.name, t) for t in texts])
                sources.append(Source(found.path, found.line, found.role))
        out = [composed]
        if choices:
            combos = itertools.islice(itertools.product(*choices), MAX_ALTERNATIVES)
            out = [Composed(substitute(composed.template, dict(combo)),
                            (*composed.sources, *sources), composed.error_class)
                   for combo in combos]
        constants = self.constants()
        return [Composed(t, c.sources, c.error_class)
                if (t := with_constants(c.template, constants)) is not None else c
                for c in out]

    def _table_entry(self, key: str, owner: str | None, path: str) -> Producer | None:
        """The ``key`` entry of the message table of ``owner`` or its nearest base that has
        one (``default_error_messages`` merged down a field's classes)."""
        entries = [p for p in self.by_name.get(key, ()) if p.role == "table"]
        for name in self.chain(owner, path) if entries else ():
            here = [p for p in entries if p.owner == name]
            if here:
                return _nearest(here, path)
        return None

    def constants(self) -> dict[str, str]:
        """Each string constant's text (role ``constant``), leaving out a name defined with
        different texts (which one a site prints depends on imports)."""
        if self._constants is None:
            texts: dict[str, set[str]] = {}
            for name, found in self.by_name.items():
                for p in found:
                    if p.role == "constant" and len(p.results) == 1 and isinstance(
                            p.results[0], Template) and not p.results[0].holes:
                        texts.setdefault(name, set()).add(p.results[0].written)
            self._constants = {n: next(iter(t)) for n, t in texts.items() if len(t) == 1}
        return self._constants

    def find(self, call: Call, outside: frozenset[Producer] = frozenset()) -> Producer | None:
        """The producer a call reaches (module docstring), or None; ``outside``: producers
        the call is made from, which it does not reach again."""
        name = call.named()
        if name == "super" or call.callee.startswith("super"):
            return self._base_of(call)
        found = [p for p in self.by_name.get(name, ()) if p not in outside]
        if not found:
            return None
        inherited = [p for p in found if _inherits(call) and p.owner is not None
                     and p.owner != call.owner and not p.is_class]
        delegated = [p for p in found if _on_an_object(call) and p.owner is not None
                     and not p.is_class and _same_family(p, call)]
        found = [p for p in found if _fits(p, call) and _same_family(p, call)]
        if not found and inherited:  # ``self.make_error`` defined in a base class
            chain = self.chain(call.owner, call.path)
            ranked = [p for name in chain for p in inherited if p.owner == name]
            found = ranked[:1]
        if not found and len(delegated) == 1:  # ``self._src.parse_error(…)``: the one such
            found = delegated
        qualified = [p for p in found if p.owner is not None and p.owner == call.qualifier()]
        found = qualified or found
        if not found:
            return None
        if len(found) == 1:
            return found[0]
        distinct = {(p.params, p.results, p.bases) for p in found}
        if len(distinct) == 1:
            return found[0]
        overload = _overload(found, call)
        if overload is not None:
            return overload
        nearest = _nearest(found, call.path)
        return nearest

    def chain(self, owner: str | None, path: str) -> list[str]:
        """``owner`` and its bases in the repository, nearest first (bounded)."""
        out: list[str] = []
        name = owner
        while name and name not in out and len(out) <= MAX_DEPTH:
            out.append(name)
            cls = self.find(Call(name, path=path))
            name = cls.bases[0] if cls is not None and cls.is_class and cls.bases else None
        return out

    def _base_of(self, call: Call) -> Producer | None:
        if call.owner is None:
            return None
        owner = self.find(Call(call.owner, path=call.path))
        if owner is None or not owner.is_class:
            return None
        for base in owner.bases:
            producer = self.find(Call(base, path=owner.path))
            if producer is not None and producer is not owner:
                return producer
        return None

    def compose(self, call: Call) -> list[Composed] | None:
        """The templates ``call`` prints, or None when it reaches no producer."""
        return self._compose(call, 0, frozenset())

    def _compose(self, call: Call, depth: int, visiting: frozenset[Producer]
                 ) -> list[Composed] | None:
        producer = self.find(call, visiting)  # never one it is made from: cycles end here
        if producer is None or depth > MAX_DEPTH:
            return None
        key = (producer, (call.args, call.keywords))
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = None  # a cycle through the memo composes nothing
        composed = self._apply(producer, call, depth, visiting | {producer})
        self._memo[key] = composed
        if composed and producer.role == "helper":
            self.reached.setdefault(producer, []).extend(composed)
        return composed

    def helper_at(self, path: str, symbol: str | None) -> Producer | None:
        """The helper a site is written in (by file and enclosing symbol), if it is one."""
        if not symbol:
            return None
        parts = symbol.replace("::", ".").split(".")
        found = [p for p in self.by_name.get(parts[-1], ()) if p.role == "helper"
                 and p.path == path and (p.owner is None or p.owner in parts[:-1])]
        return found[0] if len(found) == 1 else None

    def _apply(self, producer: Producer, call: Call, depth: int,
               visiting: frozenset[Producer]) -> list[Composed] | None:
        if producer.is_class and not producer.results:
            for base in producer.bases:  # a class that only names its base prints the base's
                inherited = self._compose(
                    Call(base, call.args, call.keywords, producer.owner, producer.path),
                    depth + 1, visiting)
                if inherited is not None:
                    return [replace(c, error_class=producer.name) for c in inherited]
            return None
        out: list[Composed] = []
        spread = _spread(producer, call)
        for bindings in _bindings(producer, call):
            for result in producer.results:
                out.extend(self._result(producer, result, bindings, spread, depth, visiting))
                if len(out) > MAX_ALTERNATIVES:
                    break
        if len(out) > MAX_ALTERNATIVES:
            self.capped += 1
            out = out[:MAX_ALTERNATIVES]
        return _unique(out) or None

    def _result(self, producer: Producer, result: Result, bindings: dict[str, Template],
                spread: dict[str, tuple[tuple[str | None, Argument], ...]], depth: int,
                visiting: frozenset[Producer]) -> list[Composed]:
        # A producer is a source of the message only where it writes some of its text (a
        # default it fills in counts); a class that passes its message on as it is adds
        # nothing the site did not say.
        defaulted = any(bindings.get(p) is t and has_text(t) and p in _holes_of(result)
                        for p, t in producer.defaults)
        source: tuple[Source, ...] = (
            (Source(producer.path, producer.line, producer.role),)
            if defaulted or _writes_text(result) else ())
        own_class = producer.name if producer.is_class else producer.error_class
        if isinstance(result, Template):
            return [Composed(substitute(result, bindings), source, own_class)]
        inner = bind(result, bindings)
        assert isinstance(inner, Call)
        if spread or inner.callee in bindings:
            inner = _forwarded(inner, spread, bindings)
        composed = self._compose(inner, depth + 1, visiting)
        if composed is None:  # a class from elsewhere (Exception, Error): its first argument
            if not inner.args or inner.method:
                return []
            inner_class = own_class or _class_name(inner.named())
            return [Composed(t, source, inner_class) for t in inner.args[0]]
        return [Composed(c.template, (*c.sources, *source), own_class or c.error_class)
                for c in composed]


def _templates_of(result: Result) -> list[Template]:
    """What a result prints: the template, or a call's argument templates."""
    if isinstance(result, Template):
        return [result]
    return [t for arg in (*result.args, *(a for _, a in result.keywords)) for t in arg]


def _holes_of(result: Result) -> set[str | None]:
    """The names of the holes a result prints (its arguments' for a call)."""
    return {h.name for t in _templates_of(result) for h in t.holes}


def _writes_text(result: Result) -> bool:
    return any(has_text(t) for t in _templates_of(result))


_SELF = frozenset({"self", "this", "cls", "$this", "static", "Self"})


def _through_self(call: Call) -> bool:
    """``self.x()``, ``this.x()``, ``$this->x()``: a method of the caller's own class."""
    return call.callee.split(".", 1)[0].split("->", 1)[0] in _SELF


def _inherits(call: Call) -> bool:
    """A call through ``self``/``this``: it may reach a method of a base class."""
    return call.owner is not None and _through_self(call)


def _on_an_object(call: Call) -> bool:
    """``self._src.parse_error(…)``, ``parser.fail(…)``: a method of some object whose class
    the facts do not know (its receiver names no class, and is not ``self`` itself)."""
    head, dot, _ = call.callee.replace("->", ".").replace("::", ".").rpartition(".")
    if not dot or head in _SELF:
        return False
    receiver = head.rsplit(".", 1)[-1]
    return receiver[:1].islower() or receiver[:1] == "_"


def _fits(producer: Producer, call: Call) -> bool:
    """Whether a call can reach a producer at all: ``self.x()`` only its own class's
    methods, ``Owner.x()`` / ``module.x()`` a class, a function or ``Owner``'s method, a
    bare ``x()`` a class, a function or a method of the class it is written in."""
    method = producer.owner is not None and not producer.is_class
    if _through_self(call):
        return producer.owner == call.owner
    qualifier = call.qualifier()
    if qualifier is not None:
        return not method or producer.owner == qualifier
    return not method or producer.owner == call.owner


# Languages whose code calls each other's (C and C++ through headers, JavaScript and
# TypeScript, Java and Kotlin); any other language is a family of its own.
_FAMILY = {"cpp": "c", "typescript": "javascript", "tsx": "javascript", "kotlin": "java"}


def _same_family(producer: Producer, call: Call) -> bool:
    """Whether a call can reach a producer of that file's language at all: C's ``die(…)``
    never runs a Python script's ``def die(msg)`` (a call or producer of no known file:
    any)."""
    mine, theirs = _family(call.path), _family(producer.path)
    return mine is None or theirs is None or mine == theirs


@lru_cache(maxsize=4096)
def _family(path: str) -> str | None:
    language = language_for_path(path) if path else None
    return None if language is None else _FAMILY.get(language.name, language.name)


def _overload(found: list[Producer], call: Call) -> Producer | None:
    """Among overloads (one file, one owner: a class's constructors, a method's signatures,
    as C# and Java declare them), the one taking as many arguments as the call passes, else
    the fewest that take them all (the rest defaulted), else the longest (a variadic
    tail); None when they are no overloads or two fit as well."""
    if len({(p.path, p.owner) for p in found}) != 1:
        return None
    given = len(call.args) + len(call.keywords)
    fitting = [p for p in found if len(p.params) >= given]
    size = min(len(p.params) for p in fitting) if fitting else max(
        len(p.params) for p in found)
    best = [p for p in found if len(p.params) == size]
    return best[0] if len(best) == 1 else None


def _nearest(found: list[Producer], path: str) -> Producer | None:
    """The one producer whose file is nearest the caller's (same file, then the most
    folders shared): a namesake in another package is another class (imports say which)."""
    shared = [_shared_depth(p.path, path) for p in found]
    best = max(shared)
    return found[shared.index(best)] if shared.count(best) == 1 else None


def _shared_depth(a: str, b: str) -> int:
    if a == b:
        return 1 << 16  # the same file beats any folder
    depth = 0
    for x, y in zip(a.split("/")[:-1], b.split("/")[:-1], strict=False):
        if x != y:
            break
        depth += 1
    return depth


def _bindings(producer: Producer, call: Call) -> list[dict[str, Template]]:
    """Each parameter bound to an alternative of what the call passes (product, capped).
    ``*args`` / ``**kwargs`` parameters take what is left over (``_spread``)."""
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
    combos = itertools.islice(itertools.product(*choices), MAX_ALTERNATIVES + 1)
    return [dict(combo) for combo in combos]


def _positional(params: tuple[str, ...]) -> list[str]:
    """The parameters a positional argument can fill: those before a ``*args``."""
    out = []
    for param in params:
        if param.startswith("*"):
            break
        out.append(param)
    return out


def _spread(producer: Producer, call: Call) -> dict[str, tuple[tuple[str | None, Argument], ...]]:
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


def _forwarded(inner: Call, spread: dict[str, tuple[tuple[str | None, Argument], ...]],
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


def _class_name(name: str) -> str | None:
    return name if name[:1].isupper() else None


def _unique(composed: list[Composed]) -> list[Composed]:
    seen: set[str] = set()
    out = []
    for c in composed:
        key = c.template.normalized()
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


