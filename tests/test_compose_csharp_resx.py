"""C# resource strings whose text only a ``.resx`` file holds: the generated class is not
in the repository (generated at build time) or documents nothing, and
``throw new InvalidOperationException(Strings.PoolClosed)`` prints the ``<value>`` of
``<data name="PoolClosed">`` in ``Strings.resx``. Each string of a neutral ``.resx`` is a
constant of the class named after the file (its ``{0}`` filled by ``string.Format``);
a culture's copy (``Strings.de.resx``) and a ``<data>`` with a ``type`` hold none. A name
no identifier spells is the generator's (``Lease.Expired``: ``Strings.Lease_Expired``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import (
    line_starting,
    line_with,
    mine_fixture,
    missing,
    mono_prints,
    records_at,
    source_lines,
)

RESX = """\
<?xml version="1.0" encoding="utf-8"?>
<root>
  <resheader name="resmimetype">
    <value>text/microsoft-resx</value>
  </resheader>
  <data name="PoolClosed" xml:space="preserve">
    <value>The pool has been shut down; no new lease can be taken.</value>
  </data>
  <data name="TooManyLeases" xml:space="preserve">
    <value>Pool '{0}' lends {1} leases &amp; may not lend more (at most {1:D}).</value>
    <comment>{0}: the pool's name</comment>
  </data>
  <data name="Lease.Expired" xml:space="preserve">
    <value>The lease ran out before it was given back.</value>
  </data>
  <data name="Logo" type="System.Resources.ResXFileRef, System.Windows.Forms">
    <value>logo.png;System.Byte[], mscorlib</value>
  </data>
</root>
"""

GERMAN = """\
<?xml version="1.0" encoding="utf-8"?>
<root>
  <data name="PoolClosed" xml:space="preserve">
    <value>Der Pool wurde geschlossen; es kann kein neuer Lease genommen werden.</value>
  </data>
</root>
"""

POOL = """\
using System;
using System.Globalization;
using Lease.Properties;

namespace Lease
{
    public sealed class Pool
    {
        readonly string _name;
        readonly bool _closed;
        int _lent;

        public Pool(string name, bool closed, int lent)
        {
            _name = name;
            _closed = closed;
            _lent = lent;
        }

        public void Take(int max)
        {
            if (_closed)
                throw new InvalidOperationException(Strings.PoolClosed);
            if (_lent >= max)
                throw new NotSupportedException(
                    string.Format(CultureInfo.CurrentCulture, Strings.TooManyLeases, _name, max));
            _lent++;
        }

        public void Return(bool late)
        {
            if (late)
                throw new TimeoutException(Strings.Lease_Expired);
        }
    }
}
"""

# What the class generated from Strings.resx gives, for running the fixture: the values
# read from the file as ResourceManager would.
STUB = """\
using System;
using System.Xml;

namespace Lease.Properties
{
    internal static class Strings
    {
        static string Get(string name)
        {
            var doc = new XmlDocument();
            doc.Load("Strings.resx");
            return doc.SelectSingleNode("/root/data[@name='" + name + "']/value").InnerText;
        }

        internal static string PoolClosed { get { return Get("PoolClosed"); } }
        internal static string TooManyLeases { get { return Get("TooManyLeases"); } }
        internal static string Lease_Expired { get { return Get("Lease.Expired"); } }
    }

    static class Program
    {
        static void Main()
        {
            Action[] runs = {
                () => new Lease.Pool("orders", true, 0).Take(2),
                () => new Lease.Pool("orders", false, 2).Take(2),
                () => new Lease.Pool("orders", false, 0).Return(true),
            };
            foreach (var run in runs)
            {
                try { run(); }
                catch (Exception e) { Console.WriteLine(e.Message); }
            }
        }
    }
}
"""

FILES = {"src/Properties/Strings.resx": RESX, "src/Properties/Strings.de.resx": GERMAN,
         "src/Pool.cs": POOL}
PRINTED = [
    ("throw new InvalidOperationException(", "InvalidOperationException",
     "The pool has been shut down; no new lease can be taken.", "PoolClosed"),
    ("throw new NotSupportedException(", "NotSupportedException",
     "Pool 'orders' lends 2 leases & may not lend more (at most 2).", "TooManyLeases"),
    ("throw new TimeoutException(", "TimeoutException",
     "The lease ran out before it was given back.", "Lease.Expired"),
]


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_cs_resx", "resx", FILES)[1]


def _site(records: list[errdex.StoredRecord], start: str) -> errdex.StoredRecord:
    [record] = records_at(records, "src/Pool.cs", line_starting(POOL, start, stripped=True))
    return record


@pytest.mark.parametrize(("start", "error_class", "printed", "name"), PRINTED)
def test_a_resource_string_is_the_value_its_resx_file_holds(
    mined: list[errdex.StoredRecord], start: str, error_class: str, printed: str, name: str,
) -> None:
    record = _site(mined, start)
    assert record.record.error_class == error_class
    assert re.fullmatch(record.record.message_pattern, printed)
    assert ("src/Properties/Strings.resx", line_with(RESX, f'"{name}"')) in source_lines(
        record.extras)


def test_a_translation_is_no_producer(mined: list[errdex.StoredRecord]) -> None:
    record = _site(mined, PRINTED[0][0])
    assert record.record.error_message == PRINTED[0][2]
    assert all(r.record.file_path.endswith(".cs") for r in mined)


def test_resx_patterns_match_what_mono_prints(tmp_path: Path,
                                              mined: list[errdex.StoredRecord]) -> None:
    """The fixture built with a class reading Strings.resx and run: the mined patterns
    match what ``string.Format`` prints of the file's values."""
    if missing("mcs", "mono"):
        pytest.skip("no C# compiler and runtime (Mono) installed")
    printed = mono_prints(tmp_path, {"Pool.cs": POOL, "Stub.cs": STUB, "Strings.resx": RESX},
                          references=["System.Xml.dll"]).splitlines()
    assert printed == [p[2] for p in PRINTED]
    for (start, *_), message in zip(PRINTED, printed, strict=True):
        assert re.fullmatch(_site(mined, start).record.message_pattern, message)
