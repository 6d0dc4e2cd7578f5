"""JavaScript/TypeScript code fields: ``if``/``else``, a ``can<Name>`` function, and a
``try``/``catch`` that tests the class and the message pattern."""

from __future__ import annotations

from dataclasses import replace

from errdex.languages._engine.snippets import GuardFacts, Snippets, TryFacts, c_if, words


def _type_guard(guard: GuardFacts, typed: bool) -> str:
    params = ", ".join(guard.declarations if typed else guard.used)
    return (f"// {guard.doc}\nfunction {guard.camel}({params}) {{\n"
            f"  return {guard.negated};\n}}")


def _try_catch(at: TryFacts) -> str:
    regex = at.facts.pattern.replace("/", "\\/")
    test = f"err instanceof {at.error_class} && /^{regex}$/s.test(err.message)"
    return (f"try {{\n  {at.call or '/* … */'}\n}} catch (err) {{\n  if ({test}) {{\n"
            f"    // {at.note}\n  }} else {{\n    throw err;\n  }}\n}}")


SNIPPETS = Snippets(
    default_class="Error", validation=c_if,
    type_guard=lambda guard: _type_guard(guard, typed=False), try_catch=_try_catch,
    library=words("""
        Error TypeError RangeError SyntaxError ReferenceError Array isArray Number isInteger
        isFinite isNaN Object String Boolean JSON parse stringify Promise console log warn error
        message name test includes startsWith length Math Symbol Map Set instanceof"""),
)
TYPED_SNIPPETS = replace(SNIPPETS, type_guard=lambda guard: _type_guard(guard, typed=True))
