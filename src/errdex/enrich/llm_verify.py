"""Checking a model's fields against the record's evidence before any is stored.

A field passes when: its type is right; code parses in the record's language
(``enrich.code.parses``); every name it uses — backticked names and calls in prose, calls
and capitalised names in code — occurs in the evidence (message, source window, guards,
docs, tests, the static draft) or the language's standard library; every quoted message
that looks like this record's can be produced by its pattern (``templates.matching.verify``);
and the labels are in the enum / taxonomy. A failing field keeps its static value.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any, get_args

from errdex.enrich.code import Context, parses, wrapper
from errdex.enrich.snippets import snippets_for
from errdex.enrich.taxonomy import FAMILIES
from errdex.languages import LANGUAGES
from errdex.languages.base import parse
from errdex.records.evidence import Evidence
from errdex.records.model import EXPLANATION_FIELDS, HandlingStrategy, Record, attribute
from errdex.templates.analysis import shape_of
from errdex.templates.matching import verify as pattern_matches

PROSE = ("documentation", "triggerScenarios", "commonSituations")
LISTS = ("solutions", "preventionTips", "tags")
CODE: dict[str, tuple[Context, ...]] = {
    "validationCode": ("statements",), "typeGuard": ("member", "statements"),
    "tryCatchPattern": ("statements",), "exampleFix": ("statements", "member"),
}
_STRATEGIES = frozenset(get_args(HandlingStrategy))
_FAMILIES = frozenset(f.name for f in FAMILIES)
_KEBAB = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
_TICKED = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_CALL = re.compile(r"(?<![\w.`$])([A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*)\(")
_QUOTED = re.compile(r"\"([^\"\n]{4,})\"|“([^”\n]{4,})”")
_STRING = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'")
_MAX_TEXT, _MAX_ITEMS = 4000, 12
# Words before a call that do not make it a definition (``return parse(x)``).
_CALLERS = frozenset({"return", "new", "throw", "await", "yield", "not", "and", "or", "in", "is",
                      "else", "do", "case", "go", "defer", "try", "raise", "assert", "if",
                      "while", "elif", "print", "echo", "when", "then"})
_DEFINES = frozenset({"def", "fn", "func", "function", "fun", "class", "struct", "enum", "let",
                      "mut", "var", "val", "const", "interface", "type", "trait", "as", "for",
                      "lambda"})

def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_COMMON = _words("""
if else elif for while in is not and or return raise try except finally with as def class
lambda None True False true false null nil undefined let mut fn match Some Ok Err Option Result
self Self this super new throw throws catch var const function typeof instanceof async await
func defer go panic recover package import from use pub struct enum impl trait where loop break
continue do then end begin rescue ensure unless yield val fun when is object override private
public protected static void int bool boolean float double char string str byte long short
""")
# The standard library names of the languages whose spec does not list them yet: C# and
# Scala borrow Java's.
_STDLIB: dict[str, frozenset[str]] = {
    alias: snippets_for("java").library for alias in ("csharp", "scala")
}


def _library(language: str | None) -> frozenset[str]:
    """The standard library names a field in ``language`` may use."""
    return snippets_for(language or "").library or _STDLIB.get(language or "", frozenset())


@dataclass
class Verdict:
    """The fields that passed (to replace static values) and those rejected, with why."""

    accepted: dict[str, Any] = field(default_factory=dict)
    rejected: dict[str, str] = field(default_factory=dict)


def evidence_names(record: Record, evidence: Evidence, draft: Record) -> frozenset[str]:
    """Every name the evidence mentions, which a field may therefore use."""
    texts = [record.error_message, record.message_pattern, record.error_class or "",
             record.file_path, record.source_code, evidence.model_dump_json()]
    for name in EXPLANATION_FIELDS:
        value = getattr(draft, attribute(name))
        texts.extend(value if isinstance(value, list) else [value or ""])
    return frozenset(_WORD.findall("\n".join(texts)))


def verify_fields(answer: dict[str, Any], record: Record, language: str | None,
                  evidence: Evidence, draft: Record) -> Verdict:
    """Check each explanation field the model gave for ``record``; others are ignored."""
    known = evidence_names(record, evidence, draft) | _COMMON | _library(language)
    quotable = {record.error_message, *(d.text for d in evidence.docs),
                *(t.expected for t in evidence.tests if t.expected)}
    verdict = Verdict()
    for name in EXPLANATION_FIELDS:
        value = answer.get(name)
        if value is None or value == "" or value == []:
            continue  # nothing offered: the static value stays, nothing to reject
        why = _check(name, value, record, language, known, quotable)
        if why is None:
            verdict.accepted[name] = _clean(name, value)
        else:
            verdict.rejected[name] = why
    return verdict


def _check(name: str, value: Any, record: Record, language: str | None,
           known: frozenset[str], quotable: set[str]) -> str | None:
    if name in LISTS:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return "not a list of strings"
        if len(value) > _MAX_ITEMS or any(len(v) > _MAX_TEXT for v in value):
            return "too long"
        if name == "tags":
            bad = [t for t in value if not _KEBAB.fullmatch(t)]
            return f"tag {bad[0]!r} is not kebab-case" if bad else None
        return _prose(" ".join(value), record, known, quotable)
    if not isinstance(value, str):
        return "not a string"
    if len(value) > _MAX_TEXT:
        return "too long"
    if name == "handlingStrategy":
        return None if value in _STRATEGIES else f"{value!r} is not a handling strategy"
    if name == "backgroundTag":
        return None if value in _FAMILIES else f"{value!r} is not in the taxonomy"
    if name in CODE:
        return _code(_unfence(value), CODE[name], language, known)
    return _prose(value, record, known, quotable)


def _prose(text: str, record: Record, known: frozenset[str], quotable: set[str]) -> str | None:
    for match in _TICKED.finditer(text):
        for word in _WORD.findall(_STRING.sub("", match.group(2))):
            if not _allowed(word, known):
                return f"names `{word}`, which is not in the evidence"
    for match in _CALL.finditer(_TICKED.sub("", text)):
        for word in re.split(r"\.|::", match.group(1)):
            if not _allowed(word, known):
                return f"calls `{word}`, which is not in the evidence"
    spans = [m.span() for m in _TICKED.finditer(text)]
    for match in _QUOTED.finditer(text):
        if any(a <= match.start() < b for a, b in spans):
            continue  # a string inside a code span
        quote = match.group(1) or match.group(2)
        if not _message_ok(quote, record, quotable):
            return f"quotes {quote!r}, which the message pattern cannot produce"
    return None


def _message_ok(quote: str, record: Record, quotable: set[str]) -> bool:
    """A quote that resembles this record's message must be one it can produce."""
    quote = " ".join(quote.split())
    if any(quote in " ".join(text.split()) for text in quotable if text):
        return True
    bare = quote
    if record.error_class and quote.startswith(record.error_class + ": "):
        bare = quote[len(record.error_class) + 2:]
    if pattern_matches(record.message_pattern, bare) is not None:
        return True
    literal = max(shape_of(record.message_pattern).fragments, key=len, default="").strip()
    lowered = bare.lower()
    if len(literal) >= 6 and literal[:12].lower() in lowered:
        return False
    message = record.error_message.lower()
    return difflib.SequenceMatcher(None, lowered, message).ratio() < 0.6


