"""Pasted errors → events: each supported format, with samples written the way runtimes print."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from errdex.errors import InputTooLargeError, UsageError
from errdex.lookup.parse import (
    MAX_INPUT_CHARS,
    ErrorEvent,
    Frame,
    main_event,
    parse_events,
)
from tests.steps import assert_linear, case_ids, within_deadline

# --- bare messages and Class: message lines ----------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "deform_conv2d_backward: unsupported dtype I8",
        "connection refused: host db:5432",
        "config: missing key 'port'",
        "os.path: not a class",
    ],
)
def test_bare_message_with_colon_is_not_a_class(text: str) -> None:
    event = main_event(f"  {text}\n")
    assert event == ErrorEvent(text, None, "message", (), text, line=1)


def test_capitalised_error_prefix_is_a_level_not_a_class() -> None:
    """cobra and many CLIs print ``Error: <message>``: the message is what follows."""
    event = main_event("  Error: something\n")
    assert (event.message, event.error_class) == ("something", None)


def test_bare_multiline_message_is_the_whole_stripped_text() -> None:
    event = main_event("\n  could not open file\n  because reasons  \n\n")
    assert event.message == "could not open file\n  because reasons"
    assert event.kind == "message"
    assert parse_events("could not open file\nbecause reasons") == [
        main_event("could not open file\nbecause reasons")
    ]


@pytest.mark.parametrize(
    ("text", "error_class", "message"),
    [
        ("ValueError: invalid literal", "ValueError", "invalid literal"),
        ("pkg.mod.CustomError: msg", "pkg.mod.CustomError", "msg"),
        (
            "requests.exceptions.HTTPError: 404 Client Error",
            "requests.exceptions.HTTPError",
            "404 Client Error",
        ),
        (
            "psycopg2.errors.UniqueViolation: duplicate key",
            "psycopg2.errors.UniqueViolation",
            "duplicate key",
        ),
        ("KeyError: 'k'", "KeyError", "'k'"),
        ("StopIteration", "StopIteration", ""),
        ("SystemExit: 2", "SystemExit", "2"),
        ("ConfigWarning: deprecated: use x", "ConfigWarning", "deprecated: use x"),
    ],
)
def test_class_line(text: str, error_class: str, message: str) -> None:
    event = main_event(text)
    assert (event.error_class, event.message, event.kind) == (error_class, message, "python")
    assert event.text == text


def test_class_line_keeps_following_lines_of_the_message() -> None:
    event = main_event("pkg.mod.CustomError: first line\nsecond line\n  indented third\n")
    assert event.error_class == "pkg.mod.CustomError"
    assert event.message == "first line\nsecond line\n  indented third"


def test_class_colon_without_space_is_not_a_class_line() -> None:
    assert main_event("ValueError:x").error_class is None


def test_consecutive_class_lines_are_separate_events() -> None:
    events = parse_events("ValueError: bad port\nKeyError: 'host'\n")
    assert [(e.error_class, e.message) for e in events] == [
        ("ValueError", "bad port"),
        ("KeyError", "'host'"),
    ]
    assert events[1].text == "KeyError: 'host'"


# --- Python tracebacks ---------------------------------------------------------

TRACEBACK = """\
Traceback (most recent call last):
  File "/home/u/proj/app.py", line 40, in <module>
    main()
  File "/home/u/proj/app.py", line 31, in main
    value = parse(raw)
            ^^^^^^^^^^
  File "/home/u/proj/src/proj/parse.py", line 12, in parse
    return int(raw)
           ^^^^^^^^
