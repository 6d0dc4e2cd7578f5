"""How Kotlin writes the enrichment's code fields: ``if (…)``/``else``, a ``Boolean``
guard function, and ``try``/``catch (e: X)`` (``Exception`` when the class is unknown)."""

from __future__ import annotations

from errdex.languages._engine.snippets import Snippets, c_if, catch_block, guard_function
from errdex.languages._jvm.libraries import JAVA_LIBRARY

SNIPPETS = Snippets(
    wrap={"statements": "fun e() {\n%s\n}", "member": "%s"},
    default_class="Exception", terminated=False, validation=c_if,
    type_guard=guard_function("// {doc}\nfun {camel}({params}): Boolean = {neg}"),
    try_catch=catch_block("try {{\n    {body}\n}} catch (e: {cls}) {{\n    // {note}\n}}"),
    library=JAVA_LIBRARY,
)
