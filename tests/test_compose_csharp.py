"""C# messages composed across a repository: exception classes (constructor initializers,
fields, a ``Message`` override, primary constructors), factories (overloads, a format
passed on), helpers, constants and branches, mined from a small fixture repository.
What .NET prints for each raise (``Exception.Message``) is written out by hand from the
fixture and must be matched by the mined pattern; where Mono's compiler is installed,
the fixture's C# 7 files are built and run, and what they really throw is matched too
(C# 8+ forms, ``Modern.cs``, and code that never builds, ``Broken.cs``, are mined only).
"""

from __future__ import annotations

import base64
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import (
    any_fullmatch,
    any_thrown,
    classes,
    fullmatches,
    line_starting,
    messages,
    mine_changed,
    mine_fixture,
    missing,
    source_lines,
    with_message,
)
from tests.conftest import GitRepo

ERRORS = '''\
using System;
using System.Globalization;

namespace Acme.Store
{
    public interface ILogger
    {
        void LogWarning(string message);
    }
    public class StoreException : Exception
    {
        public StoreException(string message) : base(message) { }
        public StoreException(string message, Exception inner) : base(message, inner) { }
    }

    public class NotFoundException : StoreException
    {
        public string Key { get; }

        public NotFoundException(string key) : base($"no such item: {key}")
        {
            Key = key;
        }
    }

    public class GoneException : NotFoundException
    {
        public GoneException(string key) : base(key) { }
    }

    public class LocatedException : StoreException
    {
        private readonly string path;

        public LocatedException(string message, string path) : base(message)
        {
            this.path = path;
        }

        public override string Message => base.Message + " at " + path;
    }

    public class CodedException : Exception
    {
        public int Code { get; }

        public CodedException(int code)
        {
            Code = code;
        }

        public override string Message
        {
            get { return "store error code " + Code; }
        }
    }

    public class RetryException : StoreException
    {
        public RetryException(int n)
            : base(n > 0 ? "gave up after " + n + " retries" : "gave up") { }
    }

    public class TimedOutException : StoreException
    {
        public TimedOutException() : base("the operation timed out") { }
        public TimedOutException(TimeSpan after) : base("the operation timed out") { }
        public TimedOutException(string message) : base(message) { }
        public TimedOutException(string message, Exception inner) : base(message, inner) { }
    }

    public class QuotaException : StoreException
    {
        public QuotaException(string tenant) : this(tenant, 0) { }
        public QuotaException(string tenant, int used)
            : base($"quota exceeded for {tenant}") { }
    }

    public class ParseException : Exception
    {
        public ParseException(string message) : base(message) { }
    }

    public static class Errors
    {
        public const string NotConfigured = "the store is not configured";

        public static ParseException Create(string path, string message, params object[] args)
        {
            message = string.Format(CultureInfo.InvariantCulture, message, args);
            return new ParseException(message + " Path '" + path + "'.");
        }

        public static ParseException Read(string message) => Read(message, "$");

        public static ParseException Read(string message, string path) =>
            new ParseException(message + " Path '" + path + "'.");

        public static Exception Option(string option) =>
            new ParseException($"option {option} needs a value");

        public static string Missing(string what) => "missing " + what;

        public static Exception Unavailable(string extra = "") =>
            new StoreException("store unavailable" + extra);

        public static Exception Tagged(string message)
        {
            message = "[store] " + message;
            return new StoreException(message);
        }

        public static void Warn(ILogger logger, string what)
        {
            logger.LogWarning("store warning: " + what);
        }

        public static void Fail(string message)
        {
            throw new StoreException("config: " + message);
        }
    }
}
'''

STORE = '''\
using System;

namespace Acme.Store
{
    public partial class Store
    {
        public void Missing(string key)
        {
            throw new NotFoundException(key);
        }

        public void Gone(string key)
        {
            throw new GoneException(key);
        }

        public void Header(string path)
        {
            throw new LocatedException("bad header", path);
        }

        public void Coded(int code)
        {
            throw new CodedException(code);
        }

        public void Token(string path, string tok)
        {
            throw Errors.Create(path, "Unexpected token {0}", tok);
        }

        public void ReadIt()
        {
            throw Errors.Read("Bad read");
        }

        public void Option()
        {
            throw Errors.Option("--name");
        }

        public void Unconfigured()
        {
            Errors.Fail("no store configured");
        }

        public void Retry(int n)
        {
            throw new RetryException(n);
        }

        public void What(string what)
        {
            throw new InvalidOperationException(Errors.Missing(what));
        }

        public void Constant()
        {
            throw new InvalidOperationException(Errors.NotConfigured);
        }

        public void Branch(int n)
        {
            string msg;
            if (n > 1)
                msg = "too many widgets";
            else
                msg = "no widgets";
            throw new InvalidOperationException(msg);
        }

        public void Again(string key)
        {
            throw new NotFoundException(key);
        }

        public void OnceMore(string key)
        {
            throw new NotFoundException(key);
        }

        public void Tagged()
        {
            throw Errors.Tagged("disk full");
        }

        public void Unavailable()
        {
            throw Errors.Unavailable();
        }

        public void TimedOut()
        {
            throw new TimedOutException();
        }

        public void TooSlow()
        {
            throw new TimedOutException("the delegate did not complete in time");
        }

        public void Quota(string tenant)
        {
            throw new QuotaException(tenant);
        }
    }
}
'''

