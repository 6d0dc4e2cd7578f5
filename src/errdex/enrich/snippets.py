"""Which ``Snippets`` a language has: its spec's, else the entry below.

The entries here are for languages whose folder does not yet declare its snippets on
its spec; each moves to ``languages/<lang>/`` (as Python's, Rust's, JavaScript's,
C's, C++'s, C#'s, Ruby's, PHP's and Swift's have), and this table empties.
"""

from __future__ import annotations

from errdex.languages import language_for_path, spec_for
from errdex.languages._engine.snippets import (
    Snippets,
    TryFacts,
    braced_if,
    c_if,
    catch_block,
    guard_function,
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


_NOT_IN_SPECS: dict[str, Snippets] = {
    "go": Snippets(
        wrap={"statements": "package p\nfunc __errdex() {\n%s\n}", "member": "package p\n%s"},
        terminated=False, validation=braced_if,
        type_guard=guard_function("// {doc}\nfunc {camel}({params}) bool {{\n\treturn {neg}\n}}"),
        try_catch=_go_try,
    ),
    "java": Snippets(
        wrap={"statements": "class E { void m() {\n%s\n} }", "member": "class E {\n%s\n}"},
        default_class="RuntimeException", validation=c_if,
        type_guard=guard_function(
            "// {doc}\nstatic boolean {camel}({params}) {{\n    return {neg};\n}}"),
        try_catch=catch_block("try {{\n    {body}\n}} catch ({cls} e) {{\n    // {note}\n}}"),
    ),
    "kotlin": Snippets(
        wrap={"statements": "fun e() {\n%s\n}", "member": "%s"},
        default_class="Exception", terminated=False, validation=c_if,
        type_guard=guard_function("// {doc}\nfun {camel}({params}): Boolean = {neg}"),
        try_catch=catch_block("try {{\n    {body}\n}} catch (e: {cls}) {{\n    // {note}\n}}"),
    ),
}
