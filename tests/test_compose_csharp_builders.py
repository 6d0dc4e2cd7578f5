"""C# messages a ``StringBuilder`` assembles in a factory, part of them in a loop:

    var message = new StringBuilder();
    message.AppendLine(note ?? "").Append(times.Describe(count)).AppendLine("Calls made:");
    foreach (var call in calls) message.AppendLine($"   {call}");
    return new CallError(message.TrimEnd().AppendLine().ToString());

The text before and after the loop is known; the loop (or a branch) is one hole that may
span lines or print nothing; ``note ?? ""`` may print nothing (and the empty first line
it leaves is not in a paste); the chain after the builder at the site ends it (a
``Trim…`` step removes blanks only, a project's own ``Append…`` extension is a hole like
the loop); a call appended (``times.Describe(count)``, ``Times.Once().Describe(count)``)
prints what it composes (here, one resource per ``switch`` arm), and a resource appended
its text. Where Mono is installed the fixture is built and run, and each printed message
must match a pattern of the site that throws it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture, missing

RESOURCES = """\
namespace Shop.Properties
{
    internal class Resources
    {
        private static ResourceManager resourceMan = new ResourceManager();

        internal static ResourceManager ResourceManager { get { return resourceMan; } }

        /// <summary>
        ///   Looks up a localized string similar to Wanted the call at least once, got {2}: .
        /// </summary>
        internal static string AtLeastOnce {
            get { return ResourceManager.GetString("AtLeastOnce", null); }
        }

        /// <summary>
        ///   Looks up a localized string similar to Wanted the call {0} times, got {2}: .
        /// </summary>
        internal static string Exactly {
            get { return ResourceManager.GetString("Exactly", null); }
        }

        /// <summary>
        ///   Looks up a localized string similar to Calls made:.
        /// </summary>
        internal static string CallsMade {
            get { return ResourceManager.GetString("CallsMade", null); }
        }
    }
}
"""

CALLS = """\
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using Shop.Properties;

namespace Shop
{
    public class CallError : Exception
    {
        public CallError(string message) : base(message) { }
    }

    public class Times
    {
        private readonly bool once;
        private readonly int from = 2;
        private readonly int to = 2;

        public Times(bool once) { this.once = once; }

        public static Times Once() { return new Times(true); }

        public string Describe(int count)
        {
            var message = once ? Resources.AtLeastOnce : Resources.Exactly;
            return string.Format(CultureInfo.CurrentCulture, message, from, to, count);
        }
    }

    public static class Failures
    {
        public static CallError NoMatchingCalls(string note, Times times, int count,
                                                string expression, List<string> calls)
        {
            var message = new StringBuilder();
            message.AppendLine(note ?? "")
                   .Append(times.Describe(count))
                   .AppendLine(expression)
                   .AppendLine()
                   .AppendLine(Resources.CallsMade)
                   .AppendLine();
            foreach (var call in calls)
            {
                message.AppendLine($"   {call}");
            }
            if (calls.Count == 0)
            {
                message.AppendLine("   (none)");
            }
            return new CallError(message.TrimEnd().AppendLine().ToString());
        }

        public static CallError TooMany(int count, List<string> calls)
        {
            var message = new StringBuilder();
            message.Append(Times.Once().Describe(count)).TrimEnd().AppendLine();
            message.AppendIndented(string.Join(", ", calls));
            return new CallError(message.ToString());
        }

        public static CallError Unread(List<string> calls)
        {
            var message = new StringBuilder("Pending: ");
            foreach (var call in calls)
            {
                message = new StringBuilder(call);
            }
            return new CallError(message.ToString());
        }
    }

    public static class BuilderExtensions
    {
        public static StringBuilder TrimEnd(this StringBuilder builder)
        {
            int end = builder.Length;
            while (end > 0 && char.IsWhiteSpace(builder[end - 1])) end--;
            builder.Length = end;
            return builder;
        }

        public static StringBuilder AppendIndented(this StringBuilder builder, string text)
        {
            return builder.Append("   ").Append(text);
        }
    }

    public class Checker
    {
        public void Verify(Times times, int count, List<string> calls, string note)
        {
            throw Failures.NoMatchingCalls(note, times, count, "x => x.Run()", calls);
        }

        public void Limit(int count, List<string> calls)
        {
            throw Failures.TooMany(count, calls);
        }

        public void Pending(List<string> calls)
        {
            throw Failures.Unread(calls);
        }
    }
}
"""

PROGRAM = """\
using System;
using System.Collections.Generic;
using System.Globalization;

namespace Shop.Properties
{
    internal class ResourceManager
    {
        private readonly Dictionary<string, string> values = new Dictionary<string, string> {
            { "AtLeastOnce", "Wanted the call at least once, got {2}: " },
            { "Exactly", "Wanted the call {0} times, got {2}: " },
            { "CallsMade", "Calls made:" },
        };
        public string GetString(string name, CultureInfo culture) { return values[name]; }
    }
}

