"""What Rust tells the evidence stage: ``# Panics``/``# Errors`` doc sections, the guard an
``assert!`` or ``.expect`` carries, ``matches!`` for match arms, and its tests'
``#[should_panic]`` and ``assert!`` claims (in test files and in ``#[cfg(test)]`` modules)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from tree_sitter import Node, Query
from tree_sitter_language_pack import get_language

from errdex.languages._engine.evidence import (
    EvidenceRules,
    Tests,
    clip,
    enclosing_name,
    make_link,
    squash,
    walk,
)
from errdex.languages.base import ancestors, captures, text
from errdex.languages.rust.syntax import group_text, in_test_code, split_token_tree, string_value
from errdex.records.evidence import DocKind, DocNote, Guard, MatchMode, TestLink

_HEADING = re.compile(r"^#+\s*(Panics|Errors)\s*$", re.I)
_ASSERTS = {"assert": None, "debug_assert": None, "ensure": None, "assert_eq": "==",
            "debug_assert_eq": "==", "assert_ne": "!=", "debug_assert_ne": "!="}
_OTHER = {"==": "!=", "!=": "=="}
_UNWRAPS = frozenset({"expect", "context", "with_context", "wrap_err", "wrap_err_with", "ok_or",
                      "ok_or_else", "map_err"})


def doc_sections(body: str, line: int) -> list[DocNote]:
    """The ``# Panics`` and ``# Errors`` sections of a ``///`` comment."""
    notes: list[DocNote] = []
    kind: DocKind | None = None
    words: list[str] = []
    for raw in [*body.splitlines(), "# End"]:
        heading = _HEADING.match(raw.strip())
        if heading or raw.strip().startswith("# "):
            if kind is not None and words:
                notes.append(DocNote(kind=kind, text=clip(" ".join(words)), line=line))
            words = []
            kind = None
            if heading:
                kind = "panics" if heading.group(1).lower() == "panics" else "errors"
        elif kind is not None and raw.strip():
            words.append(raw.strip())
    return notes


# --- guards a construct carries itself ----------------------------------------------------


def own_guards(node: Node, leaf: Node, line: int) -> list[Guard]:
    """``assert!(c, ..)`` fires when ``!c``; ``x.expect(..)`` when ``x`` is ``Err``/``None``
    (also when the receiver chain starts on a line above the ``.expect``)."""
    return _own_guard(node, line) or _unwrap_above(leaf, line)


def _unwrap_above(leaf: Node, line: int) -> list[Guard]:
    """``a\\n    .b()\\n    .expect("m")``: the site's line holds only ``.expect``; its
    receiver chain starts on an earlier line."""
    for parent in list(ancestors(leaf))[:3]:
        if parent.type == "field_expression":
            field = parent.child_by_field_name("field")
            value = parent.child_by_field_name("value")
            if field is not None and value is not None and text(field) in _UNWRAPS and (
                field.start_point[0] + 1 == line
            ):
                return [Guard(kind="unwrap", condition=squash(text(value), 120), line=line)]
    return []


def _own_guard(node: Node, line: int) -> list[Guard]:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.start_point[0] + 1 > line:
            continue
        if current.type == "macro_invocation":
            name = text(current.child_by_field_name("macro")).rpartition("::")[2]
            tree = next((c for c in current.named_children if c.type == "token_tree"), None)
            if name in _ASSERTS and tree is not None and current.start_point[0] + 1 == line:
                groups = split_token_tree(tree)
                compare = _ASSERTS[name]
                if compare is None and groups:
                    condition = squash(group_text(groups[0]))
                    return [Guard(kind="assert", condition=f"!({condition})", negated=condition,
                                  line=line)]
                if compare is not None and len(groups) >= 2:
                    left, right = squash(group_text(groups[0])), squash(group_text(groups[1]))
                    return [Guard(kind="assert", condition=f"{left} {_OTHER[compare]} {right}",
                                  negated=f"{left} {compare} {right}", line=line)]
        if current.type == "field_expression":
            field = current.child_by_field_name("field")
            value = current.child_by_field_name("value")
            if text(field) in _UNWRAPS and value is not None and field is not None and (
                field.start_point[0] + 1 == line
            ):
                return [Guard(kind="unwrap", condition=squash(text(value), 120), line=line)]
        stack.extend(reversed(current.named_children))
    return []


