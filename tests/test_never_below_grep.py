"""Never below grep: pastes a plain search of their words resolves must resolve in errdex too.

Each rule here came from a pasted error where grepping the message found the raise and
errdex did not; the inputs are written for the test, in the shape users paste.
"""

from __future__ import annotations

from errdex.lookup.parse import main_event

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
    page = main_event("CartException: The cart is empty.\n"
                      "Shop.Cart.Checkout() in Cart.cs\n"
                      "Shop.Program.Main() in Program.cs\n")
    assert page.error_class == "CartException" and page.message == "The cart is empty."
    assert [(f.file, f.line, f.function) for f in page.frames] == [
        ("Cart.cs", None, "Shop.Cart.Checkout"), ("Program.cs", None, "Shop.Program.Main")]
