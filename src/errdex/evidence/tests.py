"""Test expectations: the repository's tests that say which error a call produces.

Read with tree-sitter from the repository's test files (``repo.skip_reason`` marks
them "test code"), one walk per file:

* Python: ``pytest.raises(X, match=…)``, ``pytest.warns``, ``self.assertRaises(X)``,
  ``assertRaisesRegex(X, "…")`` (``with`` blocks and the call form);
* Rust: ``#[should_panic(expected = "…")]``, ``assert!(matches!(…, Err(X…)))``,
  ``assert_eq!(e.to_string(), "…")``, ``assert!(e.to_string().contains("…"))``;
* JavaScript/TypeScript: ``expect(…).toThrow("…" | /…/ | X)``, ``toThrowError``;
* Java: ``assertThrows(X.class, …)``, ``assertEquals("…", e.getMessage())``, AssertJ
  ``hasMessage`` / ``hasMessageContaining``;
* Go: ``err.Error() == "…"``, ``assert.EqualError(t, err, "…")``, ``ErrorContains``,
  ``strings.Contains(err.Error(), "…")``.

Each becomes an ``Expectation``; ``link.py`` matches them against records.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from tree_sitter import Node, Query
from tree_sitter_language_pack import get_language

from errdex.evidence.site import squash
from errdex.languages.base import ancestors, captures, parse, text
from errdex.languages.rust.syntax import (
    group_text,
    in_test_code,
    split_token_tree,
    string_value,
)
from errdex.records.evidence import MatchMode, TestLink


@dataclass(frozen=True)
class Expectation:
    """One test's claim: this call fails with this class / message."""

    link: TestLink

    @property
    def expected(self) -> str | None:
        return self.link.expected


# Bytes a file must contain for a reader to find anything: most test files are skipped
# without a parse.
_MARKERS: dict[str, tuple[bytes, ...]] = {
    "python": (b"raises", b"assertRaises", b"warns", b"assertWarns"),
    "rust": (b"should_panic", b"unwrap_err", b"assert!(matches!", b'.contains("'),
    "javascript": (b"toThrow",), "typescript": (b"toThrow",), "tsx": (b"toThrow",),
    "java": (b"assertThrows", b"getMessage", b"hasMessage"),
    "go": (b".Error()", b"EqualError", b"ErrorContains"),
}
_INLINE = (b"#[cfg(test)]", b"#[test]")  # Rust unit tests inside product files


def expectations(
    path: str, language: str, grammar: str, data: bytes, *, inline: bool = False
) -> list[Expectation]:
    """Every expectation found in one test file; with ``inline``, a product file's own test
    code (Rust ``#[cfg(test)]`` modules), whose other asserts are not expectations."""
    reader = _READERS.get(language)
    if reader is None or not any(m in data for m in _MARKERS.get(language, ())):
        return []
    if inline and (language != "rust" or not any(m in data for m in _INLINE)):
        return []
    root = parse(grammar, data).root_node
    if inline:
        return [Expectation(link) for item in _test_items(root) for link in reader(path, item)]
    return [Expectation(link) for link in reader(path, root)]


def _test_items(root: Node) -> Iterator[Node]:
    """The ``#[cfg(test)]`` modules and ``#[test]`` functions of a Rust file (top level and
    one module deep): only their subtrees are read."""
    for item in root.named_children:
        if item.type in ("mod_item", "function_item") and in_test_code(item):
            yield item
        elif item.type == "mod_item":
            body = item.child_by_field_name("body")
            for inner in body.named_children if body is not None else []:
                if inner.type in ("mod_item", "function_item") and in_test_code(inner):
                    yield inner


def _walk(root: Node) -> Iterator[Node]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.named_children))


def _link(path: str, node: Node, name: str, framework: str, mode: MatchMode,
          expected: str | None, error_class: str | None, call: str | None) -> TestLink:
    return TestLink(path=path, line=node.start_point[0] + 1, name=name, framework=framework,
                    mode=mode, expected=expected, error_class=error_class or None,
                    call=squash(call, 160) if call else None)


