"""Ruby, PHP and Swift sites: fixture patterns checked against what the runtimes print.

The golden tables of ``fixtures/{ruby,php,swift}`` are pinned by ``test_golden.py``.
Here, the messages Ruby 3.1 and PHP 8.2 printed when the fixture code ran (driven
from small scripts outside the suite) must fullmatch the site's pattern, and a
near miss must not. Swift has no toolchain on this machine: its examples follow
the documented rules (``\\(x)`` prints ``x``; multi-line literals lose the closing
delimiter's indentation) and the inline tests pin the parser workarounds.
The suite itself needs none of the toolchains.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from errdex.languages import LANGUAGES, language_for_path
from errdex.languages.base import Site
from errdex.languages.php.spec import extract as php_extract
from errdex.languages.ruby.spec import extract as ruby_extract
from errdex.languages.swift.spec import extract as swift_extract
from errdex.lookup.parse import parse_events
from errdex.templates.template import compile_pattern

FIXTURES = Path(__file__).parent / "fixtures"

# fixture → line → (messages the runtime printed, near misses)
RUNTIME: dict[str, dict[int, tuple[list[str], list[str]]]] = {
    "ruby/store.rb": {
        13: (["path must not be empty"], ["path must not be empty!"]),
        14: (["no store at /nonexistent/store.db"], ["no store at "]),
        25: (['unknown key "zz" in /var/shelf.db'], ["unknown key zz"]),
        # single quotes: no interpolation, the text is printed as written
        31: (["keys must be strings, not #{key.class}"], ["keys must be strings, not Integer"]),
        32: (["key too long: 300 bytes (max 255)"], ["key too long: many bytes (max 255)"]),
        # the message ends in "\n"; a printed line does not
        33: (["key contains a tab\tor newline"], ["key contains a tab or newline"]),
        39: (["cannot resize to -3 bytes"], ["cannot resize to -3"]),
        41: (["ratio 0.70 is above 50", "ratio Inf is above 2"], ["ratio 0.7 is above 50"]),
        42: (["size must be at most 50"], ["size must be at most fifty"]),
        # Logger lines are `E, [time #pid] ERROR -- : <message>`; the pattern is the message
        46: (["flush failed for /var/shelf.db: Input/output error"], ["flush failed"]),
        47: (["flush of /var/shelf.db took too long"], ["flush took too long"]),
        48: (["store /var/shelf.db is corrupt"], ["store  is corrupt"]),
        53: (["Store#get is deprecated, use Store#fetch (key a)"], ["Store#get is deprecated"]),
        54: (["drive.rb:31: warning: Store#put is deprecated"], ["Store#put is deprecated"]),
        75: (["usage: shelf PATH"], ["usage: shelf"]),
        76: (["shelf: cannot read /etc/x"], ["shelf: cannot read"]),
    },
    "php/Store.php": {
        20: (["path must not be empty"], ["path must be empty"]),
        23: (["no store at /nonexistent/store.db (cwd /srv)"], ["no store at /x"]),
        30: (['unknown key "zz" in /var/shelf.db'], ["unknown key zz in /var/shelf.db"]),
        38: (["key too long: 300 bytes (max 255)"], ["key too long: 300 bytes"]),
        41: (["key contains a tab\tor newline"], ["key contains a tab"]),
        45: (["key admin is reserved"], ["key  is reserved"]),
        51: (["size -7 is negative (ratio -0.07, -7 again)"],
             ["size -7 is negative (ratio -0.070, -7 again)"]),
        53: (["cannot resize /var/shelf.db\n  to 7 bytes"],
             ["            cannot resize /var/shelf.db\n  to 7 bytes"]),
        61: (["flush failed for /var/shelf.db: EIO"], ["flush failed for /var/shelf.db"]),
        # a PSR-3 logger that replaces placeholders, and one that does not
        62: (["flush of /var/shelf.db took 12 ms", "flush of {path} took {ms} ms"],
             ["flush of /var/shelf.db took 12"]),
        63: (["store is corrupt"], ["store is not corrupt"]),
        70: (["Store::legacyGet() is deprecated, use fetch() (key a)"],
             ["Store::legacyGet() is deprecated"]),
        71: (["Store::put() is gone"], ["Store::put() is gone."]),
        72: (["store lock lost"], ["store lock"]),
        93: (["transfer error 6: Could not resolve host (see the manual) for https://example.test/a"],
             ["transfer error six: Could not resolve host (see the manual) for https://x"]),
        99: (["usage: shelf PATH"], ["usage: shelf PATH\n"]),
    },
    "swift/Store.swift": {
        12: (["no value stored for user.42"], ["no value stored"]),
        34: (["store is locked by process 4242"], ["store is locked by process"]),
        70: (["size 3 is negative (ratio 0.03, /var/shelf.db)"],
             ["size 3 is negative (ratio 0.030, /var/shelf.db)"]),
        72: (["cannot resize /var/shelf.db\n  to 9 bytes"],
             ["    cannot resize /var/shelf.db\n      to 9 bytes"]),
        89: (['legacyGet("a") is deprecated'], ['legacyGet(\\#("a")) is deprecated']),
    },
}


def _sites(relative: str) -> dict[int, Site]:
    path = FIXTURES / relative
    language = language_for_path(path.name)
    assert language is not None
    return {site.line: site for site in language.extract(path.read_bytes()).sites}


CASES = [
    (fixture, line, messages, misses)
    for fixture, lines in RUNTIME.items()
    for line, (messages, misses) in lines.items()
]


@pytest.mark.parametrize(
    ("fixture", "line", "messages", "misses"), CASES, ids=[f"{c[0]}:{c[1]}" for c in CASES]
)
def test_runtime_messages_fullmatch(fixture, line, messages, misses):
    site = _sites(fixture)[line]
    pattern = compile_pattern(site.template.pattern())
    for message in messages:
        assert pattern.fullmatch(message), (site.template.pattern(), message)
    for message in misses:
        assert not pattern.fullmatch(message), (site.template.pattern(), message)


def test_languages_are_registered_by_extension():
    assert {"ruby", "php", "swift"} <= set(LANGUAGES)
    for name, lang in [("Rakefile.rake", "ruby"), ("x.gemspec", "ruby"), ("a.rb", "ruby"),
                       ("index.php", "php"), ("App.swift", "swift")]:
        found = language_for_path(name)
        assert found is not None and found.name == lang


# --- Ruby ------------------------------------------------------------------------------


def test_ruby_messageless_and_unknown_raises_are_no_sites():
    source = b"""
