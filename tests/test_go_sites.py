"""Go site extraction: the fixture sites' patterns against real runtime messages, and the
forms that are (or are not) sites.

The runtime messages below were printed by go1.19.8 running the fixture ``store.go``
(as ``package main``) and ``net/http/httptest`` for ``http.Error``; the suite itself
does not need Go.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.languages.base import Site, parse
from errdex.languages.go import LANGUAGE, SPEC, extract
from errdex.templates.template import compile_pattern

FIXTURES = Path(__file__).parent / "fixtures" / "go"

# (fixture, line) → (messages Go printed, near misses the pattern must reject)
RUNTIME: dict[tuple[str, int], tuple[list[str], list[str]]] = {
    ("store.go", 20): (["key not found"], ["key not found: x"]),
    ("store.go", 24): (["value exceeds 1048576 bytes"], ["value exceeds many bytes"]),
    ("store.go", 44): (["store: open /etc/hostname"], ["store: open"]),
    ("store.go", 46): (['store: read "/x": boom'], ['store: read "/x" boom']),
    ("store.go", 52): (["corrupt record at offset -12"], ["corrupt record at offset x"]),
    ("store.go", 61): (["open /nonexistent: stat /nonexistent: no such file or directory"],
                       ["opened /nonexistent"]),
    ("store.go", 76): (['get "k1": key not found'], ['get "k1"']),
    ("store.go", 84): (["put big: value is 1048577 bytes, limit is 1048576"],
                       ["put big: value is 1 MiB bytes, limit is 1048576"]),
    ("store.go", 88): (["key must not contain a slash: a/b"], ["key must not contain a slash"]),
    ("store.go", 96): (["bad header in h.bin: got 2 bytes"],
                       ["bad header in h.bin: got two bytes"]),
    ("store.go", 112): (["ratio: total is zero"], ["panic: ratio: total is zero"]),
    ("store.go", 115): (["ratio: used 3.00 exceeds total 2.00"],
                        ["ratio: used 3 exceeds total 2.00"]),
    ("store.go", 118): (["ratio: negative usage"], ["ratio: negative"]),
    ("store.go", 126): (["index -1 out of range [0:4]"], ["index -1 out of range [0:four]"]),
    ("store.go", 129): (["index too large: 70000"], ["index too large"]),
    ("store.go", 137): (["cannot open store /nonexistent: open /nonexistent: stat /nonexistent: "
                         "no such file or directory"], ["cannot open store"]),
    ("store.go", 140): (["store /tmp/x is closed"], ["store /tmp/x closed"]),
    ("store.go", 143): (["store has 120 entries"], ["store has 120 entries\n"]),
    ("store.go", 152): (["close /tmp/s: already closed"], ["close: already closed"]),
    ("store.go", 160): (["check failed: open /nonexistent: stat /nonexistent: no such file or "
                         "directory"], ["check failed:"]),
    ("server.go", 46): (['user "a\\"b" not found'], ['user "a\\"b" not found\n']),
    ("server.go", 50): (["Gone"], ["Not Found"]),
}


def _sites(name: str) -> list[Site]:
    return extract((FIXTURES / name).read_bytes()).sites


def _one(source: str) -> list[tuple[str, str, str]]:
    """(errorType, written, pattern) of each site in a snippet of Go."""
    sites = extract(("package p\n" + source).encode()).sites
    return [(s.error_type, s.template.written, s.template.pattern()) for s in sites]


def test_language_registration() -> None:
    assert (LANGUAGE.name, LANGUAGE.grammar, LANGUAGE.extensions) == ("go", "go", (".go",))


@pytest.mark.parametrize(("fixture", "line"), sorted(RUNTIME))
def test_patterns_match_runtime_messages(fixture: str, line: int) -> None:
    site = next(s for s in _sites(fixture) if s.line == line)
    pattern = compile_pattern(site.template.pattern())
    accepted, rejected = RUNTIME[(fixture, line)]
    for message in accepted:
        assert pattern.fullmatch(message), message
    for message in rejected:
        assert not pattern.fullmatch(message), message


def test_sprint_spaces_only_between_non_strings() -> None:
    # go1.19: log.Fatal("store ", 3, 4, " is closed") printed "store 3 4 is closed"
    [(kind, _, pattern)] = _one('func f() { log.Fatal("store ", 3, 4, " is closed") }')
    assert (kind, pattern) == ("log", "store 3 4 is closed")
    [(_, _, pattern)] = _one('func f() { log.Fatalln("has", n, "entries\\n") }')
    assert pattern == r"has (.+?) entries"


def test_sentinels_in_blocks_and_alone() -> None:
    sites = extract(b"""package p
var ErrA = errors.New("a failed")
var (
\tErrB, ErrC = errors.New("b failed"), fmt.Errorf("c failed: %d", 3)
)
func f() error { var errLocal = errors.New("local failed"); return errLocal }
""").sites
    assert [(s.error_class, s.symbol, s.template.pattern()) for s in sites] == [
        ("ErrA", "ErrA", "a failed"), ("ErrB", "ErrB", "b failed"),
        ("ErrC", "ErrC", "c failed: 3"), (None, "f", "local failed"),
    ]


def test_panic_forms() -> None:
    assert _one("""func f(err error, n int) {
\tpanic(err)
\tpanic(ErrA)
\tpanic(errors.New("boom"))
\tpanic(fmt.Sprintf("n=%d", n))
\tpanic(errors.Wrap(err, "wrapped"))
}""") == [
        ("panic", "boom", "boom"),
        ("panic", "n=%d", r"n=(-?\d+)"),
        ("panic", "wrapped", "wrapped: (.+?)"),
    ]


def test_not_sites() -> None:
    assert _one("""func f(t *testing.T, err error, op string) error {
\tt.Fatalf("test failure %v", err)
\thttp.Error(w, err.Error(), http.StatusInternalServerError)
\tfmt.Fprintln(os.Stderr, "printed, then the program goes on")
\treturn fmt.Errorf("%s: %w", op, err)
}""") == []


def test_constants_and_variables() -> None:
    assert _one("""const msgGone = "resource is gone"