def _code(code: str, contexts: tuple[Context, ...], language: str | None,
          known: frozenset[str]) -> str | None:
    spec = LANGUAGES.get(language or "")
    if spec is None or language is None:
        return "no grammar to check code in this language"
    for context in contexts:
        if parses(spec.grammar, language, code, context):
            break
    else:
        return f"does not parse as {language}"
    tokens = _leaves(spec.grammar, language, code, context)
    defined = {text for i, (_, text) in enumerate(tokens) if _defines(tokens, i)}
    for i, (kind, text) in enumerate(tokens):
        if kind == text or not _WORD.fullmatch(text) or text in defined:
            continue  # a keyword, punctuation, or a name the snippet itself introduces
        called = i + 1 < len(tokens) and tokens[i + 1][1] in ("(", "!")
        if (called or text[:1].isupper()) and not _allowed(text, known):
            return f"uses `{text}`, which is not in the evidence"
    return None


def _defines(tokens: list[tuple[str, str]], i: int) -> bool:
    """Whether token ``i`` introduces a name: after ``def``/``let``…, before ``=``, or a
    C-style definition (``bool canParse(``: a type word, then the name, then ``(``)."""
    text = tokens[i][1]
    if not _WORD.fullmatch(text) or tokens[i][0] == text:
        return False
    before = tokens[i - 1] if i > 0 else ("", "")
    after = tokens[i + 1][1] if i + 1 < len(tokens) else ""
    if before[1] in _DEFINES or after in ("=", ":=", "in"):
        return True
    return after == "(" and bool(_WORD.fullmatch(before[1])) and before[1] not in _CALLERS


def _leaves(grammar: str, language: str, code: str, context: Context) -> list[tuple[str, str]]:
    """(node type, text) of every token outside comments and string literals."""
    source = (wrapper(language, context) % code).encode("utf-8")
    offset = source.find(code.encode("utf-8"))
    stop = offset + len(code.encode("utf-8"))
    out: list[tuple[str, str]] = []
    stack = [parse(grammar, source).root_node]
    while stack:
        node = stack.pop()
        kind = node.type
        if "comment" in kind or "string" in kind or "char" in kind or "regex" in kind:
            continue
        if node.child_count == 0:
            if offset <= node.start_byte < stop:
                out.append((kind, source[node.start_byte:node.end_byte].decode("utf-8", "replace")))
            continue
        stack.extend(reversed(node.children))
    return out


def _allowed(word: str, known: frozenset[str]) -> bool:
    return len(word) <= 1 or word in known or word.isdigit()


def _unfence(code: str) -> str:
    match = re.fullmatch(r"\s*```[\w+-]*\n(.*?)\n?```\s*", code, re.DOTALL)
    return match.group(1) if match else code


def _clean(name: str, value: Any) -> Any:
    if name in CODE:
        return _unfence(value)
    if name == "tags":
        return list(dict.fromkeys(value))
    return value
