"""Small text primitives a mine runs for most sites and literals: each written without a
regex or a per-character loop, and held here to what the rules they implement say."""

from __future__ import annotations

import re

from errdex.languages.facts import _renamed
from errdex.languages.rust.spec import _expanded
from errdex.mining.files import split_lines
from errdex.templates.template import Literal, Template, escape


def test_escape_spells_metacharacters_controls_and_lone_surrogates() -> None:
    assert escape("a.b(c)[d]{e}/f|g?h*i+j^k$l\\m") == (
        r"a\.b\(c\)\[d\]\{e\}\/f\|g\?h\*i\+j\^k\$l\\m")
    assert escape("tab\tline\nret\r\x00\x1f\x7f") == r"tab\tline\nret\r\x00\x1f\x7f"
    assert escape("\ud800x\udfff") == r"\ud800x\udfff"
    assert escape("é 漢 \U0001f600 \ue000") == "é 漢 \U0001f600 \ue000"
    text = "cost: 3.5$ (max) [a-z]+ \\d"
    assert re.fullmatch(escape(text), text)


def test_template_parts_are_the_same_object_each_time_and_equal_templates_stay_equal() -> None:
    template = Template("ab", (Literal("a"), Literal("b")))
    assert template.parts == (Literal("ab"),)
    assert template.parts is template.parts
    assert template == Template("ab", (Literal("a"), Literal("b")))


def test_renamed_replaces_the_first_whole_name_only() -> None:
    assert _renamed("{key}", "key", "0") == "{0}"
    assert _renamed("{self.key} {key}", "key", "0") == "{self.key} {0}"  # a member is no name
    assert _renamed("{keys} {key_id} {key}", "key", "0") == "{keys} {key_id} {0}"
    assert _renamed("{a} {a}", "a", "0") == "{0} {a}"  # once
    assert _renamed("{Err.Error()}", "Error", "0") == "{Err.Error()}"
    assert _renamed("%s", "x", "0") == "%s"  # a printf conversion names nothing
    assert _renamed("{ékey}", "key", "0") == "{ékey}"  # a letter of any script joins a name
    assert _renamed("{x}", "y", "0") == "{x}"


def test_expanded_macro_blanks_repetitions_and_dollars_but_keeps_lines() -> None:
    body = b"fn $name() {\n  $( $x:expr ),* ;\n  panic!(\"bad {}\", $msg)\n}"
    out = _expanded(body)
    assert len(out) == len(body)
    assert out.count(b"\n") == body.count(b"\n")
    assert b"$" not in out
    assert b"fn  name() {" in out
    assert b"expr" not in out  # the repetition, its separator and operator blanked
    assert b"panic!(\"bad {}\",  msg)" in out
    assert _expanded(b"$(a (b) c)+ d") == b" " * 11 + b" d"


def test_split_lines_counts_as_tree_sitter_does() -> None:
    assert split_lines("a\r\nb\n") == ["a", "b"]
    assert split_lines("a\nb") == ["a", "b"]
    assert split_lines("a\rb\n") == ["a\rb"]  # a lone carriage return ends no line
    assert split_lines("") == []