def _membership(subject: str, patterns: list[str]) -> tuple[str, str]:
    inside = f"matches!({subject}, {' | '.join(patterns)})"
    return inside, f"!{inside}"


# --- tests ---------------------------------------------------------------------------------

_QUERY = "(function_item) @node (macro_invocation) @node"


@cache
def _query() -> Query:
    return Query(get_language("rust"), _QUERY)


def claims(path: str, root: Node) -> Iterator[TestLink]:
    """``#[should_panic(expected = "…")]``, ``assert!(matches!(…, Err(X…)))``,
    ``assert_eq!(e.to_string(), "…")``, ``assert!(e.to_string().contains("…"))``."""
    found = captures(_query(), root).get("node", [])
    for node in sorted(found, key=lambda n: n.start_byte):
        if node.type == "function_item":
            attribute = _should_panic(node)
            if attribute is None:
                continue
            literal = next((n for n in walk(attribute) if n.type == "string_literal"), None)
            expected = string_value(literal) if literal is not None else None
            body = node.child_by_field_name("body")
            statements = [c for c in body.named_children if "comment" not in c.type] if body else []
            call = text(statements[-1]) if statements else None
            mode: MatchMode = "substring" if expected is not None else "class"
            yield make_link(path, node, text(node.child_by_field_name("name")), "should_panic",
                            mode, expected, None, call)
        elif node.type == "macro_invocation":
            assertion = _assert(node)
            if assertion is not None:
                mode, expected, error_class, call = assertion
                yield make_link(path, node, enclosing_name(node, ("function_item",)),
                                "rust-assert", mode, expected, error_class, call)


def test_items(root: Node) -> Iterator[Node]:
    """The ``#[cfg(test)]`` modules and ``#[test]`` functions of a file (top level and one
    module deep): only their subtrees are read."""
    for item in root.named_children:
        if item.type in ("mod_item", "function_item") and in_test_code(item):
            yield item
        elif item.type == "mod_item":
            body = item.child_by_field_name("body")
            for inner in body.named_children if body is not None else []:
                if inner.type in ("mod_item", "function_item") and in_test_code(inner):
                    yield inner


def _should_panic(function: Node) -> Node | None:
    sibling = function.prev_named_sibling
    while sibling is not None and (sibling.type == "attribute_item" or "comment" in sibling.type):
        if sibling.type == "attribute_item" and "should_panic" in text(sibling):
            return sibling
        sibling = sibling.prev_named_sibling
    return None


def _assert(node: Node) -> tuple[MatchMode, str | None, str | None, str | None] | None:
    name = text(node.child_by_field_name("macro"))
    tree = next((c for c in node.named_children if c.type == "token_tree"), None)
    if name not in ("assert", "assert_eq") or tree is None:
        return None
    groups = split_token_tree(tree)
    if name == "assert_eq" and len(groups) >= 2:
        for ours, theirs in ((groups[0], groups[1]), (groups[1], groups[0])):
            if len(ours) == 1 and (message := string_value(ours[0])) is not None and any(
                method in group_text(theirs) for method in ("to_string()", "unwrap_err()")
            ):
                return "exact", message, None, group_text(theirs)
        return None
    tokens = list(walk(tree))
    for index, token in enumerate(tokens):
        if text(token) == "contains" and index + 1 < len(tokens) and groups:
            literal = next((t for t in tokens[index + 1:] if t.type == "string_literal"), None)
            message = string_value(literal) if literal is not None else None
            if message is not None:
                return "substring", message, None, group_text(groups[0])
        if text(token) == "Err" and token.type == "identifier" and "matches" in text(tree):
            after = token.next_sibling
            inner = [text(t) for t in (after.children[1:] if after is not None else [])]
            error_class = "".join(inner).split("(")[0].split("{")[0].split(")")[0].strip()
            parent = token.parent
            inner_groups = split_token_tree(parent) if parent is not None else []
            call = group_text(inner_groups[0]) if inner_groups else None
            if error_class and error_class[:1].isupper():
                return "class", None, error_class, call
    return None


EVIDENCE = EvidenceRules(
    functions=frozenset({"function_item"}),
    doc_sections=doc_sections,
    own_guards=own_guards,
    bindings=True,
    membership=_membership,
    tests=Tests(
        (b"should_panic", b"unwrap_err", b"assert!(matches!", b'.contains("'), claims,
        inline_markers=(b"#[cfg(test)]", b"#[test]"), inline_items=test_items,
    ),
)
