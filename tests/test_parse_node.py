"""Node.js and browser JavaScript: stacks, preambles, Uncaught, [Error: msg], codes, rejections."""

from __future__ import annotations

from errdex.lookup.parse import Frame, main_event, parse_events

THROWN = """\
/app/src/parse.js:2
  throw new Error("bad value: " + raw);
  ^

Error: bad value: x
    at parse (/app/src/parse.js:2:9)
    at Object.<anonymous> (/app/src/main.js:4:1)
    at Module._compile (node:internal/modules/cjs/loader:1521:14)
    at node:internal/main/run_main_module:28:49

Node.js v20.11.0
"""


def test_uncaught_error_with_preamble_and_frames() -> None:
    events = parse_events(THROWN)
    assert len(events) == 1
    event = events[0]
    assert (event.error_class, event.message, event.kind, event.code) == (
        "Error",
        "bad value: x",
        "node",
        None,
    )
    assert event.frames == (
        Frame("/app/src/parse.js", 2, "parse"),
        Frame("/app/src/main.js", 4, "Object.<anonymous>"),
        Frame("node:internal/modules/cjs/loader", 1521, "Module._compile"),
        Frame("node:internal/main/run_main_module", 28, None),
    )
    assert event.line == 1
    assert event.text == THROWN.partition("\n\nNode.js")[0]


def test_stack_without_preamble_async_frames_and_file_urls() -> None:
    text = (
        "TypeError: Cannot read properties of undefined (reading 'id')\n"
        "    at getUser (/app/src/users.js:10:5)\n"
        "    at async Promise.all (index 0)\n"
        "    at async main (file:///app/src/main.mjs:3:9)\n"
    )
    event = main_event(text)
    assert (event.error_class, event.message) == (
        "TypeError",
        "Cannot read properties of undefined (reading 'id')",
    )
    assert event.frames == (
        Frame("/app/src/users.js", 10, "getUser"),
        Frame("/app/src/main.mjs", 3, "main"),
    )


def test_node_error_code_in_header_and_properties() -> None:
    text = """\
node:internal/fs/utils:331
    throw new ERR_INVALID_ARG_TYPE('options', ['string', 'Object'], options);
    ^

TypeError [ERR_INVALID_ARG_TYPE]: The "options" argument must be of type string. Received TYPE_N
    at getOptions (node:internal/fs/utils:331:11)
    at Object.<anonymous> (/app/e.js:1:15) {
  code: 'ERR_INVALID_ARG_TYPE'
}
""".replace("TYPE_N", "type number (1)")
    event = main_event(text)
    assert (event.error_class, event.code) == ("TypeError", "ERR_INVALID_ARG_TYPE")
    assert event.message == (
        'The "options" argument must be of type string. Received type number (1)'
    )
    assert event.frames[1] == Frame("/app/e.js", 1, "Object.<anonymous>")
    assert event.text.endswith("}")

    enoent = main_event(
        "Error: ENOENT: no such file or directory, open 'missing.txt'\n"
        "    at Object.openSync (node:fs:573:18)\n"
        "    at Object.<anonymous> (/app/d.js:1:15) {\n"
        "  errno: -2,\n  code: 'ENOENT',\n  syscall: 'open',\n  path: 'missing.txt'\n}\n"
    )
    assert (enoent.error_class, enoent.code) == ("Error", "ENOENT")
    assert enoent.segments == (
        "ENOENT: no such file or directory, open 'missing.txt'",
        "no such file or directory, open 'missing.txt'",
    )
    bare = main_event("Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'lodash'")
    assert (bare.error_class, bare.code, bare.message, bare.kind) == (
        "Error",
        "ERR_MODULE_NOT_FOUND",
        "Cannot find package 'lodash'",
        "node",
    )


REJECTION_EXPLANATION = (
    "This error originated either by throwing inside of an async function without a catch "
    "block, or by rejecting a promise which was not handled with .catch()."
)


def test_unhandled_rejections_old_and_new() -> None:
    old = """\
node:internal/process/promises:288
            triggerUncaughtException(err, true /* fromPromise */);
            ^

[UnhandledPromiseRejection: EXPLANATION The promise rejected with the reason "oops".] {
  code: 'ERR_UNHANDLED_REJECTION'
}

Node.js v18.17.0
""".replace("EXPLANATION", REJECTION_EXPLANATION)
    event = main_event(old)
    assert (event.error_class, event.message, event.code, event.frames) == (
        "UnhandledPromiseRejection",
        "oops",
        "ERR_UNHANDLED_REJECTION",
        (),
    )
    assert event.text == old.partition("\n\nNode.js")[0]

    rejected_error = main_event(
        "node:internal/process/promises:288\n"
        "            triggerUncaughtException(err, true /* fromPromise */);\n"
        "            ^\n\n"
        "Error: db down\n    at main (/app/index.js:3:9)\n"
    )
    assert (rejected_error.error_class, rejected_error.message) == ("Error", "db down")
    assert rejected_error.frames == (Frame("/app/index.js", 3, "main"),)


