"""Java messages a ``StringBuilder`` assembles partly in a loop or a branch: the text
before and after it is known, the loop one hole that may span lines or print nothing; a
``setLength(sb.length() - 2)`` after the loop (its last separator cut) changes nothing
known; a builder assigned anew in the loop is not read. Where a JDK is installed the
fixture is built and run, and what it throws is matched by the mined pattern."""

from __future__ import annotations

import re
import subprocess

import pytest

import errdex
from tests.compose_steps import mine_fixture, missing

REPORT = """\
package shop;

import java.util.List;

public class Report {
    public static void main(String[] args) {
        Report report = new Report();
        List<List<String>> runs = List.of(List.of("axle", "gear"), List.of());
        for (List<String> parts : runs) {
            try {
                report.check("cart", List.of("axle", "gear"));
            } catch (RuntimeException e) {
                System.out.print(e.getMessage() + "\\0");
            }
            try {
                report.lines(parts);
            } catch (RuntimeException e) {
                System.out.print(e.getMessage() + "\\0");
            }
        }
    }

    void check(String name, List<String> parts) {
        StringBuilder sb = new StringBuilder("Widget ");
        sb.append(name).append(" has broken parts: ");
        for (String part : parts) {
            sb.append(part).append(", ");
        }
        sb.setLength(sb.length() - 2);
        sb.append(". Replace them first.");
        throw new IllegalStateException(sb.toString());
    }

    void lines(List<String> parts) {
        StringBuilder sb = new StringBuilder();
        sb.append("Cannot ship the order:\\n");
        for (String part : parts) {
            sb.append("  missing ").append(part).append('\\n');
        }
        if (parts.isEmpty()) {
            sb.append("  nothing in it\\n");
        }
        throw new IllegalArgumentException(sb.toString());
    }

    void unread(List<String> parts) {
        StringBuilder sb = new StringBuilder("Pending: ");
        for (String part : parts) {
            sb = new StringBuilder(part);
        }
        throw new IllegalArgumentException(sb.toString());
    }
}
"""

CHECK = "throw new IllegalStateException(sb.toString());"
LINES = "throw new IllegalArgumentException(sb.toString());"
PRINTED = [
    (CHECK, "Widget cart has broken parts: axle, gear. Replace them first."),
    (LINES, "Cannot ship the order:\n  missing axle\n  missing gear\n"),
    (CHECK, "Widget cart has broken parts: axle, gear. Replace them first."),
    (LINES, "Cannot ship the order:\n  nothing in it\n"),
]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_java_builders", "builders",
                        {"src/shop/Report.java": REPORT})[1]


def _at(records: list[errdex.StoredRecord], start: str, nth: int = 0) -> list[errdex.StoredRecord]:
    lines = [i + 1 for i, line in enumerate(REPORT.splitlines()) if line.strip() == start]
    return [r for r in records if r.record.line_number == lines[nth]]


def test_the_text_around_the_loop_is_known(records: list[errdex.StoredRecord]) -> None:
    assert [r.record.error_message for r in _at(records, CHECK)] == [
        "Widget {name} has broken parts: {…}. Replace them first."]
    assert [r.record.error_message for r in _at(records, LINES)] == [
        "Cannot ship the order:\n{…}"]


def test_a_builder_assigned_anew_in_the_loop_is_not_read(
    records: list[errdex.StoredRecord],
) -> None:
    assert not _at(records, LINES, nth=1)  # ``unread``'s throw


@pytest.mark.skipif(missing("javac", "java"), reason="no JDK installed")
def test_the_patterns_match_what_the_jvm_throws(
    records: list[errdex.StoredRecord], tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = tmp_path_factory.mktemp("java_builders_run")
    source = root / "Report.java"
    source.write_text(REPORT)
    subprocess.run(["javac", "-d", str(root), str(source)], check=True, capture_output=True)
    done = subprocess.run(["java", "-cp", str(root), "shop.Report"], check=True,
                          capture_output=True, text=True)
    thrown = [m for m in done.stdout.split("\0") if m]
    assert thrown == [printed for _, printed in PRINTED]
    for start, printed in PRINTED:
        assert any(re.fullmatch(r.record.message_pattern, printed)
                   for r in _at(records, start)), printed
