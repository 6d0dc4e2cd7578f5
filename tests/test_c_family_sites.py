"""C, C++ and C# site extraction: registration, behaviours the goldens do not pin, and
patterns checked against real runtime messages.

The C and C++ messages below were printed by programs built with gcc/g++ 12.2 (glibc,
libstdc++) from the same calls; the suite itself needs no compiler. No .NET SDK was at
hand: the C# wrappers follow the resource strings of ``System.Private.CoreLib``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from errdex.languages import language_for_path
from errdex.languages.base import Site
from errdex.languages.c.spec import extract as extract_c
from errdex.languages.cpp.spec import extract as extract_cpp
from errdex.languages.csharp.spec import extract as extract_cs
from errdex.lookup.parse import parse_events
from errdex.templates.template import compile_pattern

FIXTURES = Path(__file__).parent / "fixtures"


def _sites(extract, source: str) -> list[Site]:
    result = extract(source.encode())
    assert not result.parse_errors
    return result.sites


def _only(extract, source: str) -> Site:
    sites = _sites(extract, source)
    assert len(sites) == 1, sites
    return sites[0]


def _matches(site: Site, message: str) -> bool:
    return compile_pattern(site.template.pattern()).fullmatch(message) is not None


@pytest.mark.parametrize(("path", "language"), [
    ("src/store.c", "c"), ("include/store.h", "cpp"), ("src/a.cc", "cpp"),
    ("src/a.cpp", "cpp"), ("src/a.hpp", "cpp"), ("src/a.ipp", "cpp"), ("src/A.cs", "csharp"),
])
def test_extensions_are_registered(path: str, language: str) -> None:
    found = language_for_path(path)
    assert found is not None and found.name == language


# --- C: messages printed by glibc (gcc 12.2) ----------------------------------------------

C_RUNTIME = [
    ('perror("open config");', "open config: No such file or directory",
     ["open config", "open config No such file or directory"]),
    ('err(2, "cannot open %s", path);',
     "rt: cannot open /etc/x.conf: No such file or directory",
     ["cannot open /etc/x.conf: No such file or directory", "rt: cannot open /etc/x.conf"]),
    ('errx(3, "bad count %d", n);', "rt: bad count -4", ["rt: bad count four"]),
    ('warn("retrying %s", name);', "rt: retrying db: No such file or directory",
     ["rt: retrying db"]),
    ('warnx("slow: %5.2f ms", t);', "rt: slow:  3.14 ms", ["rt: slow: 3.1 ms"]),
    ("error(0, errno, \"cannot stat '%s'\", p);",
     "./rt: cannot stat 'a.txt': No such file or directory", ["./rt: cannot stat 'a.txt'"]),
    ('error(0, 0, "plain %zu items", n);', "./rt: plain 7 items",
     ["./rt: plain 7 items: Success", "./rt: plain seven items"]),
    ('fprintf(stderr, "size %" PRIu64 " bytes, ptr %p\\n", n, p);',
     "size 9 bytes, ptr 0x7fffed57a1d8", ["size nine bytes, ptr 0x7fffed57a1d8"]),
]


@pytest.mark.parametrize(("call", "printed", "rejected"), C_RUNTIME)
def test_c_patterns_match_glibc_output(call: str, printed: str, rejected: list[str]) -> None:
    site = _only(extract_c, f"void f(void) {{ {call} }}")
    assert _matches(site, printed)
    for message in rejected:
        assert not _matches(site, message), message


def test_c_severity_follows_whether_the_call_exits() -> None:
    sites = _sites(extract_c, """
void f(void) {
  err(1, "gone %s", p);
  error(0, 0, "kept %s", p);
  error(EXIT_FAILURE, 0, "stopped %s", p);
  die("fatal %s", p);
  warnx("careful %s", p);
  panic("corrupt %s", p);
}""")
    assert [(s.error_type, s.severity) for s in sites] == [
        ("exit", "fatal"), ("log", "error"), ("exit", "fatal"), ("exit", "fatal"),
        ("warning", "warning"), ("panic", "fatal"),
    ]


def test_c_calls_without_a_known_message_are_not_sites() -> None:
    assert _sites(extract_c, """
void f(const char *msg, int n) {
  abort();
  assert(0);
  perror(msg);
  perror("");
  fprintf(stdout, "progress %d\\n", n);
  fprintf(stderr, "%s: %d\\n", msg, n);
  fprintf(stderr, msg);
  err(1, NULL);
  printf("error %d\\n", n);
}""") == []


def test_c_escapes_and_symbols() -> None:
    site = _only(extract_c, r"""
