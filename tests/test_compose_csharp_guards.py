"""C# argument guards of the base library (.NET 7+): ``ArgumentException.ThrowIfNullOrEmpty``,
``ArgumentOutOfRangeException.ThrowIfNegative`` / ``ThrowIfGreaterThan`` …,
``ObjectDisposedException.ThrowIf``. Each is a record at the call with the runtime's own
message, the parameter named after the expression passed. Mono has no such guards: the
messages below are the .NET runtime's resource texts as it prints them."""

from __future__ import annotations

import re

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture

GUARDED = """\
using System;

namespace Shop
{
    public class Crate : IDisposable
    {
        private bool disposed;

        public void Label(string name)
        {
            ArgumentException.ThrowIfNullOrEmpty(name);
        }

        public void Title(string title)
        {
            ArgumentException.ThrowIfNullOrWhiteSpace(title);
        }

        public void Fill(int count, int room)
        {
            ArgumentOutOfRangeException.ThrowIfNegative(count);
            ArgumentOutOfRangeException.ThrowIfGreaterThan(count, room);
            ArgumentOutOfRangeException.ThrowIfNegativeOrZero(room);
        }

        public void Open()
        {
            ObjectDisposedException.ThrowIf(disposed, this);
        }

        public void Dispose() { disposed = true; }
    }
}
"""

# (the call's start, the class thrown, a message the runtime prints for it)
PRINTED = [
    ("ArgumentException.ThrowIfNullOrEmpty(", "ArgumentNullException",
     "Value cannot be null. (Parameter 'name')"),
    ("ArgumentException.ThrowIfNullOrEmpty(", "ArgumentException",
     "The value cannot be an empty string. (Parameter 'name')"),
    ("ArgumentException.ThrowIfNullOrWhiteSpace(", "ArgumentException",
     "The value cannot be an empty string or composed entirely of whitespace. "
     "(Parameter 'title')"),
    ("ArgumentOutOfRangeException.ThrowIfNegative(", "ArgumentOutOfRangeException",
     "count ('-1') must be a non-negative value. (Parameter 'count')\nActual value was -1."),
    ("ArgumentOutOfRangeException.ThrowIfGreaterThan(", "ArgumentOutOfRangeException",
     "count ('12') must be less than or equal to '10'. (Parameter 'count')\n"
     "Actual value was 12."),
    ("ArgumentOutOfRangeException.ThrowIfNegativeOrZero(", "ArgumentOutOfRangeException",
     "room ('0') must be a non-negative and non-zero value. (Parameter 'room')\n"
     "Actual value was 0."),
    ("ObjectDisposedException.ThrowIf(", "ObjectDisposedException",
     "Cannot access a disposed object.\nObject name: 'Shop.Crate'."),
]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_cs_guards", "guards",
                        {"src/Crate.cs": GUARDED})[1]


@pytest.mark.parametrize(("start", "error_class", "printed"), PRINTED,
                         ids=[f"{p[0].split('(')[0]}-{p[1]}" for p in PRINTED])
def test_a_guard_is_a_record_of_the_runtime_message(
    records: list[errdex.StoredRecord], start: str, error_class: str, printed: str,
) -> None:
    line = line_starting(GUARDED, start, stripped=True)
    found = [r for r in records if r.record.line_number == line
             and r.record.error_class == error_class]
    assert len(found) == 1, (start, error_class)
    assert re.fullmatch(found[0].record.message_pattern, printed)
    assert not re.fullmatch(found[0].record.message_pattern, printed.replace("'", "\""))


def test_the_range_message_names_the_bound_passed(records: list[errdex.StoredRecord]) -> None:
    line = line_starting(GUARDED, "ArgumentOutOfRangeException.ThrowIfGreaterThan(",
                         stripped=True)
    [record] = [r for r in records if r.record.line_number == line]
    assert record.record.error_message == (
        "count ('{count}') must be less than or equal to '{room}'.")
