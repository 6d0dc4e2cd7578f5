"""Shortcuts that make a mine cheaper give the answers of the slow way they replace."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from errdex.evidence.tests import expectations
from errdex.languages._engine.evidence import calls_named, walk
from errdex.languages.base import parse, text
from errdex.languages.logs import _GET_LOGGER, _logger_matches, logger_names
from errdex.mining import codes

JAVA_TEST = b"""
class StoreTest {
    // assertThrows in a comment is no call
    @Test void missing() {
        String s = "assertEquals(\\"x\\", e.getMessage())";
        assertThrows(NotFound.class, () -> store.get(assertThrowsHelper("k")));
        assertThat(assertThrows(Gone.class, () -> open())).hasMessage("gone: a");
        Exception e = assertThrows(Bad.class, () -> parse(""));
        assertEquals("bad input: empty", e.getMessage());
        this.assertEquals("x", y);
        assertThat(e).hasMessageContaining("bad input");
    }
}
"""
NAMES = ("assertThrows", "assertEquals", "hasMessage", "hasMessageContaining")


def _walked(source: bytes, names: tuple[str, ...], kind: str) -> list[tuple[int, int]]:
    """What a walk of every node finds: the slow way ``calls_named`` replaces."""
    root = parse("java", source).root_node
    return [(n.start_byte, n.end_byte) for n in walk(root)
            if n.type == kind and text(n.child_by_field_name("name")) in names]


def test_calls_named_finds_what_a_walk_finds_in_the_same_order() -> None:
    root = parse("java", JAVA_TEST).root_node
    found = [(n.start_byte, n.end_byte) for n in calls_named(root, NAMES, "method_invocation")]
    assert found == _walked(JAVA_TEST, NAMES, "method_invocation")
    names = [text(n.child_by_field_name("name"))
             for n in calls_named(root, NAMES, "method_invocation")]
    # an outer call before the call in its receiver; a name inside a longer one, a comment
    # or a string is none
    assert names == ["assertThrows", "hasMessage", "assertThrows", "assertThrows",
                     "assertEquals", "assertEquals", "hasMessageContaining"]


def test_calls_named_in_a_subtree_and_in_broken_source() -> None:
    broken = JAVA_TEST.replace(b"open())).", b"open()) ).(")
    assert [(n.start_byte, n.end_byte) for n in calls_named(
        parse("java", broken).root_node, NAMES, "method_invocation")] == _walked(
        broken, NAMES, "method_invocation")
    root = parse("java", JAVA_TEST).root_node
    method = next(n for n in walk(root) if n.type == "method_declaration")
    inside = calls_named(method, ("hasMessage",), "method_invocation")
    assert [text(n.child_by_field_name("name")) for n in inside] == ["hasMessage"]


def test_java_test_reader_claims() -> None:
    found = [e.link for e in expectations("StoreTest.java", "java", "java", JAVA_TEST)]
    assert [(t.mode, t.expected, t.error_class) for t in found] == [
        ("class", None, "NotFound"), ("exact", "gone: a", None), ("class", None, "Gone"),
        ("class", None, "Bad"), ("exact", "bad input: empty", None),
        ("substring", "bad input", None),
    ]
    assert {t.name for t in found} == {"missing"}


LOGGER_PIECES = [b"LOG", b"log", b" ", b"\n", b"=", b":", b".", b"<T>", b"getLogger(", b"getLog(",
                 b"Server.class", b")", b'"app.db"', b"__name__", b"LoggerFactory.", b";", b"(",
                 b"getLoggetLog", b"x", b"\xc3\xa9", b"'", b"final Logger"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LOGGER_PIECES), max_size=24))
def test_logger_matches_are_the_whole_file_scans(parts: list[bytes]) -> None:
    source = b"".join(parts)
    assert [(m.span(), m.groups()) for m in _logger_matches(source)] == [
        (m.span(), m.groups()) for m in _GET_LOGGER.finditer(source)]


def test_logger_names_of_a_file() -> None:
    source = (b"private static final Logger LOG = LoggerFactory.getLogger(Server.class);\n"
              b"log = Logger.getLogger(\"app.db\")\nLOG = logging.getLogger(__name__)\n"
              b"String s = getLogText(); other = get.getLog( 'x' )")
    assert logger_names(source) == {"LOG": "Server", "log": "app.db", "other": "x"}


RUST_BODY = b"""
fn check(n: i32) -> Result<(), Error> {
    let f = |x: i32| { if x > 1 { return Err(Error::Closure(x)); } panic!("in closure {}", x) };
    fn inner() -> i32 { return 3; }
    if n < 0 { return Err(Error::Negative(n)); }
    let g = move || { let h = || { return 1; }; return h(); };
    if n > 9 { panic!("too big: {}", n); }
    return Ok(());
}
"""


def test_rust_own_returns_leave_out_closures_and_inner_functions() -> None:
    from errdex.languages.rust.compose import _owned

    root = parse("rust", RUST_BODY).root_node
    body = next(n for n in walk(root) if n.type == "function_item").child_by_field_name("body")
    assert body is not None
    returns, panics = _owned(body, RUST_BODY)
    assert [text(n) for n in returns] == ["return Err(Error::Negative(n))", "return Ok(())"]
    assert [text(n) for n in panics] == ['panic!("too big: {}", n)']


def _codes_tried_in_full(statement: str) -> str | None:
    """``code_in_statement`` past its keyed codes with every pattern tried (no shortcut)."""
    bare = codes._STRING.sub('""', statement)
    for match in codes._GRPC.finditer(bare):
        if match.group(1) in codes.GRPC_CODES or match.group(1) in codes._GRPC_UPPER:
            return match.group(1)
    for match in codes._SQLSTATE.finditer(statement):
        return match.group(1) or match.group(2)
    for match in codes._ERRNO.finditer(bare):
        if match.group(1) in codes.ERRNO_NAMES:
            return match.group(1)
    held = {m.group(2) for m in codes._HOLDER.finditer(bare)
            if not m.group(1).startswith("Http")}
    if len(held) > 1:
        return None
    if held:
        return held.pop()
    variant = codes._VARIANT.search(bare)
    if variant:
        return variant.group(1)
    rustc = codes._RUSTC.search(bare)
    return rustc.group(1) if rustc else None


CODE_PIECES = ["codes.", "NotFound", "Status.", "Code.", "NOT_FOUND", "StatusCode::", "::",
               "Error", "ErrorKind", "InvalidToken", "E0308", "ERR_BAD", "ErrorCode.", "Http",
               "errno.", "ENOENT", "EACCES", "sqlstate=", "'23505'", "errcode(", "ERRCODE_X_Y",
               ")", " ", "\"", "x", "_", "ERRAB", "Errors::", "raise ", "(", "."]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(CODE_PIECES), max_size=14))
def test_code_shortcuts_give_the_full_answers(parts: list[str]) -> None:
    statement = "".join(parts)
    if codes._keyed(statement) or codes._keyed("", assigned_only=True):
        return
    assert codes.code_in_statement(statement) == _codes_tried_in_full(statement)