# A switch expression (C# 8) and a primary constructor (C# 12).
MODERN = '''\
namespace Acme.Store
{
    public class ExpiredException(string key, int days)
        : StoreException($"{key} expired {days} days ago")
    {
    }

    public class LevelException : StoreException
    {
        public LevelException(int n)
            : base(n switch { 1 => "quota almost used", _ => "quota exceeded" }) { }
    }
}
'''

# A constructor cycle, and calls to what no file declares.
BROKEN = '''\
using System;

namespace Acme.Store
{
    public class PingException : Exception
    {
        public PingException(string x) : base(new PongException(x).Message) { }
    }

    public class LoopException : LoopTwoException
    {
        public LoopException(string x) : base(x) { }
    }

    public class LoopTwoException : LoopException
    {
        public LoopTwoException(string x) : base(x) { }
    }

    public static class Unfinished
    {
        public static Exception Decorated(string message)
        {
            message = Decorate(message);
            return new StoreException(message);
        }
    }
}
'''

STORE_MORE = '''\
namespace Acme.Store
{
    public partial class Store
    {
        public void Expired(string key)
        {
            throw new ExpiredException(key, 3);
        }

        public void Level(int n)
        {
            throw new LevelException(n);
        }

        public void Warned(ILogger logger)
        {
            Errors.Warn(logger, "disk almost full");
        }

        public void Decorated()
        {
            throw Unfinished.Decorated("disk full");
        }

        public void Unknown(string x)
        {
            throw MakeIt(x);
        }

        public void Elsewhere()
        {
            throw Outside.Create("the widget is broken");
        }

        public void ElsewhereHelper()
        {
            Outside.Report("the widget is broken");
        }

        public void Loop(string x)
        {
            throw new LoopException(x);
        }
    }
}
'''

FILES = {
    "src/Store/Errors.cs": ERRORS, "src/Store/Store.cs": STORE, "src/Store/Modern.cs": MODERN,
    "src/Store/Broken.cs": BROKEN, "src/Store/StoreMore.cs": STORE_MORE,
}

# (method of Store, the record's errorMessage, errorClass, where the producers are
# written (by a line's start), what .NET prints for sample arguments)
EXPECTED = [
    ("Missing", "no such item: {key}", "NotFoundException",
     ["public class NotFoundException"], "no such item: k1"),
    ("Gone", "no such item: {key}", "GoneException",
     ["public class NotFoundException"], "no such item: k2"),
    ("Header", "bad header at {path}", "LocatedException",
     ["public class LocatedException"], "bad header at /etc/x"),
    ("Coded", "store error code {code}", "CodedException",
     ["public class CodedException"], "store error code 42"),
    ("Token", "Unexpected token {0} Path '{path}'.", "ParseException",
     ["public static ParseException Create("],
     "Unexpected token ; Path 'a.b'."),
    ("ReadIt", "Bad read Path '$'.", "ParseException",
     ["public static ParseException Read(string message, string path) =>"],
     "Bad read Path '$'."),
    ("Option", "option --name needs a value", "ParseException",
     ["public static Exception Option("],
     "option --name needs a value"),
    ("Unconfigured", "config: no store configured", "StoreException",
     ["public static void Fail("],
     "config: no store configured"),
    ("Tagged", "[store] disk full", "StoreException", ["public static Exception Tagged("],
     "[store] disk full"),
    ("Unavailable", "store unavailable", "StoreException",
     ["public static Exception Unavailable("], "store unavailable"),
    ("Expired", "{key} expired 3 days ago", "ExpiredException",
     ["public class ExpiredException("], "k1 expired 3 days ago"),
    ("TimedOut", "the operation timed out", "TimedOutException",
     ["public class TimedOutException"], "the operation timed out"),
    ("TooSlow", "the delegate did not complete in time", "TimedOutException", [],
     "the delegate did not complete in time"),
    ("Quota", "quota exceeded for {tenant}", "QuotaException",
     ["public class QuotaException"], "quota exceeded for acme"),
    ("What", "missing {what}", "InvalidOperationException",
     ["public static string Missing("], "missing widget"),
    ("Constant", "the store is not configured", "InvalidOperationException",
     ["public const string NotConfigured"], "the store is not configured"),
]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[errdex.StoredRecord]:
    return mine_fixture(tmp_path_factory, "compose_cs", "composed", FILES)[1]


