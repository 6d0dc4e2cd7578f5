"""C# the grammar fails on, read whole: a class sharing one body between its sync and
async methods (``bool async``, ``if (async)``, ``Read(async: true)``) and a declaration
whose modifier an ``#if`` chooses (``#if INTERNAL internal #else public #endif class``).
tree-sitter's C# grammar reads either as one ERROR node over the whole class, which lost
every site in it; the file is rewritten byte for byte (same lines) before it is read, so
each site keeps its line and message (one in a branch the repair blanked too). A file
that parses is read as it is: both branches of an ``#if`` inside a message stay sites of
their own."""

from __future__ import annotations

import re

import pytest

import errdex
from errdex.languages.base import parse
from errdex.languages.csharp.repair import repaired
from tests.compose_steps import line_starting, mine_fixture, records_at

CHANNEL = """\
using System;
using System.Threading;
using System.Threading.Tasks;

namespace Wire
{
    public sealed class Channel
    {
        bool _open;

        public Task<int> ReadAsync(CancellationToken token) => Read(async: true, token);

        async Task<int> Read(bool async, CancellationToken token)
        {
            if (!_open)
                throw new InvalidOperationException("The channel is not open; call Open first.");
            var count = async ? await Fill(token) : 0;
            if (count < 0)
                throw new ChannelException($"Read a negative count of {count} bytes.");
            return count;
        }

        Task<int> Fill(CancellationToken token) => Task.FromResult(1);
    }

    public sealed class ChannelException : Exception
    {
        public ChannelException(string message) : base(message) { }
    }
}
"""

FRAMES = """\
using System;

namespace Wire
{
#if WIRE_INTERNAL
    internal
#else
    public
#endif
    static class Frames
    {
        public static int Length(byte[] frame)
        {
            if (frame.Length < 4)
                throw new FormatException("A frame needs a header of four bytes.");
            return frame.Length - 4;
        }
    }
}
"""

BUILDS = """\
using System;

namespace Wire
{
    public static class Builds
    {
        public static void Check(int size)
        {
            if (size > 16)
                throw new NotSupportedException(
#if NET8_0_OR_GREATER
                    "Frames over sixteen bytes need the vector path."
#else
                    "Frames over sixteen bytes are not supported here."
#endif
                );
        }
    }
}
"""

# The ``#if`` breaks the parse; the repair keeps ``"net472";`` and blanks the rest, and the
# throw the source's own tree read in the ``#else`` stays a site.
TARGET = """\
namespace Wire
{
    internal static class Target
    {
        public static string Moniker =>
#if NET472
            "net472";
#elif NET8_0
            "net80";
#else
            throw new System.InvalidOperationException($"Unknown target framework: {Moniker}.");
#endif
    }
}
"""

FILES = {"src/Channel.cs": CHANNEL, "src/Frames.cs": FRAMES, "src/Builds.cs": BUILDS,
         "src/Target.cs": TARGET}


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_cs_repair", "repair", FILES)[1]


PRINTED = [
    ("src/Channel.cs", CHANNEL, 'throw new InvalidOperationException("The channel',
     "InvalidOperationException", "The channel is not open; call Open first."),
    ("src/Channel.cs", CHANNEL, "throw new ChannelException(",
     "ChannelException", "Read a negative count of -3 bytes."),
    ("src/Frames.cs", FRAMES, "throw new FormatException(",
     "FormatException", "A frame needs a header of four bytes."),
    ("src/Target.cs", TARGET, "throw new System.InvalidOperationException(",
     "System.InvalidOperationException", "Unknown target framework: net90."),
]


@pytest.mark.parametrize(("path", "source", "start", "error_class", "printed"), PRINTED)
def test_a_site_in_a_class_the_grammar_failed_on_is_mined(
    records: list[errdex.StoredRecord], path: str, source: str, start: str,
    error_class: str, printed: str,
) -> None:
    [record] = records_at(records, path, line_starting(source, start, stripped=True))
    assert record.record.error_class == error_class
    assert re.fullmatch(record.record.message_pattern, printed)


def test_a_file_that_parses_keeps_each_build_of_its_message(
    records: list[errdex.StoredRecord],
) -> None:
    found = records_at(records, "src/Builds.cs",
                       line_starting(BUILDS, "throw new NotSupportedException(", stripped=True))
    assert sorted(r.record.error_message for r in found) == [
        "Frames over sixteen bytes are not supported here.",
        "Frames over sixteen bytes need the vector path.",
    ]


@pytest.mark.parametrize("source", [CHANNEL, FRAMES])
def test_the_repair_keeps_every_byte_offset_and_parses(source: str) -> None:
    data = source.encode()
    root = parse("csharp", data).root_node
    assert root.has_error
    fixed, tree = repaired(data, root)
    assert len(fixed) == len(data) and fixed.count(b"\n") == data.count(b"\n")
    assert not tree.has_error
    assert b'"The channel is not open' in fixed or b"A frame needs" in fixed


def test_a_string_naming_async_is_left_as_it_is() -> None:
    data = b'class C { void M(bool async) { if (async) F("run it async, then"); } }'
    fixed, _ = repaired(data, parse("csharp", data).root_node)
    assert b'"run it async, then"' in fixed and b"(asyn_)" in fixed
