"""Code fields in the record's own language: validationCode, typeGuard, tryCatchPattern.

Built from the record's real names (its function, parameters, error class, message
pattern) and its evidence (the guard, the call a linked test makes). Every snippet
is parsed with tree-sitter in that language — statements inside a throwaway
function, members inside a throwaway class where the grammar needs one — and a
snippet that does not parse is dropped, never shipped.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from errdex.enrich.snippets import snippets_for
from errdex.languages._engine.snippets import CodeFacts, Context, GuardFacts, TryFacts
from errdex.languages.base import parser_for

__all__ = ["CodeFacts", "CodeField", "Context", "code_fields", "only_uses", "parses"]

CodeField = Literal["validationCode", "typeGuard", "tryCatchPattern"]


def wrapper(language: str, context: Context) -> str:
    """Where a snippet goes to be parsed in the language (``%s``: the snippet)."""
    return snippets_for(language).wrap.get(context, "%s")


@lru_cache(maxsize=4096)
def parses(grammar: str, language: str, code: str, context: Context) -> bool:
    """Whether tree-sitter parses ``code`` without errors in the language (parsed apart
    from ``languages.base.parse``'s kept trees: a snippet never comes back, and keeping it
    would push out the tree of the file being mined). Remembered: a record enriched again
    after composition or test linking builds the same snippets."""
    tree = parser_for(grammar).parse((wrapper(language, context) % code).encode("utf-8"))
    return not tree.root_node.has_error


def code_fields(facts: CodeFacts) -> tuple[dict[CodeField, str | None], list[str]]:
    """The three snippets (None where the evidence does not support one) and the names of
    those dropped because they did not parse."""
    built: dict[CodeField, tuple[str, Context] | None] = {
        "validationCode": _validation(facts),
        "typeGuard": _type_guard(facts),
        "tryCatchPattern": _try_catch(facts),
    }
    out: dict[CodeField, str | None] = {}
    dropped: list[str] = []
    for name, snippet in built.items():
        if snippet is not None and not parses(facts.grammar, facts.language, *snippet):
            dropped.append(name)
            snippet = None
        out[name] = snippet[0] if snippet is not None else None
    return out, dropped


def _note(facts: CodeFacts) -> str:
    """A one-line comment body naming the function, class and message."""
    where = f"{facts.function} " if facts.function else ""
    what = {"panic": "panics", "exception": "raises", "error": "returns the error"}.get(
        facts.error_type, "reports")
    cls = f" {facts.error_class}" if facts.error_class and facts.error_type != "panic" else ""
    message = " ".join(facts.message.split()).replace("*/", "* /")
    if len(message) > 90:
        message = message[:89] + "…"
    return f"{where}{what}{cls}: {message}"


def _comment(language: str, body: str) -> str:
    return f"{snippets_for(language).comment} {body}"


def _statement(facts: CodeFacts, real: bool = False) -> str:
    call = ((facts.test_call if real else None) or facts.call or "").strip().rstrip(";")
    if not call:
        return ""
    return call + ";" if snippets_for(facts.language).terminated else call


def _validation(facts: CodeFacts) -> tuple[str, Context] | None:
    snippets = snippets_for(facts.language)
    if not facts.condition or snippets.validation is None:
        return None
    call = _statement(facts) or snippets.no_call or _comment(facts.language, "call")
    return snippets.validation(facts.condition, _note(facts), call), "statements"


def _type_guard(facts: CodeFacts) -> tuple[str, Context] | None:
    type_guard = snippets_for(facts.language).type_guard
    if type_guard is None or not facts.negated or not facts.function or not facts.parameters:
        return None
    used = [p for p in facts.parameters if mentions(facts.negated, p)]
    if not used or not only_uses(facts.negated, facts.parameters):
        return None
    decls = [d for d, p in zip(facts.declarations, facts.parameters, strict=False) if p in used]
    name = facts.function
    doc = f"True when {name} does not fail with: {' '.join(facts.message.split())[:80]}"
    code = type_guard(GuardFacts(name, "can" + name[:1].upper() + name[1:], doc, decls, used,
                                 facts.negated))
    return (code, "member") if code is not None else None


def mentions(code: str, name: str) -> bool:
    r"""Whether ``code`` writes ``name`` on its own (not a member ``x.name``): after no word
    character, ``.`` or ``$``, and ending at a word boundary, where the regular expression
    ``(?<![\w.$])name\b`` would find it. Searched as text: a repository has thousands of
    parameter names, and compiling an expression for each cost each worker more than
    every search made with them."""
    at = code.find(name)
    while at >= 0:
        if at == 0 or not (_word(code[at - 1]) or code[at - 1] in ".$"):
            end = at + len(name)
            if (end > 0 and _word(code[end - 1])) != (end < len(code) and _word(code[end])):
                return True
        at = code.find(name, at + 1)
    return False


def _word(char: str) -> bool:
    r"""A word character as ``re`` reads ``\w`` in text (Unicode letters and digits, ``_``)."""
    return char.isalnum() or char == "_"


_WORD = re.compile(r"(?<![\w.$'\"])[A-Za-z_]\w*\b(?!\s*\()")
_KEYWORDS = frozenset({
    "and", "or", "not", "in", "is", "None", "True", "False", "true", "false", "null", "nil",
    "typeof", "instanceof", "undefined", "matches", "len", "isinstance", "str",
    "int", "float", "bool", "list", "dict", "tuple", "as", "mut",
})


def only_uses(expression: str, parameters: list[str]) -> bool:
    """Whether every free lowercase name in ``expression`` is a parameter (constants and
    type paths written in capitals are fine): a guard on local variables, or on the
    object's own state (``self``/``this``), is no type guard a caller can write."""
    stripped = re.sub(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'", "", expression)
    for word in _WORD.findall(stripped):
        if word in _KEYWORDS or word[:1].isupper() or word in parameters:
            continue
        return False
    return True


def _try_catch(facts: CodeFacts) -> tuple[str, Context] | None:
    snippets = snippets_for(facts.language)
    if facts.error_type in ("log", "http") or snippets.try_catch is None:
        return None
    cls = facts.error_class or snippets.default_class
    code = snippets.try_catch(TryFacts(facts, _note(facts), _statement(facts, real=True), cls))
    return (code, "statements") if code is not None else None
