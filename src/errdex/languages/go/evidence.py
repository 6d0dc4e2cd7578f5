"""What Go tells the evidence stage: its function node types, and how its tests claim an
error (``err.Error() == "…"``, testify's ``EqualError``/``ErrorContains``, and
``strings.Contains(err.Error(), "…")``)."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from errdex.languages._engine.evidence import (
    EvidenceRules,
    Tests,
    enclosing_name,
    literal_text,
    make_link,
    walk,
)
from errdex.languages.base import text
from errdex.languages.go.messages import FUNCTION_TYPES
from errdex.records.evidence import TestLink

_ASSERTS = {"EqualError": "exact", "ErrorContains": "substring", "Contains": "substring"}


def _tests(path: str, root: Node) -> Iterator[TestLink]:
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
            mode = _ASSERTS.get(function)
            if mode is None or not values or (message := literal_text(values[-1])) is None:
                continue
            if function == "Contains" and not text(values[0]).endswith(".Error()"):
                continue
            yield make_link(path, node, name, "go", "exact" if mode == "exact" else "substring",
                            message, None, None)


EVIDENCE = EvidenceRules(
    frozenset(FUNCTION_TYPES),
    tests=Tests((b".Error()", b"EqualError", b"ErrorContains"), _tests),
)