ValueError: invalid literal for int() with base 10: 'x'
"""


def test_python_traceback_frames_innermost_first() -> None:
    event = main_event(TRACEBACK)
    assert event.error_class == "ValueError"
    assert event.message == "invalid literal for int() with base 10: 'x'"
    assert event.kind == "python"
    assert event.frames == (
        Frame("/home/u/proj/src/proj/parse.py", 12, "parse"),
        Frame("/home/u/proj/app.py", 31, "main"),
        Frame("/home/u/proj/app.py", 40, "<module>"),
    )
    assert event.text == TRACEBACK.rstrip("\n")


def test_python_traceback_multiline_message_and_bare_class() -> None:
    multi = (
        'Traceback (most recent call last):\n  File "x.py", line 3, in f\n'
        "    raise CheckError(report)\n"
        "x.CheckError: 2 problems:\n  - a is missing\n  - b is negative\n"
    )
    event = main_event(multi)
    assert event.error_class == "x.CheckError"
    assert event.message == "2 problems:\n  - a is missing\n  - b is negative"

    bare = (
        'Traceback (most recent call last):\n  File "x.py", line 9, in run\n    raise Stop\nStop\n'
    )
    event = main_event(bare)
    assert (event.error_class, event.message) == ("Stop", "")
    assert event.frames == (Frame("x.py", 9, "run"),)


def test_python_traceback_lowercase_class_and_syntax_error() -> None:
    event = main_event(
        'Traceback (most recent call last):\n  File "c.py", line 2, in <module>\n'
        "socket.gaierror: [Errno -2] Name or service not known\n"
    )
    assert (event.error_class, event.message) == (
        "socket.gaierror",
        "[Errno -2] Name or service not known",
    )
    event = main_event(
        'Traceback (most recent call last):\n  File "/p/m.py", line 3\n'
        "    def f(\n         ^\nSyntaxError: '(' was never closed\n"
    )
    assert event.frames == (Frame("/p/m.py", 3, None),)
    assert (event.error_class, event.message) == ("SyntaxError", "'(' was never closed")


CHAINED = """\
Traceback (most recent call last):
  File "/srv/app/cache.py", line 21, in get
    return self._data[key]
           ~~~~~~~~~~^^^^^
KeyError: 'user:42'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/srv/app/views.py", line 8, in show
    user = cache.get(key)
  File "/srv/app/cache.py", line 23, in get
    raise LookupFailed(key) from None
app.errors.LookupFailed: user:42

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/srv/app/server.py", line 99, in handle
    raise HTTPError(404) from exc
app.http.HTTPError: 404
"""


def test_chained_traceback_gives_one_event_per_exception_and_main_is_last() -> None:
    events = parse_events(CHAINED)
    assert [(e.error_class, e.message) for e in events] == [
        ("KeyError", "'user:42'"),
        ("app.errors.LookupFailed", "user:42"),
        ("app.http.HTTPError", "404"),
    ]
    assert events[0].frames == (Frame("/srv/app/cache.py", 21, "get"),)
    assert events[1].frames == (
        Frame("/srv/app/cache.py", 23, "get"),
        Frame("/srv/app/views.py", 8, "show"),
    )
    assert events[1].text.startswith("Traceback")
    assert events[1].text.endswith("app.errors.LookupFailed: user:42")
    assert main_event(CHAINED) == events[2]


def test_traceback_after_log_line_wins_over_it() -> None:
    text = "2026-01-02 10:11:12,123 ERROR myapp.jobs: job failed\n" + TRACEBACK
    events = parse_events(text)
    assert [e.kind for e in events] == ["message", "python"]
    assert events[0].message == "job failed"
    assert main_event(text).error_class == "ValueError"


def test_indented_traceback() -> None:
    text = "    " + TRACEBACK.replace("\n", "\n    ")
    event = main_event(text)
    assert event.error_class == "ValueError"
    assert event.frames[0] == Frame("/home/u/proj/src/proj/parse.py", 12, "parse")


# --- pytest -------------------------------------------------------------------

PYTEST = """\
=================================== FAILURES ===================================
__________________________________ test_parse __________________________________

    def test_parse():
>       parse("x")

test_a.py:5:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

raw = 'x'

    def parse(raw):
>       raise ValueError(f"bad value: {raw!r}\\nexpected a number")
E       ValueError: bad value: 'x'
E       expected a number

test_a.py:2: ValueError
_________________________________ test_assert __________________________________

    def test_assert():
>       assert len([0]) == 2
E       assert 1 == 2
E        +  where 1 = len([0])

test_a.py:8: AssertionError
__________________________________ test_chain __________________________________

    def test_chain():
        try:
>           {}["k"]
E           KeyError: 'k'

test_a.py:12: KeyError

The above exception was the direct cause of the following exception:

    def test_chain():
        try:
            {}["k"]
        except KeyError as e:
>           raise RuntimeError("wrapped") from e
E           RuntimeError: wrapped

