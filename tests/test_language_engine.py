"""The language engine: one extract loop, one per-file index, one message reader.

A toy language (Python's grammar, a two-pattern query) runs through the engine, so each
rule of the loop is seen on its own: dispatch by outer capture in the spec's order,
skipping matches inside parse errors, the finish hook, source order, nested sources.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from tree_sitter import Node

from errdex.evidence.rules import rules_for
from errdex.languages import LANGUAGES, SPECS, language_for_path, spec_for
from errdex.languages._engine import (
    Captures,
    FileIndex,
    LanguageSpec,
    Message,
    constant,
    joined,
    language,
)
from errdex.languages._engine.extract import extract
from errdex.languages._engine.reader import MessageTable, Reader
from errdex.languages._engine.strings import C_ESCAPES, Escapes, literal_pieces, unescape
from errdex.languages.base import Site, line_of, parse, text
from errdex.languages.rust import extract as extract_rust
from errdex.templates.template import Hole, Literal, literal_template

_QUERY = """
(raise_statement (call function: (identifier) @raise.class)) @raise
(call function: (identifier) @call.name (#eq? @call.name "warn")) @call
(assignment left: (identifier) @assign.name right: (_)) @assign
(augmented_assignment left: (identifier) @assign.name operator: "+=") @assign.add
"""


@dataclass
class _Seen(FileIndex):
    """A toy index that also records what the handlers saw, in order."""

    order: list[str] = field(default_factory=list)


def _raise(caps: Captures, file: _Seen) -> Site:
    file.order.append("raise")
    node = caps["raise"][0]
    return Site(literal_template(text(caps["raise.class"][0])), "exception", line_of(node))


def _warn(caps: Captures, file: _Seen) -> list[Site]:
    file.order.append("warn")
    node = caps["call"][0]
    return [Site(literal_template("warned"), "warning", line_of(node)),
            Site(literal_template("twice"), "warning", line_of(node))]


def _spec(tmp_path: Path, **changes: Any) -> LanguageSpec[_Seen]:
    query = tmp_path / "toy.scm"
    query.write_text(_QUERY, encoding="utf-8")
    spec: LanguageSpec[_Seen] = LanguageSpec(
        name="toy", grammar="python", extensions=(".toy",), query=query,
        handlers=(("call", _warn), ("raise", _raise)), new_index=_Seen,
    )
    return replace(spec, **changes)


def _messages(sites: list[Site]) -> list[tuple[int, str]]:
    return [(s.line, s.template.pattern()) for s in sites]


def test_extract_dispatches_every_handler_and_sorts_by_position(tmp_path: Path) -> None:
    source = b"warn()\nraise A()\nwarn()\nraise B()\n"
    found = extract(_spec(tmp_path), source)
    assert _messages(found.sites) == [
        (1, "warned"), (1, "twice"), (2, "A"), (3, "warned"), (3, "twice"), (4, "B"),
    ]
    assert not found.parse_errors


def test_handlers_run_in_spec_order_over_all_matches(tmp_path: Path) -> None:
    """Each handler sees every match of its capture before the next handler runs."""
    seen: list[list[str]] = []

    def finish(placed: list[tuple[int, Site]], file: _Seen) -> list[tuple[int, Site]]:
        seen.append(list(file.order))
        return placed

    extract(_spec(tmp_path, finish=finish), b"raise A()\nwarn()\nraise B()\nwarn()\n")
    assert seen == [["warn", "warn", "raise", "raise"]]


def test_a_match_inside_a_parse_error_is_skipped(tmp_path: Path) -> None:
    found = extract(_spec(tmp_path), b"raise A()\nitems = [1,\nwarn()\n")
    assert found.parse_errors
    assert _messages(found.sites) == [(1, "A")]
    kept = extract(_spec(tmp_path, skip=lambda node: False), b"raise A()\nitems = [1,\nwarn()\n")
    assert _messages(kept.sites) == [(1, "A"), (3, "warned"), (3, "twice")]


def test_finish_may_drop_sites(tmp_path: Path) -> None:
    def no_warnings(placed: list[tuple[int, Site]], file: _Seen) -> list[tuple[int, Site]]:
        return [(at, s) for at, s in placed if s.error_type != "warning"]

    found = extract(_spec(tmp_path, finish=no_warnings), b"warn()\nraise A()\n")
    assert _messages(found.sites) == [(2, "A")]


def test_nested_sources_are_read_with_their_lines_shifted(tmp_path: Path) -> None:
    """Text the grammar leaves unparsed (a string here) is parsed and mined too."""
    def strings(root: Node, source: bytes) -> list[tuple[bytes, int]]:
        out = []
        stack = [root]
        while stack:
            node = stack.pop()
            if node.type == "string_content":
                out.append((text(node).replace("\\n", "\n").encode(), node.start_point[0]))
            stack.extend(node.children)
        return out

    spec = _spec(tmp_path, nested=strings, nested_depth=1)
    source = b'raise A()\n\n\nx = "\\nraise Inner()"\n'
    assert _messages(extract(spec, source).sites) == [(1, "A"), (5, "Inner")]
    assert _messages(extract(_spec(tmp_path), source).sites) == [(1, "A")]


def test_the_index_holds_assignments_in_source_order(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    tree = parse("python", b"m = 'a'\ndef f(p):\n    m = 'b'\n    m += 'c'\n    use(m, p)\n")
    from errdex.languages._engine import index_file
    from errdex.languages.base import load_query, matches

    file = index_file(spec, matches(load_query("python", spec.query), tree.root_node))
    assert [text(n) for n in file.assignments["m"]] == ["m = 'a'", "m = 'b'", "m += 'c'"]
    use, p = [n for n in _walk(tree.root_node) if n.type == "identifier" and n.parent
              is not None and n.parent.type == "argument_list"]
    scopes = frozenset({"function_definition", "module"})
    assert text(file.nearest(use, scopes)) == "m += 'c'"
    assert text(file.visible("m", use, scopes, lambda scope: {"p"})) == "m += 'c'"
    file.add("p", tree.root_node.named_children[0])  # module-level ``m = 'a'`` as a ``p``
    assert file.visible("p", p, scopes, lambda scope: ()) is not None
    assert file.visible("p", p, scopes, lambda scope: {"p"}) is None  # the parameter first


def _walk(root: Node) -> list[Node]:
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed(node.children))
    return out


# --- the table-driven reader ------------------------------------------------------------


def _string(node: Node) -> Message | None:
    return constant("".join(c for c, _ in literal_pieces(node, lambda s: unescape(s, _ESC))))


_ESC = Escapes(C_ESCAPES)
_TABLE: MessageTable[FileIndex] = MessageTable(
    strings={"string": _string}, binary="binary_operator",
    wrappers=frozenset({"parenthesized_expression"}), variables=frozenset({"identifier"}),
    scopes=frozenset({"function_definition", "module"}),
    augmented=frozenset({"augmented_assignment"}),
)


def _read_last(source: bytes) -> Message | None:
    """The message of the last line's expression, read with the file's assignments."""
    root = parse("python", source).root_node
    file = FileIndex()
    for node in _walk(root):
        if node.type in ("assignment", "augmented_assignment"):
            file.add(text(node.child_by_field_name("left")), node)
    file.sort()
    last = root.named_children[-1]
    last = last.named_children[0] if last.type == "expression_statement" else last
    return Reader(_TABLE, file).read(last)


def test_reader_reads_literals_concatenations_and_variables() -> None:
    message = _read_last(b'm = "no such "\nm += "file: "\n(m + path)\n')
    assert message is not None
    assert message.written == "no such file: {path}"
    assert message.parts == (Literal("no such file: "), Hole.of("path", "{path}"))
    assert message.literal is None


def test_reader_finds_no_message_where_source_does_not_say() -> None:
    assert _read_last(b"a + b\n") is None  # no text: maybe arithmetic
    assert _read_last(b"m = m + 'x'\nm\n") is not None
    assert _read_last(b"m = n\nn = m\nm\n") is None  # a cycle ends at the depth limit
    assert _read_last(b"a - 'b'\n") is None


def test_joined_is_unknown_when_a_piece_is() -> None:
    assert joined([constant("a"), None]) is None
    both = joined([constant("a"), constant("b")])
    assert both is not None and both.literal == "ab" and both.parts == (Literal("ab"),)


def test_shared_escape_decoder_follows_each_grammar() -> None:
    rust = Escapes(C_ESCAPES, underscores=True)
    js = Escapes({"n": "\n"}, exact_hex=True, short_unicode=True, unknown="body")
    assert unescape("\\u{1_F600}", rust) == "\U0001F600"
    assert unescape("\\x4", rust) == "\x04" and unescape("\\x4", js) == "x4"
    assert unescape("\\u0041", js) == "A" and unescape("\\u0041", rust) == "\\u0041"
    assert unescape("\\q", js) == "q" and unescape("\\q", rust) == "\\q"
    assert unescape("\\\n", rust) is None  # a line continuation prints nothing


# --- the registry and the specs -------------------------------------------------------------


@pytest.mark.parametrize("name", ["python", "rust", "javascript", "typescript", "tsx"])
def test_a_language_is_its_spec(name: str) -> None:
    spec = spec_for(name)
    assert spec is not None and spec.query.is_file()
    registered = LANGUAGES[name]
    assert (registered.grammar, registered.extensions) == (spec.grammar, spec.extensions)
    for extension in spec.extensions:
        found = language_for_path("x" + extension)
        assert found is not None and found.name == name
    assert spec.evidence.functions and spec.snippets.validation is not None


def test_every_registered_language_runs_on_the_engine() -> None:
    assert set(SPECS) == set(LANGUAGES)
    toy = language(next(iter(SPECS.values())))
    assert toy.name in LANGUAGES


def test_stages_read_the_spec() -> None:
    assert rules_for("python").negation == "not ({})"
    assert rules_for("rust").own_guards is not None
    assert rules_for("javascript").equality == ("===", "!==")
    assert rules_for("no-such-language").functions == frozenset()


def test_cross_file_constants_are_a_spec_hook() -> None:
    rust = spec_for("rust")
    assert rust is not None and rust.constants is not None
    assert [n for n, s in SPECS.items() if s.constants is not None] == ["rust"]
    hook = rust.constants
    assert hook.definitions(b'pub const NO_REACTOR: &str = "there is no reactor";\n') == [
        ("NO_REACTOR", "there is no reactor")]
    site = extract_rust(b'fn f() { panic!("{}", error::NO_REACTOR) }\n').sites[0]
    assert hook.references(site.template) == ["NO_REACTOR"]
    applied = hook.apply(site.template, {"NO_REACTOR": "there is no reactor"})
    assert applied is not None and applied.written == "there is no reactor"