static char *
read_line(FILE *f)
{
  fprintf(stderr, "bad byte \x41 at\tcolumn %d \"q\"\n\n", col);
}""")
    assert site.template.written == 'bad byte A at\tcolumn %d "q"'
    assert site.symbol == "read_line"
    assert _matches(site, 'bad byte A at\tcolumn 12 "q"')


def test_c_and_csharp_escapes() -> None:
    """C's octal, ``\\x`` (every digit given), ``\\u``/``\\U``, ``\\?`` and an unknown
    escape's character; C#'s ``\\x``, ``\\u``/``\\U`` and ``\\e``."""
    c = _only(extract_c, r"""
void f(void) { fprintf(stderr, "bad \101\x41\u00e9\U0001F600\? \q x\n"); }""")
    assert c.template.written == "bad AA\xe9\U0001f600? q x"
    cs = _only(extract_cs, r"""
class A { void M() { throw new Exception("bad \x41\u00e9\U0001F600\e x"); } }""")
    assert cs.template.written == "bad A\xe9\U0001f600\x1b x"


# --- C++: what() as printed by libstdc++ (g++ 12.2) ---------------------------------------

CPP_RUNTIME = [
    ('throw std::runtime_error("bad " + std::to_string(n) + "x");', "bad 42x", ["bad 42"]),
    ('throw std::system_error(std::make_error_code(std::errc::no_such_file_or_directory), '
     '"open failed");', "open failed: No such file or directory", ["open failed"]),
    ('throw std::filesystem::filesystem_error("copy failed", p, ec);',
     "filesystem error: copy failed: Permission denied [/a/b]", ["copy failed: Permission denied"]),
    ('throw std::filesystem::filesystem_error("copy failed", p1, p2, ec);',
     "filesystem error: copy failed: Permission denied [/a/b] [/c]", ["filesystem error: copy"]),
    ('throw std::system_error(errno, std::generic_category(), std::string("x ") + "y");',
     "x y: Success", ["x y"]),
    ('throw std::logic_error("uncaught " + std::to_string(1.5));', "uncaught 1.500000",
     ["terminate called after throwing an instance of 'std::logic_error'"]),
    ('std::cerr << "value " << n << " too big" << std::endl;', "value 42 too big",
     ["value 42 too big\n"]),
]


@pytest.mark.parametrize(("statement", "printed", "rejected"), CPP_RUNTIME)
def test_cpp_patterns_match_libstdcxx_output(statement: str, printed: str,
                                             rejected: list[str]) -> None:
    site = _only(extract_cpp, f"int main() {{ {statement} }}")
    assert _matches(site, printed)
    for message in rejected:
        assert not _matches(site, message), message


def test_cpp_message_forms() -> None:
    sites = _sites(extract_cpp, """
void Store::load(int n, const std::string& key) {
  throw LoadError{"key " + key + " missing"};
  throw std::runtime_error(absl::StrCat("shard ", n, " is offline"));
  throw std::runtime_error(absl::StrFormat("shard %d of %d", n, total));
  throw std::runtime_error(std::format("slot {0} holds {1:>4x}", n, slot).c_str());
  throw std::runtime_error("raw "s + key);
  JSON_THROW(type_error("cannot use operator[]"));
}""")
    rows = [(s.error_class, s.template.pattern(), [h.name for h in s.template.holes])
            for s in sites]
    assert rows == [
        ("LoadError", "key (.+?) missing", ["key"]),
        ("std::runtime_error", "shard (.+?) is offline", ["n"]),
        ("std::runtime_error", r"shard (-?\d+) of (-?\d+)", ["n", "total"]),
        ("std::runtime_error", r"slot (.+?) holds ( *-?[0-9a-f]+ *)", ["n", "slot"]),
        ("std::runtime_error", "raw (.+?)", ["key"]),
        ("type_error", r"cannot use operator\[\]", []),
    ]
    assert {s.symbol for s in sites} == {"Store::load"}


def test_cpp_local_message_variable_and_non_sites() -> None:
    sites = _sites(extract_cpp, """
struct Pool {
  void grow(int by) {
    std::string msg("pool cannot grow by ");
    std::string why = msg + std::to_string(by);
    if (by < 0) throw std::invalid_argument(why);
    throw std::runtime_error(error_text);
    throw;
    std::cerr << msg;
    std::cout << "not an error " << by << std::endl;
    int x = by << 2;
  }
};""")
    assert [(s.line, s.template.pattern(), s.symbol) for s in sites] == [
        (6, "pool cannot grow by (.+?)", "Pool::grow"),
        (9, "pool cannot grow by ", "Pool::grow"),
    ]


# --- C and C++: a header tree-sitter reads only in part -----------------------------------

# Macros the grammar cannot expand (a namespace opened by a macro, a class declared through
# one) put the class under one parse error; the member functions still parse whole.
MACRO_HEADER = """#include <stdexcept>

