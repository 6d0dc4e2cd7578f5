"""Kotlin ``buildString { … }`` filled partly in a loop (``for``, ``forEach``, ``repeat``)
or a branch: the text appended before and after is known, the loop one hole that may span
lines or print nothing; a ``buildString`` that only loops says nothing known (no record).
No Kotlin compiler is installed here: the messages below are what ``buildString``,
``append`` and ``appendLine`` make of the fixture's calls (the stdlib's documented
behaviour: ``appendLine`` adds one line break)."""

from __future__ import annotations

import re

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture

REPORT = """\
package shop

class Report {
    fun check(name: String, parts: List<String>) {
        throw IllegalStateException(buildString {
            append("Widget ")
            append(name)
            appendLine(" has broken parts:")
            for (part in parts) {
                appendLine("  $part")
            }
            append("Replace them first.")
        })
    }

    fun each(parts: List<String>) {
        throw IllegalArgumentException(buildString {
            appendLine("Cannot ship the order:")
            parts.forEach { appendLine("  missing $it") }
        })
    }

    fun other(x: Int) {
        throw IllegalArgumentException(buildString { repeat(x) { append(it) } })
    }
}
"""

PRINTED = [
    ("throw IllegalStateException(buildString {",
     ["Widget cart has broken parts:\n  axle\n  gear\nReplace them first.",
      "Widget cart has broken parts:\nReplace them first."]),
    ("throw IllegalArgumentException(buildString {",
     ["Cannot ship the order:\n  missing axle\n", "Cannot ship the order:\n"]),
]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_kt_builders", "builders",
                        {"src/Report.kt": REPORT})[1]


@pytest.mark.parametrize(("start", "printed"), PRINTED, ids=["for", "forEach"])
def test_the_text_around_the_loop_is_known(
    records: list[errdex.StoredRecord], start: str, printed: list[str],
) -> None:
    line = line_starting(REPORT, start, stripped=True)
    [record] = [r for r in records if r.record.line_number == line]
    for message in printed:
        assert re.fullmatch(record.record.message_pattern, message), message


def test_a_build_string_that_only_loops_makes_no_record(
    records: list[errdex.StoredRecord],
) -> None:
    line = line_starting(REPORT, "throw IllegalArgumentException(buildString { repeat",
                         stripped=True)
    assert not [r for r in records if r.record.line_number == line]
