"""The engine's node searches: a statement found where its keyword is written is the one a
walk over every node of the body finds."""

from __future__ import annotations

import pytest

from errdex.languages._engine.walk import keyword_nodes, nodes_from
from errdex.languages.base import parser_for

JAVA = b"""class A {
    String f(int returnCode) {
        /* return "in a comment"; */
        String s = "return inside a string";
        Runnable r = () -> { return; };
        Object o = new Object() { public String toString() { return "inner"; } };
        if (returnCode > 0) { return "positive " + returnCode; }
        for (;;) { while (true) { return s; } }
        return null;
    }
}
"""

GO = b"""package p

func f(returned int) error {
	// return errors.New("comment")
	g := func() error { return nil }
	if returned > 0 {
		return fmt.Errorf("bad %d", returned)
	}
	_ = "return in a string"
	return g()
}
"""


@pytest.mark.parametrize(("grammar", "source", "function", "nested", "expected"), [
    ("java", JAVA, "method_declaration", ("lambda_expression", "class_body"),
     ['return "positive " + returnCode;', "return s;", "return null;"]),
    ("go", GO, "function_declaration", ("func_literal",),
     ['return fmt.Errorf("bad %d", returned)', "return g()"]),
])
def test_statements_found_by_their_keyword_are_those_a_walk_finds(
        grammar, source, function, nested, expected):
    """Returns in comments, strings, identifiers, closures and local classes are left out;
    the body's own, in source order."""
    root = parser_for(grammar).parse(source).root_node
    body = next(n for n in nodes_from(root, ()) if n.type == function).child_by_field_name(
        "body")
    walked = [n for n in nodes_from(body, nested) if n.type == "return_statement"]
    found = keyword_nodes(body, b"return", "return_statement", nested)
    assert [n.text.decode() for n in found if n.text] == expected
    assert [(n.start_byte, n.end_byte) for n in found] == [
        (n.start_byte, n.end_byte) for n in walked]
    assert keyword_nodes(None, b"return", "return_statement", nested) == []
