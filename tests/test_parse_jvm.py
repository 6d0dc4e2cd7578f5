"""Java and Kotlin stack traces, and .NET ones (which look alike and differ inside)."""

from __future__ import annotations

from errdex.lookup.parse import Frame, main_event, parse_events

JAVA = """\
Exception in thread "main" java.lang.IllegalArgumentException: bad port: -1
	at com.acme.net.Config.port(Config.java:42)
	at com.acme.Main.main(Main.java:10)
Caused by: java.lang.NumberFormatException: For input string: "x"
	at java.base/java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)
	at java.base/java.lang.Integer.parseInt(Integer.java:668)
	at com.acme.net.Config.port(Config.java:40)
	... 1 more
"""


def test_java_exception_and_cause_main_is_the_deepest_cause() -> None:
    events = parse_events(JAVA)
    assert [(e.error_class, e.message, e.kind, e.line) for e in events] == [
        ("java.lang.IllegalArgumentException", "bad port: -1", "jvm", 1),
        ("java.lang.NumberFormatException", 'For input string: "x"', "jvm", 4),
    ]
    assert events[0].frames == (
        Frame("Config.java", 42, "com.acme.net.Config.port"),
        Frame("Main.java", 10, "com.acme.Main.main"),
    )
    assert events[1].frames == (
        Frame("NumberFormatException.java", 67, "java.lang.NumberFormatException.forInputString"),
        Frame("Integer.java", 668, "java.lang.Integer.parseInt"),
        Frame("Config.java", 40, "com.acme.net.Config.port"),
    )
    assert events[0].text == "\n".join(JAVA.splitlines()[:3])
    assert events[1].text == "\n".join(JAVA.splitlines()[3:])
    assert main_event(JAVA) == events[1]


def test_java_suppressed_logback_frames_and_inner_classes() -> None:
    text = """\
2026-01-02 10:11:12.123 ERROR 4242 --- [main] c.a.App : request failed
com.acme.store.Store$WriteException: write failed: disk full
	at com.acme.store.Store.write(Store.java:88) ~[store.jar:1.2]
	at com.acme.App.main(App.java:5) ~[app.jar:?]
	Suppressed: java.io.IOException: close failed
		at com.acme.store.Store.close(Store.java:120)
		Caused by: java.io.IOException: broken pipe
			at com.acme.store.Pipe.flush(Pipe.java:9)
Caused by: java.io.IOException: disk full
	at java.base/java.io.FileOutputStream.writeBytes(Native Method)
	at com.acme.store.Store.write(Store.java:85)
	... 12 common frames omitted
"""
    events = parse_events(text)
    assert [(e.error_class, e.message, e.kind) for e in events] == [
        (None, "request failed", "message"),
        ("com.acme.store.Store$WriteException", "write failed: disk full", "jvm"),
        ("java.io.IOException", "disk full", "jvm"),
    ]
    assert events[1].frames == (
        Frame("Store.java", 88, "com.acme.store.Store.write"),
        Frame("App.java", 5, "com.acme.App.main"),
    )
    assert events[2].frames == (Frame("Store.java", 85, "com.acme.store.Store.write"),)
    assert events[1].segments == ("write failed: disk full", "disk full")
    assert main_event(text) == events[2]


def test_kotlin_and_bare_jvm_lines() -> None:
    kotlin = main_event(
        'Exception in thread "main" kotlin.NotImplementedError: '
        "An operation is not implemented: parse dates\n"
        "\tat MainKt.parse(Main.kt:12)\n\tat MainKt.main(Main.kt:4)\n"
    )
    assert (kotlin.error_class, kotlin.message, kotlin.kind) == (
        "kotlin.NotImplementedError",
        "An operation is not implemented: parse dates",
        "jvm",
    )
    assert kotlin.frames == (
        Frame("Main.kt", 12, "MainKt.parse"),
        Frame("Main.kt", 4, "MainKt.main"),
    )

    bare = main_event("java.lang.IllegalStateException: pool closed")
    assert (bare.error_class, bare.message, bare.kind, bare.frames) == (
        "java.lang.IllegalStateException",
        "pool closed",
        "jvm",
        (),
    )
    no_message = main_event('Exception in thread "worker-1" java.lang.StackOverflowError\n')
    assert (no_message.error_class, no_message.message) == ("java.lang.StackOverflowError", "")


DOTNET = (
    "Unhandled exception. System.InvalidOperationException: Could not load settings"
    " ---> System.IO.IOException: disk full\n"
    "   at Acme.Storage.Read(String path) in /src/Acme/Storage.cs:line 31\n"
    "   at Acme.Settings.Load() in /src/Acme/Settings.cs:line 12\n"
    "   --- End of inner exception stack trace ---\n"
    "   at Acme.Settings.Load() in /src/Acme/Settings.cs:line 15\n"
    "   at Acme.Program.Main(String[] args) in /src/Acme/Program.cs:line 8\n"
)


def test_dotnet_inner_exception_frames_and_order() -> None:
    events = parse_events(DOTNET)
    assert [(e.error_class, e.message, e.kind, e.line) for e in events] == [
        ("System.InvalidOperationException", "Could not load settings", "dotnet", 1),
        ("System.IO.IOException", "disk full", "dotnet", 1),
    ]
    assert events[0].frames == (
        Frame("/src/Acme/Settings.cs", 15, "Acme.Settings.Load"),
        Frame("/src/Acme/Program.cs", 8, "Acme.Program.Main"),
    )
    assert events[1].frames == (
        Frame("/src/Acme/Storage.cs", 31, "Acme.Storage.Read"),
        Frame("/src/Acme/Settings.cs", 12, "Acme.Settings.Load"),
    )
    assert events[0].text == DOTNET.rstrip()
    assert events[1].text == "\n".join(DOTNET.splitlines()[:3])
    assert main_event(DOTNET) == events[1]


def test_dotnet_parameter_suffix_async_marker_and_inner_on_its_own_line() -> None:
    text = """\
Unhandled exception. System.ArgumentException: Value must be positive. (Parameter 'count')
   at Acme.Batch.Split(Int32 count) in C:\\src\\Acme\\Batch.cs:line 42
--- End of stack trace from previous location ---
   at Acme.Program.<Main>(String[] args)
   at Acme.Program.Main(String[] args) in C:\\src\\Acme\\Program.cs:line 9
"""
    event = main_event(text)
    assert (event.error_class, event.message) == (
        "System.ArgumentException",
        "Value must be positive.",
    )
    assert event.frames == (
        Frame("C:\\src\\Acme\\Batch.cs", 42, "Acme.Batch.Split"),
        Frame("C:\\src\\Acme\\Program.cs", 9, "Acme.Program.Main"),
    )
    split = parse_events(
        "System.Exception: outer\n ---> System.IO.IOException: inner\n"
        "   at A.B.C() in /x.cs:line 3\n   --- End of inner exception stack trace ---\n"
    )
    assert [(e.error_class, e.message, e.frames) for e in split] == [
        ("System.Exception", "outer", ()),
        ("System.IO.IOException", "inner", (Frame("/x.cs", 3, "A.B.C"),)),
    ]
