"""What JavaScript/TypeScript tell the evidence stage: ``===`` in match-arm guards and
Jest's ``expect(…).toThrow("…" | /…/ | X)`` claims."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from errdex.languages._engine.evidence import EvidenceRules, Tests, literal_text, make_link, walk
from errdex.languages.base import ancestors, text
from errdex.records.evidence import MatchMode, TestLink

_FUNCTIONS = frozenset({
    "function_declaration", "method_definition", "function_expression", "arrow_function",
    "generator_function_declaration", "function",
})


def claims(path: str, root: Node) -> Iterator[TestLink]:
    """``expect(…).toThrow(…)`` and ``toThrowError(…)``."""
    for node in walk(root):
        if node.type != "call_expression":
            continue
        function = node.child_by_field_name("function")
        if function is None or function.type != "member_expression":
            continue
        method = text(function.child_by_field_name("property"))
        if method not in ("toThrow", "toThrowError"):
            continue
        args = node.child_by_field_name("arguments")
        arg = args.named_children[0] if args is not None and args.named_children else None
        mode: MatchMode = "class"
        expected = error_class = None
        if arg is not None and arg.type == "regex":
            mode, expected = "regex", text(arg.child_by_field_name("pattern"))
        elif arg is not None and (value := literal_text(arg)) is not None:
            mode, expected = "substring", value
        elif arg is not None and arg.type == "identifier":
            error_class = text(arg)
        yield make_link(path, node, _test_name(node), "jest", mode, expected, error_class,
                        _expect_call(function))


def _expect_call(member: Node) -> str | None:
    for part in walk(member):
        function = part.child_by_field_name("function")
        if part.type == "call_expression" and text(function) == "expect":
            args = part.child_by_field_name("arguments")
            inner = args.named_children[0] if args is not None and args.named_children else None
            if inner is not None and inner.type in ("arrow_function", "function_expression"):
                body = inner.child_by_field_name("body")
                return text(body).strip("{} \n;") if body is not None else None
            return text(inner) if inner is not None else None
    return None


def _test_name(node: Node) -> str:
    names = []
    for parent in ancestors(node):
        if parent.type == "call_expression" and text(parent.child_by_field_name("function")) in (
            "it", "test", "describe"
        ):
            args = parent.child_by_field_name("arguments")
            first = args.named_children[0] if args is not None and args.named_children else None
            label = literal_text(first)
            if label:
                names.append(label)
    return " > ".join(reversed(names)) or "<anonymous>"


EVIDENCE = EvidenceRules(
    functions=_FUNCTIONS, equality=("===", "!=="), tests=Tests((b"toThrow",), claims),
)