test_a.py:14: RuntimeError
=========================== short test summary info ============================
FAILED test_a.py::test_parse - ValueError: bad value: 'x'
FAILED test_a.py::test_assert - assert 1 == 2
FAILED test_a.py::test_chain - RuntimeError: wrapped
3 failed in 0.66s
"""


def test_pytest_e_lines() -> None:
    events = parse_events(PYTEST)
    assert [(e.error_class, e.message, e.frames, e.line) for e in events] == [
        (
            "ValueError",
            "bad value: 'x'\nexpected a number",
            (Frame("test_a.py", 2), Frame("test_a.py", 5)),  # the raise, then the test's call
            7,
        ),
        (
            "AssertionError",
            "assert 1 == 2\n +  where 1 = len([0])",
            (Frame("test_a.py", 8),),
            22,
        ),
        ("KeyError", "'k'", (Frame("test_a.py", 12),), 31),
        ("RuntimeError", "wrapped", (Frame("test_a.py", 14),), 42),
        # the short test summary restates them, naming the test
        ("ValueError", "bad value: 'x'", (Frame("test_a.py", None, "test_parse"),), 46),
        ("AssertionError", "assert 1 == 2", (Frame("test_a.py", None, "test_assert"),), 47),
        ("RuntimeError", "wrapped", (Frame("test_a.py", None, "test_chain"),), 48),
    ]
    assert {e.kind for e in events} == {"python"}
    assert events[0].text.startswith("test_a.py:5:\n_ _ _")
    assert events[0].text.endswith(
        "E       ValueError: bad value: 'x'\nE       expected a number\n\ntest_a.py:2: ValueError"
    )
    assert events[1].text == (
        "E       assert 1 == 2\nE        +  where 1 = len([0])\n\ntest_a.py:8: AssertionError"
    )
    # The summary line repeats the last failure without its line: the E block wins.
    assert main_event(PYTEST) == events[3]


def test_pytest_e_lines_with_location_and_assert_rewrite() -> None:
    text = (
        "E       assert 1 == 2\n"
        "E        +  where 1 = len([0])\n"
        "tests/test_c.py:14: AssertionError\n"
    )
    event = main_event(text)
    assert event.error_class == "AssertionError"
    assert event.message == "assert 1 == 2\n +  where 1 = len([0])"
    assert event.frames == (Frame("tests/test_c.py", 14),)
    assert main_event("E   Failed: DID NOT RAISE <class 'ValueError'>").error_class == "Failed"


# --- Rust panics ----------------------------------------------------------------


def test_rust_panic_current_format() -> None:
    text = (
        "thread 'main' panicked at src/config.rs:12:5:\n"
        "missing field `port`\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
    )
    event = main_event(text)
    assert event == ErrorEvent(
        "missing field `port`",
        None,
        "rust-panic",
        (Frame("src/config.rs", 12),),
        text.rstrip(),
        line=1,
    )


def test_rust_panic_assert_eq_multiline_in_cargo_test_output() -> None:
    text = """\
running 1 test
test tests::adds ... FAILED

failures:

---- tests::adds stdout ----

thread 'tests::adds' panicked at src/lib.rs:10:9:
assertion `left == right` failed
  left: 4
 right: 5
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    tests::adds

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out

error: test failed, to rerun pass `--lib`
"""
    event = main_event(text)
    assert event.kind == "rust-panic"
    assert event.message == "assertion `left == right` failed\n  left: 4\n right: 5"
    assert event.frames == (Frame("src/lib.rs", 10),)
    assert parse_events(text)[-1].message == "test failed, to rerun pass `--lib`"


def test_rust_panic_with_backtrace_and_thread_names() -> None:
    text = """\
