"""What a JVM exception class prints, merged from its constructors and message override.

Java and Kotlin declare an exception class differently (``super(..)`` in a constructor,
``: Base(..)`` after a primary constructor) but print its message the same way: the
message the constructor hands its base, unless ``getMessage()`` / ``message`` is
overridden, which may decorate the base's message (``"[" + code + "] " +
super.getMessage()``). Both readers gather a class's ``ClassFacts`` and this module
makes the one ``Producer`` the class is: composition finds a class by its name, so the
constructors (overloads) are merged into one.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from tree_sitter import Node

from errdex.languages._engine import Message
from errdex.languages._jvm.libraries import (
    literal_message,
    message_format,
    printf_message,
    slf4j_message,
)
from errdex.languages.base import line_of, text
from errdex.languages.facts import (
    MAX_ALTERNATIVES,
    Argument,
    Call,
    Producer,
    Result,
    has_text,
    substitute,
)
from errdex.templates.template import Hole, Literal, Part, Template

# The hole a message override reads its base's message with (``super.getMessage()`` in
# Java, ``super.message`` in Kotlin): replaced by what the constructor hands the base.
SUPER_MESSAGE = "super.message"
THIS = "this"  # a constructor delegating to a sibling (``this(key, 0)``)

# JDK exceptions a repository does not define: ``throw new IllegalStateException(msg(k))``
# prints what ``msg`` returns, so such a site calls ``msg`` rather than the class.
JDK_EXCEPTIONS = frozenset({
    "Exception", "RuntimeException", "Error", "Throwable", "IllegalArgumentException",
    "IllegalStateException", "UnsupportedOperationException", "NullPointerException",
    "IndexOutOfBoundsException", "ArrayIndexOutOfBoundsException", "NoSuchElementException",
    "ArithmeticException", "ClassCastException", "NumberFormatException", "SecurityException",
    "AssertionError", "IOException", "UncheckedIOException", "FileNotFoundException",
    "TimeoutException", "ExecutionException", "InterruptedException", "CancellationException",
    "ConcurrentModificationException", "DateTimeException", "NotImplementedError",
    "KotlinNullPointerException", "NoSuchFileException", "InvalidPathException",
})


@dataclass(frozen=True)
class Constructor:
    """One constructor: its parameters and what it hands its base (or a sibling)."""

    params: tuple[str, ...]
    results: tuple[Result, ...]
    fields: tuple[tuple[str, str], ...] = ()  # (field, the parameter assigned to it)
    private: bool = False  # only the class itself calls it (through ``this(..)``)
    types: tuple[str | None, ...] = ()  # the parameters' declared types, where read


@dataclass
class ClassFacts:
    """What one class declaration says about its message."""

    name: str
    bases: tuple[str, ...]
    path: str
    line: int
    owner: str | None = None
    constructors: list[Constructor] = field(default_factory=list)
    override: list[Template] = field(default_factory=list)  # getMessage() / message


def class_producers(facts: ClassFacts) -> list[Producer]:
    """The class as one producer per number of constructor parameters: composition picks
    the one a call's arguments fit (``new Timeout(op)`` / ``new Timeout(op, ms)``)."""
    constructors = _inlined(facts.constructors)
    arities = sorted({len(c.params) for c in constructors})
    groups = [[c for c in constructors if len(c.params) == a] for a in arities] or [[]]
    made = [_producer_of(facts, group) for group in groups]
    return [p for p in made if p is not None]


def class_producer(facts: ClassFacts) -> Producer | None:
    """The class as one producer; None when it says nothing of its message."""
    return _producer_of(facts, _inlined(facts.constructors))


def _producer_of(facts: ClassFacts, constructors: list[Constructor]) -> Producer | None:
    params, results, types = _merged(constructors)
    role = "class message"
    if facts.override:
        types = []  # the override's templates are not the constructors' results
        decorated = _decorated(facts, _fields(constructors, params), results)
        if any(SUPER_MESSAGE in _names(t) for t in facts.override) and results:
            role = "class decoration"
        results = decorated
    if not facts.bases and not results:
        return None
    return Producer(facts.name, params, tuple(results), role, facts.path, facts.line,
                    facts.owner, facts.bases, is_class=True,
                    result_types=tuple(types) if len({*types}) > 1 else ())


