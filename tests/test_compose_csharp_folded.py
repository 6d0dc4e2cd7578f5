"""C# composite formats written as a ``+`` chain of literals: ``string.Format("The value
{0} is outside the " + "range a date holds.", ms)``, a long format split over lines (the
compiler folds it into one constant). The format is read whole, inline or kept in a local
first. And ``ArgumentOutOfRangeException("ms", message)`` whose message source does not
spell is no record: before, its parameter name was taken for the message. A local given
its message by a statement on the way to the throw (``string message; … message =
string.Format(…); throw new ArgumentException(message, "value");``) holds that text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture, missing, mono_prints, records_at

CLOCK = """\
using System;
using System.Globalization;

namespace Dates
{
    public static class Clock
    {
        public static DateTime FromMilliseconds(long ms)
        {
            if (ms < 0)
            {
                var message = string.Format(
                    "The value {0} for the milliseconds since the epoch is outside the " +
                    "range a date can hold.",
                    ms);
                throw new ArgumentOutOfRangeException("ms", message);
            }
            if (ms > 253402300799999)
                throw new InvalidOperationException(string.Format(
                    CultureInfo.InvariantCulture,
                    "The value {0} is past the year " + "9999, the last one a date holds.", ms));
            return DateTime.UnixEpoch.AddMilliseconds(ms);
        }

        public static string Kind(object value, int kind)
        {
            string message;
            if (value == null)
            {
                message = string.Format("A null value cannot be read as kind {0}.", kind);
                throw new ArgumentException(message, "value");
            }
            return value.ToString();
        }

        public static void Check(long ms, Func<long, string> describe)
        {
            if (ms == 0)
                throw new ArgumentOutOfRangeException("ms", describe(ms));
        }
    }

    static class Program
    {
        static void Main()
        {
            try { Clock.FromMilliseconds(253402300800000); }
            catch (Exception e) { Console.WriteLine(e.Message); }
        }
    }
}
"""


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_cs_folded", "folded",
                        {"src/Clock.cs": CLOCK})[1]


def _at(records: list[errdex.StoredRecord], start: str) -> list[errdex.StoredRecord]:
    return records_at(records, "src/Clock.cs", line_starting(CLOCK, start, stripped=True))


def test_a_folded_format_kept_in_a_local_is_read_whole(
    mined: list[errdex.StoredRecord],
) -> None:
    [record] = _at(mined, 'throw new ArgumentOutOfRangeException("ms", message)')
    assert record.record.error_class == "ArgumentOutOfRangeException"
    assert re.fullmatch(record.record.message_pattern, (
        "The value -5 for the milliseconds since the epoch is outside the range a date can "
        "hold. (Parameter 'ms')"))


def test_a_folded_format_passed_inline_is_read_whole(
    mined: list[errdex.StoredRecord],
) -> None:
    [record] = _at(mined, "throw new InvalidOperationException(string.Format(")
    assert re.fullmatch(record.record.message_pattern,
                        "The value 253402300800000 is past the year 9999, the last one a date "
                        "holds.")


def test_a_local_assigned_on_the_way_to_the_throw_holds_its_text(
    mined: list[errdex.StoredRecord],
) -> None:
    [record] = _at(mined, 'throw new ArgumentException(message, "value")')
    assert re.fullmatch(record.record.message_pattern,
                        "A null value cannot be read as kind 7. (Parameter 'value')")


def test_a_parameter_name_is_never_the_message(mined: list[errdex.StoredRecord]) -> None:
    assert not [r for r in _at(mined, 'throw new ArgumentOutOfRangeException("ms", describe')
                if r.record.error_message == "ms"]


def test_folded_format_matches_what_mono_prints(
    tmp_path: Path, mined: list[errdex.StoredRecord],
) -> None:
    if missing("mcs", "mono"):
        pytest.skip("no C# compiler and runtime (Mono) installed")
    clock = CLOCK.replace("DateTime.UnixEpoch",
                          "new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc)")
    [printed] = mono_prints(tmp_path, {"Clock.cs": clock}).splitlines()
    [record] = _at(mined, "throw new InvalidOperationException(string.Format(")
    assert re.fullmatch(record.record.message_pattern, printed)