def run(e)
  raise Shelf::NotFound
  raise error_for(e)
  raise Shelf::NotFound, e.message
  raise
  fail(404, "not found")
  logger.info("fine")
  Shelf::NotFound.new("not an Error/Exception name")
end
"""
    # logger.info is an info log statement (scan only), nothing else is a site
    assert [(s.line, s.level) for s in ruby_extract(source).sites] == [(8, "info")]


def test_ruby_classes_symbols_and_format_forms():
    source = b"""
module Outer
  module Inner
    class Store
      def self.open(path)
        raise Outer::Missing.new("no #{path}")
      end

      def put(key)
        raise klass, "bad %s" % key
      end
    end
  end
end
"""
    first, second = ruby_extract(source).sites
    assert (first.error_class, first.symbol, first.line) == (
        "Outer::Missing", "Outer::Inner::Store.open", 6,
    )
    assert (second.error_class, second.template.pattern()) == (None, "bad (.+?)")


def test_ruby_logger_warn_is_a_warning_log_and_kernel_warn_stays_a_warning():
    source = b"""
def stop(cli, busy)
  cli.logger.warn "Thread TID-#{busy.id} #{busy.name}"
  logger.warn { "Terminating #{busy.size} busy threads" }
  warn "deprecated"
  catalog.warn "not a logger"
end
"""
    first, second, third = ruby_extract(source).sites
    assert (first.error_type, first.severity, first.template.pattern()) == (
        "log", "warning", "Thread TID-(.+?) (.+?)",
    )
    assert (second.error_type, second.severity, second.line) == ("log", "warning", 4)
    assert re.fullmatch(second.template.pattern(), "Terminating 2 busy threads")
    assert (third.error_type, third.severity) == ("warning", "warning")


HEREDOCS = b"""
def put(key)
  raise ArgumentError, <<~MSG
    cannot store #{key}
      (indented by two)
  MSG
end

def raw(key)
  fail ArgumentError, <<-'RAW'
    no #{key} here
  RAW
