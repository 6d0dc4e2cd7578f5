"""Log lines and whole log files: JSON, logfmt, syslog, Rust loggers; segments; speed."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from errdex.lookup.parse import MAX_INPUT_CHARS, ErrorEvent, Frame, main_event, parse_events
from tests.steps import assert_linear, case_ids, within_deadline

# --- JSON lines ----------------------------------------------------------------------


def test_json_line_prefers_the_error_over_the_log_message() -> None:
    text = (
        '{"level":"error","ts":1767348672.1,"msg":"db down","error":"dial tcp: connect: refused"}'
    )
    event = main_event(text)
    assert event == ErrorEvent("dial tcp: connect: refused", None, "message", (), text, line=1)
    assert event.segments == ("dial tcp: connect: refused", "connect: refused", "refused")


def test_json_line_with_nested_error_and_stack() -> None:
    record = {
        "level": 50,
        "time": 1767348672000,
        "msg": "request failed",
        "err": {
            "type": "Error",
            "message": "connect ECONNREFUSED 127.0.0.1:5432",
            "code": "ECONNREFUSED",
            "stack": "Error: connect ECONNREFUSED 127.0.0.1:5432\n"
            "    at TCPConnectWrap.afterConnect (node:net:1555:16)\n"
            "    at Pool.connect (/app/src/db.js:14:11)",
        },
    }
    event = main_event(json.dumps(record))
    assert (event.message, event.error_class, event.kind, event.code) == (
        "connect ECONNREFUSED 127.0.0.1:5432",
        "Error",
        "node",
        "ECONNREFUSED",
    )
    assert event.frames == (
        Frame("node:net", 1555, "TCPConnectWrap.afterConnect"),
        Frame("/app/src/db.js", 14, "Pool.connect"),
    )


def test_json_python_exception_field_and_zap_stacktrace() -> None:
    python = {
        "levelname": "ERROR",
        "message": "job failed",
        "exc_info": 'Traceback (most recent call last):\n  File "/app/jobs.py", line 9, in run\n'
        "    total = int(raw)\nValueError: invalid literal for int() with base 10: 'x'",
    }
    event = main_event(json.dumps(python))
    assert (event.message, event.error_class, event.kind, event.frames) == (
        "job failed",
        "ValueError",
        "python",
        (Frame("/app/jobs.py", 9, "run"),),
    )
    zap = {
        "level": "error",
        "msg": "sync failed",
        "error": "context deadline exceeded",
        "stacktrace": "main.sync\n\t/app/sync.go:40\nmain.main\n\t/app/main.go:12",
    }
    event = main_event(json.dumps(zap))
    assert (event.message, event.kind) == ("context deadline exceeded", "go")
    assert event.frames == (
        Frame("/app/sync.go", 40, "main.sync"),
        Frame("/app/main.go", 12, "main.main"),
    )


def test_json_info_lines_are_not_events_but_a_lone_one_is_read() -> None:
    text = '{"level":"info","msg":"started"}\n{"level":"warn","msg":"slow query"}\n'
    assert [e.kind for e in parse_events(text)] == ["message"]
    assert main_event(text).message == text.strip()  # nothing recognized: the whole paste
    lone = main_event('{"@message":"cache miss for user 42","@level":"info"}')
    assert (lone.message, lone.line) == ("cache miss for user 42", 1)


# --- logfmt, syslog, Rust loggers -------------------------------------------------------


def test_logfmt_line() -> None:
    text = (
        'time=2026-01-02T10:11:12.000Z level=ERROR source=/app/db.go:42 msg="db down" '
        'err="dial tcp 10.0.0.5:5432: connect: connection refused"'
    )
    event = main_event(text)
    assert (event.message, event.error_class, event.kind, event.frames) == (
        "dial tcp 10.0.0.5:5432: connect: connection refused",
        None,
        "go",
        (Frame("/app/db.go", 42),),
    )
    assert event.segments[-1] == "connection refused"
    quoted = main_event('level=error msg="bad \\"x\\" value"')
    assert (quoted.message, quoted.kind) == ('bad "x" value', "message")
    info = 'level=info msg="ok"\nlevel=debug msg=x'
    assert parse_events(info) == [ErrorEvent(info, None, "message", (), info, line=1)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Jan  2 10:11:12 web1 app[123]: ERROR could not connect", "could not connect"),
        ("Jan 12 10:11:12 web1 kernel: error: disk sda failed", "disk sda failed"),
        ("[2026-01-02T10:11:12Z ERROR app::db] could not connect", "could not connect"),
        ("2026-01-02T10:11:12.123456Z ERROR app::db::pool: could not connect", "could not connect"),
        ("2026-01-02T10:11:12.123Z  ERROR app::db: pool: timed out", "pool: timed out"),
    ],
)
def test_syslog_and_rust_logger_prefixes(text: str, message: str) -> None:
    events = parse_events(text)
    assert [(e.message, e.error_class, e.kind, e.line) for e in events] == [
        (message, None, "message", 1)
    ]


def test_rust_loggers_below_error_are_not_events() -> None:
    text = (
        "[2026-01-02T10:11:10Z INFO  app] starting\n"
        "2026-01-02T10:11:11.000Z  WARN app::db: slow\n"
        "[2026-01-02T10:11:12Z ERROR app::db] pool exhausted\n"
    )
    assert [(e.message, e.line) for e in parse_events(text)] == [("pool exhausted", 3)]


# --- whole log files ------------------------------------------------------------------------

LOG_FILE = """\
2026-01-02 10:11:10,001 INFO app: starting
2026-01-02 10:11:11,002 ERROR app.jobs: job 7 failed
Traceback (most recent call last):
  File "/app/jobs.py", line 9, in run
    total = int(raw)
