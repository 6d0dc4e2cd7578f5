"""C# messages decorated by a formatting helper before a factory makes the exception:
``message += " Path '…'"`` under branches, reached through factory overloads that pass
``this`` on, mined from a small fixture repository and, where Mono is installed, matched
against what the built fixture really throws."""

from __future__ import annotations

import subprocess

import pytest

import errdex
from tests.compose_steps import any_fullmatch, line_starting, mine_fixture, missing

POSITION = """\
using System;

namespace Shop
{
    public interface ILineInfo
    {
        bool HasLineInfo();
        int LineNumber { get; }
        int LinePosition { get; }
    }

    internal static class Position
    {
        internal static string Describe(ILineInfo info, string path, string message)
        {
            if (!message.EndsWith(Environment.NewLine, StringComparison.Ordinal))
            {
                message = message.Trim();
                if (!message.EndsWith("."))
                {
                    message += ".";
                }
                message += " ";
            }
            message += string.Format("Path '{0}'", path);
            if (info != null && info.HasLineInfo())
            {
                message += string.Format(", line {0}, position {1}", info.LineNumber,
                                         info.LinePosition);
            }
            message += ".";
            return message;
        }
    }
}
"""

PARSE_ERROR = """\
using System;

namespace Shop
{
    public class ParseError : Exception
    {
        public string Where { get; }

        public ParseError(string message, string where, Exception inner) : base(message, inner)
        {
            Where = where;
        }

        internal static ParseError Create(Reader reader, string message)
        {
            return Create(reader, message, null);
        }

        internal static ParseError Create(Reader reader, string message, Exception inner)
        {
            return Create(reader as ILineInfo, reader.Path, message, inner);
        }

        internal static ParseError Create(ILineInfo info, string path, string message,
                                          Exception inner)
        {
            message = Position.Describe(info, path, message);
            return new ParseError(message, path, inner);
        }
    }
}
"""

READER = """\
using System;

namespace Shop
{
    public class Reader : ILineInfo
    {
        private readonly bool lines;

        public Reader(bool lines) { this.lines = lines; }

        public string Path { get { return "items[0]"; } }
        public bool HasLineInfo() { return lines; }
        public int LineNumber { get { return 3; } }
        public int LinePosition { get { return 7; } }

        public void ReadValue(char c)
        {
            throw ParseError.Create(
                this, string.Format("Unexpected character while reading value: {0}.", c));
        }

        public void ReadEnd()
        {
            throw ParseError.Create(this, "Unexpected end of input");
        }
    }
}
"""

PROGRAM = """\
using System;

public static class Program
{
    public static void Main()
    {
        foreach (var lines in new[] { true, false })
        {
            var reader = new Shop.Reader(lines);
            try { reader.ReadValue('x'); }
            catch (Exception e) { Console.WriteLine("ReadValue\\t" + e.Message); }
            try { reader.ReadEnd(); }
            catch (Exception e) { Console.WriteLine("ReadEnd\\t" + e.Message); }
        }
    }
}
"""

FILES = {"src/Position.cs": POSITION, "src/ParseError.cs": PARSE_ERROR, "src/Reader.cs": READER}
# What .NET prints, written out from the fixture by hand.
PRINTED = [
    ("ReadValue", "Unexpected character while reading value: x. Path 'items[0]', line 3, "
                  "position 7."),
    ("ReadValue", "Unexpected character while reading value: x. Path 'items[0]'."),
    ("ReadEnd", "Unexpected end of input. Path 'items[0]', line 3, position 7."),
    ("ReadEnd", "Unexpected end of input. Path 'items[0]'."),
]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_cs_position", "position", FILES)[1]


def _at(records: list[errdex.StoredRecord], method: str) -> list[errdex.StoredRecord]:
    """The records of the throw in ``Reader.<method>``."""
    line = line_starting(READER, f"public void {method}(", stripped=True) + 2
    return [r for r in records
            if r.record.file_path == "src/Reader.cs" and r.record.line_number == line]


@pytest.mark.parametrize("method, message", PRINTED, ids=[f"{m}-{i}" for i, (m, _) in
                                                          enumerate(PRINTED)])
def test_a_message_the_helper_decorates_is_the_raise_sites_record(
    records: list[errdex.StoredRecord], method: str, message: str,
) -> None:
    found = _at(records, method)
    assert found, method
    assert any_fullmatch(found, message), [r.record.message_pattern for r in found]


def test_each_path_through_the_decoration_is_an_alternative_and_they_are_capped(
    records: list[errdex.StoredRecord],
) -> None:
    found = _at(records, "ReadEnd")
    written = {r.record.error_message for r in found}
    assert "Unexpected end of input. Path '{0}'." in written
    assert "Unexpected end of input. Path '{0}', line {0}, position {1}." in written
    # the "." is appended only where the " " after it is: no path writes one alone
    assert "Unexpected end of input.Path '{0}'." not in written
    assert len(found) <= 16


def test_the_helper_and_the_factory_are_not_sites_of_their_own(
    records: list[errdex.StoredRecord],
) -> None:
    assert not [r for r in records if r.record.file_path == "src/Position.cs"]


def test_the_patterns_match_what_mono_throws(
    records: list[errdex.StoredRecord], tmp_path_factory: pytest.TempPathFactory,
) -> None:
    if missing("mcs", "mono"):
        pytest.skip("no C# compiler and runtime (Mono) installed")
    root = tmp_path_factory.mktemp("cs_position_run")
    names = []
    for name, body in (*FILES.items(), ("src/Program.cs", PROGRAM)):
        path = root / name.removeprefix("src/")
        path.write_text(body)
        names.append(path.name)
    subprocess.run(["mcs", "-out:position.exe", *names], cwd=root, capture_output=True,
                   check=True)
    done = subprocess.run(["mono", str(root / "position.exe")], capture_output=True, text=True,
                          check=True)
    printed = [line.split("\t", 1) for line in done.stdout.splitlines()]
    assert sorted(tuple(p) for p in printed) == sorted(PRINTED)
    for method, message in printed:
        assert any_fullmatch(_at(records, method), message), (method, message)
