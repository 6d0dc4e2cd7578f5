"""Static enrichment: the explanation fields written from evidence, deterministically.

Every sentence here cites something read from the repository — the message and
location, the guard expression and its line, a doc comment's words, a linked
test's name and call, the commit that introduced the line. When the evidence is
thin the field stays empty and the record gets a quality flag instead of filler:

* ``no-doc`` — no doc comment speaks about the site;
* ``no-guard`` — no condition around the site was found;
* ``no-test`` — no test in the repository expects this error;
* ``no-trigger`` — neither a test nor a guard says when it fires;
* ``generic-message`` — the message has little literal text to recognise it by;
* ``unclassified`` — no taxonomy family fits (``backgroundTag`` is ``other``);
* ``no-symbol`` — the site is outside any function;
* ``code-dropped`` — a generated snippet did not parse and was left out.
"""

from __future__ import annotations

import re
from functools import lru_cache

from errdex.enrich.code import CodeFacts, code_fields
from errdex.enrich.snippets import snippets_for_path
from errdex.enrich.taxonomy import Family, classify
from errdex.languages import LANGUAGES
from errdex.records.evidence import DocNote, Evidence, Guard, TestLink
from errdex.records.model import HandlingStrategy, Record, RecordExtras
from errdex.templates.analysis import shape_of

_VERBS = {"panic": "panics", "exception": "raises", "error": "returns an error",
          "http": "responds with an HTTP error", "log": "logs an error", "warning": "warns",
          "exit": "exits"}
_DOC_LABEL = {"raises": "its docstring's Raises entry", "panics": "its `# Panics` section",
              "errors": "its `# Errors` section", "throws": "its doc comment's @throws",
              "summary": "its documentation"}
_STRONG = ("unsupported", "configuration", "upgrade", "retry")


def enrich_record(record: Record, extras: RecordExtras, evidence: Evidence) -> None:
    """Fill ``record``'s explanation fields from ``evidence``; flags go to ``extras``."""
    flags: list[str] = []
    fn = _last(evidence.symbol) if evidence.symbol else None
    guard = evidence.guards[0] if evidence.guards else None
    test = next((t for t in evidence.tests if t.call), evidence.tests[0] if evidence.tests
                else None)
    families = _families(record, evidence)
    evidence.call_hint = _call(record, evidence, fn)
    test_call = _innermost_call(test.call, fn) if test and test.call and fn else None

    record.documentation = _documentation(record, evidence, guard)
    record.trigger_scenarios = _triggers(record, evidence, guard)
    record.common_situations = _situations(evidence, guard, fn)
    record.solutions = _solutions(record, evidence, guard, fn, test)
    record.prevention_tips = _tips(evidence, guard, fn, test)
    record.example_fix = _example_fix(record, evidence, guard, fn, test)
    record.background_tag = families[0].name if families else "other"
    record.handling_strategy = _strategy(record, families, guard, evidence)
    record.tags = _tags(record, extras, families)

    language = extras.language or ""
    grammar = LANGUAGES[language].grammar if language in LANGUAGES else None
    if grammar is not None and extras.language is not None:
        facts = CodeFacts(
            language=extras.language, grammar=grammar, error_type=record.error_type,
            error_class=record.error_class, message=record.error_message,
            pattern=record.message_pattern, function=fn, call=evidence.call_hint,
            test_call=test_call,
            condition=guard.condition if guard and _on_parameters(guard, evidence) else None,
            negated=guard.negated if guard else None,
            declarations=evidence.declarations, parameters=evidence.parameters,
        )
        fields, dropped = code_fields(facts)
        record.validation_code = fields["validationCode"]
        record.type_guard = fields["typeGuard"]
        record.try_catch_pattern = fields["tryCatchPattern"]
        if dropped:
            flags.append("code-dropped")

    if not evidence.docs:
        flags.append("no-doc")
    if guard is None:
        flags.append("no-guard")
    if not evidence.tests:
        flags.append("no-test")
    if guard is None and not evidence.tests:
        flags.append("no-trigger")
    if _generic(record.message_pattern):
        flags.append("generic-message")
    if not families:
        flags.append("unclassified")
    if not evidence.symbol:
        flags.append("no-symbol")
    extras.quality_flags = sorted(set(flags))


