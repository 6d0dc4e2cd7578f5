"""Python pastes beyond plain tracebacks: exception groups, pytest's short frames and summary."""

from __future__ import annotations

from errdex.lookup.parse import Frame, main_event, parse_events

TASK_GROUP = """\
  + Exception Group Traceback (most recent call last):
  |   File "/app/main.py", line 10, in <module>
  |     asyncio.run(main())
  |   File "/usr/lib/python3.11/asyncio/runners.py", line 190, in run
  |     return runner.run(main)
  |            ^^^^^^^^^^^^^^^^
  |   File "/app/main.py", line 7, in main
  |     async with asyncio.TaskGroup() as tg:
  |   File "/usr/lib/python3.11/asyncio/taskgroups.py", line 145, in __aexit__
  |     raise me from None
  | ExceptionGroup: unhandled errors in a TaskGroup (2 sub-exceptions)
  +-+---------------- 1 ----------------
    | Traceback (most recent call last):
    |   File "/app/main.py", line 3, in fetch
    |     raise ValueError("bad url")
    | ValueError: bad url
    +---------------- 2 ----------------
    | Traceback (most recent call last):
    |   File "/app/main.py", line 5, in store
    |     raise KeyError("id")
    | KeyError: 'id'
    +------------------------------------
"""


def test_exception_group_gives_the_group_then_each_leaf() -> None:
    events = parse_events(TASK_GROUP)
    assert [(e.error_class, e.message, e.kind, e.line) for e in events] == [
        ("ExceptionGroup", "unhandled errors in a TaskGroup (2 sub-exceptions)", "python", 1),
        ("ValueError", "bad url", "python", 13),
        ("KeyError", "'id'", "python", 18),
    ]
    assert events[0].frames == (
        Frame("/usr/lib/python3.11/asyncio/taskgroups.py", 145, "__aexit__"),
        Frame("/app/main.py", 7, "main"),
        Frame("/usr/lib/python3.11/asyncio/runners.py", 190, "run"),
        Frame("/app/main.py", 10, "<module>"),
    )
    assert events[1].frames == (Frame("/app/main.py", 3, "fetch"),)
    assert events[2].frames == (Frame("/app/main.py", 5, "store"),)
    # each event's text is the paste's own lines, box drawing and all
    assert events[1].text == (
        "    | Traceback (most recent call last):\n"
        '    |   File "/app/main.py", line 3, in fetch\n'
        '    |     raise ValueError("bad url")\n'
        "    | ValueError: bad url"
    )
    # decided: the last leaf is the one to explain
    assert main_event(TASK_GROUP) == events[2]


def test_nested_exception_group_without_tracebacks() -> None:
    text = """\
  + Exception Group Traceback (most recent call last):
  |   File "/app/n.py", line 1, in <module>
  |     raise ExceptionGroup("outer", [ValueError(1), ExceptionGroup("inner", [TypeError("two")])])
  | ExceptionGroup: outer (2 sub-exceptions)
  +-+---------------- 1 ----------------
    | ValueError: 1
    +---------------- 2 ----------------
    | ExceptionGroup: inner (1 sub-exception)
    +-+---------------- 1 ----------------
      | TypeError: two
      +------------------------------------
"""
    events = parse_events(text)
    assert [(e.error_class, e.message, e.frames, e.line) for e in events] == [
        ("ExceptionGroup", "outer (2 sub-exceptions)", (Frame("/app/n.py", 1, "<module>"),), 1),
        ("ValueError", "1", (), 6),
        ("ExceptionGroup", "inner (1 sub-exception)", (), 8),
        ("TypeError", "two", (), 10),
    ]
    assert events[3].text == "      | TypeError: two"
    assert main_event(text).message == "two"


PYTEST_SHORT = """\
=================================== FAILURES ===================================
__________________________________ test_parse __________________________________
tests/test_x.py:4: in test_parse
    parse("x")
app/parse.py:2: in parse
    return int(raw)
           ^^^^^^^^
E   ValueError: invalid literal for int() with base 10: 'x'
_________________________________ TestA.test_b _________________________________
tests/test_x.py:7: in test_b
    assert parse("1") == 2
E   AssertionError: assert 1 == 2
E    +  where 1 = parse('1')
=========================== short test summary info ============================
FAILED tests/test_x.py::test_parse - ValueError: invalid literal for int() wi...
FAILED tests/test_x.py::TestA::test_b[1-2] - AssertionError: assert 1 == 2
2 failed in 0.10s
"""


def test_pytest_short_traceback_frames_innermost_first() -> None:
    events = parse_events(PYTEST_SHORT)
    assert [(e.error_class, e.message, e.kind, e.frames, e.line) for e in events] == [
        (
            "ValueError",
            "invalid literal for int() with base 10: 'x'",
            "python",
            (Frame("app/parse.py", 2, "parse"), Frame("tests/test_x.py", 4, "test_parse")),
            3,
        ),
        (
            "AssertionError",
            "assert 1 == 2\n +  where 1 = parse('1')",
            "python",
            (Frame("tests/test_x.py", 7, "test_b"),),
            10,
        ),
        (
            "ValueError",
            "invalid literal for int() wi...",
            "python",
            (Frame("tests/test_x.py", None, "test_parse"),),
            15,
        ),
        (
            "AssertionError",
            "assert 1 == 2",
            "python",
            (Frame("tests/test_x.py", None, "test_b"),),
            16,
        ),
    ]
    assert events[0].text == "\n".join(PYTEST_SHORT.splitlines()[2:8])
    # the summary restates (even cut short) what the E blocks showed with lines
    assert main_event(PYTEST_SHORT) == events[1]
    assert main_event("\n".join(PYTEST_SHORT.splitlines()[:9])) == events[0]


def test_pytest_summary_lines_alone() -> None:
    text = (
        "FAILED tests/x.py::test_y - ValueError: bad port\n"
        "FAILED tests/x.py::test_z - assert 1 == 2\n"
        "ERROR tests/db.py - ModuleNotFoundError: No module named 'psycopg2'\n"
    )
    events = parse_events(text)
    assert [(e.error_class, e.message, e.frames) for e in events] == [
        ("ValueError", "bad port", (Frame("tests/x.py", None, "test_y"),)),
        ("AssertionError", "assert 1 == 2", (Frame("tests/x.py", None, "test_z"),)),
        ("ModuleNotFoundError", "No module named 'psycopg2'", (Frame("tests/db.py", None),)),
    ]
    assert events[2].text == text.splitlines()[2]
    assert main_event(text) == events[2]


def test_pytest_frames_without_an_e_block_make_no_event() -> None:
    assert parse_events("app/x.py:3: in f\n    g()\nsomething else\n") == [
        main_event("app/x.py:3: in f\n    g()\nsomething else\n")
    ]
    assert main_event("app/x.py:3: in f\n    g()\nsomething else\n").kind == "message"
