"""How Java writes the enrichment's code fields: ``if (…)``/``else``, a ``static boolean``
guard method, and ``try``/``catch`` (``RuntimeException`` when the class is unknown)."""

from __future__ import annotations

from errdex.languages._engine.snippets import Snippets, c_if, catch_block, guard_function
from errdex.languages._jvm.libraries import JAVA_LIBRARY

SNIPPETS = Snippets(
    wrap={"statements": "class E { void m() {\n%s\n} }", "member": "class E {\n%s\n}"},
    default_class="RuntimeException", validation=c_if,
    type_guard=guard_function(
        "// {doc}\nstatic boolean {camel}({params}) {{\n    return {neg};\n}}"),
    try_catch=catch_block("try {{\n    {body}\n}} catch ({cls} e) {{\n    // {note}\n}}"),
    library=JAVA_LIBRARY,
)
