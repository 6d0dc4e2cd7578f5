"""Never below grep: pastes a plain search of their words resolves must resolve in errdex too.

Each rule here came from a pasted error where grepping the message found the raise and
errdex did not; the inputs are written for the test, in the shape users paste.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import errdex
from errdex.lookup.parse import main_event
from tests.conftest import GitRepo

# --- the forms IDEs, debuggers and test runners give an exception --------------------


def test_a_test_runners_class_space_colon_header_with_indented_lines() -> None:
    event = main_event(
        "System.NotSupportedException : Unsupported call: x => x.Name\n"
        "    Sealed members (here: Shop.get_Name) cannot be intercepted.\n"
        "   at Shop.Tests.Setup() in /src/Shop.Tests/SetupTests.cs:line 21\n")
    assert event.error_class == "System.NotSupportedException"
    assert event.kind == "dotnet"
    assert event.message == ("Unsupported call: x => x.Name\n"
                             "    Sealed members (here: Shop.get_Name) cannot be intercepted.")
    assert [(f.file, f.line) for f in event.frames] == [("/src/Shop.Tests/SetupTests.cs", 21)]


def test_a_runner_header_alone_on_its_line_takes_the_lines_under_it() -> None:
    event = main_event("   Shop.Mocking.MockException : \n"
                       "Expected a call once, but was 2 times: x => x.Save()\n")
    assert (event.error_class, event.message) == (
        "Shop.Mocking.MockException", "Expected a call once, but was 2 times: x => x.Save()")


def test_visual_studios_exception_helper_quotes_are_not_the_message() -> None:
    event = main_event("System.InvalidOperationException: 'The cart is locked: checkout\n"
                       "already started for cart 12.'\n")
    assert event.error_class == "System.InvalidOperationException"
    assert event.message == "The cart is locked: checkout\nalready started for cart 12."


def test_a_quoted_word_without_spaces_stays_quoted() -> None:
    # KeyError-like messages print a repr: the quotes are part of what was raised
    event = main_event("System.Collections.Generic.KeyNotFoundException: 'cart'\n")
    assert event.message == "'cart'"


def test_the_watch_windows_message_row_is_unescaped_and_its_stack_row_read() -> None:
    event = main_event(
        'Message "Split the rows on a key other than Id\\r\\nParameter name: splitOn"\n'
        '\n'
        'Source  "Shop"\n'
        '\n'
        'StackTrace  "   at Shop.Reader.Split(Int32 at) in C:\\\\src\\\\Reader.cs:line 88\\r\\n'
        '   at Shop.Reader.Read() in C:\\\\src\\\\Reader.cs:line 12"\n')
    assert event.kind == "dotnet"
    assert event.message == "Split the rows on a key other than Id"  # no parameter line
    assert [(f.file, f.line, f.function) for f in event.frames] == [
        ("C:\\src\\Reader.cs", 88, "Shop.Reader.Split"), ("C:\\src\\Reader.cs", 12,
                                                          "Shop.Reader.Read")]


def test_net_core_and_framework_parameter_suffixes_are_both_dropped() -> None:
    core = main_event("System.ArgumentException: Bad key (Parameter 'key')\n"
                      "   at Shop.Cart.Add(String key) in /src/Cart.cs:line 9\n")
    framework = main_event('Message "Bad key\\r\\nParameter name: key"\n')
    assert core.message == framework.message == "Bad key"


def test_vs_codes_exception_has_occurred_header_gives_the_class() -> None:
    event = main_event("Exception has occurred: ShopConfigError\n"
                       "The price list is missing a currency.\n\n"
                       "For further information visit https://shop.example/errors/currency\n")
    assert event.error_class == "ShopConfigError"
    assert event.message == ("The price list is missing a currency.\n\n"
                             "For further information visit https://shop.example/errors/currency")


def test_vs_codes_clr_form_reads_the_quoted_message_and_the_frames() -> None:
    event = main_event(
        "Exception has occurred: CLR/System.InvalidOperationException\n"
        "An exception of type 'System.InvalidOperationException' occurred in Shop.dll but was "
        "not handled in user code: 'The cart is empty.'\n"
        "   at Shop.Cart.Checkout() in /src/Cart.cs:line 40\n")
    assert (event.error_class, event.kind) == ("System.InvalidOperationException", "dotnet")
    assert event.message == "The cart is empty."
    assert [(f.file, f.line) for f in event.frames] == [("/src/Cart.cs", 40)]


def test_frames_without_file_or_line_keep_their_method() -> None:
    release = main_event("System.InvalidOperationException: The cart is empty.\n"
                         "   at Shop.Cart.Checkout()\n"
                         "   at Shop.Program.Main(String[] args) in /src/Program.cs:line 3\n")
    assert [(f.file, f.line, f.function) for f in release.frames] == [
        ("", None, "Shop.Cart.Checkout"), ("/src/Program.cs", 3, "Shop.Program.Main")]
    generated = main_event("System.InvalidOperationException: The cart is empty.\n"
                           "   at Shop.Program.<Main>(String[] args)\n")
    assert generated.frames == ()  # the compiler's method: no source has it
    page = main_event("CartException: The cart is empty.\n"
                      "Shop.Cart.Checkout() in Cart.cs\n"
                      "Shop.Program.Main() in Program.cs\n")
    assert page.error_class == "CartException" and page.message == "The cart is empty."
    assert [(f.file, f.line, f.function) for f in page.frames] == [
        ("Cart.cs", None, "Shop.Cart.Checkout"), ("Program.cs", None, "Shop.Program.Main")]


def test_a_markdown_quote_marker_on_the_first_line_only_is_taken_off() -> None:
    # Markdown's lazy continuation: the lines after the first need no ``>``
    event = main_event(">System.NotSupportedException : Unsupported call: x => x.Name\n"
                       "    Sealed members (here: Shop.get_Name) cannot be intercepted.\n")
    assert event.error_class == "System.NotSupportedException"
    assert event.message.startswith("Unsupported call: x => x.Name\n")
    quoted = main_event("> ValueError: the cart is empty\n> while checking out\n")
    assert (quoted.error_class, quoted.message) == (
        "ValueError", "the cart is empty\nwhile checking out")


# --- frames that name a method, not a line -------------------------------------------

CART = """namespace Shop
{
    public class Cart
    {
        public void Checkout()
        {
            if (Empty) throw new InvalidOperationException("The cart has no items to check out.");
        }

        public void Pay()
        {
            if (Empty) throw new InvalidOperationException("The cart has no items to check out.");
        }

        public void Ship()
        {
            ShipImpl();
        }

        private void ShipImpl()
        {
            if (Empty) throw new InvalidOperationException("The cart has no items to check out.");
        }

        public bool Empty => true;
    }
}
"""


def _mined_cart(make_repo: Callable[..., GitRepo], tmp_path: Path) -> str:
    repo = make_repo()
    repo.commit_files({"src/Shop/Cart.cs": CART})
    db = str(tmp_path / "cart.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/shop", jobs=1)
    return db


def test_a_frame_without_a_line_picks_the_method_among_a_templates_sites(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = _mined_cart(make_repo, tmp_path)
    message = "System.InvalidOperationException: The cart has no items to check out.\n"
    plain = errdex.explain(message, db=db)
    assert [m.record.line_number for m in plain] == [7, 12, 22]  # tied: in file order
    release = errdex.explain(message + "   at Shop.Cart.Pay()\n   at Shop.Program.Main()\n",
                             db=db)
    assert release[0].record.line_number == 12
    assert "frame names its method Shop.Cart.Pay" in release[0].reason
    page = errdex.explain("InvalidOperationException: The cart has no items to check out.\n"
                          "Shop.Cart.Pay() in Cart.cs\n", db=db)
    assert page[0].record.line_number == 12


def test_a_frame_of_a_public_method_stands_for_its_worker(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = _mined_cart(make_repo, tmp_path)
    found = errdex.explain("System.InvalidOperationException: The cart has no items to check "
                           "out.\n   at Shop.Cart.Ship() in C:\\old\\Cart.cs:line 400\n", db=db)
    assert found[0].record.line_number == 22  # ShipImpl


def test_a_frame_of_another_types_method_of_that_name_decides_nothing(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = _mined_cart(make_repo, tmp_path)
    found = errdex.explain("System.InvalidOperationException: The cart has no items to check "
                           "out.\n   at Shop.Wallet.Pay()\n", db=db)
    assert [m.record.line_number for m in found] == [7, 12, 22]
    assert all("frame names" not in m.reason for m in found)


TILL = """namespace Shop
{
    public class Till
    {
        public void Open() { Count(); }

        private void Count()
        {
            if (Drawer == null)
                throw new InvalidOperationException("The cart has no items to check out.");
        }

        public object? Drawer => null;
    }
}
"""


def test_a_frame_without_a_file_names_the_type_whose_sites_come_first(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo()
    repo.commit_files({"src/Shop/Cart.cs": CART, "src/Shop/Till.cs": TILL})
    db = str(tmp_path / "till.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/shop", jobs=1)
    message = "System.InvalidOperationException: The cart has no items to check out.\n"
    plain = errdex.explain(message, db=db)
    assert plain[0].record.file_path == "src/Shop/Cart.cs"  # tied: in file order
    # the raise is in Count, which the release build inlined: its caller Open is printed
    found = errdex.explain(message + "   at Shop.Till.Open()\n   at Shop.Program.Main()\n",
                           db=db)
    assert (found[0].record.file_path, found[0].record.line_number) == ("src/Shop/Till.cs", 10)
    assert "frame Shop.Till.Open names its type" in found[0].reason
    assert all("names its type" not in m.reason for m in found[1:])
    # a frame that names its file is read by the file rule, not this one
    filed = errdex.explain(message + "   at Shop.Till.Open() in C:\\src\\Till.cs:line 5\n",
                           db=db)
    assert all("names its type" not in m.reason for m in filed)


# --- a line the paste quotes whole against a template found by similar text -----------

TINY = '''MESSAGES = {"utf": "invalid string: ill-formed UTF-8 byte"}


class ParseError(Exception):
    pass


def fail(code, line, column, detail):
    raise ParseError(f"[tiny.parse_error.{code}] parse error at line {line}, "
                     f"column {column}: {detail} must be quoted")
'''


def test_a_line_quoted_whole_beats_a_similar_templates_frame_of_words(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo()
    repo.commit_files({"src/tiny.py": TINY})
    db = str(tmp_path / "tiny.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/tiny", jobs=1)
    paste = ("invalid parameters string ([tiny.parse_error.101] parse error at line 1, column 53: "
             "invalid string: ill-formed UTF-8 byte; last read: 'x')")
    # the template's frame (prefix, "parse error at line") is found by similar text: its
    # words are in the paste, but it says "must be quoted", which the paste does not
    similar = errdex.explain(paste, db=db)
    assert similar and all(m.approximate for m in similar)
    found = errdex.resolve(paste, db=db)
    assert found.matches == []
    assert [(t.site.file_path, t.site.line_number) for t in found.text_sites][:1] == [
        ("src/tiny.py", 1)]


# --- a generic template whose hole holds a message written whole elsewhere --------------

DECORATED = '''ERRORS = {"escape": "unknown escape character: "}
WHERE = "tiny: error at line "  # the decoration written again: held whole, says more words


class ParserError(Exception):
    pass


def fail(line, column, msg):
    raise ParserError(f"tiny: error at line {line}, column {column}: {msg}")
'''


def _mined_decorated(make_repo: Callable[..., GitRepo], tmp_path: Path) -> str:
    repo = make_repo()
    repo.commit_files({"src/tiny.py": DECORATED})
    db = str(tmp_path / "decorated.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/tiny", jobs=1)
    return db


def test_the_line_writing_what_a_generic_templates_hole_holds_is_the_answer(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = _mined_decorated(make_repo, tmp_path)
    paste = "ParserError: tiny: error at line 1, column 8: unknown escape character:"
    decoration = errdex.explain(paste, db=db)
    assert [(m.record.line_number, m.approximate) for m in decoration] == [(10, False)]
    found = errdex.resolve(paste, db=db)
    assert found.matches == []
    assert [(t.site.line_number, t.site.text) for t in found.text_sites][:1] == [
        (1, "unknown escape character:")]


def test_a_hole_no_line_writes_whole_keeps_the_template(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = _mined_decorated(make_repo, tmp_path)
    for paste in ("ParserError: tiny: error at line 1, column 8: the tab is not allowed here",
                  # the line says part of the hole only: the hole is more than that message
                  "ParserError: tiny: error at line 1, column 8: unknown escape character: in "
                  "a quoted scalar after the third key of the mapping"):
        found = errdex.resolve(paste, db=db)
        assert [m.record.line_number for m in found.matches] == [10], paste


def test_a_link_in_a_hole_is_not_a_message_written_elsewhere(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo()
    repo.commit_files({"src/lenient.py": '''GUIDE = "https://tiny.example/guide/troubleshooting#"


class ParserError(Exception):
    pass


def lenient(link):
    raise ParserError(f"Use the lenient mode to accept malformed input\\nSee {link}")
'''})
    db = str(tmp_path / "lenient.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/tiny", jobs=1)
    found = errdex.resolve("ParserError: Use the lenient mode to accept malformed input\n"
                           "See https://tiny.example/guide/troubleshooting#malformed", db=db)
    assert [m.record.line_number for m in found.matches] == [9]


# --- a typo fixed since ----------------------------------------------------------------

NESTING = '''NOTES = {"depth": "Maximum nesting depth reached."}


def set_depth(depth):
    if depth < 1:
        raise ValueError("Maximum nesting depth must be positive.")
'''


def test_a_line_the_message_holds_but_for_a_letter_is_found(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo()
    repo.commit_files({"src/nesting.py": NESTING})
    db = str(tmp_path / "nesting.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/nesting", jobs=1)
    found = errdex.resolve("2014-04-27T22:21:53 Maximium nesting depth reached.", db=db)
    assert found.matches == []
    assert [(t.site.line_number, t.site.text) for t in found.text_sites][:1] == [
        (1, "Maximum nesting depth reached.")]
    # two words off is a rewording, not a typo: no line is held whole
    other = errdex.resolve("Maximium nesting depht reached.", db=db)
    assert all(t.site.line_number != 1 or t.score < 0.5 for t in other.text_sites)


# --- a C++ type's template arguments, as the runtime prints them -------------------------

CASTS = """#include <stdexcept>
#include <string>