ValueError: invalid literal for int() with base 10: 'x'
2026-01-02 10:11:12,003 INFO app: retrying
{"level":"error","msg":"upload failed","error":"s3: access denied"}
Exception in thread "main" java.lang.IllegalStateException: pool closed
\tat com.acme.Pool.get(Pool.java:12)
2026-01-02 10:11:13,004 ERROR app: giving up
"""


def test_log_file_events_with_lines_and_own_text() -> None:
    events = parse_events(LOG_FILE)
    assert [(e.line, e.kind, e.error_class, e.message) for e in events] == [
        (2, "message", None, "job 7 failed"),
        (3, "python", "ValueError", "invalid literal for int() with base 10: 'x'"),
        (8, "message", None, "s3: access denied"),
        (9, "jvm", "java.lang.IllegalStateException", "pool closed"),
        (11, "message", None, "app: giving up"),  # an undotted logger may be message text
    ]
    lines = LOG_FILE.splitlines()
    for event in events:
        first = event.line - 1
        assert event.text == "\n".join(lines[first : first + event.text.count("\n") + 1])
    assert main_event(LOG_FILE) == events[3]


def test_crlf_log_file_keeps_line_numbers() -> None:
    text = "INFO start\r\nERROR a failed\r\n\r\nERROR b failed\r\n"
    assert [(e.line, e.message) for e in parse_events(text)] == [(2, "a failed"), (4, "b failed")]


def test_segments_for_every_kind() -> None:
    assert main_event("ValueError: load: bad: x").segments == ("load: bad: x", "bad: x", "x")
    assert main_event("thread 'main' panicked at src/a.rs:1:1:\nload: x\n  y: z").segments == (
        "load: x\n  y: z",
        "x\n  y: z",
    )
    assert main_event("plain words").segments == ("plain words",)
    deep = main_event(": ".join(f"w{n}" for n in range(40)))
    assert deep.segments[0].startswith("w0: w1")
    assert deep.segments[-1] == "w39"
    assert len(deep.segments) == 16


# --- linear time ------------------------------------------------------------------------------


# Hostile pastes of the structured and runtime formats, as (name, text of n units, n for
# about a megabyte): work counted at two small sizes, the full size under a deadline.
ADVERSARIAL = [
    ("logfmt-escapes", lambda n: 'level=error msg="' + '\\"a=' * n, 200_000),
    ("relay-prefixes", lambda n: "  | " * n, 250_000),
    ("node-frames", lambda n: "    at f (" * n, 100_000),
    ("json-keys", lambda n: "{" + '"a":' * n + "}", 240_000),
    ("nested-json", lambda n: '{"a":' * n + "1" + "}" * n, 100_000),
    ("jvm-frames", lambda n: "Caused by: a.B: " + "\tat x(" * n, 160_000),
    ("go-recovered", lambda n: "panic: " + "[recovered]" * n, 90_000),
    ("ruby-frames", lambda n: "x.rb:1:in '" + "': (" * n, 240_000),
    ("php-locations", lambda n: "PHP Fatal error:  Uncaught A: " + " in x:" * n, 160_000),
]
# A megabyte of small events of each format: (name, text of n events, n for about a megabyte).
MANY_EVENTS = [
    ("node", lambda n: "Error: x\n    at f (a.js:1:1)\n" * n, 30_000),
    ("jvm", lambda n: "Caused by: a.B: x\n\tat a.B.m(B.java:1)\n" * n, 25_000),
    ("go", lambda n: "panic: x\n\ngoroutine 1 [running]:\nmain.f()\n\t/a.go:1\n" * n, 19_000),
    ("json", lambda n: '{"level":"error","msg":"x"}\n' * n, 35_000),
    ("logfmt", lambda n: "level=error msg=x err=y\n" * n, 40_000),
    ("exception-groups",
     lambda n: "  + Exception Group Traceback (most recent call last):\n  | A: x\n" * n, 15_000),
    ("ruby", lambda n: "a.rb:1:in 'f': x (E)\n\tfrom a.rb:2:in 'g'\n" * n, 24_000),
    ("go-log", lambda n: "2026/01/02 10:11:12 open x: no such file\n" * n, 20_000),
]


@pytest.mark.parametrize(("name", "make", "full"), ADVERSARIAL, ids=case_ids(ADVERSARIAL))
def test_adversarial_new_formats_are_linear(
    name: str, make: Callable[[int], str], full: int
) -> None:
    assert_linear(parse_events, make, max(1, full // 256), slack=2_000)


@pytest.mark.parametrize(("name", "make", "full"), ADVERSARIAL, ids=case_ids(ADVERSARIAL))
@within_deadline(30)
@given(st.none())
def test_adversarial_new_formats_finish(
    name: str, make: Callable[[int], str], full: int, _: None
) -> None:
    text = make(full)
    assert len(text) <= MAX_INPUT_CHARS
    parse_events(text)


@pytest.mark.parametrize(("name", "make", "full"), MANY_EVENTS, ids=case_ids(MANY_EVENTS))
def test_many_new_events_are_linear(name: str, make: Callable[[int], str], full: int) -> None:
    """4x the events, about 4x the work (quadratic parsing would be 16x); all found."""
    size = 300
    assert len(parse_events(make(size))) >= size
    assert_linear(parse_events, make, size)


@pytest.mark.parametrize(("name", "make", "full"), MANY_EVENTS, ids=case_ids(MANY_EVENTS))
@within_deadline(60)
@given(st.none())
def test_a_megabyte_of_new_events_finishes(
    name: str, make: Callable[[int], str], full: int, _: None
) -> None:
    text = make(full)
    assert len(text) <= MAX_INPUT_CHARS
    assert len(parse_events(text)) >= 15_000


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"event":"payment failed","level":"error","logger":"billing"}', "payment failed"),
        ('{"severity":"ERROR","message":"quota exceeded"}', "quota exceeded"),
        ('{"@message":"disk full","@level":"fatal"}', "disk full"),
        ('{"msg":"retry","err":"EOF"}', "EOF"),
    ],
)
def test_json_message_keys(line: str, message: str) -> None:
    events = parse_events(f'{{"level":"info","msg":"ok"}}\n{line}\n')
    assert [(e.message, e.line, e.text) for e in events] == [(message, 2, line)]


@pytest.mark.parametrize(
    "prefix", ["web_1  | ", "== APP == ", "> ", "api-7f9c | "],
)
def test_a_relay_prefix_on_every_line_is_stripped(prefix: str) -> None:
    """docker compose, dapr and quoted pastes put the same prefix before every line."""
    body = ('Traceback (most recent call last):\n  File "/app/x.py", line 3, in f\n'
            "ValueError: bad thing\n")
    relayed = "".join(prefix + line + "\n" for line in body.splitlines())
    event = main_event(relayed)
    assert (event.error_class, event.message) == ("ValueError", "bad thing")
    assert event.frames[0].file == "/app/x.py"


def test_a_shared_timestamp_or_indent_is_not_a_prefix() -> None:
    from errdex.lookup.parse import strip_shared_prefix

    for text in ("2026-01-02 10:00:01 a\n2026-01-02 10:00:02 b\n", "    a\n    b\n",
                 "single | line\n"):
        assert strip_shared_prefix(text) == text


@pytest.mark.parametrize("closing", [
    "error: ExitCode(rawValue: 1)", "Error: Process completed with exit code 1.",
    "error: exit status 2", "Command failed with exit code 2",
])
def test_a_closing_exit_status_gives_way_to_the_error_before_it(closing: str) -> None:
    paste = ("$ swift build -c release\n"
             "error: product 'Lib' required by package 'app' target 'App' not found.\n"
             f"{closing}\n")
    assert main_event(paste).message == (
        "product 'Lib' required by package 'app' target 'App' not found.")
    # alone, it is still what there is to explain
    assert "1" in main_event("error: ExitCode(rawValue: 1)").message
