"""Kotlin helper calls that are not statements of their own: ``if (bad) fail("…")``, an
``else`` or ``when`` arm, an elvis fallback (``x ?: fail("…")``) and an expression body
(``fun f() = fail("…")``) each give the call's line the helper's composed message.
(No Kotlin compiler is installed here: the JVM's text is checked in the Java tests.)"""

from __future__ import annotations

import re

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture

ERRORS = """\
package acme

class StubException(message: String) : RuntimeException(message)

internal fun fail(reason: String): Nothing = throw StubException("Stub failed: $reason")

internal fun broke(reason: String): Nothing {
    throw StubException("Stub broke: $reason")
}
"""

USE = """\
package acme

class Use(private val items: Map<String, Int>) {
    fun a(v: Int) {
        if (v == 1) fail("value one is not allowed")
    }

    fun b(v: Int) = if (v > 1) v else broke("too small: $v")

    fun c(key: String): Int = items[key] ?: fail("no item named $key")

    fun d(v: Int) {
        when (v) {
            3 -> broke("three is reserved")
            else -> println(v)
        }
    }

    fun e(): Int = fail("never configured")

    fun f(v: Int): Int = if (v > 0) v else listOf("not a helper at all").size
}
"""

# (line start in USE, a message the helper throws from there)
PRINTED = [
    ('if (v == 1) fail(', "Stub failed: value one is not allowed"),
    ("fun b(", "Stub broke: too small: 0"),
    ("fun c(", "Stub failed: no item named cart"),
    ('3 -> broke(', "Stub broke: three is reserved"),
    ("fun e(", "Stub failed: never configured"),
]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    files = {"src/Errors.kt": ERRORS, "src/Use.kt": USE}
    return mine_fixture(tmp_path_factory, "compose_kt_branches", "branches", files)[1]


def _at(records: list[errdex.StoredRecord], start: str) -> list[errdex.StoredRecord]:
    line = line_starting(USE, start, stripped=True)
    return [r for r in records
            if r.record.file_path == "src/Use.kt" and r.record.line_number == line]


@pytest.mark.parametrize("start, printed", PRINTED, ids=[p[0] for p in PRINTED])
def test_a_helper_call_in_a_branch_gives_its_line_the_helpers_message(
    records: list[errdex.StoredRecord], start: str, printed: str,
) -> None:
    found = _at(records, start)
    assert found, start
    assert any(re.fullmatch(r.record.message_pattern, printed) for r in found), [
        r.record.message_pattern for r in found]


def test_a_call_of_no_helper_in_a_branch_is_no_site(
    records: list[errdex.StoredRecord],
) -> None:
    assert not _at(records, "fun f(")
