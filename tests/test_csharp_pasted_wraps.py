"""C# pastes in the shapes .NET and Visual Studio print them: a wrapping exception whose
HResult follows its class (``Ns.StoreException (0x80004005): msg``) over its inner
exception's frames, a local function's compiled frame name (``<Read>g__ReadLong|4_0``),
and Visual Studio's "Copy Details" (the class alone, then ``Message=``). Each must reach
the throw that wrote the message, among others of the same text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import errdex
from errdex.lookup.parse import main_event, paste_events
from tests.compose_steps import line_starting, mine_fixture, missing, mono_prints

STORE = """\
using System;
using System.IO;

namespace Shop
{
    public class StoreException : Exception
    {
        public StoreException(string message, Exception inner) : base(message, inner)
        {
            HResult = unchecked((int)0x80004005);
        }
    }

    public static class Store
    {
        public static int Load(Stream stream)
        {
            try { return stream.ReadByte(); }
            catch (IOException e) { throw new StoreException("Reading the store failed", e); }
        }

        public static int Read(Stream stream, int count)
        {
            return ReadLong(stream, count);

            int ReadLong(Stream source, int size)
            {
                try
                {
                    return checked(size * int.MaxValue) + (int)source.Length;
                }
                catch (OverflowException e)
                {
                    throw new StoreException("Reading the store failed", e);
                }
            }
        }

        public static void Handle<T>(bool found)
        {
            if (!found)
                throw new InvalidOperationException(
                    $"Error constructing handler for request of type {typeof(T)}. " +
                    "Register your handlers first.");
        }
    }

    static class Program
    {
        static void Main()
        {
            try { Store.Read(new MemoryStream(new byte[2]), 5); }
            catch (StoreException e) { Console.WriteLine(e.Message); }
            try { Store.Handle<string>(false); }
            catch (InvalidOperationException e) { Console.WriteLine(e.Message); }
        }
    }
}
"""

WRAPPED = """\
Shop.StoreException (0x80004005): Reading the store failed
 ---> System.OverflowException: Arithmetic operation resulted in an overflow.
   at Shop.Store.<Read>g__ReadLong|2_0(Stream stream, Int32 count)
"""

DETAILS = """\
System.InvalidOperationException
  HResult=0x80131509
  Message=Error constructing handler for request of type Shop.IHandler`2[Shop.Orders+Query,\
Shop.Order]. Register your handlers first.
  Source=Shop
"""


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root, _ = mine_fixture(tmp_path_factory, "cs_pasted_wraps", "wraps", {"src/Store.cs": STORE})
    return root.parent / "errdex.sqlite"


def _top(db: Path, paste: str) -> tuple[str, int, str]:
    [best, *_] = errdex.resolve(paste, db=db, top=5, repo="acme/wraps").matches
    record = best.record
    return record.file_path, record.line_number, record.message_pattern


def test_a_wrap_with_its_hresult_reaches_the_local_function_its_inner_frames_name(
        mined: Path) -> None:
    wrap, inner = paste_events(WRAPPED)
    assert (wrap.error_class, wrap.message) == ("Shop.StoreException", "Reading the store failed")
    assert inner.error_class == "System.OverflowException"
    # the wrap's own frames were left out: its inner's run up to the method that threw it
    assert [f.function for f in wrap.frames] == ["Shop.Store.Read.ReadLong"]
    path, line, _ = _top(mined, WRAPPED)
    assert (path, line) == ("src/Store.cs", _line_in_read_long())


def _line_in_read_long() -> int:
    lines = STORE.splitlines()
    start = line_starting(STORE, "int ReadLong(", stripped=True)
    return next(n for n in range(start, len(lines) + 1)
                if "throw new StoreException(" in lines[n - 1])


def test_visual_studios_copied_details_give_the_message(mined: Path) -> None:
    event = main_event(DETAILS)
    assert (event.error_class, event.kind) == ("System.InvalidOperationException", "dotnet")
    assert event.message == ("Error constructing handler for request of type Shop.IHandler`2["
                             "Shop.Orders+Query,Shop.Order]. Register your handlers first.")
    path, line, _ = _top(mined, DETAILS)
    assert (path, line) == ("src/Store.cs", line_starting(
        STORE, "throw new InvalidOperationException(", stripped=True))


def _without_local_function(source: str) -> str:
    """The fixture with ``ReadLong`` a method of its own: Mono's compiler predates local
    functions, and the messages are the same."""
    return source.replace(
        "return ReadLong(stream, count);\n\n            int ReadLong(",
        "return ReadLong(stream, count);\n        }\n\n        static int ReadLong(").replace(
        "            }\n        }\n\n        public static void Handle<T>",
        "            }\n\n        public static void Handle<T>")


def test_the_patterns_match_what_mono_prints(tmp_path: Path, mined: Path) -> None:
    if missing("mcs", "mono"):
        pytest.skip("no C# compiler and runtime (Mono) installed")
    printed = mono_prints(tmp_path, {"Store.cs": _without_local_function(STORE)}).splitlines()
    assert printed[0] == "Reading the store failed"
    assert re.fullmatch(_top(mined, WRAPPED)[2], printed[0])
    assert printed[1].startswith("Error constructing handler for request of type System.String.")
    assert re.fullmatch(_top(mined, DETAILS)[2], printed[1])