def test_uncaught_bracketed_and_thrown_strings() -> None:
    uncaught = main_event(
        "Uncaught TypeError: x.map is not a function\n    at render (app.js:12:7)"
    )
    assert (uncaught.error_class, uncaught.message, uncaught.kind) == (
        "TypeError",
        "x.map is not a function",
        "node",
    )
    assert uncaught.frames == (Frame("app.js", 12, "render"),)
    in_promise = main_event("Uncaught (in promise) Error: request failed")
    assert (in_promise.error_class, in_promise.message) == ("Error", "request failed")

    bracketed = main_event("[Error: connect ECONNREFUSED 127.0.0.1:5432]")
    assert (bracketed.error_class, bracketed.message, bracketed.kind) == (
        "Error",
        "connect ECONNREFUSED 127.0.0.1:5432",
        "node",
    )
    with_props = main_event("[Error: read ECONNRESET] {\n  errno: -104,\n  code: 'ECONNRESET'\n}")
    assert (with_props.message, with_props.code) == ("read ECONNRESET", "ECONNRESET")

    thrown = main_event(
        '\n/app/f.js:1\nthrow "oops";\n^\noops\n'
        "(Use `node --trace-uncaught ...` to show where the exception was thrown)\n"
    )
    assert (thrown.error_class, thrown.message, thrown.frames, thrown.line) == (
        None,
        "oops",
        (Frame("/app/f.js", 1),),
        2,
    )


def test_older_node_unhandled_rejection_warning_prefix() -> None:
    text = (
        "(node:4242) UnhandledPromiseRejectionWarning: Error: Request failed with status code 404\n"
        "    at createError (/app/node_modules/axios/lib/core/createError.js:16:15)\n"
        "    at settle (/app/node_modules/axios/lib/core/settle.js:17:12)\n"
        "(node:4242) UnhandledPromiseRejectionWarning: Unhandled promise rejection.\n"
    )
    event = main_event(text)
    assert (event.kind, event.error_class) == ("node", "Error")
    assert event.message == "Request failed with status code 404"
    assert event.frames[0].file.endswith("createError.js") and event.frames[0].line == 16


def test_an_error_behind_a_logger_prefix_is_read_with_its_frames() -> None:
    event = main_event(
        "[cache] Unhandled error event: Error: Connection is closed.\n"
        "    at close (/app/node_modules/cache/built/redis/handler.js:99:21)\n"
        "    at Socket.<anonymous> (/app/node_modules/cache/built/redis/handler.js:74:14)\n"
        "    at Socket.emit (node:events:513:28)\n"
    )
    assert (event.kind, event.error_class, event.message) == (
        "node", "Error", "Connection is closed.")
    assert event.frames[0] == Frame("/app/node_modules/cache/built/redis/handler.js", 99, "close")
    assert len(event.frames) == 3


def test_a_prefixed_error_named_apart_from_its_class_is_read_by_its_name() -> None:
    event = main_event(
        "- error unhandledRejection: Error [MaxRetriesError]: Reached the retry limit (5).\n"
        "    at Socket.eval (webpack-internal:///(rsc)/./node_modules/db/built/handler.js:176:37)\n"
    )
    assert (event.error_class, event.message) == ("MaxRetriesError", "Reached the retry limit (5).")
    assert event.frames == (
        Frame("webpack-internal:///(rsc)/./node_modules/db/built/handler.js", 176, "Socket.eval"),)


def test_prose_before_the_class_and_unindented_frames_are_read() -> None:
    glued = main_event(
        "Error while uploading the file UploadError: Unexpected field\n"
        "at wrappedFilter   (/srv/node_modules/up/index.js:40:19)\n"
        "at Array.forEach (<anonymous>)\n"
        "at next (/srv/node_modules/up/lib/run.js:7:3)\n"
    )
    assert (glued.error_class, glued.message) == ("UploadError", "Unexpected field")
    assert [(f.file, f.line) for f in glued.frames] == [
        ("/srv/node_modules/up/index.js", 40), ("/srv/node_modules/up/lib/run.js", 7)]
    inspected = main_event(  # util.inspect of an error object
        "{ ColumnError: Data type \"string\" is not supported.\n"
        "    at new ColumnError (/usr/lib/node_modules/orm/error/ColumnError.js:16:28)\n"
    )
    assert (inspected.error_class, inspected.message) == (
        "ColumnError", 'Data type "string" is not supported.')


def test_a_prefixed_error_line_without_frames_stays_a_message() -> None:
    event = main_event("Unhandled rejection TimeoutError: the pool is probably full")
    assert event.frames == ()
    assert "the pool is probably full" in event.message


def test_a_bundler_dev_url_frame_loses_its_query() -> None:
    """webpack's dev server names modules ``webpack:///./path/x.js?`` (or ``?hash``): the
    frame's file is the path, so it still points at the mined file."""
    event = main_event(
        "Error: timeout of 1000ms exceeded\n"
        "    at createError (webpack:///./node_modules/axios/lib/core/createError.js?:16:15)\n"
        "    at XMLHttpRequest.handleTimeout "
        "(webpack:///./node_modules/axios/lib/adapters/xhr.js?a1b2:95:14)\n"
        "    at http://localhost:8080/app.js?v=3:10:2\n")
    assert event is not None
    assert [(f.file.rsplit("/", 1)[-1], f.line) for f in event.frames] == [
        ("createError.js", 16), ("xhr.js", 95), ("app.js", 10)]
