"""Evidence read from real fixture files: guards, doc comments, test expectations, links."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.evidence.blame import parse_porcelain
from errdex.evidence.link import message_fits
from errdex.evidence.site import file_evidence
from errdex.evidence.tests import expectations
from errdex.languages import LANGUAGES
from errdex.records.evidence import Evidence

FIXTURES = Path(__file__).parent / "fixtures" / "enrich"


def _evidence(language: str, relative: str) -> dict[str, Evidence]:
    data = (FIXTURES / relative).read_bytes()
    sites = sorted(LANGUAGES[language].extract(data).sites, key=lambda s: s.line)
    found = file_evidence(language, LANGUAGES[language].grammar, data, sites)
    return {site.template.written: evidence for site, evidence in zip(sites, found, strict=True)}


def test_python_guard_docstring_and_signature() -> None:
    found = _evidence("python", "python/src/shapes/core.py")
    reshape = found["order must be 'C' or 'F', got {order!r}"]
    assert reshape.symbol == "Shape.reshape"
    assert reshape.parameters == ["dims", "order"]  # self left out
    assert reshape.signature is not None and reshape.signature.startswith("def reshape(self")
    guard = reshape.guards[0]
    assert (guard.kind, guard.condition, guard.negated) == (
        "if", 'order not in ("C", "F")', 'order in ("C", "F")'
    )
    raises = [n for n in reshape.docs if n.kind == "raises"]
    assert raises[0].error_class == "ValueError"
    assert raises[0].text == 'If ``order`` is not "C" or "F".'  # Google style
    sphinx = found["cannot broadcast size {left} with size {right}"]
    assert [n.text for n in sphinx.docs if n.kind == "raises"] == [
        "when the sizes differ and neither is 1"
    ]


def test_python_match_catch_all_lists_the_handled_cases() -> None:
    guard = _evidence("python", "python/src/shapes/core.py")["unsupported dtype {dtype}"].guards[0]
    assert guard.kind == "catch-all"
    assert guard.subject == "dtype"
    assert guard.handled == ['"f32"', '"i64"']
    assert guard.negated == 'dtype in ("f32", "i64")'


def test_rust_panics_section_assert_and_match_arm() -> None:
    found = _evidence("rust", "rust/src/lib.rs")
    chunked = found["chunk size must be positive"]
    assert chunked.guards[0].kind == "assert"
    assert chunked.guards[0].negated == "size > 0"
    assert [n.text for n in chunked.docs if n.kind == "panics"] == ["Panics if `size` is zero."]
    width = found["width: unsupported dtype {:?}"].guards[0]
    assert width.kind == "catch-all"
    assert width.negated == "matches!(dtype, DType::F32 | DType::F64)"
    level = found["level {level} is above 9"].guards[0]
    assert (level.condition, level.negated) == ("level > 9", "level <= 9")


def test_jsdoc_throws_and_if_guard() -> None:
    found = _evidence("javascript", "js/src/parse.js")
    port = found["port out of range: ${port}"]
    assert [(n.error_class, n.text) for n in port.docs if n.kind == "throws"] == [
        ("RangeError", "if the port is outside 1..65535")
    ]
    assert port.guards[0].condition == "port < 1 || port > 65535"
    assert found["host is required"].guards[0].negated == "host"


@pytest.mark.parametrize(
    ("relative", "language", "expected"),
    [
        ("python/tests/test_core.py", "python",
         [("test_reshape_rejects_unknown_order", "regex", "order must be 'C' or 'F'",
           'Shape().reshape((2, 3), order="Z")'),
          ("test_broadcast_mismatch", "regex", "cannot broadcast size 3 with size 4",
           "broadcast(3, 4)")]),
        ("rust/tests/sum.rs", "rust",
         [("zero_chunk_size_panics", "substring", "chunk size must be positive",
           "chunked_sum(&[1.0, 2.0], 0);"),
          ("level_too_high", "exact", "level 12 is above 9",
           'parse_level("12").unwrap_err().to_string()')]),
        ("js/test/parse.test.js", "javascript",
         [("parsePort > rejects ports above 65535", "substring", "port out of range: 70000",
           'parsePort("70000")')]),
    ],
)
def test_expectations_from_test_files(
    relative: str, language: str, expected: list[tuple[str, str, str, str]]
) -> None:
    data = (FIXTURES / relative).read_bytes()
    found = expectations(relative, language, LANGUAGES[language].grammar, data)
    assert [(e.link.name, e.link.mode, e.link.expected, e.link.call) for e in found] == expected


def test_go_and_java_expectations() -> None:
    go = b'''package p
import "testing"
func TestOpen(t *testing.T) {
	err := Open("")
	if err.Error() != "empty name" {
		t.Fatal(err)
	}
}
'''
    found = expectations("p_test.go", "go", "go", go)
    assert [(e.link.name, e.link.mode, e.link.expected) for e in found] == [
        ("TestOpen", "exact", "empty name")
    ]
    java = b'''class ParserTest {
    @Test void rejects() {
        var e = assertThrows(IllegalArgumentException.class, () -> Parser.parse("x"));
        assertEquals("bad input: x", e.getMessage());
    }
}
'''
    links = [e.link for e in expectations("ParserTest.java", "java", "java", java)]
    assert links[0].error_class == "IllegalArgumentException"
    assert links[0].call == 'Parser.parse("x")'
    assert (links[1].mode, links[1].expected) == ("exact", "bad input: x")


def test_substring_link_lines_up_literals_and_holes() -> None:
    assert message_fits(r"conv3d: unsupported dtype (.+?)", "unsupported dtype I8", "substring")
    assert message_fits(r"port out of range: (.+?)", "port out of range: 70000", "substring")
    assert not message_fits(r"conv3d: unsupported dtype (.+?)", "something else", "substring")
    # text after the last literal needs a hole to hold it
    assert not message_fits(r"Index (.+?) out of bounds", "out of bounds for dim 2", "substring")
    assert message_fits(r"level (.+?) is above 9", "level 12 is above 9", "exact")
    assert not message_fits(r"level (.+?) is above 9", "level 12 is above", "exact")


def test_blame_porcelain() -> None:
    sha = "a" * 40
    output = (f"{sha} 3 7 1\nauthor x\nauthor-time 1700000000\nsummary Add the check\n"
              f"filename f.py\n\tline text\n")
    blame = parse_porcelain(output)[7]
    assert (blame.commit, blame.subject, blame.author_time) == (sha, "Add the check", 1700000000)