def _names(template: Template) -> set[str]:
    return {h.name for h in template.holes if h.name}


def _inlined(constructors: list[Constructor], depth: int = 0) -> list[Constructor]:
    """``this(key, 0)`` replaced by what the sibling taking that many arguments hands up."""
    out = []
    for ctor in constructors:
        results: list[Result] = []
        for result in ctor.results:
            if not (isinstance(result, Call) and result.callee == THIS):
                results.append(result)
                continue
            given = len(result.args) + len(result.keywords)
            sibling = next((c for c in constructors if c is not ctor
                            and len(c.params) == given), None)
            if sibling is None or depth > 2:
                continue
            inner = _inlined([sibling], depth + 1)[0] if any(
                isinstance(r, Call) and r.callee == THIS for r in sibling.results) else sibling
            for bindings in _products(sibling.params, result):
                results.extend(bound(r, bindings) for r in inner.results)
        out.append(replace(ctor, results=tuple(results[:MAX_ALTERNATIVES])))
    return out


def _products(params: Sequence[str], call: Call) -> list[dict[str, Template]]:
    """The sibling's parameters bound to what ``this(..)`` passes, by position or name."""
    given = dict(zip(params, call.args, strict=False)) | {
        k: v for k, v in call.keywords if k in params}
    choices = [[(p, t) for t in arg] for p, arg in given.items() if arg]
    combos = itertools.islice(itertools.product(*choices), 4)
    return [dict(c) for c in combos]


def _carries(result: Result) -> bool:
    """A constructor result that hands a message up (``super()`` / ``super(cause)`` alone
    do not: a message their base makes up is the base's)."""
    return isinstance(result, Template) or bool(result.args)


def _merged(constructors: list[Constructor]
            ) -> tuple[tuple[str, ...], list[Result], list[tuple[str | None, ...]]]:
    """The parameters and results of the class: those of its first constructor that hands
    a message up, with the other constructors of that many parameters as alternatives
    (their parameters renamed by position), and each result's constructor's parameter
    types. Composition finds a class by its name, not by how many arguments a call
    passes, so one arity stands for all; the types tell a call's constructor apart."""
    useful = [c for c in constructors if any(_carries(r) for r in c.results)]
    useful = [c for c in useful if not c.private] or useful
    if not useful:  # ``super()`` alone: the base's own message, if it makes one up
        return (constructors[0].params, list(constructors[0].results),
                [constructors[0].types] * len(constructors[0].results)) if constructors else (
            (), [], [])
    first = useful[0]
    results: list[Result] = []
    types: list[tuple[str | None, ...]] = []
    for ctor in useful:
        if len(ctor.params) != len(first.params):
            continue
        for renamed in _renamed_to(first.params, ctor.params, ctor.results):
            if renamed not in results:
                results.append(renamed)
                types.append(ctor.types)
    return first.params, results[:MAX_ALTERNATIVES], types[:MAX_ALTERNATIVES]


def _fields(constructors: list[Constructor], params: tuple[str, ...]) -> dict[str, str]:
    """Each field set from a parameter, named after the class's parameter at its position
    (``this.key = key``: ``key`` and ``this.key`` print the parameter ``key``)."""
    fields: dict[str, str] = {}
    for ctor in constructors:
        for name, param in ctor.fields:
            position = ctor.params.index(param) if param in ctor.params else len(params)
            if position < len(params) and name not in fields:
                fields[name] = fields[f"this.{name}"] = params[position]
    return fields


def _decorated(facts: ClassFacts, fields: dict[str, str], results: list[Result]
               ) -> list[Result]:
    """The override's templates, fields named after the parameters they hold and the
    base's message replaced by what the constructor hands up."""
    handed: list[Template] = []
    for result in results:
        if isinstance(result, Template):
            handed.append(result)
        elif result.args:
            handed.extend(result.args[0])
    out: list[Result] = []
    for template in facts.override:
        template = renamed(template, fields)
        if SUPER_MESSAGE not in _names(template) or not handed:
            out.append(template)
            continue
        out.extend(substitute(template, {SUPER_MESSAGE: h}) for h in handed)
    return out[:MAX_ALTERNATIVES]


