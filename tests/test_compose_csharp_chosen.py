"""C# resource texts chosen by a ``switch`` expression or a ternary and then formatted
(``string.Format(culture, message, from, to, count)``), thrown where chosen or returned
by a string method whose result an exception of the repository is given: one record per
resource chosen. Where Mono is installed, the ternary form (C# 7) is built and run
against a stub ``ResourceManager`` and its messages matched."""

from __future__ import annotations

import re
import subprocess

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
        ///   Looks up a localized string similar to Wanted the call at least once, got {2}..
        /// </summary>
        internal static string AtLeastOnce {
            get { return ResourceManager.GetString("AtLeastOnce", null); }
        }

        /// <summary>
        ///   Looks up a localized string similar to Wanted the call {0} times, got {2}..
        /// </summary>
        internal static string Exactly {
            get { return ResourceManager.GetString("Exactly", null); }
        }
    }
}
"""

TIMES = """\
using System;
using System.Globalization;
using Shop.Properties;

namespace Shop
{
    public class Times
    {
        private readonly bool once;
        private readonly int from = 2;
        private readonly int to = 2;

        public Times(bool once) { this.once = once; }

        public void Check(int count)
        {
            var message = once ? Resources.AtLeastOnce : Resources.Exactly;
            throw new InvalidOperationException(
                string.Format(CultureInfo.CurrentCulture, message, from, to, count));
        }

        public string Describe(int count)
        {
            var message = once ? Resources.AtLeastOnce : Resources.Exactly;
            return string.Format(CultureInfo.CurrentCulture, message, from, to, count);
        }

        public void Verify(int count)
        {
            throw new MockError(Describe(count));
        }
    }

    public class MockError : Exception
    {
        public MockError(string message) : base(message) { }
    }
}
"""

SWITCHED = """\
using System;
using System.Globalization;
using Shop.Properties;

namespace Shop
{
    public enum Kind { AtLeastOnce, Exactly }

    public class Switched
    {
        private readonly Kind kind;

        public void Check(int count)
        {
            var message = this.kind switch
            {
                Kind.AtLeastOnce => Resources.AtLeastOnce,
                Kind.Exactly => Resources.Exactly,
                _ => throw new InvalidOperationException(),
            };
            throw new InvalidOperationException(
                string.Format(CultureInfo.CurrentCulture, message, 1, 1, count));
        }
    }
}
"""

STUB = """\
using System;
using System.Collections.Generic;
using System.Globalization;

namespace Shop.Properties
{
    internal class ResourceManager
    {
        private readonly Dictionary<string, string> values = new Dictionary<string, string> {
            { "AtLeastOnce", "Wanted the call at least once, got {2}." },
            { "Exactly", "Wanted the call {0} times, got {2}." },
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
            foreach (var once in new[] { true, false })
            {
                try { new Times(once).Check(3); }
                catch (Exception e) { Console.WriteLine("Check\\t" + e.Message); }
                try { new Times(once).Verify(5); }
                catch (Exception e) { Console.WriteLine("Verify\\t" + e.Message); }
            }
        }
    }
}
"""

FILES = {"src/Properties/Resources.Designer.cs": RESOURCES, "src/Times.cs": TIMES,
         "src/Switched.cs": SWITCHED}
PRINTED = [
    ("Check", "Wanted the call at least once, got 3."),
    ("Verify", "Wanted the call at least once, got 5."),
    ("Check", "Wanted the call 2 times, got 3."),
    ("Verify", "Wanted the call 2 times, got 5."),
]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_cs_chosen", "chosen", FILES)[1]


def _at(records: list[errdex.StoredRecord], path: str, text: str,
        start: str) -> list[errdex.StoredRecord]:
    line = line_starting(text, start, stripped=True)
    return [r for r in records if r.record.file_path == path and r.record.line_number == line]


def _throw(records: list[errdex.StoredRecord], method: str) -> list[errdex.StoredRecord]:
    start = "throw new InvalidOperationException(" if method == "Check" else "throw new MockError("
    return _at(records, "src/Times.cs", TIMES, start)


def test_each_chosen_resource_is_a_record_where_it_is_thrown(
    records: list[errdex.StoredRecord],
) -> None:
    for method in ("Check", "Verify"):
        written = {r.record.error_message for r in _throw(records, method)}
        assert written == {"Wanted the call at least once, got {2}.",
                           "Wanted the call {0} times, got {2}."}, method


def test_a_switch_expression_chooses_too_and_its_throwing_arm_chooses_nothing(
    records: list[errdex.StoredRecord],
) -> None:
    found = [r for r in records if r.record.file_path == "src/Switched.cs"
             and "Wanted" in r.record.error_message]
    assert len(found) == 2
    assert any(re.fullmatch(r.record.message_pattern,
                            "Wanted the call 1 times, got 4.") for r in found)


def test_the_patterns_match_what_mono_prints(
    records: list[errdex.StoredRecord], tmp_path_factory: pytest.TempPathFactory,
) -> None:
    if missing("mcs", "mono"):
        pytest.skip("no C# compiler and runtime (Mono) installed")
    root = tmp_path_factory.mktemp("cs_chosen_run")
    for name, body in (("Resources.cs", RESOURCES), ("Times.cs", TIMES), ("Stub.cs", STUB)):
        (root / name).write_text(body)
    subprocess.run(["mcs", "-out:times.exe", "Resources.cs", "Times.cs", "Stub.cs"],
                   cwd=root, capture_output=True, check=True)
    done = subprocess.run(["mono", str(root / "times.exe")], capture_output=True, text=True,
                          check=True)
    printed = [tuple(line.split("\t", 1)) for line in done.stdout.splitlines()]
    assert printed == PRINTED
    for method, message in PRINTED:
        assert any(re.fullmatch(r.record.message_pattern, message)
                   for r in _throw(records, method)), (method, message)