const prefixFmt = "load %s"
func f(p string, retry bool) error {
\tif retry { return errors.New(msgGone) }
\tmsg := "first"
\tif p == "" { msg = "second" }
\treturn errors.Join(errors.New(msg), fmt.Errorf(prefixFmt, p))
}
func g(msgGone string) error { return errors.New(msgGone) }
""") == [
        ("error", "resource is gone", "resource is gone"),
        ("error", "load %s", "load (.+?)"),
    ]


def test_http_statuses_and_grpc_codes() -> None:
    sites = extract(b"""package p
func h(w http.ResponseWriter, n int) error {
\thttp.Error(w, "too many", http.StatusTooManyRequests)
\thttp.Error(w, "teapot", 418)
\thttp.Error(w, "unknown code", n)
\treturn status.Errorf(codes.FailedPrecondition, "not ready: %d pending", n)
}""").sites
    assert [(s.error_type, s.http_status, s.error_code, s.template.pattern()) for s in sites] == [
        ("http", 429, None, "too many"), ("http", 418, None, "teapot"),
        ("http", None, None, "unknown code"),
        ("error", None, "FailedPrecondition", r"not ready: (-?\d+) pending"),
    ]


def test_loggers_print_the_message_only() -> None:
    assert _one("""func f(err error) {
\tlogger.Error("db down", zap.Error(err))
\tslog.Error("db down", "err", err)
\tr.Log.Error(err, "reconcile failed", "name", n)
\tlog.Error().Err(err).Str("k", v).Msg("zerolog down")
\tklog.ErrorS(err, "klog down")
\tlogrus.Error("logrus down: ", err)
}""") == [
        ("log", "db down", "db down"), ("log", "db down", "db down"),
        ("log", "reconcile failed", "reconcile failed"), ("log", "zerolog down", "zerolog down"),
        ("log", "klog down", "klog down"), ("log", "logrus down: {err}", "logrus down: (.+?)"),
    ]


def test_symbols() -> None:
    sites = extract(b"""package p
func (s *Server) Serve() { panic("serve") }
func (s Server[T]) Get() { panic("get") }
func Open() { go func() { panic("in closure") }() }
var handler = func() { panic("in var") }
""").sites
    assert [s.symbol for s in sites] == ["Server.Serve", "Server.Get", "Open", "handler"]


def test_string_escapes() -> None:
    assert _one(r'''func f() {
panic("tab\there \x41\u00e9\101 \"q\"")
panic(`raw \n stays`)
}''') == [
        ("panic", 'tab\there Aé\x41 "q"', r'tab\there Aé\x41 "q"'.replace("\\x41", "A")),
        ("panic", "raw \\n stays", r"raw \\n stays"),
    ]


def test_fatal_logs_and_exits() -> None:
    sites = extract(b"""package p
func main() {
\tif err != nil {
\t\tlogger.Error("config failed", "err", err)
\t\tos.Exit(1)
\t}
\tlog.Fatalf("bad flag %q", f)
\tlog.Panicln("giving up on", f)
}""").sites
    assert [(s.error_type, s.severity, s.template.pattern()) for s in sites] == [
        ("log", "fatal", "config failed"), ("log", "fatal", "bad flag (.+?)"),
        ("panic", "error", "giving up on (.+?)"),
    ]


def test_parse_errors_are_reported_and_damaged_code_skipped() -> None:
    result = extract((FIXTURES / "broken.go").read_bytes())
    assert result.parse_errors
    assert [s.template.written for s in result.sites] == ["parsed fine", "after the damage"]


def test_go_tests_claim_the_messages_they_compare_with_an_error() -> None:
    """The spec's test reader: what a Go test says an error's text is (and what it is not:
    a comparison with anything but ``err.Error()``, or a ``Contains`` on another string)."""
    source = b'''package p
func TestOpen(t *testing.T) {
\tif err.Error() != "key not found" { t.Fatal(err) }
\tassert.EqualError(t, err, "store: open /x")
\trequire.ErrorContains(t, err, "corrupt record")
\tif !strings.Contains(err.Error(), "exceeds") { t.Fail() }
\tif name == "key not found" { t.Fail() }
\tif !strings.Contains(out, "usage") { t.Fail() }
}
'''
    tests = SPEC.evidence.tests
    assert tests is not None
    links = list(tests.read("store_test.go", parse("go", source).root_node))
    assert [(ln.line, ln.name, ln.framework, ln.mode, ln.expected) for ln in links] == [
        (3, "TestOpen", "go", "exact", "key not found"),
        (4, "TestOpen", "go", "exact", "store: open /x"),
        (5, "TestOpen", "go", "substring", "corrupt record"),
        (6, "TestOpen", "go", "substring", "exceeds"),
    ]