def _line(text: str, start: str) -> int:
    return line_starting(text, start, stripped=True)


def _where(start: str) -> tuple[str, int]:
    """The fixture file and line that start so."""
    return next((path, _line(text, start)) for path, text in FILES.items()
                if any(line.strip().startswith(start) for line in text.splitlines()))


def _at(records: list[errdex.StoredRecord], method: str) -> list[errdex.StoredRecord]:
    """The records of the raise in ``Store.<method>`` (its body's third line)."""
    path, line = _where(f"public void {method}(")
    return [r for r in records if r.record.file_path == path
            and line < r.record.line_number <= line + 8 and r.extras.enclosing_symbol
            == f"Store.{method}"]


@pytest.mark.parametrize("case", EXPECTED, ids=[c[0] for c in EXPECTED])
def test_every_composition_form_gives_the_raise_site_the_printed_message(
    records: list[errdex.StoredRecord], case: tuple[str, str, str, list[str], str],
) -> None:
    method, message, error_class, sources, printed = case
    [found] = _at(records, method)
    assert found.record.line_number == _where(f"public void {method}(")[1] + 2
    assert found.record.error_message == message
    assert found.record.error_class == error_class
    assert source_lines(found.extras) == [
        _where(start) for start in sources]
    assert fullmatches(found, printed), printed


def test_a_message_override_decorating_the_base_message_is_a_class_decoration(
    records: list[errdex.StoredRecord],
) -> None:
    [found] = _at(records, "Header")
    assert [s.role for s in found.extras.template_sources] == ["class decoration"]


def test_a_ternary_in_the_base_initializer_gives_one_record_per_branch(
    records: list[errdex.StoredRecord],
) -> None:
    found = _at(records, "Retry")
    assert messages(found) == [
        "gave up", "gave up after {n} retries"]
    assert classes(found) == {"RetryException"}
    for printed in ("gave up after 3 retries", "gave up"):
        assert any_fullmatch(found, printed), printed


def test_a_switch_expression_in_the_base_initializer_gives_one_record_per_arm(
    records: list[errdex.StoredRecord],
) -> None:
    found = _at(records, "Level")
    assert messages(found) == [
        "quota almost used", "quota exceeded"]
    assert classes(found) == {"LevelException"}


def test_a_logging_helper_gives_its_caller_a_warning(
    records: list[errdex.StoredRecord],
) -> None:
    [found] = _at(records, "Warned")
    assert found.record.error_message == "store warning: disk almost full"
    assert (found.record.error_type, found.record.severity) == ("log", "warning")
    assert [(s.line_number, s.role) for s in found.extras.template_sources] == [
        (_line(ERRORS, "public static void Warn("), "helper")]


def test_a_message_assigned_in_branches_gives_one_record_per_branch(
    records: list[errdex.StoredRecord],
) -> None:
    found = _at(records, "Branch")
    assert messages(found) == ["no widgets", "too many widgets"]
    assert classes(found) == {"InvalidOperationException"}


def test_a_class_thrown_from_three_places_gives_three_records_sharing_the_template(
    records: list[errdex.StoredRecord],
) -> None:
    same = with_message(records, "no such item: {key}", "NotFoundException")
    assert sorted(r.extras.enclosing_symbol or "" for r in same) == [
        "Store.Again", "Store.Missing", "Store.OnceMore"]
    assert len({r.record.id for r in same}) == 3


def test_an_unresolved_call_and_a_constructor_cycle_make_no_record(
    records: list[errdex.StoredRecord],
) -> None:
    assert _at(records, "Unknown") == []
    # PascalCase methods of no producer: no record under their name as a class
    assert _at(records, "Elsewhere") == _at(records, "ElsewhereHelper") == []
    assert not any(r.record.error_class in ("Create", "Report") for r in records)
    assert _at(records, "Decorated") == []  # its parameter given a value source can't read
    assert _at(records, "Loop") == []
    assert not any("Loop" in (r.record.error_class or "") for r in records)


