"""A history (incremental) mine writes the records a full mine of the same commit writes,
even where a constant or producer the changed files define is defined again, differently,
in a file the incremental mine did not read."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import errdex

RUST_A = ('pub const MSG: &str = "the alpha stage failed";\n\n'
          'pub fn run() {\n    panic!("{}", MSG);\n}\n')
RUST_B = 'pub const MSG: &str = "the beta stage failed";\n'
KOTLIN_A = ('object Alpha {\n    const val HINT = "set alpha.enabled to true"\n\n'
            '    fun run() {\n        throw IllegalStateException("alpha is off: $HINT")\n'
            '    }\n}\n')
KOTLIN_B = 'object Beta {\n    const val HINT = "set beta.enabled to true"\n}\n'


def current(db: Path) -> list[tuple[str, int, str]]:
    with closing(sqlite3.connect(db)) as connection:
        rows = connection.execute(
            "select file_path, line_number, error_message from records "
            "where removed_sha is null order by 1, 2, 3").fetchall()
    return [(path, line, message) for path, line, message in rows]


def history_and_full(two_releases, tmp_path: Path, old: dict[str, str],
                     new: dict[str, str]) -> tuple[list[tuple[str, int, str]], ...]:
    repo = two_releases(old, new)
    errdex.mine_history(repo.root, db=tmp_path / "history.sqlite")
    errdex.mine(repo.root, db=tmp_path / "full.sqlite")
    return current(tmp_path / "history.sqlite"), current(tmp_path / "full.sqlite")


def test_a_rust_constant_defined_again_in_an_unread_file(two_releases, tmp_path):
    old = {"src/a.rs": RUST_A, "src/b.rs": RUST_B}
    new = {"src/a.rs": "// reworked\n" + RUST_A, "src/b.rs": RUST_B}  # b.rs unchanged
    history, full = history_and_full(two_releases, tmp_path, old, new)
    assert history == full
    assert not any("alpha stage" in message for _, _, message in full)  # which one: unknown


def test_a_kotlin_constant_defined_again_in_an_unread_file(two_releases, tmp_path):
    old = {"src/Alpha.kt": KOTLIN_A, "src/Beta.kt": KOTLIN_B}
    new = {"src/Alpha.kt": "// reworked\n" + KOTLIN_A, "src/Beta.kt": KOTLIN_B}
    history, full = history_and_full(two_releases, tmp_path, old, new)
    assert history == full
