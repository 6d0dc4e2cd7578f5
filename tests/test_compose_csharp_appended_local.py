"""A C# message built up in a local, a hint appended in some branches, then thrown::

    var message = $"Failed to create {kind} with unknown alias: '{alias}'";
    if (alias.StartsWith("web")) message += " - Extension Shop.Web not included?";
    else if (alias == "mail") message += " - Extension Shop.Mail not included?";
    throw new ConfigException(message);

Each path from the declaration to the throw is one text the throw prints (the local as
declared when no branch ran). The fixture is built with mcs and run with mono: every
message it prints must fullmatch one of the throw's records, and nothing else may."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import line_starting, matched_among, mine_fixture, mono_prints

FACTORY = """\
using System;

namespace Shop
{
    public class ConfigException : Exception
    {
        public ConfigException(string message) : base(message) { }
    }

    public static class Factory
    {
        public static void Create(string kind, string alias)
        {
            var message = $"Failed to create {kind} with unknown alias: '{alias}'";
            if (alias.StartsWith("web", StringComparison.Ordinal))
            {
                message += " - Extension Shop.Web not included?";
            }
            else if (alias == "mail")
            {
                message += " - Extension Shop.Mail not included?";
            }
            else if (alias.EndsWith("s", StringComparison.Ordinal))
                message += " - did you mean '" + alias.TrimEnd('s') + "'?";
            throw new ConfigException(message);
        }
    }
}
"""

MAIN = """\
using System;

namespace Shop
{
    public static class Program
    {
        public static void Main()
        {
            foreach (var alias in new[] { "webhost", "mail", "files", "ftp" })
            {
                try { Factory.Create("Target", alias); }
                catch (ConfigException e) { Console.WriteLine(e.Message); }
            }
        }
    }
}
"""

PRINTED = [
    "Failed to create Target with unknown alias: 'webhost' - Extension Shop.Web not included?",
    "Failed to create Target with unknown alias: 'mail' - Extension Shop.Mail not included?",
    "Failed to create Target with unknown alias: 'files' - did you mean 'file'?",
    "Failed to create Target with unknown alias: 'ftp'",
]


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_fixture(tmp_path_factory, "compose_cs_appended", "appended",
                        {"src/Factory.cs": FACTORY})


def _throw(records: list[errdex.StoredRecord]) -> list[errdex.StoredRecord]:
    line = line_starting(FACTORY, "throw new ConfigException(message)", stripped=True)
    return [r for r in records if r.record.line_number == line]


def test_each_path_to_the_throw_is_a_record_of_it(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    found = _throw(mined[1])
    assert matched_among(found, PRINTED) == sorted(PRINTED)
    # the hint of one branch never follows another's, nor the declared text twice
    assert not matched_among(found, [
        PRINTED[0] + " - Extension Shop.Mail not included?",
        "Failed to create Target with unknown alias: 'x' - Extension Shop.Other not included?",
    ])


def test_a_pasted_hint_finds_the_throw_first(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    root = mined[0]
    top = errdex.resolve(f"Unhandled exception. Shop.ConfigException: {PRINTED[1]}",
                         db=root.parent / "errdex.sqlite").matches[0]
    assert (top.record.file_path, top.record.line_number) == (
        "src/Factory.cs", line_starting(FACTORY, "throw new ConfigException(message)",
                                        stripped=True))
    assert not top.approximate


@pytest.mark.skipif(shutil.which("mcs") is None or shutil.which("mono") is None,
                    reason="needs mcs and mono")
def test_what_mono_prints_is_what_the_records_say(
    mined: tuple[Path, list[errdex.StoredRecord]], tmp_path: Path,
) -> None:
    printed = mono_prints(tmp_path, {"Factory.cs": FACTORY, "Main.cs": MAIN}).splitlines()
    assert printed == PRINTED
    assert matched_among(_throw(mined[1]), printed) == sorted(printed)