def _name(node: Node, kinds: tuple[str, ...]) -> str:
    for parent in ancestors(node):
        if parent.type in kinds:
            name = parent.child_by_field_name("name")
            if name is not None:
                return text(name)
    return "<module>"


def _string(node: Node | None) -> str | None:
    """The value of a string literal of any of the supported languages; None for others."""
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
                return None  # an interpolation: not a fixed message
        return "".join(parts)
    if node.type == "raw_string_literal" and raw[:1] == "`":
        return raw[1:-1]
    return None


@cache
def load_query_text(grammar: str, source: str) -> Query:
    return Query(get_language(grammar), source)  # type: ignore[arg-type]


# --- Python ---------------------------------------------------------------------------------

_PY_RAISES = {"raises": "pytest", "warns": "pytest", "assertRaises": "unittest",
              "assertRaisesRegex": "unittest", "assertWarns": "unittest",
              "assertWarnsRegex": "unittest"}


def _python(path: str, root: Node) -> Iterator[TestLink]:
    for node in _walk(root):
        if node.type != "call":
            continue
        function = text(node.child_by_field_name("function")).rpartition(".")[2]
        framework = _PY_RAISES.get(function)
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
        expected = _string(pattern)
        call = _python_call(node, rest)
        name = _name(node, ("function_definition",))
        mode: MatchMode = "regex" if expected is not None else "class"
        yield _link(path, node, name, framework, mode, expected, error_class, call)


def _python_call(node: Node, rest: list[Node]) -> str | None:
    if rest:  # assertRaises(X, func, *args)
        return f"{text(rest[0])}({', '.join(text(a) for a in rest[1:])})"
    with_statement = next((a for a in ancestors(node) if a.type == "with_statement"), None)
    body = with_statement.child_by_field_name("body") if with_statement is not None else None
    if body is None or not body.named_children:
        return None
    return text(body.named_children[-1])


# --- Rust -----------------------------------------------------------------------------------


_RUST_QUERY = "(function_item) @node (macro_invocation) @node"


def _rust(path: str, root: Node) -> Iterator[TestLink]:
    found = captures(load_query_text("rust", _RUST_QUERY), root).get("node", [])
    for node in sorted(found, key=lambda n: n.start_byte):
        if node.type == "function_item":
            attribute = _should_panic(node)
            if attribute is None:
                continue
            literal = next((n for n in _walk(attribute) if n.type == "string_literal"), None)
            expected = string_value(literal) if literal is not None else None
            body = node.child_by_field_name("body")
            statements = [c for c in body.named_children if "comment" not in c.type] if body else []
            call = text(statements[-1]) if statements else None
            mode: MatchMode = "substring" if expected is not None else "class"
            yield _link(path, node, text(node.child_by_field_name("name")), "should_panic", mode,
                        expected, None, call)
        elif node.type == "macro_invocation":
            assertion = _rust_assert(node)
            if assertion is not None:
                mode, expected, error_class, call = assertion
                yield _link(path, node, _name(node, ("function_item",)), "rust-assert", mode,
                            expected, error_class, call)


def _should_panic(function: Node) -> Node | None:
    sibling = function.prev_named_sibling
    while sibling is not None and (sibling.type == "attribute_item" or "comment" in sibling.type):
        if sibling.type == "attribute_item" and "should_panic" in text(sibling):
            return sibling
        sibling = sibling.prev_named_sibling
    return None


def _rust_assert(node: Node) -> tuple[MatchMode, str | None, str | None, str | None] | None:
    value = string_value
    name = text(node.child_by_field_name("macro"))
    tree = next((c for c in node.named_children if c.type == "token_tree"), None)
    if name not in ("assert", "assert_eq") or tree is None:
        return None
    groups = split_token_tree(tree)
    if name == "assert_eq" and len(groups) >= 2:
        for ours, theirs in ((groups[0], groups[1]), (groups[1], groups[0])):
            if len(ours) == 1 and (message := value(ours[0])) is not None and any(
                method in group_text(theirs) for method in ("to_string()", "unwrap_err()")
            ):
                return "exact", message, None, group_text(theirs)
        return None
    tokens = list(_walk(tree))
    for index, token in enumerate(tokens):
        if text(token) == "contains" and index + 1 < len(tokens) and groups:
            literal = next((t for t in tokens[index + 1:] if t.type == "string_literal"), None)
            message = value(literal) if literal is not None else None
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


