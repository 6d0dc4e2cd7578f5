"""C# messages written in forms a throw site reads directly, beside the literal ones:

* ``string.Concat(a, b, …)``: the arguments one after another;
* ``string.Join(sep, a, b, …)``: the separator between them;
* ``string.Format(NotFound, key)``: a ``const`` composite format, here declared in another
  file of a ``partial`` class, filled with the arguments after it.

Where Mono is installed the fixture is built and run, and each printed message must match
a pattern of the site that threw it."""

from __future__ import annotations

import re
import subprocess

import pytest

import errdex
from tests.compose_steps import line_starting, mine_fixture, missing

STORE = """\
using System;

namespace Shop
{
    public partial class Store
    {
        public void Restock(string name)
        {
            throw new InvalidOperationException(
                string.Concat("Cannot restock widget ", name, " twice in one day"));
        }

        public void Sell(string name)
        {
            throw new InvalidOperationException(
                string.Join(" ", "Widget", name, "is not for sale anymore"));
        }

        public void Take(string name, int count)
        {
            throw new InvalidOperationException(string.Format(StockExhausted, name, count));
        }
    }
}
"""

TEXTS = """\
namespace Shop
{
    public partial class Store
    {
        private const string StockExhausted = "The stock of widget {0} is exhausted ({1} asked)";
    }
}
"""

PROGRAM = """\
using System;

namespace Shop
{
    public static class Program
    {
        public static void Main()
        {
            var store = new Store();
            try { store.Restock("gear"); } catch (Exception e) { Console.WriteLine(e.Message); }
            try { store.Sell("cog"); } catch (Exception e) { Console.WriteLine(e.Message); }
            try { store.Take("bolt", 7); } catch (Exception e) { Console.WriteLine(e.Message); }
        }
    }
}
"""

FILES = {"src/Store.cs": STORE, "src/Store.Texts.cs": TEXTS}
PRINTED = {
    "string.Concat(": "Cannot restock widget gear twice in one day",
    "string.Join(": "Widget cog is not for sale anymore",
    "throw new InvalidOperationException(string.Format(": (
        "The stock of widget bolt is exhausted (7 asked)"),
}


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_cs_forms", "forms", FILES)[1]


def _at(records: list[errdex.StoredRecord], start: str) -> list[errdex.StoredRecord]:
    line = line_starting(STORE, start, stripped=True)
    if start.startswith("string."):  # the call is on the line below the throw
        line -= 1
    return [r for r in records if r.record.file_path == "src/Store.cs"
            and r.record.line_number == line]


@pytest.mark.parametrize("start", list(PRINTED))
def test_each_form_is_a_record_whose_pattern_matches_the_message(
    records: list[errdex.StoredRecord], start: str,
) -> None:
    found = _at(records, start)
    assert found, start
    assert any(re.fullmatch(r.record.message_pattern, PRINTED[start]) for r in found)
    assert not any(re.fullmatch(r.record.message_pattern, PRINTED[start].replace(
        "widget", "gadget").replace("Widget", "Gadget")) for r in found)


def test_the_constant_format_keeps_its_text_around_the_holes(
    records: list[errdex.StoredRecord],
) -> None:
    [record] = _at(records, "throw new InvalidOperationException(string.Format(")
    assert record.record.error_message == "The stock of widget {0} is exhausted ({1} asked)"


def test_the_patterns_match_what_mono_prints(
    records: list[errdex.StoredRecord], tmp_path_factory: pytest.TempPathFactory,
) -> None:
    if missing("mcs", "mono"):
        pytest.skip("no C# compiler and runtime (Mono) installed")
    root = tmp_path_factory.mktemp("cs_forms_run")
    for name, body in (("Store.cs", STORE), ("Texts.cs", TEXTS), ("Program.cs", PROGRAM)):
        (root / name).write_text(body)
    subprocess.run(["mcs", "-out:store.exe", "Store.cs", "Texts.cs", "Program.cs"], cwd=root,
                   capture_output=True, check=True)
    done = subprocess.run(["mono", str(root / "store.exe")], capture_output=True, text=True,
                          check=True)
    assert done.stdout.splitlines() == list(PRINTED.values())
    for start, message in PRINTED.items():
        assert any(re.fullmatch(r.record.message_pattern, message)
                   for r in _at(records, start)), message


