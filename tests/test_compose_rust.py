"""Rust messages composed across error types, their ``Display`` and the functions that build
them: golden records, each pattern checked against what the compiled fixture prints
(thiserror's and derive_more's derives are not compiled here: their forms are checked
against the text they print, the attribute's format with the fields given)."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import errdex
from tests.conftest import GitRepo

ERRORS = '''\
use std::fmt;
use std::fmt::Display;

#[derive(Debug)]
pub enum StoreError {
    NotFound { key: String },
    Locked(String, u32),
    Other(String),
}

pub const MSG_CLOSED: &str = "the store is closed";

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::NotFound { key } => write!(f, "no such item: {}", key),
            Self::Locked(path, pid) => write!(f, "{} is locked by process {}", path, pid),
            Self::Other(msg) => write!(f, "store: {}", msg),
        }
    }
}

#[derive(Debug)]
pub enum ParseError {
    Token(String),
    Eof,
    Retry(u32),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ParseError::Token(t) => write!(f, "[parse_error.101] unexpected token {}", t),
            Self::Eof => f.write_str("unexpected end of input"),
            ParseError::Retry(n) if *n > 0 => write!(f, "gave up after {n} retries"),
            ParseError::Retry(_) => write!(f, "gave up"),
        }
    }
}

impl ParseError {
    pub fn token(t: &str) -> Self {
        Self::Token(t.to_string())
    }
}

#[derive(Debug)]
pub struct Timeout {
    pub ms: u64,
}

impl fmt::Display for Timeout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "timed out after {}ms", self.ms)
    }
}

#[derive(Debug)]
pub struct ConfigError {
    msg: String,
}

impl ConfigError {
    pub fn new(msg: &str) -> ConfigError {
        ConfigError { msg: msg.to_string() }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "config: {}", self.msg)
    }
}

pub fn not_found(op: &str, key: &str) -> StoreError {
    StoreError::NotFound { key: format!("{} in {}", key, op) }
}

#[derive(Debug)]
pub enum PoolKind {
    Closed,
    Busy,
    Io(std::io::Error),
}

#[derive(Debug)]
pub struct PoolError {
    kind: PoolKind,
}

const POOL_CLOSED: &str = "the pool is closed";

impl PoolError {
    pub fn new(kind: PoolKind) -> PoolError {
        PoolError { kind }
    }
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            PoolKind::Closed => POOL_CLOSED.fmt(f),
            PoolKind::Busy => write!(f, "the pool is busy"),
            PoolKind::Io(e) => e.fmt(f),
        }
    }
}

pub fn fail(msg: &str) -> ! {
    panic!("config: {}", msg)
}

pub fn ping(x: &str) -> StoreError {
    pong(x)
}

pub fn pong(x: &str) -> StoreError {
    ping(x)
}
'''

STORE = '''\
use crate::errors::{
    fail, not_found, ping, ConfigError, ParseError, PoolError, PoolKind, StoreError, Timeout,
    MSG_CLOSED,
};

pub fn missing(key: &str) -> Result<(), StoreError> {
    Err(StoreError::NotFound { key: key.to_string() })
}

pub fn locked(path: &str) -> Result<(), StoreError> {
    Err(StoreError::Locked(path.to_string(), 42))
}

pub fn token(tok: &str) -> Result<(), ParseError> {
    Err(ParseError::Token(tok.to_string()))
}

pub fn token_factory() -> Result<(), ParseError> {
    Err(ParseError::token(";"))
}

pub fn eof(input: Option<u8>) -> Result<u8, ParseError> {
    input.ok_or(ParseError::Eof)
}

pub fn slow() -> Result<(), Timeout> {
    Err(Timeout { ms: 500 })
}

pub fn unconfigured() -> Result<(), ConfigError> {
    Err(ConfigError::new("no store configured"))
}

pub fn lookup(key: &str) -> Result<(), StoreError> {
    Err(not_found("get", key))
}

pub fn retry(n: u32) -> Result<(), ParseError> {
    Err(ParseError::Retry(n))
}

pub fn bad_key(k: &str) -> Result<(), ParseError> {
    let m = if k.is_empty() { "empty key".to_string() } else { format!("bad key {}", k) };
    Err(ParseError::Token(m))
}

pub fn again(key: &str) -> Result<(), StoreError> {
    Err(StoreError::NotFound { key: key.to_string() })
}

pub fn once_more(key: &str) -> Result<(), StoreError> {
    Err(StoreError::NotFound { key: key.to_string() })
}

pub fn unknown(x: &str) -> Result<(), String> {
    Err(make_it(x))
}

fn make_it(x: &str) -> String {
    x.to_string()
}

pub fn cycle() -> Result<(), StoreError> {
    Err(ping("x"))
}

pub fn abort() {
    fail("no store configured");
}

pub fn log_it() {
    println_twice("not a helper of ours");
}

fn println_twice(s: &str) {
    println!("{}", s);
    println!("{}", s);
}

pub fn pool_closed() -> Result<(), PoolError> {
    Err(PoolError::new(PoolKind::Closed))
}

pub fn pool_busy() -> Result<(), PoolError> {
    Err(PoolError::new(PoolKind::Busy))
}

pub fn closed() -> Result<(), StoreError> {
    Err(StoreError::Other(MSG_CLOSED.to_string()))
}
'''

TAGGED = '''\
use thiserror::Error;

#[derive(Debug, Error)]
pub enum TagError {
    #[error("bad header {0:?} at line {1}")]
    Header(String, u32),
    #[error("invalid tag `{name}`")]
    Invalid { name: String },
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

#[derive(Debug, Error)]
#[error("took {ms}ms, limit {limit}ms")]
pub struct Slow {
    pub ms: u64,
    pub limit: u64,
}

pub fn header(h: &str) -> Result<(), TagError> {
    Err(TagError::Header(h.to_string(), 3))
}

pub fn invalid() -> Result<(), TagError> {
    Err(TagError::Invalid { name: "x-y".into() })
}

pub fn too_slow(ms: u64) -> Result<(), Slow> {
    Err(Slow { ms, limit: 100 })
}

#[derive(Debug, derive_more::Display)]
pub enum Shape {
    #[display("unknown shape {name}")]
    Unknown { name: String },
    #[display(fmt = "bad side count {}", _0)]
    Sides(u32),
}

pub fn unknown_shape() -> Result<(), Shape> {
    Err(Shape::Unknown { name: "hexagon".into() })
}

pub fn sides() -> Result<(), Shape> {
    Err(Shape::Sides(7))
}
'''

# (function, a Rust call printing its error, errorMessage, errorClass, where the producers
# that write some of its text are, in src/errors.rs, by the line's start: a factory that
# passes its parameters on as they are, ``ParseError::token``, writes none of it)
EXPECTED = [
    ("missing", 'missing("k1")', "no such item: {}", "StoreError::NotFound",
     ["StoreError::NotFound { key } =>"]),
    ("locked", 'locked("/var/db")', "{} is locked by process 42", "StoreError::Locked",
     ["Self::Locked(path, pid) =>"]),
    ("token", 'token("@")', "[parse_error.101] unexpected token {}", "ParseError::Token",
     ["ParseError::Token(t) =>"]),
    ("token_factory", "token_factory()", "[parse_error.101] unexpected token ;",
     "ParseError::Token", ["ParseError::Token(t) =>"]),
    ("eof", "eof(None)", "unexpected end of input", "ParseError::Eof", ["Self::Eof =>"]),
    ("slow", "slow()", "timed out after 500ms", "Timeout", ['write!(f, "timed out after']),
    ("unconfigured", "unconfigured()", "config: no store configured", "ConfigError",
     ['write!(f, "config: {}"']),
    ("lookup", 'lookup("k9")', "no such item: {} in get", "StoreError::NotFound",
     ["StoreError::NotFound { key } =>", "pub fn not_found("]),
    ("pool_closed", "pool_closed()", "the pool is closed", "PoolError",
     []),
    ("pool_busy", "pool_busy()", "the pool is busy", "PoolError", ["PoolKind::Busy =>"]),
    ("closed", "closed()", "store: the store is closed", "StoreError::Other",
     ["Self::Other(msg) =>"]),
]


def _line(source: str, start: str) -> int:
    return next(i for i, line in enumerate(source.splitlines(), 1)
                if line.strip().startswith(start))


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    root = tmp_path_factory.mktemp("compose_rust")
    repo = GitRepo(root / "repo", "https://github.com/acme/composed-rs.git")
    repo.commit_files({
        "Cargo.toml": '[package]\nname = "composed"\nversion = "0.1.0"\nedition = "2021"\n',
        "src/errors.rs": ERRORS, "src/store.rs": STORE, "src/tagged.rs": TAGGED,
        "src/lib.rs": "pub mod errors;\npub mod store;\npub mod tagged;\n",
    })
    db = root / "errdex.sqlite"
    errdex.mine(repo.root, db=db, jobs=1)
    with errdex.open_store(db) as store:
        return repo.root, list(store.records(repo="acme/composed-rs"))


def _at(records: list[errdex.StoredRecord], function: str, path: str = "src/store.rs",
        source: str = STORE) -> list[errdex.StoredRecord]:
    line = _line(source, f"pub fn {function}(")
    end = next((i for i, text in enumerate(source.splitlines(), 1) if i > line and text == "}"))
    return [r for r in records if r.record.file_path == path
            and line < r.record.line_number < end]


@pytest.fixture(scope="module")
def printed(mined: tuple[Path, list[errdex.StoredRecord]],
            tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """What the compiled fixture prints (``{}``) for each call of ``EXPECTED`` and more."""
    if shutil.which("rustc") is None:
        pytest.skip("rustc is not installed")
    root, _ = mined
    calls = [c[1] for c in EXPECTED] + ["retry(3)", "retry(0)", 'bad_key("")', 'bad_key("q")']
    build = tmp_path_factory.mktemp("rust_build")
    main = build / "main.rs"
    main.write_text(
        "#![allow(dead_code, unused)]\n"
        f'#[path = "{root}/src/errors.rs"] mod errors;\n'
        f'#[path = "{root}/src/store.rs"] mod store;\n'
        "fn main() {\n"
        + "".join(f'    println!("{{}}", store::{c}.unwrap_err());\n' for c in calls)
        + "    std::panic::set_hook(Box::new(|_| {}));\n"
        + "    let payload = std::panic::catch_unwind(store::abort).unwrap_err();\n"
        + '    println!("{}", payload.downcast_ref::<String>().unwrap());\n'
        + "}\n")
    binary = build / "main"
    subprocess.run(["rustc", "--edition", "2021", "-o", str(binary), str(main)], check=True,
                   capture_output=True)
    out = subprocess.run([str(binary)], check=True, capture_output=True, text=True).stdout
    return dict(zip([*calls, "abort()"], out.splitlines(), strict=True))


@pytest.mark.parametrize("case", EXPECTED, ids=[c[0] for c in EXPECTED])
def test_every_composition_form_gives_the_error_site_the_printed_message(
    mined: tuple[Path, list[errdex.StoredRecord]], printed: dict[str, str],
    case: tuple[str, str, str, str, list[str]],
) -> None:
    _, records = mined
    function, call, message, error_class, sources = case
    [found] = _at(records, function)
    assert found.record.error_message == message
    assert found.record.error_class == error_class
    assert [(s.file_path, s.line_number) for s in found.extras.template_sources] == [
        ("src/errors.rs", _line(ERRORS, start)) for start in sources]
    assert re.fullmatch(found.record.message_pattern, printed[call], re.DOTALL), printed[call]


def test_two_arms_of_one_variant_give_one_record_each(
    mined: tuple[Path, list[errdex.StoredRecord]], printed: dict[str, str],
) -> None:
    _, records = mined
    found = _at(records, "retry")
    assert sorted(r.record.error_message for r in found) == [
        "gave up", "gave up after {n} retries"]
    for call in ("retry(3)", "retry(0)"):
        assert [r for r in found if re.fullmatch(r.record.message_pattern, printed[call])]


def test_an_argument_assigned_by_an_if_gives_each_branch(
    mined: tuple[Path, list[errdex.StoredRecord]], printed: dict[str, str],
) -> None:
    _, records = mined
    found = _at(records, "bad_key")
    assert sorted(r.record.error_message for r in found) == [
        "[parse_error.101] unexpected token bad key {}",
        "[parse_error.101] unexpected token empty key"]
    for call in ('bad_key("")', 'bad_key("q")'):
        assert [r for r in found if re.fullmatch(r.record.message_pattern, printed[call])]


@pytest.mark.parametrize(("function", "message", "error_class", "start", "sample"), [
    ("header", "bad header {h:?} at line 3", "TagError::Header", "Header(String, u32)",
     'bad header "v1" at line 3'),
    ("invalid", "invalid tag `x-y`", "TagError::Invalid", "Invalid { name: String }",
     "invalid tag `x-y`"),
    ("too_slow", "took {ms}ms, limit 100ms", "Slow", "pub struct Slow", "took 250ms, limit 100ms"),
    ("unknown_shape", "unknown shape hexagon", "Shape::Unknown", "Unknown { name: String }",
     "unknown shape hexagon"),
    ("sides", "bad side count 7", "Shape::Sides", "Sides(u32)", "bad side count 7"),
])
def test_derived_display_variants_and_structs_print_their_attribute_with_the_fields_given(
    mined: tuple[Path, list[errdex.StoredRecord]],
    function: str, message: str, error_class: str, start: str, sample: str,
) -> None:
    _, records = mined
    [found] = _at(records, function, "src/tagged.rs", TAGGED)
    assert found.record.error_message == message
    assert found.record.error_class == error_class
    assert [(s.file_path, s.line_number, s.role) for s in found.extras.template_sources] == [
        ("src/tagged.rs", _line(TAGGED, start), "class message")]
    assert re.fullmatch(found.record.message_pattern, sample)


def test_a_variant_built_in_three_places_gives_three_records_sharing_the_template(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = mined
    same = [r for r in records if r.record.error_message == "no such item: {}"
            and r.record.file_path == "src/store.rs"]
    assert len(same) == 3
    assert len({r.record.id for r in same}) == 3


def test_a_helper_that_panics_with_its_argument_makes_its_call_a_panic_site(
    mined: tuple[Path, list[errdex.StoredRecord]], printed: dict[str, str],
) -> None:
    _, records = mined
    [found] = _at(records, "abort")
    assert found.record.error_type == "panic"
    assert found.record.error_message == "config: no store configured"
    assert [(s.line_number, s.role) for s in found.extras.template_sources] == [
        (_line(ERRORS, "pub fn fail("), "helper")]
    assert re.fullmatch(found.record.message_pattern, printed["abort()"])
    assert _at(records, "log_it") == []  # println_twice is no helper that panics


def test_a_call_that_reaches_no_producer_and_a_cycle_make_no_record(
    mined: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = mined
    assert _at(records, "unknown") == []
    assert _at(records, "cycle") == []



def test_an_incremental_mine_recomposes_the_callers_of_a_changed_display(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    repo = make_repo()
    repo.commit_files({"src/errors.rs": ERRORS, "src/store.rs": STORE,
                       "src/lib.rs": "pub mod errors;\npub mod store;\n"})
    db = tmp_path / "inc.sqlite"
    errdex.mine(repo.root, db=db, jobs=1)
    repo.commit_files({"src/errors.rs": ERRORS.replace("no such item: {}", "nothing under {}")})
    summary = errdex.mine(repo.root, db=db, jobs=1)
    assert summary.incremental
    with errdex.open_store(db) as store:
        found = [r.record.error_message for r in store.records(repo="acme/widgets")]
    assert found.count("nothing under {}") == 3  # missing, again, once_more
    assert not any("no such item" in m for m in found)
