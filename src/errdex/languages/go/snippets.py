"""How Go writes the enrichment's code fields: ``if``/``else``, a ``camelCase`` guard
function, and, for want of ``try``, ``if err := call; check`` or a deferred ``recover``."""

from __future__ import annotations

from errdex.languages._engine.snippets import (
    Snippets,
    TryFacts,
    braced_if,
    guard_function,
    words,
)


def _try(at: TryFacts) -> str | None:
    """A panic is recovered in a deferred function; an error is checked where it is
    returned (``errors.Is`` for a sentinel ``ErrX``, else ``err != nil``)."""
    facts, note, call = at.facts, at.note, at.call
    if facts.error_type == "panic":
        return (f"defer func() {{\n\tif r := recover(); r != nil {{\n\t\t// {note}\n\t}}\n}}()"
                f"\n{call}")
    if not call:
        return None
    check = f"errors.Is(err, {facts.error_class})" if (facts.error_class or "").rpartition(
        ".")[2].startswith("Err") else "err != nil"
    return f"if err := {call}; {check} {{\n\t// {note}\n}}"


SNIPPETS = Snippets(
    wrap={"statements": "package p\nfunc __errdex() {\n%s\n}", "member": "package p\n%s"},
    terminated=False, validation=braced_if,
    type_guard=guard_function("// {doc}\nfunc {camel}({params}) bool {{\n\treturn {neg}\n}}"),
    try_catch=_try,
    library=words("""
        errors fmt Is As New Errorf Unwrap Sprintf Printf Println len cap append make nil error
        string int bool recover panic strings strconv os io"""),
)