thread 'tokio-runtime-worker' panicked at src/worker.rs:88:14:
called `Result::unwrap()` on an `Err` value: Io(Kind(NotFound))
stack backtrace:
   0: rust_begin_unwind
             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs:665:5
   1: core::result::unwrap_failed
   2: myapp::worker::run
             at ./src/worker.rs:88:14
   3: myapp::main
             at ./src/main.rs:5:5
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.
"""
    event = main_event(text)
    assert event.message == "called `Result::unwrap()` on an `Err` value: Io(Kind(NotFound))"
    assert event.frames == (
        Frame("src/worker.rs", 88),
        Frame(
            "/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs",
            665,
            "rust_begin_unwind",
        ),
        Frame("./src/worker.rs", 88, "myapp::worker::run"),
        Frame("./src/main.rs", 5, "myapp::main"),
    )
    assert event.text == text.rstrip()

    unnamed = main_event("thread '<unnamed>' (4242) panicked at src/a.rs:3:1:\nboom\n")
    assert (unnamed.message, unnamed.frames) == ("boom", (Frame("src/a.rs", 3),))


def test_rust_panic_full_backtrace_addresses() -> None:
    text = (
        "thread 'main' panicked at src/main.rs:2:5:\nboom\nstack backtrace:\n"
        "   0:     0x55d5c2f5a1b2 - std::backtrace_rs::backtrace::trace::h1234\n"
        "                               at /rustc/abc/library/std/src/backtrace.rs:23:5\n"
    )
    assert main_event(text).frames[1] == Frame(
        "/rustc/abc/library/std/src/backtrace.rs", 23, "std::backtrace_rs::backtrace::trace::h1234"
    )


def test_rust_panic_old_format() -> None:
    text = (
        "thread 'main' panicked at 'index out of bounds: the len is 3 but the index is 7', "
        "src/main.rs:4:13\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
    )
    event = main_event(text)
    assert event.message == "index out of bounds: the len is 3 but the index is 7"
    assert event.frames == (Frame("src/main.rs", 4),)
    assert event.kind == "rust-panic"


def test_rust_panic_old_format_quotes_colons_and_lines() -> None:
    text = (
        "thread '<unnamed>' panicked at 'assertion failed: `(left == right)`\n"
        "  left: `'a', b`,\n"
        ' right: `"c"`\', C:\\proj\\src\\lib.rs:21:9\n'
    )
    event = main_event(text)
    assert (
        event.message == "assertion failed: `(left == right)`\n  left: `'a', b`,\n right: `\"c\"`"
    )
    assert event.frames == (Frame("C:\\proj\\src\\lib.rs", 21),)

    no_column = main_event("thread 'main' panicked at 'boom: it's over', src/x.rs:7")
    assert (no_column.message, no_column.frames) == ("boom: it's over", (Frame("src/x.rs", 7),))


def test_rust_panic_after_log_prefix() -> None:
    event = main_event("2026-01-02T10:11:12Z thread 'main' panicked at src/a.rs:1:1:\nboom")
    assert (event.kind, event.message) == ("rust-panic", "boom")


def test_a_logs_next_timestamped_entry_ends_a_panic_message() -> None:
    """In a log, the panic's message lines stop at the next entry, which is an event too."""
    events = parse_events("thread 'main' panicked at src/lib.rs:2:5:\nboom\nleft: 1\n"
                          "2026-01-02 10:00:00,500 INFO app: retry\n"
                          "ValueError: bad value\n")
    assert [(e.kind, e.message, e.line) for e in events] == [
        ("rust-panic", "boom\nleft: 1", 1), ("python", "bad value", 5)]


# --- log prefixes ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2026-01-02 10:11:12,123 ERROR myapp.db: could not connect", "could not connect"),
        ("2026-01-02T10:11:12.123456+01:00 ERROR could not connect", "could not connect"),
        ("[2026-01-02 10:11:12] [ERROR] could not connect", "could not connect"),
        ("2026-01-02 10:11:12,123 - myapp - ERROR - could not connect", "could not connect"),
        ("ERROR:root:could not connect", "could not connect"),
        ("ERROR:myapp.db:could not connect", "could not connect"),
        ("CRITICAL root: disk full", "disk full"),
        ("WARNING: something deprecated", "something deprecated"),
        ("error: could not compile `foo`", "could not compile `foo`"),
        ("FATAL out of memory", "out of memory"),
        # Conservative: an undotted name before ": " may be part of the message.
        (
            "ERROR deform_conv2d_backward: unsupported dtype I8",
            "deform_conv2d_backward: unsupported dtype I8",
        ),
        # Lowercase words are levels only with a colon.
        (
            "error while loading shared libraries: libx.so",
            "error while loading shared libraries: libx.so",
        ),
    ],
)
def test_log_prefix_is_stripped(text: str, message: str) -> None:
    event = main_event(text)
    assert (event.message, event.error_class, event.kind) == (message, None, "message")
    assert event.text == text


def test_log_prefix_before_class_line() -> None:
    event = main_event("2026-01-02 10:11:12,123 ERROR ValueError: bad port")
    assert (event.error_class, event.message) == ("ValueError", "bad port")
    event = main_event("ERROR:requests.exceptions.HTTPError: 404")
    assert (event.error_class, event.message) == ("requests.exceptions.HTTPError", "404")


