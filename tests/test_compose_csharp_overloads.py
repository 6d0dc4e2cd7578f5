"""C# overloads taking as many parameters, told apart by the declared types of what a
call passes: ``new TakenException(newTrigger)`` runs the constructor taking an
``ITrigger`` and prints its message, not the one of the constructor taking an
``IJobDetail``; a ``Throw`` helper overloaded the same way reaches the constructor of its
own type. A string literal is a ``string``; a parameter or local is the type it is
declared with; a ``var`` or an expression decides nothing and every overload's message
stays an alternative, as before types were read. Where mcs and mono are installed the
fixture is built and run, and what it prints is matched by the sites' patterns."""

from __future__ import annotations

import pytest

import errdex
from tests.compose_steps import (
    line_starting,
    matched_among,
    mine_fixture,
    missing,
    mono_prints,
    records_at,
)

ERRORS = """\
using System;

namespace Shop
{
    public interface IJobDetail { string Key { get; } }

    public interface ITrigger { string Key { get; } }

    public interface IOperableTrigger : ITrigger { }

    public sealed class TakenException : Exception
    {
        public TakenException(string message) : base(message) { }

        public TakenException(IJobDetail offendingJob)
            : base($"Unable to store Job: '{offendingJob.Key}', because one already exists.") { }

        public TakenException(ITrigger offendingTrigger)
            : base($"Unable to store Trigger: '{offendingTrigger.Key}', because it exists.") { }
    }

    internal static class Throw
    {
        internal static void TakenException(IJobDetail offendingJob)
        {
            throw new TakenException(offendingJob);
        }

        internal static void TakenException(ITrigger offendingTrigger)
        {
            throw new TakenException(offendingTrigger);
        }

        internal static void TakenException(string message)
        {
            throw new TakenException(message);
        }
    }
}
"""

STORE = """\
using System;

namespace Shop
{
    public class Store
    {
        public void AddJob(IJobDetail newJob)
        {
            if (Exists(newJob.Key)) Throw.TakenException(newJob);
        }

        public void AddTrigger(ITrigger newTrigger)
        {
            if (Exists(newTrigger.Key)) Throw.TakenException(newTrigger);
        }

        public void AddCalendar(string name)
        {
            if (Exists(name)) Throw.TakenException("Calendar " + name + " is already stored.");
        }

        public void Replace(ITrigger old)
        {
            ITrigger fresh = old;
            if (Exists(fresh.Key)) throw new TakenException(fresh);
        }

        public void Reschedule(IOperableTrigger moved)
        {
            if (Exists(moved.Key)) Throw.TakenException(moved);
        }

        public void Restore(object saved)
        {
            var found = Load(saved);
            if (found != null) throw new TakenException(found);
        }

        private static bool Exists(string key) { return key.Length > 0; }

        private static IJobDetail Load(object saved) { return (IJobDetail)saved; }
    }
}
"""

PROGRAM = """\
using System;

namespace Shop
{
    class Nightly : IJobDetail, IOperableTrigger
    {
        public string Key { get { return "DEFAULT.nightly"; } }
    }

    static class Program
    {
        static void Main()
        {
            var store = new Store();
            var nightly = new Nightly();
            Action[] calls = {
                () => store.AddJob(nightly), () => store.AddTrigger(nightly),
                () => store.AddCalendar("holidays"), () => store.Replace(nightly),
                () => store.Reschedule(nightly), () => store.Restore(nightly),
            };
            foreach (var call in calls)
            {
                try { call(); } catch (TakenException e) { Console.WriteLine(e.Message); }
            }
        }
    }
}
"""

JOB = "Unable to store Job: 'DEFAULT.nightly', because one already exists."
TRIGGER = "Unable to store Trigger: 'DEFAULT.nightly', because it exists."
CALENDAR = "Calendar holidays is already stored."


# What mono prints for each call of ``PROGRAM``, in order (Restore's ``var`` holds an
# IJobDetail, which the compiler knows and errdex does not: both messages stay there).
RUNTIME = [JOB, TRIGGER, CALENDAR, TRIGGER, TRIGGER, JOB]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    files = {"src/Errors.cs": ERRORS, "src/Store.cs": STORE}
    return mine_fixture(tmp_path_factory, "compose_cs_overloads", "overloads", files)[1]


def _printed(records: list[errdex.StoredRecord], start: str) -> list[str]:
    """The messages among ours each record at the line starting ``start`` fullmatches."""
    line = line_starting(STORE, start, stripped=True)
    found = records_at(records, "src/Store.cs", line)
    assert found, f"no record at line {line}"
    return matched_among(found, (JOB, TRIGGER, CALENDAR))


@pytest.mark.parametrize(("start", "printed"), [
    ("if (Exists(newJob.Key))", [JOB]),
    ("if (Exists(newTrigger.Key))", [TRIGGER]),
    ("if (Exists(name))", [CALENDAR]),
    ("if (Exists(fresh.Key))", [TRIGGER]),  # a local declared with its type
    ("if (Exists(moved.Key))", [TRIGGER]),  # a type named as its kind: a subtype
])
def test_the_overload_a_declared_type_reaches_prints_its_own_message(
    records: list[errdex.StoredRecord], start: str, printed: list[str]
) -> None:
    assert _printed(records, start) == printed
    line = line_starting(STORE, start, stripped=True)
    assert {r.record.error_class for r in records_at(records, "src/Store.cs", line)} == {
        "TakenException"}


def test_a_var_decides_nothing_and_every_overload_stays(
    records: list[errdex.StoredRecord],
) -> None:
    assert _printed(records, "if (found != null)") == sorted([JOB, TRIGGER])


@pytest.mark.skipif(missing("mcs", "mono"), reason="no C# compiler installed")
def test_the_patterns_match_what_mono_prints(
    records: list[errdex.StoredRecord], tmp_path_factory: pytest.TempPathFactory,
) -> None:
    printed = mono_prints(tmp_path_factory.mktemp("cs_overloads_run"),
                          {"Errors.cs": ERRORS, "Store.cs": STORE, "Program.cs": PROGRAM})
    assert printed.splitlines() == RUNTIME
    starts = ["if (Exists(newJob.Key))", "if (Exists(newTrigger.Key))", "if (Exists(name))",
              "if (Exists(fresh.Key))", "if (Exists(moved.Key))", "if (found != null)"]
    for start, text in zip(starts, RUNTIME, strict=True):
        assert text in _printed(records, start)


@pytest.mark.parametrize(("start", "printed"), [
    ("throw new TakenException(offendingJob);", [JOB]),
    ("throw new TakenException(offendingTrigger);", [TRIGGER]),
])
def test_a_raise_inside_a_helper_named_after_the_class_makes_the_class(
    records: list[errdex.StoredRecord], start: str, printed: list[str]
) -> None:
    """``new TakenException(x)`` inside ``Throw.TakenException`` constructs the class, never
    calls the helper of that name (which would be itself: it composed nothing, and the
    raise took every caller's message instead)."""
    line = line_starting(ERRORS, start, stripped=True)
    assert matched_among(records_at(records, "src/Errors.cs", line),
                         (JOB, TRIGGER, CALENDAR)) == printed
