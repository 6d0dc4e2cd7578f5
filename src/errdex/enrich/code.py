"""Code fields in the record's own language: validationCode, typeGuard, tryCatchPattern.

Built from the record's real names (its function, parameters, error class, message
pattern) and its evidence (the guard, the call a linked test makes). Every snippet
is parsed with tree-sitter in that language — statements inside a throwaway
function, members inside a throwaway class where the grammar needs one — and a
snippet that does not parse is dropped, never shipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from errdex.languages.base import parse

Context = Literal["statements", "member"]
CodeField = Literal["validationCode", "typeGuard", "tryCatchPattern"]

_WRAP: dict[str, dict[Context, str]] = {
    "rust": {"statements": "fn __errdex() {\n%s\n}", "member": "%s"},
    "go": {"statements": "package p\nfunc __errdex() {\n%s\n}", "member": "package p\n%s"},
    "java": {"statements": "class E { void m() {\n%s\n} }", "member": "class E {\n%s\n}"},
    "csharp": {"statements": "class E { void M() {\n%s\n} }", "member": "class E {\n%s\n}"},
    "kotlin": {"statements": "fun e() {\n%s\n}", "member": "%s"},
    "php": {"statements": "<?php\n%s", "member": "<?php\n%s"},
    "c": {"statements": "void e(void) {\n%s\n}", "member": "%s"},
    "cpp": {"statements": "void e() {\n%s\n}", "member": "%s"},
}
_DEFAULT_CLASS = {"python": "Exception", "javascript": "Error", "typescript": "Error",
                  "tsx": "Error", "java": "RuntimeException", "kotlin": "Exception",
                  "csharp": "Exception", "php": "\\Exception", "ruby": "StandardError",
                  "cpp": "std::exception", "swift": "Error"}
_C_LIKE = frozenset({"javascript", "typescript", "tsx", "java", "csharp", "kotlin", "php", "c",
                     "cpp", "swift", "rust", "go"})


@dataclass
class CodeFacts:
    """What the snippets may name: everything here was read from the repository."""

    language: str
    grammar: str
    error_type: str
    error_class: str | None
    message: str
    pattern: str
    function: str | None = None  # the enclosing function's own name
    call: str | None = None  # built from the signature: the parameters' own names
    test_call: str | None = None  # a real call, from a linked test
    condition: str | None = None  # when the site fires
    negated: str | None = None  # what a caller must make true
    declarations: list[str] = field(default_factory=list)  # parameters used by ``negated``
    parameters: list[str] = field(default_factory=list)


def parses(grammar: str, language: str, code: str, context: Context) -> bool:
    """Whether tree-sitter parses ``code`` without errors in the language."""
    wrapper = _WRAP.get(language, {}).get(context, "%s")
    tree = parse(grammar, (wrapper % code).encode("utf-8"))
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
    return f"# {body}" if language in ("python", "ruby") else f"// {body}"


def _statement(facts: CodeFacts, real: bool = False) -> str:
    call = ((facts.test_call if real else None) or facts.call or "").strip().rstrip(";")
    if not call:
        return ""
    if facts.language in ("python", "ruby", "go", "kotlin", "swift"):
        return call
    return call + ";"


def _validation(facts: CodeFacts) -> tuple[str, Context] | None:
    if not facts.condition:
        return None
    language, cond, note = facts.language, facts.condition, _note(facts)
    call = _statement(facts) or ("..." if language == "python" else _comment(language, "call"))
    if language == "python":
        return f"if {cond}:\n    # {note}\n    ...\nelse:\n    {call}", "statements"
    if language == "ruby":
        return f"if {cond}\n  # {note}\nelse\n  {call}\nend", "statements"
    if language in ("rust", "go", "swift"):
        return f"if {cond} {{\n    // {note}\n}} else {{\n    {call}\n}}", "statements"
    if language in _C_LIKE:
        return f"if ({cond}) {{\n    // {note}\n}} else {{\n    {call}\n}}", "statements"
    return None


def _type_guard(facts: CodeFacts) -> tuple[str, Context] | None:
    if not facts.negated or not facts.function or not facts.parameters:
        return None
    used = [p for p in facts.parameters
            if re.search(rf"(?<![\w.$]){re.escape(p)}\b", facts.negated)]
    if not used or not only_uses(facts.negated, facts.parameters):
        return None
    decls = [d for d, p in zip(facts.declarations, facts.parameters, strict=False) if p in used]
    name, neg = facts.function, facts.negated
    camel = "can" + name[:1].upper() + name[1:]
    doc = f"True when {name} does not fail with: {' '.join(facts.message.split())[:80]}"
    language = facts.language
    if language == "python":
        plain = ", ".join(_python_name(d) for d in decls)
        return (f'def can_{name}({plain}) -> bool:\n    """{_doc(doc)}"""\n    return {neg}',
                "member")
    if language == "rust":
        return f"/// {doc}\nfn can_{name}({', '.join(decls)}) -> bool {{\n    {neg}\n}}", "member"
    if language in ("javascript", "typescript", "tsx"):
        params = ", ".join(decls if language != "javascript" else used)
        return f"// {doc}\nfunction {camel}({params}) {{\n  return {neg};\n}}", "member"
    if language == "go":
        return f"// {doc}\nfunc {camel}({', '.join(decls)}) bool {{\n\treturn {neg}\n}}", "member"
    if language == "java":
        return (f"// {doc}\nstatic boolean {camel}({', '.join(decls)}) {{\n    return {neg};\n}}",
                "member")
    if language == "csharp":
        return f"// {doc}\nstatic bool C{camel[1:]}({', '.join(decls)}) => {neg};", "member"
    if language == "kotlin":
        return f"// {doc}\nfun {camel}({', '.join(decls)}): Boolean = {neg}", "member"
    if language == "ruby":
        return f"# {doc}\ndef can_{name}?({', '.join(used)})\n  {neg}\nend", "member"
    if language in ("c", "cpp"):
        return (f"// {doc}\nstatic bool can_{name}({', '.join(decls)}) {{\n    return {neg};\n}}",
                "member")
    return None


def _doc(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"""', "'''")


