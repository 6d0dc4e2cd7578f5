"""rust ``in_test_code`` remembers its answers per tree: the same answers as a fresh walk,
whatever was asked before and of whichever tree."""

from __future__ import annotations

from tree_sitter import Node

from errdex.languages.base import parser_for
from errdex.languages.rust import syntax
from errdex.languages.rust.syntax import in_test_code

SOURCE = b"""
fn live() { panic!("a"); }

#[cfg(test)]
mod tests {
    fn helper() { panic!("b"); }
    #[test]
    fn case() { panic!("c"); }
}

mod inner {
    #![cfg(test)]
    fn hidden() { panic!("d"); }
}

mod plain {
    #[test]
    fn t() { panic!("e"); }
    fn open() { panic!("f"); }
}
"""
EXPECTED = {"a": False, "b": True, "c": True, "d": True, "e": True, "f": False}


def _panics(root: Node) -> dict[str, Node]:
    found: dict[str, Node] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "string_literal":
            found[node.text.decode().strip('"')] = node  # type: ignore[union-attr]
        stack.extend(node.children)
    return found


def _walk_answer(node: Node) -> bool:
    """The answer without the memo: every ancestor's own attributes."""
    current: Node | None = node
    while current is not None:
        if syntax._own_test_attribute(current):
            return True
        current = current.parent
    return False


def test_answers_match_a_fresh_walk_in_any_order() -> None:
    tree = parser_for("rust").parse(SOURCE)
    panics = _panics(tree.root_node)
    for order in (sorted(panics), sorted(panics, reverse=True)):
        syntax._TEST_MEMO.clear()
        syntax._MEMO_ROOT.clear()
        assert {k: in_test_code(panics[k]) for k in order} == EXPECTED
    assert {k: _walk_answer(n) for k, n in panics.items()} == EXPECTED


def test_another_tree_of_the_same_text_does_not_reuse_answers() -> None:
    test_tree = parser_for("rust").parse(b'#[cfg(test)]\nmod m { fn f() { panic!("x"); } }\n')
    live_tree = parser_for("rust").parse(b'#[cfg(feat)]\nmod m { fn f() { panic!("x"); } }\n')
    in_test, live = _panics(test_tree.root_node)["x"], _panics(live_tree.root_node)["x"]
    assert in_test_code(in_test) is True
    assert in_test_code(live) is False
    assert in_test_code(in_test) is True  # back to the first tree: asked afresh
