"""What Java tells the evidence stage: its function node types, and how its tests claim an
error (JUnit's ``assertThrows`` and ``assertEquals("…", e.getMessage())``, AssertJ's
``hasMessage``/``hasMessageContaining``)."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from errdex.languages._engine import evidence as shared
from errdex.languages.base import text
from errdex.records.evidence import MatchMode, TestLink

_CALLS = ("assertThrows", "assertEquals", "hasMessage", "hasMessageContaining")


def _tests(path: str, root: Node) -> Iterator[TestLink]:
    """``assertThrows(X.class, …)``, ``assertEquals("…", e.getMessage())``, AssertJ
    ``hasMessage`` / ``hasMessageContaining``."""
    for node in shared.calls_named(root, _CALLS, "method_invocation"):
        method = text(node.child_by_field_name("name"))
        args = node.child_by_field_name("arguments")
        values = args.named_children if args is not None else []
        # the test's name only for a claim (most ``assertEquals`` calls are none)
        if method == "assertThrows" and len(values) >= 2:
            body = values[1].child_by_field_name("body") if values[1].type == (
                "lambda_expression") else values[1]
            yield shared.make_link(
                path, node, _test_name(node), "junit", "class", None,
                text(values[0]).removesuffix(".class"), text(body) if body else None)
        elif method == "assertEquals" and len(values) >= 2 and text(values[1]).endswith(
            "getMessage()"
        ) and (message := shared.literal_text(values[0])) is not None:
            yield shared.make_link(path, node, _test_name(node), "junit", "exact", message,
                                   None, None)
        elif method in ("hasMessage", "hasMessageContaining") and values and (
            message := shared.literal_text(values[0])
        ) is not None:
            mode: MatchMode = "exact" if method == "hasMessage" else "substring"
            yield shared.make_link(path, node, _test_name(node), "assertj", mode, message,
                                   None, None)


def _test_name(node: Node) -> str:
    return shared.enclosing_name(node, ("method_declaration",))


EVIDENCE = shared.EvidenceRules(
    frozenset({"method_declaration", "constructor_declaration"}),
    tests=shared.Tests((b"assertThrows", b"getMessage", b"hasMessage"), _tests),
)
