"""Kotlin raw strings spanning lines in a file saved with CRLF line breaks: each break is
one ``\\n`` (the compiler reads the file so, and a paste has ``\\n``), with or without
``trimMargin()``. No Kotlin compiler is installed here: checked by the patterns only."""

from __future__ import annotations

import re

import pytest

import errdex
from tests.compose_steps import mine_fixture

RACK = (
    "package shop\r\n\r\nclass Rack {\r\n"
    "    fun close(name: String) {\r\n"
    '        throw IllegalStateException("""The widget rack is closed.\r\n'
    'Come back tomorrow for $name""")\r\n'
    "    }\r\n\r\n"
    "    fun open(name: String) {\r\n"
    '        throw IllegalStateException("""\r\n'
    "            |The widget rack is open.\r\n"
    '            |Go away $name""".trimMargin())\r\n'
    "    }\r\n}\r\n"
)


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_kt_crlf", "crlf", {"src/Rack.kt": RACK})[1]


def test_each_break_is_one_newline(records: list[errdex.StoredRecord]) -> None:
    assert sorted(r.record.error_message for r in records) == [
        "The widget rack is closed.\nCome back tomorrow for $name",
        "The widget rack is open.\nGo away $name",
    ]


@pytest.mark.parametrize("pasted", [
    "The widget rack is closed.\nCome back tomorrow for gear",
    "The widget rack is open.\nGo away cog",
])
def test_the_pasted_message_matches_whole(records: list[errdex.StoredRecord],
                                          pasted: str) -> None:
    assert any(re.fullmatch(r.record.message_pattern, pasted) for r in records)