end
"""


def test_ruby_heredoc_messages_are_read_as_ruby_prints_them():
    first, second = ruby_extract(HEREDOCS).sites
    printed = {"put": "cannot store k1\n  (indented by two)\n", "raw": "    no #{key} here\n"}
    if shutil.which("ruby"):  # what the interpreter really prints for these raises
        for method in printed:
            done = subprocess.run(
                ["ruby", "-e", HEREDOCS.decode() + f"begin; {method}('k1'); rescue => e; "
                 "print e.message; end"], capture_output=True, text=True, check=True)
            assert done.stdout == printed[method]
    assert (first.line, second.line) == (3, 10)
    # a printed line loses its final newline; the message's other lines are kept
    assert re.fullmatch(first.template.pattern(), printed["put"].removesuffix("\n"))
    assert re.fullmatch(second.template.pattern(), printed["raw"].removesuffix("\n"))
    assert not re.fullmatch(first.template.pattern(), "cannot store k1\n(indented by two)")


CONSTANT_FORMATS = b"""
module Shelf
  MISSING = "no such shelf: %s".freeze

  class Store
    LIMIT = 'limit of %d reached'

    def self.full(n)
      raise ArgumentError, format(LIMIT, n)
    end

    def self.over(n)
      raise ArgumentError, LIMIT % n
    end

    def self.gone(key)
      raise ArgumentError, Shelf::MISSING % key
    end
  end
end
"""


def test_ruby_a_format_held_by_a_string_constant_of_the_file_is_read():
    sites = ruby_extract(CONSTANT_FORMATS).sites
    printed = {"full": "limit of 3 reached", "over": "limit of 3 reached",
               "gone": "no such shelf: 3"}
    if shutil.which("ruby"):
        for method, message in printed.items():
            done = subprocess.run(
                ["ruby", "-e", CONSTANT_FORMATS.decode() + f"begin; Shelf::Store.{method}(3); "
                 "rescue => e; print e.message; end"], capture_output=True, text=True, check=True)
            assert done.stdout == message
    assert [s.line for s in sites] == [9, 13, 17]
    for site, message in zip(sites, printed.values(), strict=True):
        assert re.fullmatch(site.template.pattern(), message)


def test_ruby_sites_under_error_nodes_are_skipped():
    result = ruby_extract(b'def broken(\n  raise ArgumentError, "x"\n  )( end end\n')
    assert result.parse_errors


# --- PHP -------------------------------------------------------------------------------


def test_php_non_sites():
    source = b"""<?php
function f($class, $e) {
    throw new $class('dynamic');
    throw new StoreException($e->getMessage());
    throw $e;
    exit(2);
    $this->catalog->error('not a logger');
    return new JsonResponse('not an exception');
}
"""
    assert php_extract(source).sites == []


FRAMEWORK_PASTES = [
    # a log line of Laravel's: the class, the message, "in file … on line …"
    ("App\\Errors\\MissingBinding: Target class [cors] does not exist. in file "
     "/app/src/Box.php on line 81", "Target class [cors] does not exist.",
     ("/app/src/Box.php", 81)),
    # the class alone on its line, the message below (an error page copied as text)
    ("App\\Errors\\BindingException\nTarget class [Mail] does not exist.",
     "Target class [Mail] does not exist.", None),
    # Markdown emphasis and the request, as an error page's header reads once pasted
    ("**App\\Routing\\RouteMissingException** in **GET /**\nRoute [login] not defined.",
     "Route [login] not defined.", None),
    # the console's report: an indented header, the message, where, a code frame
    ("   App\\Errors\\BindingException \n\n  Target class [Mail] does not exist.\n\n"
     "  at src/Box.php:19\n     18\u2595     } catch (E $e) {\n  \u279c  19\u2595         "
     "throw new MissingBinding(\"x\");\n     20\u2595     }\n",
     "Target class [Mail] does not exist.", ("src/Box.php", 19)),
]


@pytest.mark.parametrize(("paste", "message", "where"), FRAMEWORK_PASTES)
def test_php_framework_pastes_give_the_class_and_message(
    paste: str, message: str, where: tuple[str, int] | None,
) -> None:
    (event,) = parse_events(paste)
    assert (event.message, event.kind) == (message, "php")
    assert event.error_class is not None and event.error_class.startswith("App\\")
    assert [(f.file, f.line) for f in event.frames[:1]] == ([where] if where else [])


def test_php5_uncaught_exception_with_message_in_quotes() -> None:
    paste = ("PHP Fatal error:  Uncaught exception 'App\\Errors\\Missing' with message "
             "'no user 'bob' in db' in /app/src/Users.php:12\nStack trace:\n"
             "#0 /app/index.php(3): find()\n#1 {main}\n  thrown in /app/src/Users.php on line 12\n")
    (event,) = parse_events(paste)
    assert (event.message, event.error_class) == ("no user 'bob' in db", "App\\Errors\\Missing")
    assert [(f.file, f.line) for f in event.frames] == [
        ("/app/src/Users.php", 12), ("/app/index.php", 3)]
    # a paste that lost its line ends: the stack on the message's line
    (flat,) = parse_events("Fatal error: Uncaught exception 'RuntimeException' with message "
                           "'disk full' in /app/a.php:9 Stack trace: #0 /app/b.php(2): w()")
    assert (flat.message, flat.frames[0].line) == ("disk full", 9)


def test_php_an_error_page_header_above_a_frame_is_no_message() -> None:
    (event,) = parse_events("**`App\\Errors\\BindingException`**\n\nApp\\Box::build\n")
    assert event.kind == "message"


def test_php_codes_and_http_statuses():
    source = b"""<?php