MYLIB_NAMESPACE_BEGIN

MYLIB_TEMPLATE_DECLARATION
class basic_store
{
  private:
    int size = 0;

  public:
    void load(int n)
    {
        if (n < 0)
        {
            MYLIB_THROW(std::out_of_range("negative count"));
        }
    }

    void save(int n)
    {
        if (n > 9)
        {
            throw std::runtime_error("store is full");
        }
    }
};

MYLIB_NAMESPACE_END
"""


def test_a_definition_under_a_parse_error_keeps_its_sites() -> None:
    from errdex.languages.cpp.spec import _ENGINE  # the reading before macros are blanked

    assert _ENGINE.extract(MACRO_HEADER.encode()).parse_errors
    found = extract_cpp(MACRO_HEADER.encode())
    assert [(s.line, s.template.written) for s in found.sites] == [
        (16, "negative count"), (24, "store is full")]


def test_statements_tree_sitter_could_not_read_as_a_function_stay_out() -> None:
    garbled = MACRO_HEADER.replace("if (n < 0)", "if MYLIB_UNLIKELY(n < 0) then")
    found = extract_cpp(garbled.encode())
    assert found.parse_errors
    assert "negative count" not in [s.template.written for s in found.sites]


def test_an_error_made_from_a_formatted_text_is_a_candidate_once() -> None:
    """``make_error(string_format("…"))`` is the outer call's candidate (composition prints
    its text when no producer says more); a thrown one is the throw's own site only."""
    found = extract_cpp(b"""void f(int n) {
  throw MyError(string_format("bad %d", n));
  FMT_THROW(MyError(string_format("worse %d", n)));
  auto e = make_error(string_format("kept %d", n));
}""")
    assert [(s.line, s.template.written) for s in found.sites] == [(2, "bad %d"), (3, "worse %d")]
    [candidate] = found.candidates
    assert candidate.call is not None and candidate.call.makes_error
    assert (candidate.line, candidate.error_type, candidate.call.callee) == (
        4, "error", "make_error")
    assert [t.written for arg in candidate.call.args for t in arg] == ["kept %d"]


# --- C++: uncaught exceptions as the runtime prints them ---------------------------------

UNCAUGHT = """#include <stdexcept>
#include <string>
namespace YAML { template <typename T> struct TypedBadConversion : std::runtime_error {
  TypedBadConversion() : std::runtime_error("bad conversion") {} }; }
int main(int argc, char**) {
  if (argc > 1) throw std::runtime_error("line one\\nline two");
  throw YAML::TypedBadConversion<std::string>();
}
"""


def _uncaught(tmp_path: Path, *args: str) -> str:
    """What a program built with g++ prints on stderr when an exception escapes main."""
    (tmp_path / "main.cpp").write_text(UNCAUGHT)
    subprocess.run(["g++", "-o", str(tmp_path / "main"), str(tmp_path / "main.cpp")],
                   check=True, capture_output=True)
    done = subprocess.run([str(tmp_path / "main"), *args], capture_output=True, text=True,
                          check=False)
    return done.stderr


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
def test_libstdcxx_terminate_gives_what_and_the_class(tmp_path: Path) -> None:
    printed = _uncaught(tmp_path)
    assert printed.startswith("terminate called after throwing an instance of 'YAML::")
    [event] = parse_events("Loading config\n" + printed + "Aborted (core dumped)\n")
    assert (event.message, event.error_class) == ("bad conversion", "YAML::TypedBadConversion")
    [event] = parse_events(_uncaught(tmp_path, "two"))
    assert (event.message, event.error_class) == ("line one\nline two", "std::runtime_error")


@pytest.mark.parametrize("line", [
    "libc++abi: terminating due to uncaught exception of type std::runtime_error: disk full",
    "libc++abi.dylib: terminating with uncaught exception of type std::runtime_error: disk full",
])
def test_libcxx_terminate_gives_what_and_the_class(line: str) -> None:
    [event] = parse_events(line)
    assert (event.message, event.error_class) == ("disk full", "std::runtime_error")


