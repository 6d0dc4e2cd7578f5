"""Java messages joined by the JDK's ``String.join(delimiter, a, b, …)``: the elements
with the delimiter between them; one element (an array, a list) says no count and makes
no record. Where a JDK is installed the fixture is built and run, and what it throws is
matched by the mined pattern."""

from __future__ import annotations

import re
import subprocess

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture, missing

MAKER = """\
package acme;

import java.util.List;

public class Maker {
    public static void main(String[] args) {
        for (int i = 0; i < 3; i++) {
            try {
                new Maker().make(i, "Inline");
            } catch (RuntimeException e) {
                System.out.println(e.getMessage().replace("\\n", "\\\\n"));
            }
        }
    }

    void make(int which, String name) {
        if (which == 0) {
            throw new IllegalStateException(
                    String.join("\\n", "The maker " + name + " does not support static mocks",
                            "", "Ensure your maker supports this feature."));
        }
        if (which == 1) {
            throw new IllegalArgumentException(String.join(", ", "unknown maker", name));
        }
        throw new UnsupportedOperationException(String.join("; ", List.of("a b c", name)));
    }
}
"""

PRINTED = [
    ("String.join(\"\\n\"", "The maker Inline does not support static mocks\n\n"
                            "Ensure your maker supports this feature."),
    ("throw new IllegalArgumentException(", "unknown maker, Inline"),
]


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, list[errdex.StoredRecord]]:
    return mine_fixture(tmp_path_factory, "compose_java_join", "join",
                        {"src/acme/Maker.java": MAKER})


def _at(records: list[errdex.StoredRecord], start: str) -> list[errdex.StoredRecord]:
    line = line_starting(MAKER, start, stripped=True)
    if start.startswith("String.join"):
        line -= 1  # the record is the throw's line
    return [r for r in records if r.record.line_number == line]


@pytest.mark.parametrize("start, printed", PRINTED, ids=["lines", "comma"])
def test_joined_elements_are_the_message(
    mined: tuple[object, list[errdex.StoredRecord]], start: str, printed: str,
) -> None:
    found = _at(mined[1], start)
    assert found, start
    assert any(re.fullmatch(r.record.message_pattern, printed) for r in found), [
        r.record.message_pattern for r in found]


def test_a_single_element_says_no_count_and_makes_no_record(
    mined: tuple[object, list[errdex.StoredRecord]],
) -> None:
    assert not _at(mined[1], "throw new UnsupportedOperationException(")


@pytest.mark.skipif(missing("javac", "java"), reason="no JDK installed")
def test_the_patterns_match_what_the_jvm_throws(
    mined: tuple[object, list[errdex.StoredRecord]], tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = tmp_path_factory.mktemp("java_join_run")
    source = root / "Maker.java"
    source.write_text(MAKER)
    subprocess.run(["javac", "-d", str(root), str(source)], check=True, capture_output=True)
    done = subprocess.run(["java", "-cp", str(root), "acme.Maker"], check=True,
                          capture_output=True, text=True)
    thrown = [line.replace("\\n", "\n") for line in done.stdout.splitlines()]
    for (start, printed), real in zip(PRINTED, thrown, strict=False):
        assert real == printed
        assert any(re.fullmatch(r.record.message_pattern, real) for r in _at(mined[1], start))