class C {
    public function m() {
        throw new StoreException('locked', self::LOCKED);
        throw new StoreException('plain', 0);
        abort_if($x, 422, 'invalid shelf');
        throw new \\Symfony\\Component\\HttpKernel\\Exception\\GoneHttpException('gone');
    }
}
"""
    locked, plain, invalid, gone = php_extract(source).sites
    assert (locked.error_code, locked.symbol) == ("self::LOCKED", "C.m")
    assert plain.error_code is None
    assert (invalid.error_type, invalid.http_status) == ("http", 422)
    assert (gone.error_class, gone.http_status) == (
        "Symfony\\Component\\HttpKernel\\Exception\\GoneHttpException", 410,
    )


# --- Swift -----------------------------------------------------------------------------


def test_swift_non_sites():
    source = b"""
func f() throws {
    fatalError()
    assertionFailure()
    throw StoreError.notFound(key: "k")
    throw makeError("x")
    logger.info("fine")
}
"""
    # logger.info is an info log statement (scan only), nothing else is a site
    assert [(s.line, s.level) for s in swift_extract(source).sites] == [(7, "info")]


def test_swift_multiline_literal_loses_closing_indentation_and_continuations():
    source = b'''
func f() {
        fatalError("""
            first \\
            line
              second \\(x)
            """)
}
'''
    (site,) = swift_extract(source).sites
    assert site.template.pattern() == r"first line\n  second (.+?)"
    assert site.symbol == "f"


def test_swift_errordescription_cases_and_nested_symbols():
    source = b"""
struct Outer {
    enum Failure: LocalizedError {
        case a, b(Int)
        var errorDescription: String? {
            switch self {
            case .a: return "failure a"
            case .b(let n): return "failure b \\(n)"
            }
        }
    }
}
"""
    sites = swift_extract(source).sites
    assert [(s.error_class, s.symbol) for s in sites] == [
        ("Outer.Failure.a", "Outer.Failure.errorDescription"),
        ("Outer.Failure.b", "Outer.Failure.errorDescription"),
    ]
    assert sites[1].template.pattern() == "failure b (.+?)"


def test_http_status_outside_the_response_range_is_not_kept():
    """``abort(999, …)`` is written in real code; a record keeps only a status a response
    can carry, so what errdex mines always passes its own import check."""
    source = (
        b"<?php\nfunction f() {\n    abort(999, 'no such status');\n    abort(404, 'gone');\n}\n"
    )
    sites = php_extract(source).sites
    assert [(s.line, s.http_status) for s in sites] == [(3, None), (4, 404)]


def test_escapes_each_language_spells() -> None:
    """PHP's octal escape keeps one byte (``\\777`` prints 0xFF), Ruby's ``\\u{41 42}`` is
    two characters and ``\\s`` a space, Swift's ``\\0`` a NUL; a code point too large to be
    one is kept as written instead of failing the file."""
    php = php_extract(rb"""<?php
throw new RuntimeException("bad \101\777 \x41\u{e9} \u{FFFFFFFFFFFFFFFFFFFFF} x");
""")
    assert [s.template.written for s in php.sites] == [
        "bad A\xff A\xe9 \\u{FFFFFFFFFFFFFFFFFFFFF} x"
    ]
    ruby = ruby_extract(rb"""raise ArgumentError, "bad \u{41 42}\s\101\x41\u00e9 \q x"
""")
    assert [s.template.written for s in ruby.sites] == ["bad AB AA\xe9 q x"]
    swift = swift_extract(rb"""func f() { fatalError("bad \u{e9}\t\0 x") }
""")
    assert [s.template.written for s in swift.sites] == ["bad \xe9\t\0 x"]