def enrichment_inputs(record: Record, extras: RecordExtras) -> tuple[object, ...]:
    """What ``enrich_record`` reads of a record and its extras, besides the evidence: a
    record whose inputs and evidence are as they were when it was enriched is enriched
    the same again (mining then keeps what its worker wrote). Keep it in step with the
    functions above."""
    return (record.error_class, record.error_message, record.error_type, record.file_path,
            record.line_number, record.message_pattern, extras.language)


def _on_parameters(guard: Guard, evidence: Evidence) -> bool:
    """Whether a caller can check the guard: it reads the function's parameters only."""
    if guard.kind == "unwrap":
        return False
    from errdex.enrich.code import only_uses

    code = guard.negated or guard.condition
    return bool(_used(evidence, code)) and only_uses(code, evidence.parameters)


def _last(symbol: str) -> str:
    return re.split(r"\.|::|#", symbol)[-1]


def _q(code: str) -> str:
    return "`" + code.replace("`", "'") + "`"


@lru_cache(maxsize=4096)
def _literal(pattern: str) -> str:
    return " ".join(shape_of(pattern).fragments)


def _families(record: Record, evidence: Evidence) -> list[Family]:
    literal = _literal(record.message_pattern)
    for text in (f"{literal} {record.error_class or ''}",
                 " ".join(n.text for n in evidence.docs if n.kind != "summary")):
        found = classify(text, limit=2) if text.strip() else []
        if found:
            return found
    return []


def _generic(pattern: str) -> bool:
    literal = _literal(pattern)
    words = re.findall(r"[A-Za-z]{2,}", literal)
    return len(words) < 2 or len(literal.strip()) < 8


def _guard_text(guard: Guard) -> str:
    if guard.kind == "catch-all":
        handled = ", ".join(guard.handled[:6]) + (", …" if len(guard.handled) > 6 else "")
        return f"{_q(guard.subject or 'the value')} is none of the handled cases ({handled})"
    if guard.kind == "assert":
        return f"the assertion {_q(guard.negated or guard.condition)} fails"
    if guard.kind == "unwrap":
        return f"{_q(guard.condition)} is an `Err` or `None`"
    if guard.kind == "match-arm":
        return f"{_q(guard.subject or 'the value')} matches {_q(', '.join(guard.handled))}"
    return _q(guard.condition) + " holds"


def _documentation(record: Record, evidence: Evidence, guard: Guard | None) -> str:
    where = f"{record.file_path}:{record.line_number}"
    who = f"{_q(evidence.symbol)} ({where})" if evidence.symbol else f"Code at {where}"
    cls = f" {record.error_class}" if record.error_class and record.error_type != "panic" else ""
    parts = [f"{who} {_VERBS.get(record.error_type, 'fails')}{cls} with "
             f"\"{' '.join(record.error_message.split())}\"."]
    if guard is not None:
        parts.append(f"It fires when {_guard_text(guard)} (line {guard.line}).")
    for note in _notes(evidence.docs):
        label = _DOC_LABEL[note.kind]
        if note.kind == "summary":
            parts.append(f"{label[0].upper()}{label[1:]} says: \"{note.text}\"")
        else:
            about = f" for {note.error_class}" if note.error_class else ""
            parts.append(f"{label[0].upper()}{label[1:]}{about}: \"{note.text}\"")
    if evidence.blame is not None:
        parts.append(f"The line was last changed in {evidence.blame.commit[:12]} "
                     f"(\"{evidence.blame.subject}\").")
    return " ".join(parts)


def _notes(docs: list[DocNote]) -> list[DocNote]:
    specific = [n for n in docs if n.kind != "summary"]
    summary = [n for n in docs if n.kind == "summary"]
    return (summary[:1] + specific[:2]) if specific or summary else []


