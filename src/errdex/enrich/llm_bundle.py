"""What the model is told about one record: its evidence, compacted into a bundle of facts.

A record's bundle is its evidence, compacted: the lines at the site (the guard just
above and the raising statement, a call still open joined onto one line, indentation
stripped — never the whole window, never whole files), the message where the code does
not already show it (adjacent literals joined, or built in order from its parts), the
pattern where it says more than the message (text the runtime adds), the guards the
code does not show, doc notes and linked tests (a test expecting the message itself
says so in two characters), the class where the raising statement does not name it,
and the static draft's family. The draft's prose is not sent: it restates the same
evidence. ``llm_prompt`` writes bundles as a batch's tagged lines.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from errdex.evidence.link import compiled_pattern
from errdex.records.evidence import Evidence, Guard, TestLink
from errdex.records.model import Record
from errdex.templates.analysis import shape_of
from errdex.templates.template import CompiledPattern

_EXCERPT_CHARS = 400
_DOC_CHARS = 100
_MAX_TESTS = 2
_TEST_CHARS = 120
_WHEN_CHARS, _MAX_WHEN = 90, 2
_ATTRIBUTE = re.compile(r"#\[[^\]]*\]\s*|@\w+\s+")  # #[comptime], @Nullable in signatures
# An arm's bindings (``Input(pos, _p)``, ``Point { x, .. }``): names only, so no information.
_BINDINGS = re.compile(r"(\(|\{ ?)(?:(?:ref |mut )?[a-z_][\w]*|\.\.)(?:, ?(?:(?:ref |mut )?"
                       r"[a-z_][\w]*|\.\.))*( ?\}|\))")
# Facts of one place of an error (guards, notes, tests): equal errors may differ in them.
PLACE_FACTS = ("v", "w", "n", "u")


@dataclass
class Bundle:
    """One record's data as sent: the file and function parts a batch shares, and its own.

    ``file`` holds ``p`` (path) and ``l`` (language); ``fn`` holds ``s`` (symbol), ``p``
    (parameters: name and declaration) and ``n`` (doc); ``error`` its own facts: ``t``
    type, ``x`` class, ``c`` code, ``m`` message, ``r`` message as shown, ``v``/``w``
    guards, ``n`` doc notes, ``u`` tests, ``d`` draft — in full: ``user_message`` leaves
    out or names what a batch shares."""

    file: dict[str, Any]
    fn: dict[str, Any]
    error: dict[str, Any]

    def evidence_hash(self) -> str:
        """What the cache keys on (with model and prompt version): only what is sent."""
        text = dumps({"file": self.file, "fn": self.fn, "error": self.error}, sort=True)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    @cached_property
    def same_as(self) -> str:
        """What equal errors share: language, type, class, code, message and draft — not
        the place-specific guards, notes and tests. A batch sends such errors once, under
        one key, and at each other place only what differs there (``E k again``): a user
        who sees the message cannot tell the places apart, so one explanation serves all."""
        own = {k: v for k, v in self.error.items() if k not in PLACE_FACTS and k != "k"}
        return dumps({"l": self.file["l"], "error": own}, sort=True)

    def size(self) -> int:
        """About the characters its lines take in a batch (its function's, shared, half)."""
        own = sum(len(v) + 3 for value in self.error.values()
                  for v in ([value] if isinstance(value, str) else value))
        shared = len(self.fn.get("s", "")) + len(self.fn.get("n", "")) + sum(
            len(declared) for _, declared in self.fn.get("p", []))
        return own + len(self.file["p"]) // 4 + shared // 2


def bundle(record: Record, language: str | None, evidence: Evidence, draft: Record) -> Bundle:
    """The evidence bundle of ``record``; ``draft`` is its static enrichment."""
    code = excerpt(record, evidence)
    flat = _squash(code)
    error: dict[str, Any] = {"t": record.error_type}
    if record.error_class and record.error_class not in code.rsplit("\n", 1)[-1]:
        error["x"] = record.error_class  # where the raising statement does not name it
    error["c"] = code
    if not _code_shows(record.error_message, _glued(flat)):
        error["m"] = record.error_message
    shown = _as_shown(record.message_pattern, record.error_message)
    if shown and shown != "%m[: …]":  # an optional appended error: as the code says
        error["r"] = shown
    guards = [g for g in evidence.guards if not _shown(g, flat)][:_MAX_WHEN]
    if guards and _arm_shown(guards[0], flat):  # the arm is in the code: its value is news
        error["v"] = cap(_short_paths(guards.pop(0).subject or "value"), _WHEN_CHARS)
    if guards:
        error["w"] = [cap(_short_paths(_guard(g)), _WHEN_CHARS) for g in guards]
    docs = [f"{d.kind}{' ' + d.error_class if d.error_class else ''}: {cap(d.text, _DOC_CHARS)}"
            for d in evidence.docs if d.kind != "summary"]
    if docs:
        error["n"] = docs
    pattern = compiled_pattern(record.message_pattern)
    tests = [_test(t, pattern) for t in evidence.tests[:_MAX_TESTS]]
    if tests:
        error["u"] = tests
    error["d"] = draft.background_tag or "other"
    fn: dict[str, Any] = {}
    if evidence.symbol:
        fn["s"] = evidence.symbol
        fn["p"] = [[name, _short_paths(_ATTRIBUTE.sub("", declared))] for name, declared in
                   zip(evidence.parameters, evidence.declarations, strict=False)]
    summary = next((d.text for d in evidence.docs if d.kind == "summary"), None)
    if summary:
        fn["n"] = cap(_without_name(_first_sentence(summary), evidence.symbol), _DOC_CHARS)
    return Bundle({"p": record.file_path, "l": language or "text"}, fn, error)


# ``a::b::Type`` → ``b::Type``: the last two segments name it well enough to explain it.
_PATH = re.compile(r"\b(?:[A-Za-z_]\w*::)+(?=[A-Za-z_]\w*::[A-Za-z_]\w*)")


def _short_paths(text: str) -> str:
    return _PATH.sub("", text)


def excerpt(record: Record, evidence: Evidence) -> str:
    """The lines at the site: a guard just above it, then the raising statement (until its
    brackets close, a few lines at most) joined onto one line; indentation stripped."""
    lines = record.source_code.split("\n")
    at = record.line_number - record.source_code_start
    if not 0 <= at < len(lines):
        return ""
    start = at
    for guard in evidence.guards:
        if 0 < record.line_number - guard.line <= 3:
            start = min(start, guard.line - record.source_code_start)
    end, depth = at, _balance(lines[at])
    while depth > 0 and end + 1 < len(lines) and end - at < 5:
        end += 1
        depth += _balance(lines[end])
    statements: list[list[str]] = []
    depth = 0
    for line in lines[start:at]:
        if not line.strip():
            continue
        if depth > 0 and statements:  # a call still open above the site: one statement
            statements[-1].append(line)
        else:
            statements.append([line])
        depth = max(0, depth + _balance(line, "([")) if line.rstrip()[-1:] != "{" else 0
    if depth > 0 and statements:
        statements[-1].extend(lines[at:end + 1])
    else:
        statements.append(lines[at:end + 1])
    return cap("\n".join(_join(s) for s in statements), _EXCERPT_CHARS)


def _join(lines: list[str]) -> str:
    """One statement's lines as one: a string continued with a trailing backslash goes on
    without it (as the compiler reads it); no space inside brackets."""
    out = ""
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if out.endswith("\\"):
            out = out[:-1] + line
        elif out and not out.endswith(("(", "[", "{")) and not line.startswith((")", "]", "}")):
            out += " " + line
        else:
            out += line
    return out


# Adjacent string literals the compiler joins (``"a" "b"``, ``"a" f"b"``, ``"a" + "b"``).
_ADJACENT = re.compile(r"([\"'])(?:\s+|\s*\+\s*)[fFrRbBuU]?\1")


def _glued(code: str) -> str:
    """The code with adjacent string literals joined and quotes unescaped, so a message
    split across literals or holding quotes is found in it (and not sent a second time)."""
    return _squash(_ADJACENT.sub("", code).replace('\\"', '"').replace("\\'", "'")
                   .replace("\\n", " ").replace("\\t", " "))


def _code_shows(message: str, code: str) -> bool:
    """Whether the code sent shows the message: as one literal, or built in order from
    its literal parts and the expressions of its holes (``"a " + x + " b"``)."""
    flat = _squash(message)
    if flat in code:
        return True
    at = 0
    holes = _HOLE.findall(flat)
    for index, part in enumerate(_HOLE.split(flat)):
        if index:  # the hole before this part: its expression, where the message names one
            name = re.split(r"[!:]", holes[index - 1].strip("${}"), maxsplit=1)[0].strip()
            if name and not name.startswith("%"):
                found = code.find(name, at)
                if found < 0:
                    return False
                at = found + len(name)
        part = part.strip()
        if part:
            found = code.find(part, at)
            if found < 0:
                return False
            at = found + len(part)
    return True


def _without_name(doc: str, symbol: str | None) -> str:
    """A doc that starts with its symbol's name (Go's convention: ``ErrX is returned
    when…``) without it: the ``S`` line above already names it."""
    name = re.split(r"[.:]+", symbol or "")[-1]
    if name and doc.startswith(name + " ") and len(doc) > len(name) + 1:
        return doc[len(name) + 1:]
    return doc


def _first_sentence(text: str) -> str:
    """A doc summary's first sentence: what the function is for; the rest is detail."""
    end = re.search(r"[.!?](?=\s|$)", text)
    return text[:end.end()] if end else text


def _squash(text: str) -> str:
    return " ".join(text.split())


# The assertion macros whose conditions become ``assert`` guards (evidence.site).
_ASSERTION = re.compile(r"\b(?:debug_)?(?:assert|assert_eq|assert_ne|ensure)!")


def _shown(guard: Guard, flat: str) -> bool:
    """Whether the code sent already shows the guard's condition."""
    condition = _squash(guard.condition)
    if guard.kind == "assert" and _ASSERTION.search(flat):
        return True  # the assertion is in the code: its condition needs no second line
    return condition in flat or condition.replace(" ", "") in flat.replace(" ", "")


def _arm_shown(guard: Guard, flat: str) -> bool:
    """Whether the code sent starts with the match arm the guard is (``Some(x) =>``)."""
    return guard.kind == "match-arm" and bool(guard.handled) and flat.startswith(
        _squash(guard.handled[0]))


def _as_shown(pattern: str, message: str) -> str | None:
    """The pattern where it tells more than the message — text the runtime adds around it
    (``not implemented: …``), an optional appended error — written as the message is
    shown: ``%m`` for the message, ``…`` for a value, ``[x]`` for an optional part. None
    when the pattern is just the message with its holes."""
    if not pattern:
        return None
    shape = shape_of(pattern)
    if shape.plain and all(fragment in message for fragment in shape.fragments):
        return None
    display = _display(pattern)
    bare = _HOLE.sub("…", message)
    if display is None:
        return pattern
    if bare and bare in display:
        display = display.replace(bare, "%m", 1)
    return display


# A value's place in a message template: {name:?}, %s, %-5d, ${expr}.
_HOLE = re.compile(r"\$\{[^}]*\}|\{[^{}]*\}|%[-#+ 0-9.]*[a-zA-Z]")


def _display(pattern: str) -> str | None:
    """A regex of literal text, ``(.+?)`` holes and ``(?:…)?`` optional parts as text;
    None for any other regex."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("(.+?)", i):
            out.append("…")
            i += 5
        elif pattern.startswith("(?:", i):
            depth, j = 0, i
            while j < len(pattern):
                if pattern[j] == "\\":
                    j += 2
                    continue
                depth += {"(": 1, ")": -1}.get(pattern[j], 0)
                if depth == 0:
                    break
                j += 1
            inner = _display(pattern[i + 3:j])
            if inner is None or not pattern.startswith(")?", j):
                return None
            out.append(f"[{inner}]")
            i = j + 2
        elif pattern[i] == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            if nxt.isalnum() and nxt not in "nt":
                return None
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        elif pattern[i] in ".^$*+?{}[]|()":
            return None
        else:
            out.append(pattern[i])
            i += 1
    return "".join(out)


def _balance(line: str, opening: str = "([{") -> int:
    closing = {"(": ")", "[": "]", "{": "}"}
    return sum(line.count(c) - line.count(closing[c]) for c in opening)


def _arm(text: str) -> str:
    return _BINDINGS.sub(lambda m: "(..)" if m.group(1) == "(" else "{..}", text)


def _guard(guard: Guard) -> str:
    if guard.kind == "catch-all":
        handled = ", ".join(_arm(h) for h in guard.handled[:8])
        return f"{guard.subject or 'value'} is none of: {handled}"
    if guard.kind == "match-arm":
        arms = ", ".join(guard.handled) or guard.condition
        return f"{guard.subject or 'value'} matches {_arm(arms)}"
    return f"{guard.kind}: {_squash(guard.condition)}"


_REGEX_SYNTAX = re.compile(r"[.^$*+?{}\[\]\\|()]")


def _test(test: TestLink, pattern: CompiledPattern | None) -> str:
    """A linked test on one line; an expected text the pattern fullmatches is the message
    itself, already sent: "expects %m" says so in two tokens."""
    parts = [test.name]
    if test.call:
        parts.append(f"calls {cap(test.call, _TEST_CHARS)}")
    if test.expected:
        # a regex without metacharacters (pytest's ``match="…"``, mostly) is literal text
        literal = test.mode != "regex" or not _REGEX_SYNTAX.search(test.expected)
        exact = literal and pattern is not None and pattern.fullmatch(test.expected)
        expected = "%m" if exact else cap(test.expected, _TEST_CHARS)
        parts.append(f"expects {test.error_class + ' ' if test.error_class else ''}{expected}")
    elif test.error_class:
        parts.append(f"expects {test.error_class}")
    return "; ".join(parts)



def cap(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, the cut marked with an ellipsis."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def dumps(value: Any, sort: bool = False) -> str:
    """Compact JSON, non-ASCII as is."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=sort)
