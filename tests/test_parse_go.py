"""Go pastes: panics with goroutine traces, log.Fatal lines, glog, gRPC statuses, go test."""

from __future__ import annotations

from errdex.lookup.parse import ErrorEvent, Frame, main_event, parse_events


def test_panic_with_goroutine_trace() -> None:
    text = """\
panic: config: missing key "port"

goroutine 1 [running]:
main.mustLoad({0x4b8f2e, 0xb})
	/home/u/app/config.go:31 +0x125
main.(*Server).Start(...)
	/home/u/app/server.go:12
main.main()
	/home/u/app/main.go:9 +0x25
exit status 2
"""
    event = main_event(text)
    assert (event.message, event.error_class, event.kind) == (
        'config: missing key "port"',
        None,
        "go-panic",
    )
    assert event.frames == (
        Frame("/home/u/app/config.go", 31, "main.mustLoad"),
        Frame("/home/u/app/server.go", 12, "main.(*Server).Start"),
        Frame("/home/u/app/main.go", 9, "main.main"),
    )
    assert event.segments == ('config: missing key "port"', 'missing key "port"')
    assert event.text == text.rpartition("\nexit status")[0]
    assert event.line == 1


def test_runtime_error_panic_with_signal_line() -> None:
    text = """\
panic: runtime error: index out of range [5] with length 3

goroutine 1 [running]:
main.lookup(...)
	/home/u/app/main.go:12
main.main()
	/home/u/app/main.go:7 +0x1d
"""
    event = main_event(text)
    assert event.message == "runtime error: index out of range [5] with length 3"
    assert event.segments[-1] == "index out of range [5] with length 3"
    assert event.frames[0] == Frame("/home/u/app/main.go", 12, "main.lookup")

    nil = main_event(
        "panic: runtime error: invalid memory address or nil pointer dereference\n"
        "[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x48f0a6]\n\n"
        "goroutine 1 [running]:\nmain.(*Server).Start(0x0)\n\t/home/u/app/server.go:22 +0x26\n"
    )
    assert nil.message == "runtime error: invalid memory address or nil pointer dereference"
    assert nil.frames == (Frame("/home/u/app/server.go", 22, "main.(*Server).Start"),)


RECOVERED = """\
--- FAIL: TestLoad (0.00s)
panic: open testdata/x.yaml: no such file or directory [recovered]
	panic: open testdata/x.yaml: no such file or directory

goroutine 7 [running]:
testing.tRunner.func1.2({0x5a1b20, 0xc000012345})
	/usr/local/go/src/testing/testing.go:1545 +0x238
panic({0x5a1b20?, 0xc000012345?})
	/usr/local/go/src/runtime/panic.go:914 +0x21f
example.com/app.TestLoad(0xc0000a2820?)
	/home/u/app/load_test.go:14 +0x85
created by testing.(*T).Run in goroutine 1
	/usr/local/go/src/testing/testing.go:1648 +0x3ad

goroutine 1 [chan receive]:
testing.(*T).Run(0xc0000a2680, {0x5b0e2a?, 0x0?}, 0x5d6f28)
	/usr/local/go/src/testing/testing.go:1649 +0x3c8
FAIL	example.com/app	0.005s
"""


def test_recovered_panic_in_go_test_keeps_the_first_goroutine() -> None:
    events = parse_events(RECOVERED)
    assert len(events) == 1
    event = events[0]
    assert event.message == "open testdata/x.yaml: no such file or directory"
    assert event.segments == (
        "open testdata/x.yaml: no such file or directory",
        "no such file or directory",
    )
    assert event.frames == (
        Frame("/usr/local/go/src/testing/testing.go", 1545, "testing.tRunner.func1.2"),
        Frame("/usr/local/go/src/runtime/panic.go", 914, "panic"),
        Frame("/home/u/app/load_test.go", 14, "example.com/app.TestLoad"),
        Frame("/usr/local/go/src/testing/testing.go", 1648, "testing.(*T).Run"),
    )
    assert event.line == 2
    assert event.text.endswith("testing.go:1649 +0x3c8")


def test_runtime_fatal_error() -> None:
    text = (
        "fatal error: concurrent map writes\n\ngoroutine 18 [running]:\n"
        "main.worker(0xc000014090)\n\t/home/u/app/worker.go:20 +0x45\n"
    )
    event = main_event(text)
    assert (event.message, event.kind) == ("concurrent map writes", "go-panic")
    assert event.frames == (Frame("/home/u/app/worker.go", 20, "main.worker"),)


def test_log_fatal_line_and_wrapped_error_segments() -> None:
    text = "2026/01/02 10:11:12 open config.yaml: no such file or directory\nexit status 1\n"
    event = main_event(text)
    assert event == ErrorEvent(
        "open config.yaml: no such file or directory",
        None,
        "go",
        (),
        "2026/01/02 10:11:12 open config.yaml: no such file or directory",
        line=1,
    )
    assert event.segments == (
        "open config.yaml: no such file or directory",
        "no such file or directory",
    )
    wrapped = main_event("2026/01/02 10:11:12.123456 main.go:42: load: parse config: bad port\n")
    assert wrapped.message == "load: parse config: bad port"
    assert wrapped.frames == (Frame("main.go", 42),)
    assert wrapped.segments == (
        "load: parse config: bad port",
        "parse config: bad port",
        "bad port",
    )


def test_go_log_lines_that_are_not_errors_are_not_events() -> None:
    text = "2026/01/02 10:11:10 listening on :8080\n2026/01/02 10:11:12 db: connection refused\n"
    events = parse_events(text)
    assert [(e.message, e.line) for e in events] == [("db: connection refused", 2)]


def test_grpc_status_error() -> None:
    text = "2026/01/02 10:11:12 get user: rpc error: code = NotFound desc = user 42 not found"
    event = main_event(text)
    assert (event.message, event.error_class, event.kind) == ("user 42 not found", "NotFound", "go")
    assert event.segments == ("user 42 not found",)
    bare = main_event("rpc error: code = Unavailable desc = connection refused")
    assert (bare.message, bare.error_class, bare.kind) == (
        "connection refused",
        "Unavailable",
        "go",
    )


def test_glog_line_location_is_a_frame() -> None:
    text = (
        "I0102 10:11:10.000001    1234 main.go:20] starting\n"
        "E0102 10:11:12.123456    1234 controller.go:42] sync default/web: deadline exceeded\n"
    )
    events = parse_events(text)
    assert [(e.message, e.kind, e.frames, e.line) for e in events] == [
        ("sync default/web: deadline exceeded", "go", (Frame("controller.go", 42),), 2)
    ]


def test_go_test_failures() -> None:
    text = """\
=== RUN   TestParse
--- FAIL: TestParse (0.00s)
    parse_test.go:12: Parse("x") = 0, want 1
    parse_test.go:15: unexpected error: strconv.Atoi: parsing "x": invalid syntax
FAIL
"""
    events = parse_events(text)
    assert [(e.message, e.kind, e.frames, e.line) for e in events] == [
        ('Parse("x") = 0, want 1', "go", (Frame("parse_test.go", 12, "TestParse"),), 3),
        (
            'unexpected error: strconv.Atoi: parsing "x": invalid syntax',
            "go",
            (Frame("parse_test.go", 15, "TestParse"),),
            4,
        ),
    ]
    assert events[1].segments[-1] == "invalid syntax"
    assert (
        events[1].text
        == '    parse_test.go:15: unexpected error: strconv.Atoi: parsing "x": invalid syntax'
    )
