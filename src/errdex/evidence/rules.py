"""Which ``EvidenceRules`` a language has: its spec's, else the entry below.

The entries here are for languages whose folder does not yet declare its rules on its
spec; each moves to ``languages/<lang>/`` (as Python's, Rust's and JavaScript's have),
and this table empties.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from errdex.languages import spec_for
from errdex.languages._engine.evidence import (
    EvidenceRules,
    Tests,
    enclosing_name,
    literal_text,
    make_link,
    walk,
)
from errdex.languages.base import text
from errdex.records.evidence import MatchMode, TestLink


def rules_for(language: str) -> EvidenceRules:
    """The evidence rules of a language (empty ones for a language errdex does not know)."""
    spec = spec_for(language)
    if spec is not None and spec.evidence.functions:
        return spec.evidence
    return _NOT_IN_SPECS.get(language, EvidenceRules())


# --- Java -----------------------------------------------------------------------------------


def _java(path: str, root: Node) -> Iterator[TestLink]:
    """``assertThrows(X.class, …)``, ``assertEquals("…", e.getMessage())``, AssertJ
    ``hasMessage`` / ``hasMessageContaining``."""
    for node in walk(root):
        if node.type != "method_invocation":
            continue
        method = text(node.child_by_field_name("name"))
        args = node.child_by_field_name("arguments")
        values = args.named_children if args is not None else []
        name = enclosing_name(node, ("method_declaration",))
        if method == "assertThrows" and len(values) >= 2:
            body = values[1].child_by_field_name("body") if values[1].type == (
                "lambda_expression") else values[1]
            yield make_link(path, node, name, "junit", "class", None,
                            text(values[0]).removesuffix(".class"), text(body) if body else None)
        elif method == "assertEquals" and len(values) >= 2 and text(values[1]).endswith(
            "getMessage()"
        ) and (message := literal_text(values[0])) is not None:
            yield make_link(path, node, name, "junit", "exact", message, None, None)
        elif method in ("hasMessage", "hasMessageContaining") and values and (
            message := literal_text(values[0])
        ) is not None:
            mode: MatchMode = "exact" if method == "hasMessage" else "substring"
            yield make_link(path, node, name, "assertj", mode, message, None, None)


# --- Go ---------------------------------------------------------------------------------------

_GO_ASSERTS = {"EqualError": "exact", "ErrorContains": "substring", "Contains": "substring"}


def _go(path: str, root: Node) -> Iterator[TestLink]:
    """``err.Error() == "…"``, ``assert.EqualError(t, err, "…")``, ``ErrorContains``,
    ``strings.Contains(err.Error(), "…")``."""
    for node in walk(root):
        name = enclosing_name(node, ("function_declaration", "method_declaration"))
        if node.type == "binary_expression" and len(node.named_children) == 2:
            operator = text(node.child_by_field_name("operator"))
            left, right = node.named_children
            for call, literal in ((left, right), (right, left)):
                message = literal_text(literal)
                if operator in ("==", "!=") and message is not None and text(call).endswith(
                    ".Error()"
                ):
                    yield make_link(path, node, name, "go", "exact", message, None, None)
        elif node.type == "call_expression":
            function = text(node.child_by_field_name("function")).rpartition(".")[2]
            args = node.child_by_field_name("arguments")
            values = args.named_children if args is not None else []
            mode = _GO_ASSERTS.get(function)
            if mode is None or not values or (message := literal_text(values[-1])) is None:
                continue
            if function == "Contains" and not text(values[0]).endswith(".Error()"):
                continue
            yield make_link(path, node, name, "go", "exact" if mode == "exact" else "substring",
                            message, None, None)


_NOT_IN_SPECS: dict[str, EvidenceRules] = {
    "go": EvidenceRules(
        frozenset({"function_declaration", "method_declaration", "func_literal"}),
        tests=Tests((b".Error()", b"EqualError", b"ErrorContains"), _go),
    ),
    "java": EvidenceRules(
        frozenset({"method_declaration", "constructor_declaration"}),
        tests=Tests((b"assertThrows", b"getMessage", b"hasMessage"), _java),
    ),
    "kotlin": EvidenceRules(frozenset({"function_declaration", "secondary_constructor"})),
    "csharp": EvidenceRules(frozenset({"method_declaration", "constructor_declaration",
                                       "local_function_statement"})),
    "ruby": EvidenceRules(frozenset({"method", "singleton_method"})),
    "php": EvidenceRules(frozenset({"function_definition", "method_declaration"})),
    "swift": EvidenceRules(frozenset({"function_declaration", "init_declaration"})),
    "c": EvidenceRules(frozenset({"function_definition"})),
    "cpp": EvidenceRules(frozenset({"function_definition"})),
}