def _describe(test: TestLink) -> str:
    cls = f"{test.error_class} " if test.error_class else ""
    how = {"exact": "the message", "substring": "a message containing",
           "regex": "a message matching", "class": ""}[test.mode]
    expected = f" {how} \"{test.expected}\"" if test.expected else ""
    call = f" with {_q(test.call)}" if test.call else ""
    expecting = " ".join(p for p in (cls.strip(), expected.strip()) if p)
    return f"{_q(test.name)} ({test.path}:{test.line}) triggers it{call}, expecting {expecting}."


def _triggers(record: Record, evidence: Evidence, guard: Guard | None) -> str | None:
    if evidence.tests:
        return " ".join(_describe(t) for t in evidence.tests)
    if guard is not None:
        who = _q(evidence.symbol) if evidence.symbol else "this code"
        return f"Any call of {who} in which {_guard_text(guard)} (line {guard.line})."
    return None


_NAME = re.compile(r"(?<![\w.$])[A-Za-z_$][\w$]*")


@lru_cache(maxsize=4096)
def _names(code: str) -> frozenset[str]:
    """The free names in a piece of code (not attribute names after a ``.``)."""
    return frozenset(_NAME.findall(code))


def _used(evidence: Evidence, code: str | None) -> list[str]:
    """The parameters ``code`` reads."""
    if not code:
        return []
    names = _names(code)
    return [p for p in evidence.parameters if p in names]


def _situations(evidence: Evidence, guard: Guard | None, fn: str | None) -> str | None:
    if guard is None or fn is None:
        return None
    params = _used(evidence, guard.condition) or _used(evidence, guard.subject)
    if not params:
        return f"{_q(fn)} reaching line {guard.line} when {_guard_text(guard)}."
    named = ", ".join(_q(p) for p in params)
    return f"Calling {_q(fn)} with {named} such that {_guard_text(guard)}."


def _solutions(record: Record, evidence: Evidence, guard: Guard | None, fn: str | None,
               test: TestLink | None) -> list[str]:
    out: list[str] = []
    target = _q(fn) if fn else "this code"
    if guard is not None and guard.kind == "catch-all" and guard.handled:
        out.append(f"Pass {_q(guard.subject or 'a value')} as one of the handled cases: "
                   f"{', '.join(guard.handled[:8])}.")
    elif guard is not None and guard.kind == "unwrap":
        tail = ("handle its `Err`/`None` instead of panicking" if record.error_type == "panic"
                else "expect its failure to surface as this error")
        out.append(f"Make sure {_q(guard.condition)} succeeds before {target} reaches line "
                   f"{guard.line}, or {tail}.")
    elif guard is not None and guard.negated:
        params = _used(evidence, guard.negated)
        about = f" (it checks {', '.join(_q(p) for p in params)})" if params else ""
        out.append(f"Call {target} only when {_q(guard.negated)} holds{about}.")
    for note in evidence.docs:
        if note.kind != "summary":
            out.append(f"Follow the documented contract of {target}: \"{note.text}\"")
    if test is not None:
        out.append(f"Compare with the failing call in {_q(test.name)} ({test.path}:{test.line}).")
    if record.error_type in ("error", "exception") and guard is None:
        cls = record.error_class or "the error"
        out.append(f"Handle {cls} where {target} is called; see the tryCatchPattern.")
    return out


def _tips(evidence: Evidence, guard: Guard | None, fn: str | None,
          test: TestLink | None) -> list[str]:
    tips: list[str] = []
    target = _q(fn) if fn else "this code"
    if guard is not None and guard.kind == "catch-all":
        tips.append(f"When {_q(guard.subject or 'the value')} can take a new case, add an arm "
                    f"for it in {target} (line {guard.line}).")
    elif guard is not None and guard.negated and (params := _used(evidence, guard.negated)):
        where = "it enters" if len(params) == 1 else "they enter"
        tips.append(f"Validate {', '.join(_q(p) for p in params)} where {where} the program "
                    f"so that {_q(guard.negated)} holds before {target} runs.")
    if test is not None:
        tips.append(f"Keep {_q(test.name)} ({test.path}) passing when changing {target}.")
    return tips