def test_an_incremental_mine_recomposes_callers_of_a_changed_class(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    changed = mine_changed(make_repo, tmp_path, FILES,
                           {"src/Store/Errors.cs": ERRORS.replace("no such item", "nothing under")})
    messages = [r.record.error_message for r in changed]
    assert messages.count("nothing under: {key}") == 4  # Missing, Gone, Again, OnceMore
    assert not any("no such item" in m for m in messages)


# Every raise of the built files, with sample arguments, for the runtime check.
RUNS = [
    ("Missing", "k1"), ("Gone", "k2"), ("Header", "/etc/x"), ("Coded", "42"),
    ("Token", "a.b", ";"), ("ReadIt",), ("Option",), ("Unconfigured",), ("Tagged",),
    ("Unavailable",), ("TimedOut",), ("TooSlow",), ("Quota", "acme"), ("What", "widget"),
    ("Constant",), ("Retry", "3"), ("Retry", "0"), ("Branch", "2"), ("Branch", "0"),
    ("Again", "k3"), ("OnceMore", "k4"),
]
# Reads ``Method<TAB>arg…`` lines, calls ``Store.Method``, prints what it throws.
PROGRAM = """\
using System;
using System.Reflection;
using System.Text;

public static class Program
{
    public static void Main()
    {
        string line;
        while ((line = Console.ReadLine()) != null)
        {
            var parts = line.Split('\\t');
            var method = typeof(Acme.Store.Store).GetMethod(parts[0]);
            var types = method.GetParameters();
            var args = new object[types.Length];
            for (var i = 0; i < types.Length; i++)
                args[i] = Convert.ChangeType(parts[i + 1], types[i].ParameterType);
            try
            {
                method.Invoke(new Acme.Store.Store(), args);
                Console.WriteLine("-");
            }
            catch (TargetInvocationException e)
            {
                var thrown = e.InnerException;
                Console.WriteLine(thrown.GetType().Name + "\\t"
                    + Convert.ToBase64String(Encoding.UTF8.GetBytes(thrown.Message)));
            }
        }
    }
}
"""


@pytest.fixture(scope="module")
def thrown(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, ...], tuple[str, str]]:
    """What each run throws (class, message), the built files run by Mono."""
    if missing("mcs", "mono"):
        pytest.skip("no C# compiler and runtime (Mono) installed")
    root = tmp_path_factory.mktemp("cs_runtime")
    for name, text in (("Errors.cs", ERRORS), ("Store.cs", STORE), ("Program.cs", PROGRAM)):
        (root / name).write_text(text)
    subprocess.run(["mcs", "-out:store.exe", "Errors.cs", "Store.cs", "Program.cs"],
                   cwd=root, capture_output=True, check=True)
    lines = "".join("\t".join(run) + "\n" for run in RUNS)
    done = subprocess.run(["mono", str(root / "store.exe")], input=lines, capture_output=True,
                          text=True, check=True)
    out = {}
    for run, printed in zip(RUNS, done.stdout.splitlines(), strict=True):
        name, _, message = printed.partition("\t")
        out[run] = (name, base64.b64decode(message).decode())
    return out


@pytest.mark.parametrize("run", RUNS, ids=["-".join(r) for r in RUNS])
def test_the_mined_patterns_match_what_dotnet_throws(
    records: list[errdex.StoredRecord], thrown: dict[tuple[str, ...], tuple[str, str]],
    run: tuple[str, ...],
) -> None:
    name, message = thrown[run]
    found = _at(records, run[0])
    assert found, run
    assert any_thrown(found, name, message), (
        name, message, [r.record.message_pattern for r in found])


# --- resource strings: the generated Resources class of a .resx --------------------------

RESOURCES = '''\
namespace Acme.Properties
{
    internal class Resources
    {
        private static ResourceManager resourceMan = new ResourceManager();
        private static System.Globalization.CultureInfo resourceCulture;

        internal static ResourceManager ResourceManager { get { return resourceMan; } }

        /// <summary>
        ///   Looks up a localized string similar to Unsupported call: {0}
        ///{1}.
        /// </summary>
        internal static string UnsupportedCall {
            get {
                return ResourceManager.GetString("UnsupportedCall", resourceCulture);
            }
        }

        /// <summary>
        ///   Looks up a localized string similar to Sealed (here: {0}) may not be &lt;mocked&gt;..
        /// </summary>
        internal static string SealedMember {
            get {
                return ResourceManager.GetString("SealedMember", resourceCulture);
            }
        }

        /// <summary>
        ///   Looks up a localized string similar to The mock is already frozen..
        /// </summary>
        internal static string Frozen {
            get {
                return ResourceManager.GetString("Frozen", resourceCulture);
            }
        }
    }
}
'''
GUARD = '''\
using System;
using System.Globalization;
using Acme.Properties;

namespace Acme
{
    public static class Guard
    {
        public static void Member(string call, string type, string name)
        {
            throw new NotSupportedException(
                string.Format(
                    CultureInfo.CurrentCulture,
                    Resources.UnsupportedCall,
                    call,
                    string.Format(CultureInfo.CurrentCulture, Resources.SealedMember,
                                  type + "." + name)));
        }

        public static void Freeze()
        {
            throw new InvalidOperationException(Resources.Frozen);
        }
    }
}
'''
# What ResXFileCodeGenerator's ResourceManager gives for each name (the .resx values).
RESX_STUB = '''\
using System;
using System.Collections.Generic;
using System.Globalization;

namespace Acme.Properties
{
    internal class ResourceManager
    {
        private readonly Dictionary<string, string> values = new Dictionary<string, string> {
            { "UnsupportedCall", "Unsupported call: {0}\\n{1}" },
            { "SealedMember", "Sealed (here: {0}) may not be <mocked>." },
            { "Frozen", "The mock is already frozen." },
        };
        public string GetString(string name, CultureInfo culture) { return values[name]; }
    }
}

namespace Acme
{
    public static class Program
    {
        public static void Main()
        {
            foreach (Action run in new Action[] {
                () => Guard.Member("m => m.Save()", "Store", "Save"), () => Guard.Freeze() })
            {
                try { run(); }
                catch (Exception e) { Console.WriteLine(e.Message.Replace("\\n", "|")); }
            }
        }
    }
}
'''
RESOURCE_FILES = {"src/Properties/Resources.Designer.cs": RESOURCES, "src/Guard.cs": GUARD}
RESOURCE_PRINTED = [
    "Unsupported call: m => m.Save()\nSealed (here: Store.Save) may not be <mocked>.",
    "The mock is already frozen.",
]


