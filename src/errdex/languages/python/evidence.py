"""What Python tells the evidence stage: docstrings, ``pytest.raises``/``assertRaises``,
``not (…)`` and ``in (…)`` as its guards are written."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from tree_sitter import Node

from errdex.languages._engine.evidence import (
    EvidenceRules,
    Tests,
    cleandoc,
    clip,
    enclosing_name,
    literal_text,
    make_link,
    summary,
    walk,
)
from errdex.languages.base import ancestors, text
from errdex.records.evidence import DocNote, MatchMode, TestLink

_SPHINX = re.compile(r"^:raises?\s+([\w.]+)\s*:\s*(.*)$")


# --- docstrings: Google ``Raises:``, NumPy ``Raises``, Sphinx ``:raises X:`` ---------------


def docstring_notes(function: Node) -> list[DocNote]:
    """The notes of a function's docstring (none without one)."""
    body = function.child_by_field_name("body")
    first = body.named_children[0] if body is not None and body.named_children else None
    if first is not None and first.type == "expression_statement" and first.named_children:
        first = first.named_children[0]
    if first is None or first.type != "string":
        return []
    try:
        value = ast.literal_eval(text(first))
    except (ValueError, SyntaxError):
        return []
    if not isinstance(value, str):
        return []
    return _notes(cleandoc(value), first.start_point[0] + 1)


def _notes(body: str, line: int) -> list[DocNote]:
    notes = summary(body, line)
    lines = body.splitlines()
    for index, raw in enumerate(lines):
        sphinx = _SPHINX.match(raw.strip())
        if sphinx:
            notes.append(DocNote(kind="raises", error_class=sphinx.group(1),
                                 text=clip(sphinx.group(2)) or sphinx.group(1), line=line))
            continue
        header = raw.strip()
        underlined = index + 1 < len(lines) and set(lines[index + 1].strip()) == {"-"}
        if header == "Raises:" or (header == "Raises" and underlined):
            rest = lines[index + 1 + underlined :]
            notes.extend(_raises_section(rest, line, google=not underlined))
    return notes


def _raises_section(lines: list[str], line: int, google: bool) -> list[DocNote]:
    """``ValueError: If x…`` entries (Google) or ``ValueError`` + indented text (NumPy)."""
    notes: list[DocNote] = []
    base = None
    current: tuple[str, list[str]] | None = None
    for raw in lines:
        if not raw.strip():
            if google and current is not None:
                break
            continue
        indent = len(raw) - len(raw.lstrip())
        if base is None:
            base = indent
        if indent < base or (not google and indent == base and raw.strip().endswith(":")):
            break
        if indent == base:
            if current is not None:
                notes.append(_entry(current, line))
            name, _, rest = raw.strip().partition(":") if google else (raw.strip(), "", "")
            if not re.fullmatch(r"[\w.]+", name.strip()):
                break
            current = (name.strip(), [rest.strip()] if rest.strip() else [])
        elif current is not None:
            current[1].append(raw.strip())
    if current is not None:
        notes.append(_entry(current, line))
    return notes


def _entry(entry: tuple[str, list[str]], line: int) -> DocNote:
    name, words = entry
    return DocNote(kind="raises", error_class=name, text=clip(" ".join(words)) or name, line=line)


# --- tests: pytest.raises / warns, unittest assertRaises… -----------------------------------

_RAISES = {"raises": "pytest", "warns": "pytest", "assertRaises": "unittest",
           "assertRaisesRegex": "unittest", "assertWarns": "unittest",
           "assertWarnsRegex": "unittest"}


def claims(path: str, root: Node) -> Iterator[TestLink]:
    """``pytest.raises(X, match=…)``, ``self.assertRaises(X)``, ``assertRaisesRegex(X, "…")``
    (``with`` blocks and the call form)."""
    for node in walk(root):
        if node.type != "call":
            continue
        function = text(node.child_by_field_name("function")).rpartition(".")[2]
        framework = _RAISES.get(function)
        args = node.child_by_field_name("arguments")
        if framework is None or args is None:
            continue
        positional = [a for a in args.named_children if a.type != "keyword_argument"]
        keywords = {text(a.child_by_field_name("name")): a.child_by_field_name("value")
                    for a in args.named_children if a.type == "keyword_argument"}
        if not positional:
            continue
        error_class = text(positional[0])
        pattern = keywords.get("match") or keywords.get("expected_regex")
        rest = positional[1:]
        if function.endswith("Regex") and rest:
            pattern, rest = rest[0], rest[1:]
        expected = literal_text(pattern)
        call = _call(node, rest)
        name = enclosing_name(node, ("function_definition",))
        mode: MatchMode = "regex" if expected is not None else "class"
        yield make_link(path, node, name, framework, mode, expected, error_class, call)


def _call(node: Node, rest: list[Node]) -> str | None:
    if rest:  # assertRaises(X, func, *args)
        return f"{text(rest[0])}({', '.join(text(a) for a in rest[1:])})"
    with_statement = next((a for a in ancestors(node) if a.type == "with_statement"), None)
    body = with_statement.child_by_field_name("body") if with_statement is not None else None
    if body is None or not body.named_children:
        return None
    return text(body.named_children[-1])


def _membership(subject: str, patterns: list[str]) -> tuple[str, str]:
    if len(patterns) == 1:
        return f"{subject} == {patterns[0]}", f"{subject} != {patterns[0]}"
    listed = ", ".join(patterns)
    return f"{subject} in ({listed})", f"{subject} not in ({listed})"


EVIDENCE = EvidenceRules(
    functions=frozenset({"function_definition"}),
    docstring=docstring_notes,
    negation="not ({})",
    bindings=True,
    membership=_membership,
    tests=Tests((b"raises", b"assertRaises", b"warns", b"assertWarns"), claims),
)