def test_a_terminate_without_what_is_no_cpp_event() -> None:
    events = parse_events("terminate called after throwing an instance of 'int'\nAborted")
    assert all(e.kind != "cpp" for e in events)


# --- C#: wrappers from System.Private.CoreLib (modern .NET) -------------------------------

CS_RUNTIME = [
    ("throw new ArgumentNullException(nameof(path));",
     "Value cannot be null. (Parameter 'path')", ["Value cannot be null."]),
    ('throw new ArgumentNullException(nameof(path), "Path is required.");',
     "Path is required. (Parameter 'path')", ["Value cannot be null. (Parameter 'path')"]),
    ('throw new ArgumentException("Bad path.", nameof(path));',
     "Bad path. (Parameter 'path')", ["Bad path.\nParameter name: path"]),
    ('throw new ArgumentException("Bad path.", paramName);',
     "Bad path. (Parameter 'target')", ["Bad path."]),
    ('throw new ArgumentException("Bad path.", inner);', "Bad path.",
     ["Bad path. (Parameter 'inner')"]),
    ('throw new ArgumentOutOfRangeException(nameof(n), "Must be positive.");',
     "Must be positive. (Parameter 'n')", ["Must be positive."]),
    ('throw new ArgumentOutOfRangeException(nameof(n), n, "Must be positive.");',
     "Must be positive. (Parameter 'n')\nActual value was -3.",
     ["Must be positive. (Parameter 'n')"]),
    ('throw new ObjectDisposedException(GetType().FullName);',
     "Cannot access a disposed object.\r\nObject name: 'Books.Ledger'.",
     ["Cannot access a disposed object."]),
    ("ArgumentNullException.ThrowIfNull(options.Path);",
     "Value cannot be null. (Parameter 'options.Path')", ["Value cannot be null."]),
    ('throw new FormatException(string.Format("Row {0:D} has {1,3} cells", row, n));',
     "Row 12 has   4 cells", ["Row twelve has 4 cells"]),
    ('throw new JsonException("Bad token {0} at {1}.".FormatWith(CultureInfo.InvariantCulture, '
     'token, pos));', "Bad token Null at 4.", ["Bad token Null at 4"]),
]


@pytest.mark.parametrize(("statement", "printed", "rejected"), CS_RUNTIME)
def test_csharp_patterns_match_dotnet_messages(statement: str, printed: str,
                                               rejected: list[str]) -> None:
    site = _only(extract_cs, f"class C {{ void M() {{ {statement} }} }}")
    assert site.error_type == "exception"
    assert _matches(site, printed)
    for message in rejected:
        assert not _matches(site, message), message


def test_csharp_strings_and_symbols() -> None:
    sites = _sites(extract_cs, r"""
namespace N {
  class Outer {
    class Inner {
      string this[int i] => throw new KeyNotFoundException($"No row\t{i,4} in {{table}}");
      void Run() {
        var text = "Job " + id.ToString() + Environment.NewLine + "failed";
        throw new JobException(text);
      }
    }
  }
}""")
    rows = [(s.symbol, s.template.written, s.template.pattern(), [h.name for h in s.template.holes])
            for s in sites]
    assert rows == [
        ("Outer.Inner.this[]", r"No row\t{i,4} in {{table}}", r"No row\t(.+?) in \{table\}",
         ["i"]),
        ("Outer.Inner.Run", "Job {id}{Environment.NewLine}failed", r"Job (.+?)(\r?\n)failed",
         ["id", "Environment.NewLine"]),
    ]


def test_csharp_logging_and_fail_fast() -> None:
    sites = _sites(extract_cs, """
class C {
  void M() {
    _logger.LogCritical("Disk {Disk} is full", disk);
    logger.LogError($"Lost {count} rows");
    Log.Error(ex, "Import of {@File} failed after {Elapsed:0.0} ms", file, ms);
    Environment.FailFast($"State {state} is corrupt");
    _logger.LogWarning("Slow {Disk}", disk);
    client.Error("not a logger {0}", x);
  }
}""")
    assert [(s.error_type, s.severity, s.template.pattern(),
             [h.name for h in s.template.holes]) for s in sites] == [
        ("log", "fatal", "Disk (.+?) is full", ["disk"]),  # LogCritical: the fatal level
        ("log", "error", "Lost (.+?) rows", ["count"]),
        ("log", "error", "Import of (.+?) failed after (.+?) ms", ["file", "ms"]),
        ("exit", "fatal", "State (.+?) is corrupt", ["state"]),
        ("log", "warning", "Slow (.+?)", ["disk"]),  # every level is read now
    ]