def renamed(template: Template, names: dict[str, str]) -> Template:
    """``template`` with its holes named in ``names`` renamed (a field for the parameter
    it holds, a parameter for the first constructor's at its position)."""
    if not any(isinstance(p, Hole) and p.name in names for p in template.message):
        return template
    message: list[Part] = []
    for part in template.message:
        if isinstance(part, Hole) and part.name in names:
            new = names[part.name]
            part = replace(part, name=new, spec=part.spec.replace(part.name, new))
        message.append(part)
    written = "".join(p.text if isinstance(p, Literal) else p.spec for p in message)
    return Template(written, tuple(message), template.prefix, template.suffix)


def _renamed_to(params: tuple[str, ...], own: tuple[str, ...], results: Iterable[Result]
                ) -> list[Result]:
    """An overload's ``results`` with its parameters (``own``) renamed to ``params`` by
    position: the merged producer's holes are named after its first overload's."""
    renames = {p: q for p, q in zip(own, params, strict=True) if p != q}
    return [renamed_result(r, renames) for r in results] if renames else list(results)


def renamed_result(result: Result, names: dict[str, str]) -> Result:
    return _each_template(result, lambda t: renamed(t, names))


def bound(result: Result, bindings: dict[str, Template]) -> Result:
    """A result with its parameter holes filled by what a call passes."""
    return _each_template(result, lambda t: substitute(t, bindings))


def _each_template(result: Result, change: Callable[[Template], Template]) -> Result:
    """``result`` with ``change`` made to it, or to each of a call's argument templates."""
    if isinstance(result, Template):
        return change(result)
    return replace(result, args=tuple(tuple(change(t) for t in arg) for arg in result.args),
                   keywords=tuple((k, tuple(change(t) for t in arg))
                                  for k, arg in result.keywords))


_PRINTF = re.compile(r"%(?:\d+\$)?[-#+ 0,(<]*\d*(?:\.\d+)?[a-zA-Z]")
_INDEXED = re.compile(r"\{\d+(?:,[^}]*)?\}")


def formatted(args: Sequence[Argument], texts: Sequence[str]) -> tuple[Argument, ...]:
    """A call's arguments with a format string followed by its values read as it prints
    once formatted (``Errors.create("Unexpected token {0}", tok)``, ``fail("bad %s", x)``):
    a producer that formats its parameter (``String.format(format, args)``) prints it so.
    The dialect is the one the text is written in: ``%s``, ``{0}``, else ``{}``."""
    out = list(args)
    for i, arg in enumerate(args[:-1]):
        literals = [t.parts[0].text for t in arg if len(t.parts) == 1 and isinstance(
            t.parts[0], Literal)]
        if len(literals) != 1 or len(arg) != 1:
            continue
        text, rest = literals[0], list(texts[i + 1:])
        base = literal_message(text)
        message: Message | None = None
        if _PRINTF.search(text):
            message = printf_message(base, rest)
        elif _INDEXED.search(text):
            message = message_format(base, rest)
        elif "{}" in text:
            message = slf4j_message(base, rest, False)
        if message is not None:
            out[i] = (message.template(),)
            break
    return tuple(out)


_FORMAT_CALL = re.compile(
    r"(?:(?:String|MessageFormat)\.format\(\s*(?:Locale\.\w+\s*,\s*)?(\w+)\s*[,)]"
    r"|(\w+)\.(?:formatted|format)\()")


def format_holes(template: Template) -> Template:
    """Holes spelled as formatting a variable (``MessageFormat.format(pattern, args)``)
    named after it: a factory prints the format its caller passes, formatted."""
    names = {}
    for hole in template.holes:
        found = _FORMAT_CALL.match(hole.name or "")
        if found and (found.group(1) or found.group(2)) not in ("String", "MessageFormat"):
            names[hole.name or ""] = found.group(1) or found.group(2)
    return renamed(template, names) if names else template


def uses(template: Template, params: Sequence[str]) -> bool:
    """Whether a template prints one of the parameters (it decorates what it is given)."""
    return any(h.name in params for h in template.holes)


def passes(call: Call, params: Sequence[str]) -> bool:
    """Whether a call hands on one of the parameters (a helper decorates what it is given)."""
    return any(uses(t, params) for arg in call.args for t in arg)


