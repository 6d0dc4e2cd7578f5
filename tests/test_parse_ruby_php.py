"""Ruby and PHP: uncaught exceptions with their frames, and PHP's warnings."""

from __future__ import annotations

import pytest

from errdex.lookup.parse import Frame, main_event, parse_events


@pytest.mark.parametrize(("open_quote", "method"), [("`", "check"), ("'", "Object#check")])
def test_ruby_exception_both_quote_styles(open_quote: str, method: str) -> None:
    text = (
        f"app.rb:12:in {open_quote}{method}': n must be positive (ArgumentError)\n"
        f"\tfrom app.rb:20:in {open_quote}run'\n"
        f"\tfrom app.rb:22:in {open_quote}<main>'\n"
    )
    event = main_event(text)
    assert (event.error_class, event.message, event.kind, event.line) == (
        "ArgumentError",
        "n must be positive",
        "ruby",
        1,
    )
    assert event.frames == (
        Frame("app.rb", 12, method),
        Frame("app.rb", 20, "run"),
        Frame("app.rb", 22, "<main>"),
    )
    assert event.text == text.rstrip()


def test_ruby_error_highlight_between_message_and_frames() -> None:
    text = (
        "lib/users.rb:8:in 'Users.find': undefined method 'name' for nil (NoMethodError)\n"
        "\n"
        "    user.name\n"
        "        ^^^^^\n"
        "\tfrom bin/run:3:in '<main>'\n"
        "done\n"
    )
    event = main_event(text)
    assert (event.error_class, event.message) == (
        "NoMethodError",
        "undefined method 'name' for nil",
    )
    assert event.frames == (Frame("lib/users.rb", 8, "Users.find"), Frame("bin/run", 3, "<main>"))
    assert event.text == text.partition("\ndone")[0]
    namespaced = main_event("x.rb:1:in '<main>': timed out (Net::ReadTimeout)")
    assert namespaced.error_class == "Net::ReadTimeout"


PHP = """\
PHP Warning:  Undefined variable $user in /app/src/page.php on line 4
PHP Fatal error:  Uncaught InvalidArgumentException: bad value 3 in /app/src/X.php:42
Stack trace:
#0 /app/y.php(10): X->m()
#1 [internal function]: run()
#2 /app/index.php(5): call_user_func()
#3 {main}
  thrown in /app/src/X.php on line 42
"""


def test_php_uncaught_exception_and_warning() -> None:
    events = parse_events(PHP)
    assert [(e.error_class, e.message, e.kind, e.line) for e in events] == [
        (None, "Undefined variable $user", "php", 1),
        ("InvalidArgumentException", "bad value 3", "php", 2),
    ]
    assert events[0].frames == (Frame("/app/src/page.php", 4),)
    # "#0 y.php(10): X->m()": X->m was called from y.php line 10, so X.php:42 is in X->m
    assert events[1].frames == (
        Frame("/app/src/X.php", 42, "X->m"),
        Frame("/app/y.php", 10, "run"),
        Frame("/app/index.php", 5, "{main}"),
    )
    assert events[1].text == "\n".join(PHP.splitlines()[1:])
    assert main_event(PHP) == events[1]


def test_php_display_errors_and_log_stamp() -> None:
    shown = main_event(
        "Fatal error: Uncaught App\\Errors\\NotFound: no user 42 in /app/src/Users.php:17\n"
        "Stack trace:\n#0 {main}\n  thrown in /app/src/Users.php on line 17\n"
    )
    assert (shown.error_class, shown.message, shown.frames) == (
        "App\\Errors\\NotFound",
        "no user 42",
        (Frame("/app/src/Users.php", 17, "{main}"),),
    )
    logged = main_event(
        "[02-Jan-2026 10:11:12 UTC] PHP Fatal error:  Allowed memory size of 134217728 bytes "
        "exhausted (tried to allocate 20480 bytes) in /app/src/Big.php on line 12"
    )
    assert (logged.error_class, logged.kind, logged.frames) == (
        None,
        "php",
        (Frame("/app/src/Big.php", 12),),
    )
    assert logged.message == (
        "Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes)"
    )


def test_a_rails_log_error_with_gem_frames() -> None:
    event = main_event(
        'RuntimeError (Could not find a valid mapping for #<User id: 21, jti: "a6c8"...>):\n'
        "  \n"
        "auth (4.7.2) lib/auth/mapping.rb:46:in `find_scope!'\n"
        "auth (4.7.2) lib/auth/hooks/forget.rb:9:in `block in <top (required)>'\n"
        "app/controllers/sessions_controller.rb:12:in `create'\n"
    )
    assert (event.kind, event.error_class) == ("ruby", "RuntimeError")
    assert event.message == 'Could not find a valid mapping for #<User id: 21, jti: "a6c8"...>'
    assert [(f.file, f.line, f.function) for f in event.frames] == [
        ("lib/auth/mapping.rb", 46, "find_scope!"),
        ("lib/auth/hooks/forget.rb", 9, "block in <top (required)>"),
        ("app/controllers/sessions_controller.rb", 12, "create"),
    ]


def test_a_rails_error_page_with_its_message_under_the_header() -> None:
    event = main_event(
        "RuntimeError in Admin::UsersController#create\n\n"
        "Could not find a valid mapping for #<AdminUser id: 3>\n"
        "Rails.root: /Users/me/dev/shop\n\n"
        "Application Trace | Framework Trace | Full Trace\n"
        "auth (1.4.9) lib/auth/mapping.rb:41:in `find_scope!'\n"
    )
    assert (event.error_class, event.message) == (
        "RuntimeError", "Could not find a valid mapping for #<AdminUser id: 3>")
    assert event.frames == (Frame("lib/auth/mapping.rb", 41, "find_scope!"),)


def test_a_paste_of_ruby_frames_alone_is_an_event_without_a_message() -> None:
    event = main_event(
        "/gems/auth-4.3.0/lib/auth/mapping.rb:44 in find_scope!\n"
        "/gems/auth-4.3.0/lib/auth/controllers/sign_in_out.rb:27 in sign_in\n"
        "app/services/oauth.rb:20 in facebook_signup\n"
    )
    assert (event.kind, event.message) == ("ruby", "")
    assert event.frames[0] == Frame("/gems/auth-4.3.0/lib/auth/mapping.rb", 44, "find_scope!")
    # frames after a message are not a paste of frames alone
    logged = main_event("WARN: Thread TID-4f9k processor\n/app/lib/parallel.rb:213:in `map'\n")
    assert logged.kind == "message" and "Thread TID-4f9k processor" in logged.message
