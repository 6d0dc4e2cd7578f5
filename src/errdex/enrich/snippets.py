"""Which ``Snippets`` a language has: its spec's, else the entry below.

The entries here are for languages whose folder does not yet declare its snippets on
its spec; each moves to ``languages/<lang>/`` (as Python's, Rust's and JavaScript's
have), and this table empties.
"""

from __future__ import annotations

from collections.abc import Callable

from errdex.languages import language_for_path, spec_for
from errdex.languages._engine.snippets import (
    GuardFacts,
    Snippets,
    TryFacts,
    braced_if,
    c_if,
)


def snippets_for_path(path: str) -> Snippets:
    """How the language of the file at ``path`` writes code."""
    language = language_for_path(path)
    return snippets_for(language.name) if language is not None else Snippets()


def snippets_for(language: str) -> Snippets:
    """How a language writes its code fields (none for a language errdex does not know)."""
    spec = spec_for(language)
    if spec is not None and spec.snippets.validation is not None:
        return spec.snippets
    return _NOT_IN_SPECS.get(language, Snippets())


def _catch(template: str) -> Callable[[TryFacts], str]:
    """A try/catch whose body is the call (or a comment) and whose handler names the class:
    ``template`` formatted with ``body``, ``cls`` and ``note``."""
    def build(at: TryFacts) -> str:
        return template.format(body=at.call or "// …", cls=at.error_class, note=at.note)

    return build


def _ruby_try(at: TryFacts) -> str:
    body = at.call or "# …"
    return f"begin\n  {body}\nrescue {at.error_class} => e\n  # {at.note}\nend"


def _go_try(at: TryFacts) -> str | None:
    facts, note, call = at.facts, at.note, at.call
    if facts.error_type == "panic":
        return (f"defer func() {{\n\tif r := recover(); r != nil {{\n\t\t// {note}\n\t}}\n}}()"
                f"\n{call}")
    if not call:
        return None
    check = f"errors.Is(err, {facts.error_class})" if (facts.error_class or "").rpartition(
        ".")[2].startswith("Err") else "err != nil"
    return f"if err := {call}; {check} {{\n\t// {note}\n}}"


def _guard(template: str) -> Callable[[GuardFacts], str]:
    """A type guard: ``template`` formatted with ``doc``, ``name``, ``camel``, ``Camel``
    (``camel`` less its first letter), ``params`` (as declared), ``names`` (bare), ``neg``."""
    def build(guard: GuardFacts) -> str:
        return template.format(
            doc=guard.doc, name=guard.name, camel=guard.camel, Camel=guard.camel[1:],
            params=", ".join(guard.declarations), names=", ".join(guard.used),
            neg=guard.negated,
        )

    return build


def _ruby_validation(condition: str, note: str, call: str) -> str:
    return f"if {condition}\n  # {note}\nelse\n  {call}\nend"


_C_GUARD = _guard("// {doc}\nstatic bool can_{name}({params}) {{\n    return {neg};\n}}")

_NOT_IN_SPECS: dict[str, Snippets] = {
    "go": Snippets(
        wrap={"statements": "package p\nfunc __errdex() {\n%s\n}", "member": "package p\n%s"},
        terminated=False, validation=braced_if,
        type_guard=_guard("// {doc}\nfunc {camel}({params}) bool {{\n\treturn {neg}\n}}"),
        try_catch=_go_try,
    ),
    "java": Snippets(
        wrap={"statements": "class E { void m() {\n%s\n} }", "member": "class E {\n%s\n}"},
        default_class="RuntimeException", validation=c_if,
        type_guard=_guard(
            "// {doc}\nstatic boolean {camel}({params}) {{\n    return {neg};\n}}"),
        try_catch=_catch("try {{\n    {body}\n}} catch ({cls} e) {{\n    // {note}\n}}"),
    ),
    "csharp": Snippets(
        wrap={"statements": "class E { void M() {\n%s\n} }", "member": "class E {\n%s\n}"},
        default_class="Exception", validation=c_if,
        type_guard=_guard("// {doc}\nstatic bool C{Camel}({params}) => {neg};"),
        try_catch=_catch("try {{\n    {body}\n}} catch ({cls} e) {{\n    // {note}\n}}"),
    ),
    "kotlin": Snippets(
        wrap={"statements": "fun e() {\n%s\n}", "member": "%s"},
        default_class="Exception", terminated=False, validation=c_if,
        type_guard=_guard("// {doc}\nfun {camel}({params}): Boolean = {neg}"),
        try_catch=_catch("try {{\n    {body}\n}} catch (e: {cls}) {{\n    // {note}\n}}"),
    ),
    "php": Snippets(
        wrap={"statements": "<?php\n%s", "member": "<?php\n%s"},
        default_class="\\Exception", validation=c_if,
        try_catch=_catch("try {{\n    {body}\n}} catch ({cls} $e) {{\n    // {note}\n}}"),
    ),
    "c": Snippets(
        wrap={"statements": "void e(void) {\n%s\n}", "member": "%s"},
        validation=c_if, type_guard=_C_GUARD,
    ),
    "cpp": Snippets(
        wrap={"statements": "void e() {\n%s\n}", "member": "%s"},
        default_class="std::exception", validation=c_if, type_guard=_C_GUARD,
        try_catch=_catch(
            "try {{\n    {body}\n}} catch (const {cls}& e) {{\n    // {note}\n}}"),
    ),
    "ruby": Snippets(
        default_class="StandardError", comment="#", terminated=False,
        validation=_ruby_validation,
        type_guard=_guard("# {doc}\ndef can_{name}?({names})\n  {neg}\nend"),
        try_catch=_ruby_try, snake_case=True,
    ),
    "swift": Snippets(
        default_class="Error", terminated=False, validation=braced_if,
        try_catch=_catch("do {{\n    try {body}\n}} catch {{\n    // {note}\n}}"),
    ),
}
