"""C# messages that interpolate a local written above the throw::

    var hint = $"Set {nameof(Options.OnMissing)} to null to skip rows like this.";
    throw new RowException($"Column {index} is missing. {hint}");

The local's text is part of the message: a paste holds it, and a pattern that left it a
hole would bind it as if it were another error's text (and lose to the lone literal). A
local source does not say (a ternary, a parameter) stays a hole, and a formatted or
aligned ``{x:D}``/``{x,5}`` is never replaced."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture

ROWS = """\
using System;

namespace Shop
{
    public class RowException : Exception
    {
        public RowException(string message) : base(message) { }
    }

    public static class Options
    {
        public static object OnMissing;
    }

    public static class Rows
    {
        public static void Missing(int index)
        {
            var hint = $"Set {nameof(Options.OnMissing)} to null to skip rows like this.";
            throw new RowException($"Column {index} is missing. {hint}");
        }

        public static void Named(string name, int index)
        {
            var hint = "Rename the column or map it by index.";
            var where = index > 0 ? $" at {index}" : string.Empty;
            throw new RowException($"Column '{name}'{where} is unknown. {hint}");
        }

        public static void Padded(string name, string detail)
        {
            throw new RowException($"Column '{name}' is malformed: {detail}");
        }
    }
}
"""

PASTES = {
    "throw new RowException($\"Column {index}":
        "Column 3 is missing. Set OnMissing to null to skip rows like this.",
    "throw new RowException($\"Column '{name}'{where}":
        "Column 'Price' at 2 is unknown. Rename the column or map it by index.",
}


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    root, records = mine_fixture(tmp_path_factory, "compose_cs_locals", "locals",
                                 {"src/Rows.cs": ROWS})
    return root.parent / "errdex.sqlite", records


def _at(records: list[errdex.StoredRecord], start: str) -> errdex.StoredRecord:
    line = line_starting(ROWS, start, stripped=True)
    [record] = [r for r in records if r.record.line_number == line]
    return record


@pytest.mark.parametrize("start", list(PASTES))
def test_the_local_text_is_in_the_pattern(
    mined: tuple[Path, list[errdex.StoredRecord]], start: str,
) -> None:
    record = _at(mined[1], start)
    assert re.fullmatch(record.record.message_pattern, PASTES[start])
    assert not re.fullmatch(record.record.message_pattern,
                            PASTES[start].replace("to skip", "to keep").replace("Rename", "Drop"))


@pytest.mark.parametrize("start", list(PASTES))
def test_the_paste_finds_the_throw_first(
    mined: tuple[Path, list[errdex.StoredRecord]], start: str,
) -> None:
    top = errdex.resolve(f"Unhandled exception. Shop.RowException: {PASTES[start]}",
                         db=mined[0]).matches[0]
    assert (top.record.file_path, top.record.line_number) == (
        "src/Rows.cs", line_starting(ROWS, start, stripped=True))


def test_a_local_source_does_not_say_and_a_parameter_stay_holes(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    named = _at(mined[1], "throw new RowException($\"Column '{name}'{where}")
    assert re.fullmatch(named.record.message_pattern,
                        "Column 'Price' anywhere is unknown. Rename the column or map it by index.")
    padded = _at(mined[1], "throw new RowException($\"Column '{name}' is malformed")
    assert re.fullmatch(padded.record.message_pattern, "Column 'x' is malformed: bad quote")
