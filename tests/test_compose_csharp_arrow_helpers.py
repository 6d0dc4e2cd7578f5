"""C# throw helpers called as a member's whole body: ``static void ThrowFull() =>
ThrowHelper.ThrowInvalidOperationException("The buffer is full.");`` (a local function or
a method kept out of the hot path, the .NET idiom for cheap inlining). The call is a site
of the line it is written on, as a statement calling the helper is; an expression-bodied
member calling no helper of the repository is none."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture, missing, mono_prints, records_at

HELPER = """\
using System;
using System.Diagnostics.CodeAnalysis;

namespace Spool
{
    static class ThrowHelper
    {
        [DoesNotReturn]
        internal static void ThrowInvalidOperationException(string message)
            => throw new InvalidOperationException(message);
    }
}
"""

BUFFER = """\
using System;

namespace Spool
{
    public sealed class Buffer
    {
        int _size;

        public void Write(int count)
        {
            if (_size + count > 64)
                ThrowFull(_size);
            _size += count;
        }

        static void ThrowFull(int size)
            => ThrowHelper.ThrowInvalidOperationException($"Buffer full at {size} bytes.");

        public void Flush()
        {
            if (_size == 0)
                ThrowEmpty();
        }

        static void ThrowEmpty() => ThrowHelper.ThrowInvalidOperationException("Nothing to flush.");

        public string Describe() => string.Join(", ", "a buffer of bytes", _size);
    }

    static class Program
    {
        static void Main()
        {
            Action[] runs = { () => new Buffer().Write(65), () => new Buffer().Flush() };
            foreach (var run in runs)
            {
                try { run(); }
                catch (Exception e) { Console.WriteLine(e.Message); }
            }
        }
    }
}
"""

# A local function (C# 7; Mono's compiler has none): mined, not run.
SPOOL = """\
namespace Spool
{
    public sealed class Spool
    {
        public void Wind(int turns)
        {
            if (turns > 9)
                ThrowTooMany(turns);

            void ThrowTooMany(int count)
                => ThrowHelper.ThrowInvalidOperationException($"Cannot wind {count} turns.");
        }
    }
}
"""

PRINTED = [
    ("=> ThrowHelper.ThrowInvalidOperationException($", "Buffer full at 0 bytes."),
    ("static void ThrowEmpty() =>", "Nothing to flush."),
]


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    files = {"src/ThrowHelper.cs": HELPER, "src/Buffer.cs": BUFFER, "src/Spool.cs": SPOOL}
    return mine_fixture(tmp_path_factory, "compose_cs_arrow", "arrow", files)[1]


def _at(records: list[errdex.StoredRecord], start: str) -> list[errdex.StoredRecord]:
    return records_at(records, "src/Buffer.cs", line_starting(BUFFER, start, stripped=True))


@pytest.mark.parametrize(("start", "printed"), PRINTED)
def test_a_helper_called_as_a_members_body_is_a_site(
    mined: list[errdex.StoredRecord], start: str, printed: str,
) -> None:
    [record] = _at(mined, start)
    assert record.record.error_class == "InvalidOperationException"
    assert re.fullmatch(record.record.message_pattern, printed)


def test_a_local_functions_body_is_a_site_too(mined: list[errdex.StoredRecord]) -> None:
    [record] = records_at(mined, "src/Spool.cs", line_starting(
        SPOOL, "=> ThrowHelper.ThrowInvalidOperationException(", stripped=True))
    assert re.fullmatch(record.record.message_pattern, "Cannot wind 12 turns.")


def test_a_body_calling_no_helper_is_no_site(mined: list[errdex.StoredRecord]) -> None:
    assert not _at(mined, "public string Describe()")


def test_arrow_helper_patterns_match_what_mono_prints(
    tmp_path: Path, mined: list[errdex.StoredRecord],
) -> None:
    if missing("mcs", "mono"):
        pytest.skip("no C# compiler and runtime (Mono) installed")
    helper = HELPER.replace("using System.Diagnostics.CodeAnalysis;\n", "").replace(
        "[DoesNotReturn]\n", "")
    printed = mono_prints(tmp_path, {"ThrowHelper.cs": helper, "Buffer.cs": BUFFER})
    assert printed.splitlines() == [p for _, p in PRINTED]
    for start, printed in PRINTED:
        [record] = _at(mined, start)
        assert re.fullmatch(record.record.message_pattern, printed)
