"""What a language tells the enrichment's code fields: how its snippets are written.

``enrich/code.py`` builds validationCode, typeGuard and tryCatchPattern from a record's
real names and evidence (``CodeFacts``) and drops any snippet that does not parse; a
language's ``Snippets`` (on its spec) write each one in that language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

Context = Literal["statements", "member"]


@dataclass
class CodeFacts:
    """What the snippets may name: everything here was read from the repository."""

    language: str
    grammar: str
    error_type: str
    error_class: str | None
    message: str
    pattern: str
    function: str | None = None  # the enclosing function's own name
    call: str | None = None  # built from the signature: the parameters' own names
    test_call: str | None = None  # a real call, from a linked test
    condition: str | None = None  # when the site fires
    negated: str | None = None  # what a caller must make true
    declarations: list[str] = field(default_factory=list)  # parameters used by ``negated``
    parameters: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class GuardFacts:
    """A type guard's parts: ``can_<name>``/``can<Name>``, its doc line, the parameters
    it takes (as declared, and their bare names) and the expression it returns."""

    name: str
    camel: str
    doc: str
    declarations: list[str]
    used: list[str]
    negated: str


@dataclass(frozen=True)
class TryFacts:
    """A try/catch pattern's parts: the record's facts, the comment body, the statement
    that may fail (empty when none is known) and the class to catch."""

    facts: CodeFacts
    note: str
    call: str
    error_class: str | None


@dataclass(frozen=True)
class Snippets:
    """How one language writes the three code fields.

    ``wrap``: where a snippet goes to be parsed (``%s``: the snippet), by context.
    ``comment``: the line-comment marker. ``terminated``: a call statement ends with
    ``;``. ``no_call``: what stands for a call that is not known (default: a comment).
    ``validation``: (condition, note, call) → ``if`` code. ``type_guard`` and
    ``try_catch`` build the other two (None: the language has none). ``snake_case``:
    a variable is named ``ctc_loss`` (else ``ctcLoss``); ``library``: names of the standard
    library a snippet may use (the LLM check accepts them); ``associated``: what joins a
    type and its function in a call without an instance (``Type::new``).
    """

    wrap: Mapping[Context, str] = field(default_factory=dict)
    default_class: str | None = None
    comment: str = "//"
    terminated: bool = True
    no_call: str | None = None
    validation: Callable[[str, str, str], str] | None = None
    type_guard: Callable[[GuardFacts], str | None] | None = None
    try_catch: Callable[[TryFacts], str | None] | None = None
    snake_case: bool = False
    associated: str = "."
    library: frozenset[str] = frozenset()


def braced_if(condition: str, note: str, call: str) -> str:
    """``if cond { … } else { call }`` (Rust, Go, Swift)."""
    return f"if {condition} {{\n    // {note}\n}} else {{\n    {call}\n}}"


def c_if(condition: str, note: str, call: str) -> str:
    """``if (cond) { … } else { call }`` (the C family)."""
    return f"if ({condition}) {{\n    // {note}\n}} else {{\n    {call}\n}}"


def catch_block(template: str) -> Callable[[TryFacts], str]:
    """A try/catch whose body is the call (or a comment) and whose handler names the class:
    ``template`` formatted with ``body``, ``cls`` and ``note``."""
    def build(at: TryFacts) -> str:
        return template.format(body=at.call or "// …", cls=at.error_class, note=at.note)

    return build


def guard_function(template: str) -> Callable[[GuardFacts], str]:
    """A type guard: ``template`` formatted with ``doc``, ``name``, ``camel``, ``Camel``
    (``camel`` less its first letter), ``params`` (as declared), ``names`` (bare), ``neg``."""
    def build(guard: GuardFacts) -> str:
        return template.format(
            doc=guard.doc, name=guard.name, camel=guard.camel, Camel=guard.camel[1:],
            params=", ".join(guard.declarations), names=", ".join(guard.used),
            neg=guard.negated,
        )

    return build


def words(names: str) -> frozenset[str]:
    """A set of names written one after another (spaces, newlines)."""
    return frozenset(names.split())