def capped(templates: Sequence[Template]) -> tuple[Template, ...]:
    """At most ``MAX_ALTERNATIVES`` distinct templates, in order."""
    out: list[Template] = []
    for t in templates:
        if t not in out:
            out.append(t)
    return tuple(out[:MAX_ALTERNATIVES])


T = TypeVar("T")


def every_alternative(values: Iterable[T], read: Callable[[T], Sequence[Template]]
                      ) -> list[Template]:
    """Each value's alternatives in order, capped: a variable assigned in branches prints
    one of them; none when a value has none (then which it prints is not known)."""
    out: list[Template] = []
    for value in values:
        found = read(value)
        if not found:
            return []
        out.extend(found)
    return list(capped(out))


def unparenthesized(node: Node | None) -> Node | None:
    """``node`` without the parentheses around it: ``(a ? b : c)`` has the ternary's branches."""
    while node is not None and node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node


def message_method(name: str, results: Sequence[Template], node: Node, owner: str | None,
                   path: str) -> list[Producer]:
    """A method without parameters returning text (``String where()``): what a hole that
    calls it prints in a message of its class, each return an alternative; none when no
    return has text of its own."""
    if not any(has_text(t) for t in results):
        return []
    return [Producer(name, (), tuple(results), "message", path, line_of(node), owner)]


def fields_set(statements: Iterable[Node], params: Sequence[str], wrappers: Collection[str],
               member: str, field_name: str) -> tuple[tuple[str, str], ...]:
    """``this.key = key;``: each field a constructor's statements (of ``wrappers`` types)
    set to a parameter, with it; a ``member`` access names its field by ``field_name``."""
    fields = []
    for statement in statements:
        assignment = statement.named_children[0] if (
            statement.type in wrappers and statement.named_children) else None
        if assignment is None or assignment.type != "assignment_expression":
            continue
        left, right = (assignment.child_by_field_name("left"),
                       assignment.child_by_field_name("right"))
        if left is not None and right is not None and text(right) in params:
            field = text(left.child_by_field_name(field_name)) if left.type == member else (
                text(left))
            fields.append((field, text(right)))
    return tuple(fields)


def one_per_signature(found: list[Producer]) -> list[Producer]:
    """Of a class's methods of one name taking as many parameters (``create(Code code)``
    and a deprecated ``create(int code)`` that only calls it), one: those that only hand
    on to a namesake print what it prints, and composition, seeing the number of
    arguments but not always their types, would tell no such pair apart. A method that
    says something of its own wins; among those that only hand on, the first declared,
    holding the others' results too when their parameter types differ (``Throw.X(IJobDetail
    job)`` and ``Throw.X(ITrigger trigger)``, each making the class's constructor of its
    type): a call whose argument types are known reaches its own."""
    groups: dict[tuple[str, str | None, int], list[Producer]] = {}
    for producer in found:
        if not producer.is_class and producer.role != "constant":
            key = (producer.name, producer.owner, len(producer.params))
            groups.setdefault(key, []).append(producer)
    dropped: set[int] = set()
    merged: dict[int, Producer] = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        handing = [p for p in group if all(isinstance(r, Call) and r.named() == p.name
                                           for r in p.results)]
        own = [p for p in group if p not in handing]
        keep = own if own else handing[:1]
        dropped.update(id(p) for p in handing if p not in keep)
        if not own and len({p.param_types for p in handing}) == len(handing) and all(
                p.param_types and None not in p.param_types for p in handing):
            merged[id(keep[0])] = _typed_overloads(handing)
    return [merged.get(id(p), p) for p in found if id(p) not in dropped]


def _typed_overloads(overloads: list[Producer]) -> Producer:
    """Overloads of one arity as the first of them, each one's results renamed to its
    parameters by position and marked with its parameter types."""
    first = overloads[0]
    results: list[Result] = []
    types: list[tuple[str | None, ...]] = []
    for producer in overloads:
        for result in _renamed_to(first.params, producer.params, producer.results):
            results.append(result)
            types.append(producer.param_types)
    return replace(first, results=tuple(results[:MAX_ALTERNATIVES]),
                   result_types=tuple(types[:MAX_ALTERNATIVES]))
