"""Python's code fields: ``if``/``else``, a ``can_<name>`` function, ``try``/``except``
(``warnings.catch_warnings`` for a warning, ``SystemExit`` for an exit)."""

from __future__ import annotations

import builtins

from errdex.languages._engine.snippets import GuardFacts, Snippets, TryFacts, words


def _validation(condition: str, note: str, call: str) -> str:
    return f"if {condition}:\n    # {note}\n    ...\nelse:\n    {call}"


def _type_guard(guard: GuardFacts) -> str:
    plain = ", ".join(guard.declarations)  # ``mode: int = 0`` and ``*args`` stay as written
    doc = guard.doc.replace("\\", "\\\\").replace('"""', "'''")
    return f'def can_{guard.name}({plain}) -> bool:\n    """{doc}"""\n    return {guard.negated}'


def _try_catch(at: TryFacts) -> str:
    facts, note, call = at.facts, at.note, at.call
    if facts.error_type == "warning":
        category = facts.error_class or "UserWarning"
        body = call or "..."
        return (f"import warnings\n\nwith warnings.catch_warnings():\n"
                f"    warnings.simplefilter(\"error\", {category})\n    try:\n        {body}\n"
                f"    except {category} as warning:\n        # {note}\n        ...")
    cls = "SystemExit" if facts.error_type == "exit" else at.error_class
    return f"try:\n    {call or '...'}\nexcept {cls} as exc:\n    # {note}\n    ..."


SNIPPETS = Snippets(
    default_class="Exception", comment="#", terminated=False, no_call="...",
    validation=_validation, type_guard=_type_guard, try_catch=_try_catch, snake_case=True,
    library=frozenset(dir(builtins)) | words("""
        warnings simplefilter catch_warnings os sys re json math typing pathlib Path logging
        collections dataclasses functools itertools abc enum Enum __name__ __init__"""),
)
