"""C# throw helpers: a static ``Throw`` class whose methods throw the exception they are
named after (``Throw.StoreException("Couldn't save item: " + e.Message, e)``), a common
.NET idiom. Each call is a site with the message it passes (a ``+`` chain with words
counts) and the class the helper throws; a call passing no text at all
(``Throw.Duplicate(item)``) is one too when the exception class writes its own message.
A method named ``Throw`` (an assertion library's ``act.Should().Throw<E>()``) stays out."""

from __future__ import annotations

import re

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture

THROW = """\
using System;

namespace Shop
{
    internal static class Throw
    {
        internal static void StoreException(string message, Exception? inner = null)
        {
            throw new StoreException(message, inner);
        }

        internal static void SetupException(string message, Exception? cause = null)
        {
            throw new SetupException(message, cause);
        }

        internal static void DuplicateItemException(string item)
        {
            throw new DuplicateItemException(item);
        }
    }
}
"""

ERRORS = """\
using System;

namespace Shop
{
    public class StoreException : Exception
    {
        public StoreException(string message, Exception? inner) : base(message, inner) { }
    }

    public class SetupException : Exception
    {
        public SetupException(string message, Exception? cause) : base(message, cause) { }
    }

    public class DuplicateItemException : Exception
    {
        public DuplicateItemException(string item)
            : base($"Unable to store item '{item}', because one already exists.") { }
    }
}
"""

STORE = """\
using System;

namespace Shop
{
    public class Store
    {
        public void Save(string name)
        {
            try
            {
                Write(name);
            }
            catch (Exception e)
            {
                Throw.StoreException("Couldn't save item: " + e.Message, e);
            }
        }

        public void Recover()
        {
            try
            {
                Write("x");
            }
            catch (StoreException se)
            {
                Throw.SetupException("Failure occurred during recovery.", se);
            }
        }

        public void Add(string name, bool exists)
        {
            if (exists)
            {
                Throw.DuplicateItemException(name);
            }
        }

        public void Check(Action act)
        {
            act.Should().Throw<StoreException>("because the store is read only");
        }

        private void Write(string name) { }
    }
}
"""

PRINTED = {
    'Throw.StoreException("Couldn\'t save item: "': (
        "StoreException", "Couldn't save item: disk full"),
    'Throw.SetupException("Failure occurred': (
        "SetupException", "Failure occurred during recovery."),
    "Throw.DuplicateItemException(name);": (
        "DuplicateItemException", "Unable to store item 'pen', because one already exists."),
}


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    files = {"src/Throw.cs": THROW, "src/Errors.cs": ERRORS, "src/Store.cs": STORE}
    return mine_fixture(tmp_path_factory, "compose_cs_throw", "throw", files)[1]


def _at(records: list[errdex.StoredRecord], start: str) -> list[errdex.StoredRecord]:
    line = line_starting(STORE, start, stripped=True)
    return [r for r in records if r.record.file_path == "src/Store.cs"
            and r.record.line_number == line]


@pytest.mark.parametrize("start", list(PRINTED))
def test_a_throw_helper_call_is_a_site_of_the_class_it_throws(
    records: list[errdex.StoredRecord], start: str,
) -> None:
    error_class, printed = PRINTED[start]
    [record] = _at(records, start)
    assert record.record.error_class == error_class
    assert re.fullmatch(record.record.message_pattern, printed)
    assert not re.fullmatch(record.record.message_pattern, printed.replace("o", "0"))


def test_an_assertion_named_throw_is_no_site(records: list[errdex.StoredRecord]) -> None:
    assert not _at(records, "act.Should().Throw<StoreException>")
