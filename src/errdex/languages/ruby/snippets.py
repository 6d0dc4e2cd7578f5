"""How Ruby writes the enrichment's code fields: ``if``/``else``, a ``can_<name>?``
method, ``begin``/``rescue``."""

from __future__ import annotations

from errdex.languages._engine.snippets import Snippets, TryFacts, guard_function


def _validation(condition: str, note: str, call: str) -> str:
    return f"if {condition}\n  # {note}\nelse\n  {call}\nend"


def _try_catch(at: TryFacts) -> str:
    body = at.call or "# …"
    return f"begin\n  {body}\nrescue {at.error_class} => e\n  # {at.note}\nend"


SNIPPETS = Snippets(
    default_class="StandardError", comment="#", terminated=False, validation=_validation,
    type_guard=guard_function("# {doc}\ndef can_{name}?({names})\n  {neg}\nend"),
    try_catch=_try_catch, snake_case=True,
)