# --- JavaScript / TypeScript ------------------------------------------------------------------


def _javascript(path: str, root: Node) -> Iterator[TestLink]:
    for node in _walk(root):
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
        elif arg is not None and (value := _string(arg)) is not None:
            mode, expected = "substring", value
        elif arg is not None and arg.type == "identifier":
            error_class = text(arg)
        yield _link(path, node, _js_test_name(node), "jest", mode, expected, error_class,
                    _expect_call(function))


def _expect_call(member: Node) -> str | None:
    for part in _walk(member):
        function = part.child_by_field_name("function")
        if part.type == "call_expression" and text(function) == "expect":
            args = part.child_by_field_name("arguments")
            inner = args.named_children[0] if args is not None and args.named_children else None
            if inner is not None and inner.type in ("arrow_function", "function_expression"):
                body = inner.child_by_field_name("body")
                return text(body).strip("{} \n;") if body is not None else None
            return text(inner) if inner is not None else None
    return None


def _js_test_name(node: Node) -> str:
    names = []
    for parent in ancestors(node):
        if parent.type == "call_expression" and text(parent.child_by_field_name("function")) in (
            "it", "test", "describe"
        ):
            args = parent.child_by_field_name("arguments")
            first = args.named_children[0] if args is not None and args.named_children else None
            label = _string(first)
            if label:
                names.append(label)
    return " > ".join(reversed(names)) or "<anonymous>"


# --- Java -----------------------------------------------------------------------------------


def _java(path: str, root: Node) -> Iterator[TestLink]:
    for node in _walk(root):
        if node.type != "method_invocation":
            continue
        method = text(node.child_by_field_name("name"))
        args = node.child_by_field_name("arguments")
        values = args.named_children if args is not None else []
        name = _name(node, ("method_declaration",))
        if method == "assertThrows" and len(values) >= 2:
            body = values[1].child_by_field_name("body") if values[1].type == (
                "lambda_expression") else values[1]
            yield _link(path, node, name, "junit", "class", None,
                        text(values[0]).removesuffix(".class"), text(body) if body else None)
        elif method == "assertEquals" and len(values) >= 2 and text(values[1]).endswith(
            "getMessage()"
        ) and (message := _string(values[0])) is not None:
            yield _link(path, node, name, "junit", "exact", message, None, None)
        elif method in ("hasMessage", "hasMessageContaining") and values and (
            message := _string(values[0])
        ) is not None:
            mode: MatchMode = "exact" if method == "hasMessage" else "substring"
            yield _link(path, node, name, "assertj", mode, message, None, None)


# --- Go ---------------------------------------------------------------------------------------

_GO_ASSERTS = {"EqualError": "exact", "ErrorContains": "substring", "Contains": "substring"}


def _go(path: str, root: Node) -> Iterator[TestLink]:
    for node in _walk(root):
        name = _name(node, ("function_declaration", "method_declaration"))
        if node.type == "binary_expression" and len(node.named_children) == 2:
            operator = text(node.child_by_field_name("operator"))
            left, right = node.named_children
            for call, literal in ((left, right), (right, left)):
                message = _string(literal)
                if operator in ("==", "!=") and message is not None and text(call).endswith(
                    ".Error()"
                ):
                    yield _link(path, node, name, "go", "exact", message, None, None)
        elif node.type == "call_expression":
            function = text(node.child_by_field_name("function")).rpartition(".")[2]
            args = node.child_by_field_name("arguments")
            values = args.named_children if args is not None else []
            mode = _GO_ASSERTS.get(function)
            if mode is None or not values or (message := _string(values[-1])) is None:
                continue
            if function == "Contains" and not text(values[0]).endswith(".Error()"):
                continue
            yield _link(path, node, name, "go", "exact" if mode == "exact" else "substring",
                        message, None, None)


_READERS = {"python": _python, "rust": _rust, "javascript": _javascript,
            "typescript": _javascript, "tsx": _javascript, "java": _java, "go": _go}
