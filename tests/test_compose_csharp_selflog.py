"""C# libraries' own diagnostic logs: ``SelfLog.WriteLine("…{0}…", x)`` is a log line with a
composite format, ``catalog.WriteLine(…)`` (a receiver that only ends in "log") is none;
where Mono is installed the built fixture's line is matched by the mined pattern."""

from __future__ import annotations

import subprocess

import pytest

import errdex
from tests.compose_steps import any_fullmatch, line_starting, mine_fixture, missing

CONV = """\
using System;

namespace Shop
{
    public static class SelfLog
    {
        public static void WriteLine(string format, object arg0 = null, object arg1 = null)
        {
            Console.WriteLine(string.Format(format, arg0, arg1));
        }
    }

    public class Conv
    {
        private readonly System.IO.TextWriter catalog = Console.Out;

        public void Read(object property, Exception ex)
        {
            SelfLog.WriteLine("The property accessor {0} threw exception: {1}", property, ex);
            catalog.WriteLine("Listing every entry of the catalog {0}", property);
        }

        public static void Main()
        {
            new Conv().Read("Session", new InvalidOperationException("not available"));
        }
    }
}
"""


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_cs_selflog", "selflog",
                        {"src/Conv.cs": CONV})[1]


def _at(records: list[errdex.StoredRecord], start: str) -> list[errdex.StoredRecord]:
    line = line_starting(CONV, start, stripped=True)
    return [r for r in records if r.record.line_number == line]


def test_a_self_log_line_is_a_log_record_with_its_format_read(
    records: list[errdex.StoredRecord],
) -> None:
    [found] = _at(records, "SelfLog.WriteLine(")
    assert found.record.error_type == "log"
    assert found.record.error_message == "The property accessor {0} threw exception: {1}"


def test_a_receiver_that_only_ends_in_log_writes_no_log(
    records: list[errdex.StoredRecord],
) -> None:
    assert not _at(records, "catalog.WriteLine(")


def test_the_pattern_matches_what_mono_writes(
    records: list[errdex.StoredRecord], tmp_path_factory: pytest.TempPathFactory,
) -> None:
    if missing("mcs", "mono"):
        pytest.skip("no C# compiler and runtime (Mono) installed")
    root = tmp_path_factory.mktemp("cs_selflog_run")
    (root / "Conv.cs").write_text(CONV)
    subprocess.run(["mcs", "-out:conv.exe", "Conv.cs"], cwd=root, capture_output=True,
                   check=True)
    done = subprocess.run(["mono", str(root / "conv.exe")], capture_output=True, text=True,
                          check=True)
    first, second = done.stdout.splitlines()[:2]
    assert first.startswith("The property accessor Session threw exception: ")
    assert any_fullmatch(_at(records, "SelfLog.WriteLine("), first)
    assert second == "Listing every entry of the catalog Session"