def test_a_generated_resource_string_is_the_text_its_doc_comment_says(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """``string.Format(culture, Resources.X, a, string.Format(…, Resources.Y, b))`` prints
    the ``.resx`` texts the generated properties document, formatted (nested formats too);
    ``Resources.Frozen`` alone prints its text."""
    from tests.compose_steps import mine_once, records_at

    _, records = mine_once(make_repo, tmp_path, RESOURCE_FILES)
    [member] = records_at(records, "src/Guard.cs", line_starting(GUARD, "            throw new N"))
    assert member.record.error_class == "NotSupportedException"
    assert "Sealed (here: " in member.record.error_message
    assert fullmatches(member, RESOURCE_PRINTED[0])
    assert not fullmatches(member, "Unsupported call: x\nsomething else")
    [frozen] = records_at(records, "src/Guard.cs", line_starting(GUARD, "            throw new I"))
    assert frozen.record.error_message == RESOURCE_PRINTED[1]
    assert ("src/Properties/Resources.Designer.cs", line_starting(
        RESOURCES, "        internal static string Frozen")) in source_lines(frozen.extras)


def test_resource_patterns_match_what_mono_formats(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """The fixture built with the .resx values behind a stub ResourceManager and run: the
    mined patterns match what ``string.Format`` really prints."""
    if missing("mcs", "mono"):
        pytest.skip("no C# compiler and runtime (Mono) installed")
    from tests.compose_steps import mine_once, records_at

    for name, text in (("Guard.cs", GUARD), ("Stub.cs", RESX_STUB)):
        (tmp_path / name).write_text(text)
    (tmp_path / "Resources.cs").write_text(RESOURCES)
    subprocess.run(["mcs", "-out:guard.exe", "Guard.cs", "Stub.cs", "Resources.cs"],
                   cwd=tmp_path, capture_output=True, check=True)
    done = subprocess.run(["mono", str(tmp_path / "guard.exe")], capture_output=True,
                          text=True, check=True)
    printed = [line.replace("|", "\n") for line in done.stdout.splitlines()]
    assert printed == RESOURCE_PRINTED
    _, records = mine_once(make_repo, tmp_path / "mined", RESOURCE_FILES)
    for start, message in zip(("            throw new N", "            throw new I"), printed,
                              strict=True):
        found = records_at(records, "src/Guard.cs", line_starting(GUARD, start))
        assert any_fullmatch(found, message), (message, found)


# --- constants named in PascalCase; exceptions made to be thrown elsewhere ---------------

MADE = '''\
using System;
using System.Threading.Tasks;

namespace Acme.Circuit
{
    public class BrokenException : Exception
    {
        internal const string DefaultMessage = "The widget circuit is open and refuses calls.";

        public BrokenException() : base(DefaultMessage) { }
        public BrokenException(string message, int retry) : base(message) { }
        public BrokenException(string message, Exception inner) : base(message, inner) { }
    }

    public static class Texts
    {
        public const string Stopped = "The widget controller was stopped before use.";
    }

    public class Controller
    {
        public static Exception Last;

        public static BrokenException Breaking()
        {
            if (Last != null)
            {
                return new BrokenException(BrokenException.DefaultMessage, Last);
            }
            return new BrokenException(BrokenException.DefaultMessage, 3);
        }

        public static Exception Wrap(string message) => new InvalidOperationException(message);

        public static Task Stopped() =>
            Task.FromException(new InvalidOperationException(Texts.Stopped));

        public static void Thrown()
        {
            throw new BrokenException();
        }

        public static void Nested()
        {
            throw new BrokenException("the outer widget failed",
                                      new TimeoutException("the inner widget timed out"));
        }
    }
}
'''
MADE_SWITCH = '''\
using System;

namespace Acme.Circuit
{
    public class Picker
    {
        public static Exception Pick(Exception last) => last switch
        {
            TimeoutException t => new BrokenException(BrokenException.DefaultMessage, t),
            _ => new BrokenException(BrokenException.DefaultMessage, 1),
        };
    }
}
'''
MADE_RUN = '''\
using System;
using Acme.Circuit;

public static class Program
{
    public static void Main()
    {
        Console.WriteLine(Controller.Breaking().Message);
        Controller.Last = new Exception("x");
        Console.WriteLine(Controller.Breaking().Message);
        Console.WriteLine(Controller.Stopped().Exception.InnerException.Message);
        try { Controller.Thrown(); } catch (Exception e) { Console.WriteLine(e.Message); }
    }
}
'''
MADE_FILES = {"src/Circuit.cs": MADE, "src/Picker.cs": MADE_SWITCH}
MADE_PRINTED = [
    "The widget circuit is open and refuses calls.",
    "The widget circuit is open and refuses calls.",
    "The widget controller was stopped before use.",
    "The widget circuit is open and refuses calls.",
]


def _made(records: list[errdex.StoredRecord], path: str, text: str, start: str
          ) -> list[errdex.StoredRecord]:
    from tests.compose_steps import records_at

    return records_at(records, path, line_starting(text, start))


def test_an_exception_made_to_be_thrown_elsewhere_is_sited_where_it_is_made(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """``return new X(…)``, a switch arm's ``new X(…)`` and ``Task.FromException(new X(…))``
    are sites; their message is the class's constant named in PascalCase
    (``BrokenException.DefaultMessage``, ``Texts.Stopped``), spelled out by composition."""
    from tests.compose_steps import mine_once

    _, records = mine_once(make_repo, tmp_path, MADE_FILES)
    for path, text, start in (
            ("src/Circuit.cs", MADE, "                return new B"),
            ("src/Circuit.cs", MADE, "            return new B"),
            ("src/Picker.cs", MADE_SWITCH, "            TimeoutException t =>"),
            ("src/Picker.cs", MADE_SWITCH, "            _ => new B")):
        [found] = _made(records, path, text, start)
        assert found.record.error_class == "BrokenException"
        assert found.record.error_message == MADE_PRINTED[0]
        assert ("src/Circuit.cs", line_starting(MADE, "        internal const")) in (
            source_lines(found.extras))
    [stopped] = _made(records, "src/Circuit.cs", MADE, "            Task.FromException")
    assert stopped.record.error_message == MADE_PRINTED[2]
    assert stopped.record.error_class == "InvalidOperationException"
    [thrown] = _made(records, "src/Circuit.cs", MADE, "            throw new BrokenException();")
    assert thrown.record.error_message == MADE_PRINTED[0]  # ``base(DefaultMessage)``


def test_a_factory_of_its_parameter_and_an_inner_exception_are_no_sites(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """``=> new X(message)`` prints what its callers pass (their sites say it); the inner
    exception handed to another's constructor is that one's cause, not a raise."""
    from tests.compose_steps import mine_once

    _, records = mine_once(make_repo, tmp_path, MADE_FILES)
    assert _made(records, "src/Circuit.cs", MADE, "        public static Exception Wrap") == []
    [outer] = _made(records, "src/Circuit.cs", MADE, "            throw new BrokenException(\"")
    assert outer.record.error_message == "the outer widget failed"
    assert not any("inner widget" in r.record.error_message for r in records)


def test_made_exception_patterns_match_what_mono_prints(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """The C# 7 fixture built and run: each made exception's message matches its pattern."""
    if missing("mcs", "mono"):
        pytest.skip("no C# compiler and runtime (Mono) installed")
    from tests.compose_steps import mine_once

    (tmp_path / "Circuit.cs").write_text(MADE)
    (tmp_path / "Program.cs").write_text(MADE_RUN)
    subprocess.run(["mcs", "-out:made.exe", "Circuit.cs", "Program.cs"], cwd=tmp_path,
                   capture_output=True, check=True)
    done = subprocess.run(["mono", str(tmp_path / "made.exe")], capture_output=True,
                          text=True, check=True)
    assert done.stdout.splitlines() == MADE_PRINTED
    _, records = mine_once(make_repo, tmp_path / "mined", MADE_FILES)
    for start, printed in zip(("                return new B", "            return new B",
                               "            Task.FromException",
                               "            throw new BrokenException();"),
                              done.stdout.splitlines(), strict=True):
        found = _made(records, "src/Circuit.cs", MADE, start)
        assert any_fullmatch(found, printed), (printed, found)


# --- ArgumentException and kin given a resource, a constant or a factory -------------------

PARAM_RESOURCES = '''\
namespace Acme.Properties {
    internal class Resources {
        internal static global::System.Resources.ResourceManager ResourceManager;
        internal static global::System.Globalization.CultureInfo resourceCulture;

        /// <summary>
        ///   Looks up a localized string similar to The widget name cannot be empty..
        /// </summary>
        internal static string NameCannotBeEmpty {
            get {
                return ResourceManager.GetString("NameCannotBeEmpty", resourceCulture);
            }
        }

        /// <summary>
        ///   Looks up a localized string similar to Type {0} is not a widget type..
        /// </summary>
        internal static string NotAWidget {
            get {
                return ResourceManager.GetString("NotAWidget", resourceCulture);
            }
        }
    }
}
'''
PARAM_GUARD = '''\
using System;
using System.Globalization;
using Acme.Properties;

namespace Acme
{
    public static class Errors
    {
        public const string Negative = "The widget count must not be negative.";
        public static string Unknown(string kind) => "Unknown widget kind: " + kind;
    }

    public static class Guard
    {
        public static void NotEmpty(string name)
        {
            if (name.Length == 0)
                throw new ArgumentException(Resources.NameCannotBeEmpty, nameof(name));
        }

        public static void IsWidget(Type type)
        {
            if (type == null)
                throw new ArgumentException(
                    string.Format(CultureInfo.CurrentCulture, Resources.NotAWidget, type),
                    nameof(type));
        }

        public static void Count(int count)
        {
            if (count < 0)
                throw new ArgumentOutOfRangeException(nameof(count), Errors.Negative);
        }

        public static void Kind(string kind)
        {
            if (kind == null)
                throw new ArgumentException(Errors.Unknown(kind));
        }

        public static void Other(Exception ex)
        {
            throw new ArgumentException(ex.Message, nameof(ex));
        }
    }
}
'''
PARAM_FILES = {"src/Resources.Designer.cs": PARAM_RESOURCES, "src/Guard.cs": PARAM_GUARD}


def test_an_argument_exception_given_a_resource_or_constant_prints_it_then_the_parameter(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """``new ArgumentException(Resources.X, nameof(p))`` (and a formatted resource, a
    constant of another class to ``ArgumentOutOfRangeException(nameof(p), Errors.X)``, a
    factory's text) prints the text composition spells out, then `` (Parameter 'p')`` as
    .NET does; a message source does not tell (``ex.Message``) makes no record."""
    from tests.compose_steps import mine_once, records_at

    _, records = mine_once(make_repo, tmp_path, PARAM_FILES)
    expected = [
        ("                throw new ArgumentException(Resources", "ArgumentException",
         "The widget name cannot be empty. (Parameter 'name')"),
        ("                throw new ArgumentException(\n", "ArgumentException",
         "Type Acme.Gadget is not a widget type. (Parameter 'type')"),
        ("                throw new ArgumentOutOfRangeException", "ArgumentOutOfRangeException",
         "The widget count must not be negative. (Parameter 'count')"),
        ("                throw new ArgumentException(Errors", "ArgumentException",
         "Unknown widget kind: sprocket"),
    ]
    lines = PARAM_GUARD.splitlines()
    for start, error_class, printed in expected:
        number = 1 + next(i for i, line in enumerate(lines) if (
            line == start.removesuffix("\n") if start.endswith("\n") else line.startswith(start)))
        [found] = records_at(records, "src/Guard.cs", number)
        assert found.record.error_class == error_class
        assert fullmatches(found, printed), (printed, found.record.message_pattern)
        assert not fullmatches(found, printed.replace("widget", "gadget"))
    assert _made(records, "src/Guard.cs", PARAM_GUARD,
                 "            throw new ArgumentException(ex") == []


PARAM_FAILURE = '''\
using System;
using System.Globalization;
using Acme.Properties;

namespace Acme
{
    public class WidgetException : Exception
    {
        public WidgetException(int reason, string message) : base(message) { }

        internal static WidgetException NotAWidget(Type type)
        {
            return new WidgetException(
                3,
                string.Format(CultureInfo.CurrentCulture, Resources.NotAWidget, type));
        }
    }

    public static class Use
    {
        public static void Check(Type type)
        {
            throw WidgetException.NotAWidget(type);
        }
    }
}
'''


def test_a_formatted_resource_handed_to_a_class_of_the_repository_is_its_message(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """``new WidgetException(3, string.Format(culture, Resources.X, type))`` in a factory:
    the resource's text, where it is made and where the factory's error is thrown."""
    from tests.compose_steps import mine_once

    _, records = mine_once(make_repo, tmp_path, {
        "src/Resources.Designer.cs": PARAM_RESOURCES, "src/Failure.cs": PARAM_FAILURE})
    for start in ("            return new WidgetException(", "            throw WidgetException"):
        [found] = _made(records, "src/Failure.cs", PARAM_FAILURE, start)
        assert found.record.error_class == "WidgetException"
        assert fullmatches(found, "Type Acme.Gadget is not a widget type.")
        assert not fullmatches(found, "Type Acme.Gadget is not a gadget type.")


# --- a message built with a StringBuilder ----------------------------------------------

BUILDER = '''\
using System;
using System.Text;

namespace Acme
{
    public class Report
    {
        public void Check(string name, int count, bool verbose)
        {
            var sb = new StringBuilder("Widget check failed: ");
            sb.Append("the widget ").Append(name);
            sb.AppendFormat(" has {0} parts", count);
            sb.AppendLine(".");
            throw new InvalidOperationException(sb.ToString());
        }

        public void Branchy(string name, bool verbose)
        {
            var sb = new StringBuilder();
            sb.Append("The widget report for ");
            if (verbose)
            {
                sb.Append(name);
            }
            throw new InvalidOperationException(sb.ToString());
        }

        public void Lines(string name)
        {
            var message = new StringBuilder();
            message.AppendLine("The widget store is corrupt.");
            message.Append("Rebuild it with: widgets rebuild ").Append(name);
            throw new InvalidOperationException(message.ToString());
        }
    }
}
'''
BUILDER_RUN = '''\
using System;
public static class Program
{
    public static void Main()
    {
        var r = new Acme.Report();
        try { r.Check("gear", 3, false); }
        catch (Exception e) { Console.WriteLine(e.Message.Replace("\\n", "|")); }
        try { r.Lines("main"); }
        catch (Exception e) { Console.WriteLine(e.Message.Replace("\\n", "|")); }
    }
}
'''
BUILDER_PRINTED = [
    "Widget check failed: the widget gear has 3 parts.",
    "The widget store is corrupt.\nRebuild it with: widgets rebuild main",
]


def test_a_string_builder_appended_to_above_the_throw_prints_its_pieces(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """``new StringBuilder("…")`` then ``Append``/``AppendFormat``/``AppendLine`` (chained
    too) and ``throw new X(sb.ToString())``: the pieces in order, a trailing line break
    dropped; an append under an ``if`` is a hole that may print nothing (the text before
    it still known). Where Mono is installed the fixture runs and each pattern matches
    what it printed."""
    from tests.compose_steps import mine_once

    _, records = mine_once(make_repo, tmp_path, {"src/Report.cs": BUILDER})
    starts = ["            throw new InvalidOperationException(sb.ToString());",
              "            throw new InvalidOperationException(message"]
    lines = BUILDER.splitlines()
    numbers = [1 + next(i for i, line in enumerate(lines) if line.startswith(s)) for s in starts]
    found = [[r for r in records if r.record.line_number == n] for n in numbers]
    assert [len(f) for f in found] == [1, 1]
    [branchy] = [r for r in records if r.record.line_number not in numbers]
    assert branchy.record.error_message == "The widget report for {…}"
    for message in ("The widget report for ", "The widget report for gear"):
        assert fullmatches(branchy, message), message
    printed = BUILDER_PRINTED
    if not missing("mcs", "mono"):
        (tmp_path / "Report.cs").write_text(BUILDER)
        (tmp_path / "Run.cs").write_text(BUILDER_RUN)
        subprocess.run(["mcs", "-out:r.exe", "Report.cs", "Run.cs"], cwd=tmp_path,
                       capture_output=True, check=True)
        done = subprocess.run(["mono", str(tmp_path / "r.exe")], capture_output=True,
                              text=True, check=True)
        printed = [line.replace("|", "\n").rstrip("\n") for line in done.stdout.splitlines()]
        assert printed == BUILDER_PRINTED
    for [record], message in zip(found, printed, strict=True):
        assert fullmatches(record, message), (message, record.record.message_pattern)
        assert not fullmatches(record, message.replace("widget", "gadget"))


# --- overloads taking as many parameters ----------------------------------------------

OVERLOADED = '''using System;

namespace Shop
{
    public class ShopException : Exception
    {
        public ShopException(string message) : base(message) { }

        internal static ShopException Create(Reader reader, string message)
        {
            return Create(reader, message, null);
        }

        internal static ShopException Create(Reader reader, string message, Exception ex)
        {
            return Create(reader.Path, message, ex);
        }

        internal static ShopException Create(string path, string message, Exception ex)
        {
            return new ShopException(message);
        }
    }
}
'''
LOADER = '''namespace Shop
{
    public class Cart
    {
        public void Load(Reader reader)
        {
            throw ShopException.Create(reader, "No cart content was found in the stream.");
        }
    }
}
'''


def test_a_call_reaches_the_overload_its_arguments_are_named_after(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    """``Create(reader, message, null)`` among two three-parameter ``Create``s: the one
    taking ``reader`` and ``message`` (before, neither: the site had no record)."""
    from tests.compose_steps import mine_once, records_at

    _, records = mine_once(make_repo, tmp_path, {"src/ShopException.cs": OVERLOADED,
                                                 "src/Cart.cs": LOADER})
    [site] = records_at(records, "src/Cart.cs", line_starting(LOADER, "            throw "))
    assert site.record.error_message == "No cart content was found in the stream."
    assert site.record.error_class == "ShopException"
