""".NET appends lines to some messages (``Object name: 'X'.``, ``Actual value was 5.``, .NET
Framework's ``Parameter name: x``) and a suffix to ArgumentException's (`` (Parameter
'x')``). The mined record holds them, as the runtime prints them. The paste's event reads the
lines before the first frame as its message, without the parameter (the throw site's
text), and carries the message as printed too (``printed``, in .NET Core's spelling), so
the record matches it whole, not as a reworded text."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import errdex
from errdex.languages.csharp.pastes import aggregated
from errdex.lookup.parse import main_event
from tests.conftest import GitRepo

WIDGET = """\
using System;

namespace Shop
{
    public class Widget
    {
        public void Rename(string name)
        {
            if (name.Length > 40)
                throw new ArgumentException("The widget name is longer than forty characters",
                                            nameof(name));
            if (name == "x")
                throw new ArgumentOutOfRangeException(nameof(name), name,
                                                      "The widget name is reserved for the system");
        }

        public void Close()
        {
            throw new ObjectDisposedException(nameof(Widget),
                                              "The widget was closed before saving");
        }
    }
}
"""

PASTES = {
    "framework parameter line": (
        "System.ArgumentException: The widget name is longer than forty characters\r\n"
        "Parameter name: name\r\n"
        "   at Shop.Widget.Rename(String name)\r\n", 10),
    "core parameter suffix": (
        "System.ArgumentException: The widget name is longer than forty characters "
        "(Parameter 'name')\n   at Shop.Widget.Rename(String name)\n", 10),
    "actual value line": (
        "System.ArgumentOutOfRangeException: The widget name is reserved for the system "
        "(Parameter 'name')\nActual value was x.\n   at Shop.Widget.Rename(String name)\n", 13),
    "object name line": (
        "System.ObjectDisposedException: The widget was closed before saving\n"
        "Object name: 'Widget'.\n   at Shop.Widget.Close()\n", 19),
    "unhandled, no frames": (
        "Unhandled exception. System.ObjectDisposedException: The widget was closed before "
        "saving\nObject name: 'Widget'.\n", 19),
}


@pytest.fixture
def db(make_repo: Callable[..., GitRepo], tmp_path: Path) -> str:
    repo = make_repo()
    repo.commit_files({"src/Shop/Widget.cs": WIDGET})
    path = str(tmp_path / "widget.sqlite")
    errdex.mine(repo.root, db=path, repo="acme/shop", jobs=1)
    return path


@pytest.mark.parametrize("name", list(PASTES))
def test_the_message_as_printed_matches_the_record_whole(db: str, name: str) -> None:
    paste, line = PASTES[name]
    found = errdex.explain(paste, db=db)
    assert found and found[0].record.line_number == line
    assert found[0].reason.startswith("full pattern match"), found[0].reason


def test_the_event_keeps_the_sites_text_and_carries_the_printed_one() -> None:
    event = main_event(PASTES["framework parameter line"][0])
    assert event.message == "The widget name is longer than forty characters"
    assert event.printed == ("The widget name is longer than forty characters "
                             "(Parameter 'name')")
    disposed = main_event(PASTES["object name line"][0])  # the line .NET appends is kept
    assert disposed.message == "The widget was closed before saving\nObject name: 'Widget'."
    assert disposed.printed is None  # nothing was taken off
    assert [f.function for f in disposed.frames] == ["Shop.Widget.Close"]


def test_a_line_after_a_header_with_no_frame_below_is_not_its_message() -> None:
    event = main_event("System.InvalidOperationException: The store is read only\n"
                       "see the admin guide for details\n")
    assert event.message == "The store is read only"
    assert event.printed is None


def test_an_aggregate_exceptions_quoted_inner_messages_are_its_inner_errors(db: str) -> None:
    paste = ("System.AggregateException: One or more errors occurred. (The widget was closed "
             "before saving\nObject name: 'Widget'.) (Something (else) failed)\n"
             "   at Shop.Program.Main()\n")
    found = errdex.explain(paste, db=db)
    assert found and found[0].record.line_number == 19
    assert found[0].reason.startswith("full pattern match"), found[0].reason
    assert aggregated("One or more errors occurred. (a (b) c) (d)") == ["a (b) c", "d"]
    assert aggregated("One or more errors occurred. (a) and more") == ["a"]
    assert aggregated("Something else. (a)") == []