def _example_fix(record: Record, evidence: Evidence, guard: Guard | None, fn: str | None,
                 test: TestLink | None) -> str | None:
    comment = snippets_for_path(record.file_path).comment
    if test is None or not test.call or guard is None or not guard.negated:
        return None
    if "…" in test.call:  # a call cut short would not parse as an example
        return None
    expected = f": {test.expected}" if test.expected else ""
    return (f"{comment} before — from {test.name} ({test.path}:{test.line}), fails{expected}\n"
            f"{test.call}\n\n{comment} after — call {fn or 'it'} only when "
            f"{guard.negated} holds (the check at {record.file_path}:{guard.line})")


def _strategy(record: Record, families: list[Family], guard: Guard | None,
              evidence: Evidence) -> HandlingStrategy:
    first = families[0] if families else None
    if first is not None and first.strategy in _STRONG:
        return first.strategy
    names = {f.name for f in families[:2]}
    if names & {"type-error", "null-value"} or (
        guard is not None and re.search(r"isinstance|typeof|instanceof", guard.condition)
    ):
        return "type-guard"
    if "invariant-violation" in names or record.error_message.startswith("internal error"):
        return "fix-bug"
    if guard is not None and guard.negated and _used(evidence, guard.negated):
        return "validation"
    if guard is not None and guard.kind == "catch-all":
        return "validation"
    if record.error_type in ("error", "exception", "http"):
        return "try-catch"
    if record.error_type == "panic":
        return "fix-bug"
    return first.strategy if first is not None and first.strategy else "try-catch"


def _tags(record: Record, extras: RecordExtras, families: list[Family]) -> list[str]:
    tags = [extras.language or "", record.error_type]
    tags += [f.name for f in families[:2]]
    if record.error_class:
        kebab = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", _last(record.error_class)).lower()
        tags.append(re.sub(r"[^a-z0-9]+", "-", kebab).strip("-"))
    seen: list[str] = []
    for tag in tags:
        if tag and tag not in seen:
            seen.append(tag)
    return seen


def _call(record: Record, evidence: Evidence, fn: str | None) -> str | None:
    """How a caller invokes the function, with its parameter names as arguments."""
    if fn is None or not re.fullmatch(r"[A-Za-z_]\w*", fn):
        return None
    args = ", ".join(evidence.parameters)
    owner = re.split(r"\.|::", evidence.symbol or "")[:-1]
    if not owner:
        return f"{fn}({args})"
    instance = "self" in (evidence.signature or "") or "this" in (evidence.signature or "")
    owner_name = owner[-1]
    snippets = snippets_for_path(record.file_path)
    if snippets.associated != "." and not instance:
        return f"{owner_name}{snippets.associated}{fn}({args})"
    receiver = _instance_name(owner_name, record.file_path) if instance else owner_name
    return f"{receiver}.{fn}({args})"


_NAME_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b)|[A-Z]?[a-z]+|\d+|[A-Z]+")


def _instance_name(owner: str, path: str) -> str:
    """A variable name for an instance of ``owner``: ``ctc_loss`` for ``CTCLoss`` in Rust and
    Python, ``ctcLoss`` elsewhere."""
    words: list[str] = _NAME_WORDS.findall(owner) or [owner]
    if snippets_for_path(path).snake_case:
        return "_".join(w.lower() for w in words)
    return words[0].lower() + "".join(w[:1].upper() + w[1:].lower() for w in words[1:])


def _innermost_call(call: str, fn: str) -> str | None:
    """From a test's statement, the call of ``fn`` itself (``x = f(a)`` → ``f(a)``)."""
    if not re.search(rf"\b{re.escape(fn)}\b", call):
        return None
    match = re.search(rf"(?:[\w.]+\.|[\w:<>]+::)?{re.escape(fn)}\s*\(", call)
    if match is None:
        return call
    depth = 0
    for index in range(match.end() - 1, len(call)):
        depth += {"(": 1, ")": -1}.get(call[index], 0)
        if depth == 0:
            start = match.start()
            prefix = call[:start]
            head = re.search(r"[\w.()\[\]\"', ]*$", prefix)
            lead = prefix[head.start():] if head and prefix.rstrip().endswith(".") else ""
            return (lead + call[start : index + 1]).strip()
    return call
