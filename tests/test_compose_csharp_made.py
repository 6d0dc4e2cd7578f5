"""C# exceptions a factory makes in a local and returns, their message built with a
``StringBuilder`` that helpers append to::

    var sb = new StringBuilder();
    if (reason != null) { sb.Append(reason); } else { sb.Append("Gave up on ").Append(job); }
    AddDetail(sb, job);                       // a helper appends what only it knows
    sb.Append(" (see the retry guide: ").Append(Guide).Append(')');
    Exception ex = queued ? new QueueException(sb.ToString()) : new RetryException(sb.ToString());
    ex.Data["job"] = job;
    return ex;

Both arms of the ternary are sites (a paste names either class); the branch and the
helper are holes that may span lines, the text after them is known, and ``')'`` prints
itself. A builder started from a variable source does not say starts with a hole that may
be empty, so the text after it still anchors the pattern; started from a local the
method assigns in several branches, each branch's text starts one of its templates."""

from __future__ import annotations

import re

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture

JOBS = """\
using System;
using System.Text;

namespace Shop
{
    public class QueueException : Exception
    {
        public QueueException(string message) : base(message) { }
    }

    public class RetryException : Exception
    {
        public RetryException(string message) : base(message) { }
    }

    public static class Failures
    {
        private const string Guide = "https://example.invalid/retries";

        internal static Exception GaveUp(string job, string reason, bool queued)
        {
            var sb = new StringBuilder();
            if (reason != null)
            {
                sb.Append(reason);
            }
            else
            {
                sb.Append("Gave up on ").Append(job);
            }
            AddDetail(sb, job);
            sb.Append(" (see the retry guide: ").Append(Guide).Append(')');
            Exception ex = queued
                ? new QueueException(sb.ToString())
                : new RetryException(sb.ToString());
            ex.Data["job"] = job;
            return ex;
        }

        internal static Exception Stalled(string opening, int minutes)
        {
            var sb = new StringBuilder(opening);
            sb.Append(" stalled after ").Append(minutes).Append(" minutes");
            var ex = new RetryException(sb.ToString());
            return ex;
        }

        internal static Exception NoWorker(bool retrying, int attempts, string job)
        {
            string opening;
            if (retrying)
            {
                opening = $"No worker answered (attempts: {attempts}), unable to run: ";
            }
            else
            {
                opening = "No worker is available to run this job: ";
            }
            var sb = new StringBuilder(opening);
            sb.Append(job);
            var ex = new QueueException(sb.ToString());
            return ex;
        }

        private static void AddDetail(StringBuilder sb, string job)
        {
            sb.Append(", queue: ").Append(job.Length);
        }
    }
}
"""

GAVE_UP = ("Gave up on nightly-report, queue: 14 (see the retry guide: "
           "https://example.invalid/retries)")


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_cs_made", "made", {"src/Failures.cs": JOBS})[1]


def _at(records: list[errdex.StoredRecord], start: str) -> errdex.StoredRecord:
    line = line_starting(JOBS, start, stripped=True)
    [record] = [r for r in records if r.record.line_number == line]
    return record


@pytest.mark.parametrize("start", [": new RetryException(sb.ToString())",
                                   "? new QueueException(sb.ToString())"])
def test_each_arm_of_the_ternary_is_a_site_ending_with_the_known_text(
    records: list[errdex.StoredRecord], start: str,
) -> None:
    record = _at(records, start)
    assert record.record.error_class == start.split("new ")[1].split("(")[0]
    assert re.fullmatch(record.record.message_pattern, GAVE_UP)
    assert re.fullmatch(record.record.message_pattern,
                        "Disk full\n, queue: 3 (see the retry guide: https://x.invalid)")
    assert not re.fullmatch(record.record.message_pattern, GAVE_UP.removesuffix(")"))


def test_a_builder_started_from_a_variable_keeps_the_text_after_it(
    records: list[errdex.StoredRecord],
) -> None:
    record = _at(records, "var ex = new RetryException(sb.ToString());")
    assert re.fullmatch(record.record.message_pattern, "Upload stalled after 7 minutes")
    assert re.fullmatch(record.record.message_pattern, " stalled after 7 minutes")
    assert not re.fullmatch(record.record.message_pattern, "Upload stopped after 7 minutes")


def test_a_builder_started_from_a_local_chosen_by_branch_has_a_template_per_branch(
    records: list[errdex.StoredRecord],
) -> None:
    line = line_starting(JOBS, "var ex = new QueueException(sb.ToString());", stripped=True)
    found = [r for r in records if r.record.line_number == line]
    printed = ["No worker answered (attempts: 3), unable to run: nightly-report",
               "No worker is available to run this job: nightly-report"]
    for message in printed:
        assert sum(bool(re.fullmatch(r.record.message_pattern, message)) for r in found) == 1
    assert not any(re.fullmatch(r.record.message_pattern, "nightly-report") for r in found)