namespace Shop
{
    public static class Program
    {
        public static void Main()
        {
            try
            {
                new Checker().Verify(new Times(true), 0,
                                     new List<string> { "Run(1)", "Stop()" }, null);
            }
            catch (Exception e) { Console.Write(e.Message + "\\0"); }
            try { new Checker().Verify(new Times(false), 3, new List<string>(), "checked twice"); }
            catch (Exception e) { Console.Write(e.Message + "\\0"); }
            try { new Checker().Limit(4, new List<string> { "Run(1)", "Run(2)" }); }
            catch (Exception e) { Console.Write(e.Message + "\\0"); }
        }
    }
}
"""

FILES = {"src/Properties/Resources.Designer.cs": RESOURCES, "src/Calls.cs": CALLS}
THROW = "throw Failures.NoMatchingCalls("
LIMIT = "throw Failures.TooMany("


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    root, records = mine_fixture(tmp_path_factory, "compose_cs_builders", "builders", FILES)
    return root.parent / "errdex.sqlite", records


@pytest.fixture(scope="module")
def records(mined: tuple[Path, list[errdex.StoredRecord]]) -> list[errdex.StoredRecord]:
    return mined[1]


def _at(records: list[errdex.StoredRecord], start: str) -> list[errdex.StoredRecord]:
    line = line_starting(CALLS, start, stripped=True)
    return [r for r in records if r.record.file_path == "src/Calls.cs"
            and r.record.line_number == line]


def test_the_text_around_a_loop_is_a_record_per_resource_the_call_chooses(
    records: list[errdex.StoredRecord],
) -> None:
    found = _at(records, THROW)
    assert len(found) == 2
    for record in found:
        written = record.record.error_message
        assert written.startswith("{note}{Environment.NewLine}Wanted the call "), written
        assert written.endswith("x => x.Run(){Environment.NewLine}{Environment.NewLine}"
                                "Calls made:{…}"), written


def test_the_loop_may_print_many_lines_or_none_and_the_note_nothing(
    records: list[errdex.StoredRecord],
) -> None:
    patterns = [r.record.message_pattern for r in _at(records, THROW)]
    many = "\nWanted the call at least once, got 0: x => x.Run()\n\nCalls made:\n\n   A()\n   B()"
    none = "a note\nWanted the call 2 times, got 3: x => x.Run()\n\nCalls made:"
    pasted = many.removeprefix("\n")  # a paste starts at its first line with text
    for message in (many, none, pasted):
        assert any(re.fullmatch(p, message) for p in patterns), message


def test_a_call_on_a_call_a_trim_inside_a_chain_and_an_own_append_are_read(
    records: list[errdex.StoredRecord],
) -> None:
    """``Times.Once().Describe(count)`` composes (the method of the class named first),
    ``.TrimEnd()`` between appends removes blanks only, and the project's own
    ``AppendIndented(…)`` prints what source does not say."""
    written = {r.record.error_message for r in _at(records, LIMIT)}
    assert written == {"Wanted the call at least once, got {2}: {…}",
                       "Wanted the call {0} times, got {2}: {…}"}


def test_a_builder_assigned_anew_in_a_loop_is_not_read(
    records: list[errdex.StoredRecord],
) -> None:
    assert not [r for r in _at(records, "throw Failures.Unread(")
                if "Pending" in r.record.error_message]


def test_the_patterns_match_what_mono_prints(
    mined: tuple[Path, list[errdex.StoredRecord]], tmp_path_factory: pytest.TempPathFactory,
) -> None:
    store, records = mined
    if missing("mcs", "mono"):
        pytest.skip("no C# compiler and runtime (Mono) installed")
    root = tmp_path_factory.mktemp("cs_builders_run")
    for name, body in (("Resources.cs", RESOURCES), ("Calls.cs", CALLS),
                       ("Program.cs", PROGRAM)):
        (root / name).write_text(body)
    subprocess.run(["mcs", "-out:calls.exe", "Resources.cs", "Calls.cs",
                    "Program.cs"], cwd=root, capture_output=True, check=True)
    done = subprocess.run(["mono", str(root / "calls.exe")], capture_output=True, text=True,
                          check=True)
    printed = [m for m in done.stdout.split("\0") if m]
    assert printed[:2] == [
        "\nWanted the call at least once, got 0: x => x.Run()\n\nCalls made:\n\n"
        "   Run(1)\n   Stop()\n",
        "checked twice\nWanted the call 2 times, got 3: x => x.Run()\n\nCalls made:\n\n"
        "   (none)\n",
    ]
    patterns = [r.record.message_pattern for r in _at(records, THROW)]
    for message in printed[:2]:
        assert any(re.fullmatch(p, message.rstrip("\n")) for p in patterns), message
    # the trimmed blank is in the resource's text, known only once composed: the pattern
    # keeps it, and a lookup, reading the indented line as one, still lands on the site
    assert printed[2] == "Wanted the call at least once, got 4:\n   Run(1), Run(2)"
    [best] = errdex.resolve(printed[2], db=store, top=1).matches
    assert (best.record.file_path, best.record.line_number) == (
        "src/Calls.cs", line_starting(CALLS, LIMIT, stripped=True))
