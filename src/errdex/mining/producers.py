"""Producers, by name: what a call to one prints, composed through the producers it calls.

Once every file is read, each site that calls a producer (``raise NotFound(key)``, ``throw
Errors.create(reader, "Unexpected token {0}", tok)``, ``fail("no config")``) gets the
templates that producer prints with the call's arguments in place, followed through the
producers it calls in turn (``super(…)``, ``return Error(…)``). The same rules serve every
language (``errdex.languages.facts`` holds the facts):

* a callee is found by its last name, among producers of the caller's language family
  (``reach``): the caller's class and its bases for ``self.x``/``this.x``/``super``; the
  qualifier's class for ``ParseError::create``; the one method of that name when the
  receiver is some other object (``self._src.parse_error``); then the one namesake, or
  the one nearest the caller's file (same file, then most folders shared); overloads
  (namesakes of one file and owner) by how many arguments the call passes; two as near:
  not composed (which one runs depends on imports the facts do not hold);
* a class with no message of its own takes its base's; a class whose bases are not in the
  repository prints its first argument, as the language's own error classes do;
* ``super().m(…)`` reaches the nearest base's ``m``; a method returning a text of its
  parameters only from a call the language knows calls a method (an argument's
  ``self._format_error(value)``, composed first: ``Call.nested``); ``self.<name>`` holes
  are spelled out for the class ``self`` is (``errdex.mining.attributes``), the arguments
  where the call is made; which namesake is reached: ``errdex.mining.nearest``;
* depth is bounded (``MAX_DEPTH``), results are memoized per (producer, arguments, class
  of ``self``), a cycle is cut, and a site keeps at most ``MAX_ALTERNATIVES`` templates
  (the cut is counted).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace

from errdex.languages.facts import (
    FORMAT,
    MAX_ALTERNATIVES,
    Argument,
    Call,
    Producer,
    Result,
    bind,
    has_text,
    message_reference,
    module_table,
    substitute,
    table_key,
    unknown,
    with_constants,
)
from errdex.mining.attributes import evaluate, expanded, overrides, spell_call, spell_self
from errdex.mining.binding import bindings_of, forwarded, spread_of
from errdex.mining.nearest import nearest, overload, same_family, typed_results
from errdex.mining.reach import fits, inherits, on_an_object, super_method, through_self
from errdex.templates.template import Literal, Template

MAX_DEPTH = 6
# What a producer holds, not what a call runs: never a call's callee.
_DATA_ROLES = frozenset({"field", "attribute", "table"})


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
    error_code: str | None = None  # what the class it makes sets (``Producer.error_code``)
    http_status: int | None = None


@dataclass
class Producers:
    """Every producer of a repository, by last name, and what composing cost."""

    by_name: dict[str, list[Producer]] = field(default_factory=dict)
    capped: int = 0  # sites whose alternatives were cut to ``MAX_ALTERNATIVES``
    _memo: dict[tuple[Producer, tuple[object, ...], str | None], list[Composed] | None] = field(
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
        named = {h.name: h for h in composed.template.holes if h.name}  # each name once
        for hole in named.values():
            key = table_key(hole)
            if key is not None and hole.name is not None:
                entries = (self._module_entries(key, path) if module_table(hole)
                           else self._table_entries(key, owner, path))
                if entries:
                    choices.append([(hole.name, t) for entry in entries for t in entry.results
                                    if isinstance(t, Template)][:MAX_ALTERNATIVES])
                    sources.append(Source(entries[0].path, entries[0].line, entries[0].role))
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
            out = [replace(composed, template=substitute(composed.template, dict(combo)),
                           sources=(*composed.sources, *sources)) for combo in combos]
        # ``self.error``: what the field or class attribute of the site's class holds
        out = [replace(c, template=t, sources=(*_sources(written), *c.sources)) for c in out
               for t, written in spell_self(self, c.template, owner, path)][:MAX_ALTERNATIVES]
        constants = self.constants()
        return [replace(c, template=t)
                if (t := with_constants(c.template, constants)) is not None else c
                for c in out]

    def _module_entries(self, key: str, path: str) -> list[Producer]:
        """The ``key`` entries of the message tables of ``path``'s module (``MESSAGES = {…}``
        at the top of a file; a table of another module depends on imports)."""
        return [p for p in self.by_name.get(key, ()) if p.role == "table" and p.owner is None
                and p.path == path]

    def _with_tables(self, made: list[Composed], path: str) -> list[Composed]:
        """``made`` with each hole that prints an entry of a table of the producer's module
        (``MESSAGES[code]`` given ``'locked'``) spelled out: one alternative per text."""
        out: list[Composed] = []
        for c in made:
            choices: list[list[tuple[str, Template]]] = []
            sources: list[Source] = []
            for hole in {h.name: h for h in c.template.holes if h.name}.values():
                key = table_key(hole)
                entries = self._module_entries(key, path) if (
                    key is not None and module_table(hole)) else []
                texts = [(hole.name or "", t) for e in entries for t in e.results
                         if isinstance(t, Template)]
                if texts:
                    choices.append(texts)
                    sources.append(Source(entries[0].path, entries[0].line, entries[0].role))
            if not choices:
                out.append(c)
                continue
            out.extend(replace(c, template=substitute(c.template, dict(combo)),
                               sources=(*c.sources, *sources))
                       for combo in itertools.islice(itertools.product(*choices),
                                                     MAX_ALTERNATIVES))
        return out[:MAX_ALTERNATIVES] if len(out) > len(made) else out

    def _table_entry(self, key: str, owner: str | None, path: str) -> Producer | None:
        """The ``key`` entry of the message table of ``owner`` or its nearest base that has
        one (``default_error_messages`` merged down a field's classes)."""
        entries = [p for p in self.by_name.get(key, ()) if p.role == "table"]
        for name in self.chain(owner, path) if entries else ():
            here = [p for p in entries if p.owner == name]
            if here:
                return nearest(here, path)
        return None

    def _table_entries(self, key: str, owner: str | None, path: str) -> list[Producer]:
        """The ``key`` entry ``_table_entry`` finds, and those of subclasses of ``owner``
        that override it (``self`` may be an object of any of them)."""
        entry = self._table_entry(key, owner, path)
        if entry is None or owner is None:
            return []
        return [entry, *overrides(self, entry, owner, path)]

    def marks(self, error_class: str, path: str) -> tuple[str | None, int | None]:
        """The error code and HTTP status a class or its nearest base sets."""
        code: str | None = None
        status: int | None = None
        for name in self.chain(error_class.rsplit(".", 1)[-1], path):
            found = self.find(Call(name, path=path))
            if found is not None and found.is_class:
                code = code or found.error_code
                status = status or found.http_status
        return code, status

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
        inherited_name = super_method(call.callee)
        if inherited_name is not None:  # ``super()._format_error(v)``
            method = self._base_method(call, inherited_name, outside)
            if method is not None:
                return method
        if name == "super" or call.callee.startswith("super"):
            return self._base_of(call)
        # ``outside`` is most often empty: a producer's hash is then not worth computing
        found = [p for p in self.by_name.get(name, ()) if (not outside or p not in outside)
                 and p.role not in _DATA_ROLES and (call.method or not _formats(p))
                 and (p.is_class or not call.constructs)]
        if not found:
            return None
        base = call.owner if inherits(call) else call.qualifier()  # ``Sub::create``: a base's
        inherited = [p for p in found if base and p.owner not in (None, base) and not p.is_class]
        delegated = [p for p in found if on_an_object(call) and p.owner is not None
                     and not p.is_class and same_family(p, call)]
        found = [p for p in found if fits(p, call) and same_family(p, call)]
        if not found and inherited:  # ``self.make_error`` defined in a base class
            found = self.nearest_in_chain(inherited, base, call.path)
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
        by_arguments = overload(found, call)
        if by_arguments is not None:
            return by_arguments
        return nearest(found, call.path)

    def chain(self, owner: str | None, path: str) -> list[str]:
        """``owner`` and its bases in the repository, nearest first (bounded)."""
        out: list[str] = []
        name = owner
        while name and name not in out and len(out) <= MAX_DEPTH:
            out.append(name)
            cls = self.find(Call(name, path=path))
            name = cls.bases[0] if cls is not None and cls.is_class and cls.bases else None
        return out

    def _base_method(self, call: Call, name: str, outside: frozenset[Producer]
                     ) -> Producer | None:
        """The method ``name`` of the nearest base of the caller's class that has one."""
        methods = [p for p in self.by_name.get(name, ()) if not p.is_class and p not in outside
                   and p.role not in _DATA_ROLES and (call.method or not _formats(p))
                   and p.owner != call.owner]
        found = self.nearest_in_chain(methods, call.owner, call.path)
        return found[0] if found else None

    def nearest_in_chain(self, found: list[Producer], owner: str | None, path: str
                         ) -> list[Producer]:
        """Of ``found``, the one of ``owner`` or its nearest base that has one (of namesake
        classes in two files, the caller's nearest); [] when none."""
        for name in self.chain(owner, path) if found else ():
            here = [p for p in found if p.owner == name]
            if here:
                return [nearest(here, path) or here[0]]
        return []

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
        return self._compose(call, 0, frozenset(), call.owner)

    def _compose(self, call: Call, depth: int, visiting: frozenset[Producer],
                 context: str | None) -> list[Composed] | None:
        """What ``call`` prints, made where ``self`` is a ``context`` object."""
        if call.nested:
            return self._nested(call, depth, visiting, context)
        call, written = spell_call(self, call, context)
        producer = self.find(call, visiting)  # never one it is made from: cycles end here
        if producer is None or depth > MAX_DEPTH:
            return None
        this = _this(producer, call, context)
        key = (producer, (call.args, call.keywords, call.types), this)
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = None  # a cycle through the memo composes nothing
        composed = self._apply(producer, call, depth, visiting | {producer}, this)
        if composed and written:  # the arguments' texts, written in fields or attributes
            composed = [replace(c, sources=(*_sources(written), *c.sources)) for c in composed]
        self._memo[key] = composed
        if composed and producer.role == "helper":
            self.reached.setdefault(producer, []).extend(composed)
        return composed

    def variants(self, call: Call, depth: int = 0, visiting: frozenset[Producer] = frozenset(),
                 context: str | None = None) -> list[tuple[Call, tuple[Source, ...]]]:
        """``call`` once per choice of what its arguments' calls print (an argument whose
        call composes nothing stays the hole it was), itself when it has none; each with
        where what those calls print is written."""
        if not call.nested:
            return [(call, ())]
        texts: list[list[tuple[Template, tuple[Source, ...]]]] = []
        for name, inner in call.nested:
            got = self._compose(replace(inner, path=inner.path or call.path), depth + 1,
                                visiting, context or call.owner)
            texts.append([(c.template, c.sources) for c in got or []]
                         or [(unknown(name), ())])
        return [(variant, tuple(s for found in sources for s in found))
                for variant, sources in expanded(call, texts)]

    def _nested(self, call: Call, depth: int, visiting: frozenset[Producer],
                context: str | None) -> list[Composed] | None:
        out: list[Composed] = []
        for variant, sources in self.variants(call, depth, visiting, context):
            out.extend(replace(c, sources=(*sources, *c.sources))
                       for c in self._compose(variant, depth, visiting, context) or [])
        return _unique(out) or None

    def helper_at(self, path: str, symbol: str | None) -> Producer | None:
        """The helper a site is written in (by file and enclosing symbol), if it is one."""
        if not symbol:
            return None
        parts = symbol.replace("::", ".").split(".")
        found = [p for p in self.by_name.get(parts[-1], ()) if p.role == "helper"
                 and p.path == path and (p.owner is None or p.owner in parts[:-1])]
        return found[0] if len(found) == 1 else None

    def _apply(self, producer: Producer, call: Call, depth: int,
               visiting: frozenset[Producer], this: str | None) -> list[Composed] | None:
        if producer.is_class and not producer.results:
            for base in producer.bases:  # a class that only names its base prints the base's
                inherited = self._compose(
                    Call(base, call.args, call.keywords, producer.owner, producer.path),
                    depth + 1, visiting, this)
                if inherited is not None:
                    return [_marked(replace(c, error_class=producer.name), producer)
                            for c in inherited]
            return None
        out: list[Composed] = []
        spread = spread_of(producer, call)
        for bindings in bindings_of(producer, call):
            given = bindings.get(producer.error_code_from or "")
            code = given.written if given is not None and not given.holes and (
                0 < len(given.written) <= 100) else None  # ``code='missing-annotation'``
            for result in typed_results(producer, call):
                made = self._result(producer, result, bindings, spread, depth, visiting, this)
                out.extend(replace(c, error_code=code) if code else c for c in made)
                if len(out) > MAX_ALTERNATIVES:
                    break
        if len(out) > MAX_ALTERNATIVES:
            self.capped += 1
            out = out[:MAX_ALTERNATIVES]
        return _unique(out) or None

    def _result(self, producer: Producer, result: Result, bindings: dict[str, Template],
                spread: dict[str, tuple[tuple[str | None, Argument], ...]], depth: int,
                visiting: frozenset[Producer], this: str | None) -> list[Composed]:
        made = self._made(producer, result, bindings, spread, depth, visiting, this)
        return self._with_tables(made, producer.path)

    def _made(self, producer: Producer, result: Result, bindings: dict[str, Template],
              spread: dict[str, tuple[tuple[str | None, Argument], ...]], depth: int,
              visiting: frozenset[Producer], this: str | None) -> list[Composed]:
        # A producer is a source of the message only where it writes some of its text (a
        # default it fills in counts); a class that passes its message on as it is adds
        # nothing the site did not say.
        defaulted = any(bindings.get(p) is t and has_text(t) and p in _holes_of(result)
                        for p, t in producer.defaults)
        source: tuple[Source, ...] = (
            (Source(producer.path, producer.line, producer.role),)
            if defaulted or _writes_text(result) or producer.level else ())  # a log level
        own_class = producer.name if producer.is_class else producer.error_class
        if isinstance(result, Template):
            return [_marked(Composed(t, (*_sources(written), *source), own_class), producer)
                    for t, written in
                    spell_self(self, substitute(result, bindings), this, producer.path)]
        inner = bind(result, bindings)
        assert isinstance(inner, Call)
        if spread or inner.callee in bindings:
            inner = forwarded(inner, spread, bindings)
        if inner.callee == FORMAT:  # a text formatted at run time, once it is known
            return [_marked(Composed(t, (*_sources(written), *source), own_class), producer)
                    for t, written in evaluate(self, inner, this, producer.path)]
        composed = self._compose(inner, depth + 1, visiting, this)
        if composed is None:  # a class from elsewhere (Exception, Error): its first argument,
            if inner.method and not inner.makes_error:  # or its first worded one when that
                return []  # has none (``BinderException(extra_info, Format("…", c))``)
            inner_class = own_class or class_name(inner.named())
            return [_marked(Composed(t, (*found, *source), inner_class), producer)  # its calls'
                    for v, found in self.variants(inner, depth + 1, visiting, this)
                    for t in printed_argument(replace(v, makes_error=True))]
        return [_marked(replace(c, sources=(*c.sources, *source),
                                error_class=own_class or c.error_class), producer)
                for c in composed]


def printed_argument(call: Call) -> Argument:
    """What an error from elsewhere prints of a call: its first argument; for a call the
    language says makes an error, the first that has words when the first has none
    (``PyErr_SetString(exc, "…")``, ``luaL_error(L, "…")``, ``g_set_error(e, D, C, "…")``)."""
    if not call.args:
        return ()
    if call.makes_error and not any(_has_words(t) for t in call.args[0]):
        worded = next((a for a in call.args[1:] if any(_has_words(t) for t in a)), None)
        if worded is not None:
            return worded
    return call.args[0]


def _has_words(template: Template) -> bool:
    return any(isinstance(p, Literal) and any(c.isalpha() for c in p.text)
               for p in template.parts)


def _sources(written: tuple[tuple[str, int, str], ...]) -> tuple[Source, ...]:
    """Where spelled-out fields and attributes are written, each place once."""
    return tuple(dict.fromkeys(Source(*w) for w in written))


def _marked(composed: Composed, producer: Producer) -> Composed:
    """``composed`` with the code and status its producer sets (a class's own win over
    those of the class it passes its message to)."""
    if producer.error_code is None and producer.http_status is None:
        return composed
    return replace(composed, error_code=producer.error_code or composed.error_code,
                   http_status=producer.http_status or composed.http_status)


def _formats(producer: Producer) -> bool:
    """A method that returns a text made of its parameters (``_format_error(value)``):
    only a call the language knows calls a method reaches it, never an error's class."""
    return producer.role == "message" and bool(producer.params)


def _this(producer: Producer, call: Call, context: str | None) -> str | None:
    """The class ``self`` is an object of inside ``producer``: the caller's for a call
    through ``self``/``super``, the class being made for a constructor, else the method's."""
    if through_self(call) or call.callee.startswith("super"):
        return context or call.owner
    return producer.name if producer.is_class else producer.owner


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


def class_name(name: str) -> str | None:
    """A name that spells a class (capitalised), else None."""
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


