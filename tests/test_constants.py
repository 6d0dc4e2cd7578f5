"""Rust messages printed from string constants defined in another file of the repository."""

from __future__ import annotations

from collections.abc import Callable

import errdex
from errdex.store.sqlite import SQLiteStore
from tests.conftest import GitRepo

ERRORS = '''/// The runtime is missing.
pub(crate) const CONTEXT_MISSING_ERROR: &str =
    "there is no reactor running, must be called from the context of a Tokio 1.x runtime";
pub(crate) const ENV_WORKER_THREADS: &str = "TOKIO_WORKER_THREADS";
pub(crate) const MAX_READS: u32 = 64;
'''
LIB = '''mod util;

pub fn spawn() {
    panic!("{}", crate::util::error::CONTEXT_MISSING_ERROR)
}

pub fn enter() {
    panic!("{CONTEXT_MISSING_ERROR}");
}

pub fn workers(value: &str) -> usize {
    value.parse().unwrap_or_else(|e| panic!("\\"{ENV_WORKER_THREADS}\\" must be usize, error: {e}"))
}

pub fn readers(n: u32) {
    assert!(n <= MAX_READS, "a RwLock may not be created with more than {MAX_READS} readers");
}

pub fn debug() {
    panic!("{:?}", CONTEXT_MISSING_ERROR);
}
'''
REACTOR = "there is no reactor running, must be called from the context of a Tokio 1.x runtime"


def _records(store: SQLiteStore) -> dict[int, tuple[str, str]]:
    return {s.record.line_number: (s.record.error_message, s.record.message_pattern)
            for s in store.records()}


def test_sites_printing_constants_of_other_files_get_their_text(
        make_repo: Callable[..., GitRepo], store: SQLiteStore) -> None:
    repo = make_repo()
    repo.commit_files({"src/util/error.rs": ERRORS, "src/lib.rs": LIB})
    errdex.mine(repo.root, db=store)
    records = _records(store)
    assert records[4] == (REACTOR, REACTOR.replace(".", "\\."))  # panic!("{}", path::CONST)
    assert records[8][0] == REACTOR  # panic!("{CONST}")
    message, pattern = records[12]
    assert message == '"TOKIO_WORKER_THREADS" must be usize, error: {e}'
    assert pattern == '"TOKIO_WORKER_THREADS" must be usize, error: (.+?)'
    # a number constant is not a string constant: it stays a hole
    assert records[16][1] == "a RwLock may not be created with more than (.+?) readers"
    # {:?} would print the text quoted: not resolved, still a bare hole
    assert records[20] == ("{:?}", "(.+?)")
    index = errdex.open_index(store)
    (best, *_) = index.explain(f"thread 'main' panicked at src/lib.rs:4:5:\n{REACTOR}")
    assert best.record.line_number == 4


def test_constants_are_read_from_files_an_incremental_mine_does_not_read(
        make_repo: Callable[..., GitRepo], store: SQLiteStore) -> None:
    repo = make_repo()
    repo.commit_files({"src/util/error.rs": ERRORS, "src/lib.rs": LIB})
    errdex.mine(repo.root, db=store)
    repo.commit_files({"src/lib.rs": LIB.replace("pub fn spawn()", "pub fn spawn_now()")},
                      "rename")
    summary = errdex.mine(repo.root, db=store)
    assert summary.incremental
    assert _records(store)[4][0] == REACTOR


def test_a_constant_defined_twice_with_different_texts_stays_a_hole(
        make_repo: Callable[..., GitRepo], store: SQLiteStore) -> None:
    repo = make_repo()
    other = 'pub const CONTEXT_MISSING_ERROR: &str = "something else";\n'
    repo.commit_files({"src/util/error.rs": ERRORS, "src/lib.rs": LIB, "src/other.rs": other})
    errdex.mine(repo.root, db=store)
    assert _records(store)[4] == ("{}", "(.+?)")


PAYLOADS = '''use std::io;

pub fn register() -> io::Result<()> {
    Err(io::Error::new(io::ErrorKind::Other, crate::util::error::CONTEXT_MISSING_ERROR))
}

pub fn lookup(slot: Option<u8>) -> u8 {
    slot.expect(ENV_WORKER_THREADS)
}

pub fn status() -> Result<(), u32> {
    Err(MAX_READS)
}

pub fn foreign() -> Result<(), &'static str> {
    Err(other_crate::NOT_OURS)
}
'''


def test_constants_passed_as_they_are_become_messages_and_unknown_ones_no_record(
        make_repo: Callable[..., GitRepo], store: SQLiteStore) -> None:
    repo = make_repo()
    repo.commit_files({"src/util/error.rs": ERRORS, "src/ops.rs": PAYLOADS})
    errdex.mine(repo.root, db=store)
    by_line = {s.record.line_number: s.record for s in store.records()
               if s.record.file_path == "src/ops.rs"}
    assert by_line[4].error_message == REACTOR and by_line[4].error_class == "io::ErrorKind::Other"
    assert by_line[8].error_message == "TOKIO_WORKER_THREADS"  # .expect(CONST)
    assert by_line[8].message_pattern.startswith("TOKIO_WORKER_THREADS")
    # a number constant and another crate's constant could print anything: no record
    assert set(by_line) == {4, 8}
