"""Kotlin exceptions given their message by name after positional arguments
(``throw SseError(response, message = "…")``, the class's ``override val message``
a constructor property): the message is the named one, not the first positional.
(No Kotlin compiler is installed here: the JVM's text is checked in the Java tests.)"""

from __future__ import annotations

import re

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture

ERRORS = """\
package acme

public class SseError(
    public val response: Any? = null,
    public override val cause: Throwable? = null,
    public override val message: String? = null
) : IllegalStateException()
"""

USE = """\
package acme

class Use {
    fun f(status: Int) {
        throw SseError(null, message = "Expected status code 200 but was $status")
    }

    fun g(status: Int, response: Any) {
        throw SseError(
            response,
            message = "Expected an event stream for status $status"
        )
    }

    fun h(kind: String) {
        throw SseError(message = "Unexpected content of kind $kind")
    }
}
"""

PRINTED = [
    ("throw SseError(null", "Expected status code 200 but was 404"),
    ("throw SseError(", "Expected an event stream for status 500"),
    ("throw SseError(message", "Unexpected content of kind text"),
]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    files = {"src/Errors.kt": ERRORS, "src/Use.kt": USE}
    return mine_fixture(tmp_path_factory, "compose_kt_named", "named", files)[1]


@pytest.mark.parametrize("start, printed", PRINTED, ids=["null-first", "multiline", "only"])
def test_the_named_message_is_the_record(
    records: list[errdex.StoredRecord], start: str, printed: str,
) -> None:
    line = next(i for i, text in enumerate(USE.splitlines(), 1) if text.strip() == start) if (
        start.endswith("(")) else line_starting(USE, start, stripped=True)
    found = [r for r in records
             if r.record.file_path == "src/Use.kt" and r.record.line_number == line]
    assert any(re.fullmatch(r.record.message_pattern, printed) for r in found), [
        r.record.message_pattern for r in found]
