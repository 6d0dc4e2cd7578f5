"""How C and C++ write the enrichment's code fields: ``if``/``else``, a ``can_<name>``
function, and (C++ only) ``try``/``catch``; C++ files that are headers parse as C++ too."""

from __future__ import annotations

from errdex.languages._engine.snippets import Snippets, c_if, catch_block, guard_function

_GUARD = guard_function("// {doc}\nstatic bool can_{name}({params}) {{\n    return {neg};\n}}")

C_SNIPPETS = Snippets(
    wrap={"statements": "void e(void) {\n%s\n}", "member": "%s"},
    validation=c_if, type_guard=_GUARD,
)
CPP_SNIPPETS = Snippets(
    wrap={"statements": "void e() {\n%s\n}", "member": "%s"},
    default_class="std::exception", validation=c_if, type_guard=_GUARD,
    try_catch=catch_block(
        "try {{\n    {body}\n}} catch (const {cls}& e) {{\n    // {note}\n}}"),
)
