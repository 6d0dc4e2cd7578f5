"""C# ``throw new InvalidOperationException(night ? Messages.Closed : Messages.Gone(name))``:
a .NET exception whose message a ternary chooses among resource strings, constants or
factories of the repository (``cond ? CoreStrings.A(x) : CoreStrings.B(x, y)``). Each arm
is a record of the throw's line, its text the one composition finds (a literal arm read
as it is); an arm nothing in the repository tells is none."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture, missing, mono_prints, records_at

MESSAGES = """\
namespace Yard
{
    internal static class Messages
    {
        internal const string Closed = "The gate is closed for the night.";

        internal static string Gone(string name) => $"The gate '{name}' was taken away.";
    }
}
"""

GATE = """\
using System;

namespace Yard
{
    public static class Gate
    {
        public static void Open(int state, string name)
        {
            if (state > 0)
                throw new InvalidOperationException(
                    state == 1 ? Messages.Closed
                    : state == 2 ? Messages.Gone(name)
                    : "The yard is flooded again.");
        }

        public static void Close(bool done, Func<string> describe)
        {
            if (done)
                throw new NotSupportedException(done ? describe() : Messages.Closed);
        }
    }

    static class Program
    {
        static void Main()
        {
            for (var state = 1; state <= 3; state++)
            {
                try { Gate.Open(state, "north"); }
                catch (Exception e) { Console.WriteLine(e.Message); }
            }
        }
    }
}
"""

PRINTED = ["The gate is closed for the night.", "The gate 'north' was taken away.",
           "The yard is flooded again."]


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    files = {"src/Messages.cs": MESSAGES, "src/Gate.cs": GATE}
    return mine_fixture(tmp_path_factory, "compose_cs_arms", "arms", files)[1]


def _at(records: list[errdex.StoredRecord], start: str) -> list[errdex.StoredRecord]:
    return records_at(records, "src/Gate.cs", line_starting(GATE, start, stripped=True))


def test_each_arm_of_a_ternary_message_is_a_record(mined: list[errdex.StoredRecord]) -> None:
    found = _at(mined, "throw new InvalidOperationException(")
    assert {r.record.error_class for r in found} == {"InvalidOperationException"}
    for printed in PRINTED:
        assert [r for r in found if re.fullmatch(r.record.message_pattern, printed)], printed
    assert len(found) == len(PRINTED)


def test_an_arm_nothing_tells_is_left_out(mined: list[errdex.StoredRecord]) -> None:
    [closed] = _at(mined, "throw new NotSupportedException(")
    assert closed.record.error_message == PRINTED[0]


def test_arm_patterns_match_what_mono_prints(tmp_path: Path,
                                            mined: list[errdex.StoredRecord]) -> None:
    if missing("mcs", "mono"):
        pytest.skip("no C# compiler and runtime (Mono) installed")
    output = mono_prints(tmp_path, {"Messages.cs": MESSAGES, "Gate.cs": GATE})
    assert output.splitlines() == PRINTED
    found = _at(mined, "throw new InvalidOperationException(")
    patterns = [r.record.message_pattern for r in found]
    for printed in output.splitlines():
        assert any(re.fullmatch(p, printed) for p in patterns), printed