namespace tiny {

template <typename T>
class BadCast : public std::runtime_error {
 public:
  BadCast() : std::runtime_error("bad cast between node types") {}
};

template <typename T>
T as_value(const Node& node) {
  if (!node.ok()) throw BadCast<T>();
  return T();
}

template <>
std::string as_value<std::string>(const Node& node) {
  if (!node.ok()) throw BadCast<std::string>();
  return "";
}

}  // namespace tiny
"""


def test_the_throw_naming_the_printed_instantiation_comes_first(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo()
    repo.commit_files({"include/tiny/cast.h": CASTS})
    db = str(tmp_path / "casts.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/tiny", jobs=1)
    bare = errdex.explain("terminate called after throwing an instance of 'tiny::BadCast'\n"
                          "  what():  bad cast between node types\n", db=db)
    assert [m.record.line_number for m in bare][:2] == [14, 20]  # tied: in line order
    for printed in ("std::string", "std::__cxx11::basic_string<char, std::char_traits<char>, "
                                   "std::allocator<char> >"):
        found = errdex.explain(
            f"terminate called after throwing an instance of 'tiny::BadCast<{printed}>'\n"
            "  what():  bad cast between node types\nAborted (core dumped)\n", db=db)
        assert found[0].record.line_number == 20, printed
        assert "as the paste names it" in found[0].reason


# --- a short line against wrappers, and a line of the paste's language -----------------

MIXED = {
    "tools/check.py": '''def check(name, kind):
    raise ValueError(f"{name} is not {kind}.")
''',
    "client/url.go": '''package client

import "fmt"

func parse(u string, err error) error {
	return fmt.Errorf("Error parsing bad URL %s: %v", u, err)
}
''',
    "src/Mapper.cs": '''namespace Shop
{
    public static class Mapper
    {
        public static void Report()
        {
            System.Console.WriteLine("Error parsing column");
        }
    }
}
''',
}


def _mined_mixed(make_repo: Callable[..., GitRepo], tmp_path: Path) -> str:
    repo = make_repo()
    repo.commit_files(MIXED)
    db = str(tmp_path / "mixed.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/mixed", jobs=1)
    return db


def test_a_three_word_line_beats_a_wrapper_saying_two(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = _mined_mixed(make_repo, tmp_path)
    paste = "Loader: Error parsing column 5 (Scale=0 - Int64)\n\nSpecified cast is not valid."
    wrapper = errdex.explain(paste, db=db)
    assert wrapper and wrapper[0].record.file_path == "tools/check.py"
    found = errdex.resolve(paste, db=db)
    assert found.matches == []
    assert found.text_sites[0].site.file_path == "src/Mapper.cs"


def test_a_line_of_the_pastes_language_beats_a_similar_template_of_another(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    db = _mined_mixed(make_repo, tmp_path)
    paste = "Error: System.Data.DataException: Error parsing column 15 (QUANTITY=<null>)"
    similar = errdex.explain(paste, db=db)
    assert similar and similar[0].record.file_path == "client/url.go" and similar[0].approximate
    found = errdex.resolve(paste, db=db)
    assert found.matches == []
    assert found.text_sites[0].site.file_path == "src/Mapper.cs"


def test_a_class_matched_alone_keeps_its_place_against_a_three_word_line(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo()
    repo.commit_files({"src/config.py": '''HINTS = {"convert": "Unable to convert"}


class ConfigMissingError(Exception):
    pass


def load(name):
    raise ConfigMissingError(f"File {name} not found in the search path")
'''})
    db = str(tmp_path / "config.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/config", jobs=1)
    found = errdex.resolve("ConfigMissingError: Unable to convert the settings", db=db)
    assert [m.record.line_number for m in found.matches] == [9]
    assert "only" in found.matches[0].reason  # found by its class alone


# --- lines saying as much: the one in a file the frames name ------------------------------

def _cart_source(name: str) -> str:
    return f'''namespace Shop
{{
    public static class {name}
    {{
        public static void Report()
        {{
            System.Console.WriteLine("The cart cannot be saved while it is locked.");
        }}
    }}
}}
'''


def test_of_lines_saying_as_much_the_one_the_frames_name_comes_first(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo()
    repo.commit_files({"src/Alpha.cs": _cart_source("Alpha"),
                       "src/Zeta.cs": _cart_source("Zeta")})
    db = str(tmp_path / "carts.sqlite")
    errdex.mine(repo.root, db=db, repo="acme/shop", jobs=1)
    message = "System.InvalidOperationException: The cart cannot be saved while it is locked.\n"
    plain = errdex.resolve(message, db=db).text_sites
    assert [t.site.file_path for t in plain] == ["src/Alpha.cs", "src/Zeta.cs"]  # path order
    for frame in ("   at Shop.Zeta.Report()\n",
                  "   at Shop.Cart.Save() in /build/Zeta.cs:line 7\n"):
        found = errdex.resolve(message + frame, db=db).text_sites
        assert [t.site.file_path for t in found] == ["src/Zeta.cs", "src/Alpha.cs"], frame
