"""The log statements table: info/debug/trace/notice calls, written with a mine, replaced
per file like records, read whole by ``scan``.

Kept apart from ``sql`` (records) for the reason text sites are: these rows share
nothing with records but the transaction a mine writes in.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol, cast

from errdex.records.log_statements import LEVELS, LogLevel, LogStatement

_COLUMNS = ("repo, file_path, line_number, level, template, pattern, symbol, language, "
            "logger")


class _Runs(Protocol):
    """What the functions here need of a ``SQLStore`` (its own methods, in its transaction)."""

    def _execute(self, query: str, args: Sequence[object] = ()) -> Any: ...
    def _execute_many(self, query: str, rows: Iterable[Sequence[object]]) -> None: ...
    def _in(self, column: str, values: Iterable[object]) -> tuple[str, list[object]]: ...


def replace_log_statements(
    store: _Runs, repo: str, statements: Sequence[LogStatement], files: set[str] | None
) -> None:
    """The repository's log statements of ``files`` (None: every file) become
    ``statements`` (each written under ``repo``, whatever its own ``repo`` says)."""
    if files is None:
        store._execute("DELETE FROM log_statements WHERE repo = ?", (repo,))
    elif files:
        condition, values = store._in("file_path", sorted(files))
        store._execute(f"DELETE FROM log_statements WHERE repo = ? AND {condition}",
                       [repo, *values])
    if statements:
        store._execute_many(
            f"INSERT INTO log_statements ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            ((repo, s.file_path, s.line_number, s.level, s.template, s.pattern, s.symbol,
              s.language, s.logger) for s in statements),
        )


def read_log_statements(store: _Runs, repo: str | None = None) -> Iterator[LogStatement]:
    """Every stored log statement (of one repository), by repository, file and line."""
    query = f"SELECT {_COLUMNS} FROM log_statements"
    args: tuple[str, ...] = ()
    if repo is not None:
        query += " WHERE repo = ?"
        args = (repo,)
    rows = store._execute(query + " ORDER BY repo, file_path, line_number", args).fetchall()
    for r in rows:
        level = r[3] if r[3] in LEVELS else "info"
        yield LogStatement(r[0], r[1], int(r[2]), cast(LogLevel, level), r[4], r[5], r[6],
                           r[7], r[8])


def log_statement_count(store: _Runs, repo: str | None = None) -> int:
    """How many log statements are stored (of one repository)."""
    if repo is None:
        return int(store._execute("SELECT COUNT(*) FROM log_statements").fetchone()[0])
    return int(store._execute("SELECT COUNT(*) FROM log_statements WHERE repo = ?",
                              (repo,)).fetchone()[0])


__all__ = ["log_statement_count", "read_log_statements", "replace_log_statements"]
