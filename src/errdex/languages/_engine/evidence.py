"""What a language tells the evidence stage, and the helpers its readers share.

``evidence/`` reads a site's function, guards, doc comments and the tests that name
its error the same way for every language; a language's ``EvidenceRules`` (on its
spec) say what differs: which nodes are functions, how a docstring or a doc section
is read, which guards a construct carries itself (Rust's ``assert!``), how a
condition is negated and a case written, and how its test files claim an error.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from tree_sitter import Node

from errdex.languages.base import WORD_BYTES, ancestors, text, whole_words
from errdex.records.evidence import DocNote, Guard, MatchMode, TestLink

MAX_CODE = 200
MAX_NOTE = 400

# (the test file's path, a subtree) → the claims its tests make
TestReader = Callable[[str, Node], Iterator[TestLink]]


@dataclass(frozen=True)
class Tests:
    """How a language's tests claim an error.

    ``markers``: bytes a test file holds for ``read`` to find anything (others are not
    parsed). ``inline_markers``/``inline_items``: a product file's own test code (Rust's
    ``#[cfg(test)]`` modules), read item by item.
    """

    markers: tuple[bytes, ...]
    read: TestReader
    inline_markers: tuple[bytes, ...] = ()
    inline_items: Callable[[Node], Iterator[Node]] | None = None


@dataclass(frozen=True)
class EvidenceRules:
    """What the evidence stage reads differently in one language.

    ``functions``: node types whose text gives a site's signature, parameters and docs.
    ``docstring``: the notes of a function's own docstring (Python), read instead of the
    comment above it. ``doc_sections``: notes a comment block holds beyond the shared
    tags (Rust's ``# Panics``). ``own_guards``: (statement, leaf, line) → the guard a
    construct carries itself. ``negation``: how a condition is negated (``{}``: the
    condition). ``bindings``: a lowercase match pattern binds a name (a catch-all).
    ``membership``: (subject, patterns) → (is one of them, is none), as code;
    default: ``==`` chains with ``equality``.
    """

    functions: frozenset[str] = frozenset()
    docstring: Callable[[Node], list[DocNote]] | None = None
    doc_sections: Callable[[str, int], list[DocNote]] | None = None
    own_guards: Callable[[Node, Node, int], list[Guard]] | None = None
    negation: str = "!({})"
    bindings: bool = False
    membership: Callable[[str, list[str]], tuple[str, str]] | None = None
    equality: tuple[str, str] = ("==", "!=")
    tests: Tests | None = None


def squash(value: str, limit: int = MAX_CODE) -> str:
    """Whitespace collapsed, cut to ``limit`` characters (with ``…``)."""
    one = " ".join(value.split()).replace(" .", ".").replace(" ?.", "?.")
    return one if len(one) <= limit else one[: limit - 1] + "…"


def clip(value: str) -> str:
    """A note's text on one line, cut to ``MAX_NOTE`` characters."""
    one = " ".join(value.split())
    return one if len(one) <= MAX_NOTE else one[: MAX_NOTE - 1] + "…"


def summary(body: str, line: int) -> list[DocNote]:
    """The documentation's first paragraph, as a ``summary`` note (none when it opens
    with a tag)."""
    kept: list[str] = []
    for raw in body.strip().splitlines():
        if not raw.strip() or raw.strip().startswith(("@", ":param", ":raise", "\\", "# ")):
            break
        kept.append(raw)
    paragraph = "\n".join(kept).strip()
    if not paragraph or paragraph.startswith(("@", ":", "#", "<")):
        return []
    paragraph = re.sub(r"</?summary>", "", paragraph).strip()
    return [DocNote(kind="summary", text=clip(paragraph), line=line)]


def cleandoc(value: str) -> str:
    """Indentation common to a docstring's lines removed (as ``help()`` shows it)."""
    return inspect.cleandoc(value)


def walk(root: Node) -> Iterator[Node]:
    """Every named node under ``root``, in source order."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.named_children))


def calls_named(root: Node, names: tuple[str, ...], kind: str, field: str = "name") -> list[Node]:
    """The ``kind`` nodes under ``root`` whose ``field`` child is one of ``names``, in
    ``walk``'s order. Found where the names are written (a search of the source's bytes,
    then the tree's node there), not by visiting every node: a test file is mostly other
    calls, and a walk in Python over all of them cost more than parsing it."""
    source = root.text or b""
    found: dict[int, Node] = {}
    for at, end in _written(source, names):
        leaf = root.descendant_for_byte_range(root.start_byte + at, root.start_byte + end)
        call = leaf.parent if leaf is not None else None
        if call is not None and call.type == kind and call.child_by_field_name(field) == leaf:
            found[call.start_byte * (1 << 32) - call.end_byte] = call
    # walk's order: a call before the calls inside it (same start, larger end), then by start
    return [found[key] for key in sorted(found)]


def _written(source: bytes, names: tuple[str, ...]) -> list[tuple[int, int]]:
    """(start, end) of each of ``names`` written as a whole word in ``source``, as a scan
    from its start finds them: the longest where several start at one byte, none inside
    one found before. Each name is searched for on its own (a byte search skips ahead; a
    pattern of them all was tried at every byte where one of their first letters stands,
    most bytes of a test file)."""
    spans = [(at, -(at + len(name))) for name in {n.encode() for n in names}
             for at in whole_words(source, name, _WORD_BYTES)]
    spans.sort()
    out: list[tuple[int, int]] = []
    reached = 0
    for at, negative_end in spans:
        if at >= reached:
            out.append((at, -negative_end))
            reached = -negative_end
    return out


# The bytes of a name (``[\w$]`` of a bytes pattern): none may touch a name found.
_WORD_BYTES = WORD_BYTES | frozenset(b"$")


def make_link(path: str, node: Node, name: str, framework: str, mode: MatchMode,
              expected: str | None, error_class: str | None, call: str | None) -> TestLink:
    """One test's claim about the error a call makes."""
    return TestLink(path=path, line=node.start_point[0] + 1, name=name, framework=framework,
                    mode=mode, expected=expected, error_class=error_class or None,
                    call=squash(call, 160) if call else None)


def enclosing_name(node: Node, kinds: tuple[str, ...]) -> str:
    """The name of the innermost ancestor of one of ``kinds`` (a test function)."""
    for parent in ancestors(node):
        if parent.type in kinds:
            name = parent.child_by_field_name("name")
            if name is not None:
                return text(name)
    return "<module>"


def literal_text(node: Node | None) -> str | None:
    """The value of a string literal of any supported language; None for others (and for
    one with an interpolation: not a fixed message)."""
    if node is None:
        return None
    raw = text(node)
    if node.type in ("string", "concatenated_string") and raw[:1] in "\"'rRbBuU":
        try:
            value = ast.literal_eval(raw)
        except (ValueError, SyntaxError):
            value = None
        if isinstance(value, str):
            return value
    if node.type in ("string", "string_literal", "interpreted_string_literal",
                     "template_string") and len(raw) >= 2 and raw[0] == raw[-1]:
        parts: list[str] = []
        for child in node.named_children:
            if "escape" in child.type:
                try:
                    parts.append(str(json.loads('"' + text(child) + '"')))
                except ValueError:
                    parts.append(text(child)[1:])
            elif child.type in ("string_fragment", "string_content",
                                "interpreted_string_literal_content"):
                parts.append(text(child))
            else:
                return None
        return "".join(parts)
    if node.type == "raw_string_literal" and raw[:1] == "`":
        return raw[1:-1]
    return None