# --- limits ------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   \n\t  \n"])
def test_empty_input_is_a_usage_error(text: str) -> None:
    with pytest.raises(UsageError, match="empty input: paste an error message"):
        main_event(text)
    assert parse_events(text) == []


def test_too_large_input_is_refused_in_one_line() -> None:
    with pytest.raises(InputTooLargeError) as raised:
        main_event("x" * (MAX_INPUT_CHARS + 1))
    message = str(raised.value)
    assert "\n" not in message
    assert f"{MAX_INPUT_CHARS:,}" in message
    assert f"{MAX_INPUT_CHARS + 1:,}" in message
    with pytest.raises(InputTooLargeError):
        parse_events("x" * (MAX_INPUT_CHARS + 1))


# Hostile pastes as (name, text of n units, n for about a megabyte). Each is parsed
# at two small sizes with its work counted (linear: 4x the input, about 4x the
# lines of parsing run), and at its full size under a generous deadline, which
# catches what counting cannot see: a regex backtracking inside C.
ADVERSARIAL = [
    ("colons", lambda n: "a:" * n, 500_000),
    ("spaces", lambda n: " " * n, 1_000_000),
    ("newlines", lambda n: "\n" * n, 1_000_000),
    ("short-lines", lambda n: "x\n" * n, 500_000),
    ("class-colons", lambda n: "ValueError: " + "x:" * n, 499_990),
    ("pytest-e", lambda n: "E " * n, 500_000),
    ("panic-headers", lambda n: "thread 'a' panicked at '" * n, 40_000),
    ("open-frames", lambda n: "Traceback (most recent call last):\n" + '  File "' * n, 120_000),
    ("log-lines", lambda n: "2026-01-02 10:11:12 ERROR a.b: " * n, 30_000),
    ("level-run", lambda n: "ERROR:" + "a" * n, 999_000),
    ("dotted-run", lambda n: "ERROR " + "a.b" * n, 330_000),
    ("upper-run", lambda n: "A" * n + "a: x", 999_990),
    ("dotted-class", lambda n: "a." * n + "Error: x", 499_990),
    ("panic-locations", lambda n: "thread 'a' panicked at '" + "', 1:" * n, 190_000),
]
# A megabyte of tiny events: (name, text of n events, n for about a megabyte).
TINY_EVENTS = [
    ("key-errors", lambda n: "KeyError\n" * n, 110_000),
    ("pytest-lines", lambda n: "E x\nq\n" * n, 160_000),
    ("log-errors", lambda n: "ERROR x\n" * n, 125_000),
    ("old-panics", lambda n: "thread 'a' panicked at 'x\n" * n, 38_000),
    ("tracebacks", lambda n: "Traceback (most recent call last):\nA\n" * n, 27_000),
    ("panics", lambda n: "thread 'a' panicked at a:1:1:\nm\n" * n, 30_000),
]


@pytest.mark.parametrize(("name", "make", "full"), ADVERSARIAL, ids=case_ids(ADVERSARIAL))
def test_adversarial_input_is_linear(name: str, make: Callable[[int], str], full: int) -> None:
    assert_linear(parse_events, make, max(1, full // 256), slack=2_000)


@pytest.mark.parametrize(("name", "make", "full"), ADVERSARIAL, ids=case_ids(ADVERSARIAL))
@within_deadline(30)
@given(st.none())
def test_adversarial_megabyte_finishes(
    name: str, make: Callable[[int], str], full: int, _: None
) -> None:
    text = make(full)
    assert len(text) <= MAX_INPUT_CHARS
    parse_events(text)


@pytest.mark.parametrize(("name", "make", "full"), TINY_EVENTS, ids=case_ids(TINY_EVENTS))
def test_many_tiny_events_are_linear(name: str, make: Callable[[int], str], full: int) -> None:
    """Each event costs the same whatever came before: 4x the events, about 4x the work
    (quadratic parsing would be 16x), and every event is found."""
    size = 500
    assert len(parse_events(make(size))) >= size
    assert_linear(parse_events, make, size)


@pytest.mark.parametrize(("name", "make", "full"), TINY_EVENTS, ids=case_ids(TINY_EVENTS))
@within_deadline(60)
@given(st.none())
def test_a_megabyte_of_tiny_events_finishes(
    name: str, make: Callable[[int], str], full: int, _: None
) -> None:
    text = make(full)
    assert len(text) <= MAX_INPUT_CHARS
    assert len(parse_events(text)) > 20_000