# --- a file saved with CRLF line breaks ---------------------------------------------------

CRLF = (
    "using System;\r\n\r\nnamespace Shop\r\n{\r\n    public class Shelf\r\n    {\r\n"
    "        public void Close(string name)\r\n        {\r\n"
    '            throw new InvalidOperationException(@"The widget shelf is closed.\r\n'
    'Come back tomorrow for " + name);\r\n'
    "        }\r\n\r\n"
    "        public void Break(string name)\r\n        {\r\n"
    '            throw new InvalidOperationException($@"Widget {name} is broken.\r\n'
    'It cannot be sold");\r\n'
    "        }\r\n    }\r\n}\r\n"
)
CRLF_RUN = """\
using System;
public static class Program
{
    public static void Main()
    {
        try { new Shop.Shelf().Close("gear"); }
        catch (Exception e) { Console.Write(e.Message + "\\0"); }
        try { new Shop.Shelf().Break("cog"); }
        catch (Exception e) { Console.Write(e.Message + "\\0"); }
    }
}
"""


def test_a_verbatim_line_break_of_a_crlf_file_matches_the_pasted_break(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """A verbatim string spanning lines in a file saved with CRLF holds ``\\r\\n`` (the
    runtime prints it); a paste has ``\\n``: the pattern says ``\\n``, so the whole message
    matches. Where Mono is installed, its output, line breaks as pasted, matches."""
    records = mine_fixture(tmp_path_factory, "compose_cs_crlf", "crlf",
                           {"src/Shelf.cs": CRLF})[1]
    assert sorted(r.record.error_message for r in records) == [
        "The widget shelf is closed.\nCome back tomorrow for {name}",
        "Widget {name} is broken.\nIt cannot be sold",
    ]
    printed = ["The widget shelf is closed.\r\nCome back tomorrow for gear",
               "Widget cog is broken.\r\nIt cannot be sold"]
    if not missing("mcs", "mono"):
        run = tmp_path_factory.mktemp("cs_crlf_run")
        (run / "Shelf.cs").write_bytes(CRLF.encode())
        (run / "Run.cs").write_text(CRLF_RUN)
        subprocess.run(["mcs", "-out:shelf.exe", "Shelf.cs", "Run.cs"], cwd=run,
                       capture_output=True, check=True)
        done = subprocess.run(["mono", str(run / "shelf.exe")], capture_output=True,
                              check=True)
        printed = [m for m in done.stdout.decode().split("\0") if m]
    for message in printed:
        pasted = message.replace("\r\n", "\n")
        assert any(re.fullmatch(r.record.message_pattern, pasted) for r in records), pasted


# --- overloads taking as many parameters, one only handing on -----------------------------

OVERLOADS = """\
using System;

namespace Shop
{
    public enum Code { Missing, Taken }

    public class StoreError : Exception
    {
        public StoreError(string message) : base(message) { }

        [Obsolete]
        public static StoreError Create(int code)
        {
            return Create((Code)code);
        }

        public static StoreError Create(Code code)
        {
            return new StoreError("Store operation failed with code " + code);
        }
    }

    public class Shelf
    {
        public void Take()
        {
            throw StoreError.Create(Code.Taken);
        }
    }

    public static class Program
    {
        public static void Main()
        {
            try { new Shelf().Take(); } catch (Exception e) { Console.WriteLine(e.Message); }
        }
    }
}
"""


def test_an_overload_only_handing_on_to_a_namesake_leaves_the_other_reached(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """``Create(int)`` only calls ``Create(Code)``: composition, which sees how many
    arguments a call passes but not their types, reaches ``Create(Code)`` (it reached
    neither). Where Mono is installed, what it prints matches."""
    records = mine_fixture(tmp_path_factory, "compose_cs_overloads", "overloads",
                           {"src/Shelf.cs": OVERLOADS})[1]
    line = line_starting(OVERLOADS, "throw StoreError.Create(Code.Taken);", stripped=True)
    found = [r for r in records if r.record.line_number == line]
    assert [r.record.error_message for r in found] == [
        "Store operation failed with code {Code.Taken}"]
    printed = "Store operation failed with code Taken"
    if not missing("mcs", "mono"):
        run = tmp_path_factory.mktemp("cs_overloads_run")
        (run / "Shelf.cs").write_text(OVERLOADS)
        subprocess.run(["mcs", "-out:shelf.exe", "Shelf.cs"], cwd=run, capture_output=True,
                       check=True)
        done = subprocess.run(["mono", str(run / "shelf.exe")], capture_output=True,
                              text=True, check=True)
        assert done.stdout.strip() == printed
    assert re.fullmatch(found[0].record.message_pattern, printed)


# --- a Message override built in a loop, or by a method of the class -----------------------

OVERRIDES = """\
using System;
using System.Collections.Generic;
using System.Text;

namespace Shop
{
    public class ConfigError : Exception
    {
        public ConfigError(IList<string> members) { Members = members; }

        public IList<string> Members { get; }

        public override string Message
        {
            get
            {
                var message = new StringBuilder();
                message.AppendLine("Unmapped widget members were found. Review the members below.");
                message.AppendLine("Add a custom mapping or ignore them.");
                foreach (var member in Members)
                {
                    message.AppendLine(member);
                }
                return message.ToString();
            }
        }
    }

    public class OtherError : Exception
    {
        private readonly string name;
        public OtherError(string name) { this.name = name; }

        public override string Message => BuildMessage();

        private string BuildMessage()
        {
            var sb = new StringBuilder("Widget ");
            sb.Append(name).Append(" could not be mapped.");
            return sb.ToString();
        }
    }

    public class Validator
    {
        public void Check(IList<string> members)
        {
            throw new ConfigError(members);
        }

        public void Other(string name)
        {
            throw new OtherError(name);
        }
    }

    public static class Program
    {
        public static void Main()
        {
            var validator = new Validator();
            try { validator.Check(new List<string> { "Size", "Color" }); }
            catch (Exception e) { Console.Write(e.Message + "\\0"); }
            try { validator.Other("gear"); }
            catch (Exception e) { Console.Write(e.Message + "\\0"); }
        }
    }
}
"""


def test_a_message_override_built_in_a_loop_or_by_a_method_of_the_class(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """``override string Message { get { … foreach … sb.AppendLine(m); … } }`` keeps the
    text before the loop; ``Message => BuildMessage()`` prints what the method of the class
    returns. Where Mono is installed, what it prints matches the site's pattern."""
    records = mine_fixture(tmp_path_factory, "compose_cs_overrides", "overrides",
                           {"src/Config.cs": OVERRIDES})[1]
    sites = {start: [r for r in records if r.record.line_number == line_starting(
        OVERRIDES, start, stripped=True)] for start in (
        "throw new ConfigError(members);", "throw new OtherError(name);")}
    printed = ["Unmapped widget members were found. Review the members below.\n"
               "Add a custom mapping or ignore them.\nSize\nColor\n",
               "Widget gear could not be mapped."]
    if not missing("mcs", "mono"):
        run = tmp_path_factory.mktemp("cs_overrides_run")
        (run / "Config.cs").write_text(OVERRIDES)
        subprocess.run(["mcs", "-out:config.exe", "Config.cs"], cwd=run, capture_output=True,
                       check=True)
        done = subprocess.run(["mono", str(run / "config.exe")], capture_output=True,
                              text=True, check=True)
        assert [m for m in done.stdout.split("\0") if m] == printed
    for found, message in zip(sites.values(), printed, strict=True):
        assert len(found) == 1
        assert re.fullmatch(found[0].record.message_pattern, message), message