def _python_name(declaration: str) -> str:
    """``mode: int = 0`` stays as written; ``*args`` too."""
    return declaration


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
    language, note = facts.language, _note(facts)
    kind = facts.error_type
    if kind in ("log", "http"):
        return None
    cls = facts.error_class or _DEFAULT_CLASS.get(language)
    call = _statement(facts, real=True)
    if language == "python":
        if kind == "warning":
            cls = facts.error_class or "UserWarning"
            body = call or "..."
            return (f"import warnings\n\nwith warnings.catch_warnings():\n"
                    f"    warnings.simplefilter(\"error\", {cls})\n    try:\n        {body}\n"
                    f"    except {cls} as warning:\n        # {note}\n        ...", "statements")
        cls = "SystemExit" if kind == "exit" else cls
        return (f"try:\n    {call or '...'}\nexcept {cls} as exc:\n    # {note}\n    ...",
                "statements")
    if language == "rust":
        # A thiserror ``#[error]`` site belongs to a type, not a function: there is no
        # call to wrap (``SqliteDatasetError()`` would be noise).
        if not call or (facts.error_class or "").split("::")[0] == facts.function:
            return None
        if kind == "panic":
            return (f"let outcome = std::panic::catch_unwind(|| {{\n    {call}\n}});\n"
                    f"if let Err(panic) = outcome {{\n    // {note}\n}}", "statements")
        expr = call.rstrip(";")
        return (f"match {expr} {{\n    Ok(value) => {{ let _ = value; }}\n"
                f"    Err(err) => {{\n        // {note}\n        let _ = err;\n    }}\n}}",
                "statements")
    if language in ("javascript", "typescript", "tsx"):
        regex = facts.pattern.replace("/", "\\/")
        test = f"err instanceof {cls} && /^{regex}$/s.test(err.message)"
        return (f"try {{\n  {call or '/* … */'}\n}} catch (err) {{\n  if ({test}) {{\n"
                f"    // {note}\n  }} else {{\n    throw err;\n  }}\n}}", "statements")
    if language == "go":
        if kind == "panic":
            return (f"defer func() {{\n\tif r := recover(); r != nil {{\n\t\t// {note}\n\t}}\n}}()"
                    f"\n{call}", "statements")
        if not call:
            return None
        check = f"errors.Is(err, {facts.error_class})" if (facts.error_class or "").rpartition(
            ".")[2].startswith("Err") else "err != nil"
        return f"if err := {call}; {check} {{\n\t// {note}\n}}", "statements"
    body = call or _comment(language, "…")
    if language in ("java", "csharp"):
        return f"try {{\n    {body}\n}} catch ({cls} e) {{\n    // {note}\n}}", "statements"
    if language == "kotlin":
        return f"try {{\n    {body}\n}} catch (e: {cls}) {{\n    // {note}\n}}", "statements"
    if language == "php":
        return f"try {{\n    {body}\n}} catch ({cls} $e) {{\n    // {note}\n}}", "statements"
    if language == "cpp":
        return f"try {{\n    {body}\n}} catch (const {cls}& e) {{\n    // {note}\n}}", "statements"
    if language == "ruby":
        return f"begin\n  {body}\nrescue {cls} => e\n  # {note}\nend", "statements"
    if language == "swift":
        return f"do {{\n    try {body}\n}} catch {{\n    // {note}\n}}", "statements"
    return None
