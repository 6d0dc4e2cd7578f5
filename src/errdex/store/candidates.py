"""The rows lookup ranks by: the records raising given patterns, or in given files.

A mixin of both stores (apart from ``sql`` so that each module stays one concern). A hit's
few records are read with its candidate rows, in the same statement (``candidate_records``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from errdex.records.stored import CandidateRow, StoredText
from errdex.store.rows import CANDIDATE_COLUMNS

__all__ = ["CandidateQueries"]


class _Queries(Protocol):
    """What the mixin needs of a ``SQLStore``."""

    def _execute(self, query: str, args: Sequence[object] = ()) -> Any: ...
    def _in(self, column: str, values: Iterable[object]) -> tuple[str, list[object]]: ...


class CandidateQueries:
    """``candidate_rows``, ``candidate_records`` and ``rows_in_files`` for a SQL store."""

    def candidate_rows(
        self: _Queries, pattern_ids: list[int], repo: str | None = None
    ) -> list[CandidateRow]:
        """The records that raise any of these patterns (optionally of one repo)."""
        return _rows(self, "pattern_id", pattern_ids, repo) if pattern_ids else []

    def candidate_records(
        self: _Queries, pattern_ids: list[int], repo: str | None = None, most: int = 8
    ) -> tuple[list[CandidateRow], dict[str, StoredText]] | None:
        """``candidate_rows`` and each row's stored record text (``stored_record`` reads it),
        in one statement: a hit's few records are then not looked up again by id. None when
        more than ``most`` records raise them (then ``candidate_rows``: most are never read
        whole)."""
        if not pattern_ids:
            return [], {}
        where, args = _where(self, "pattern_id", pattern_ids, repo)
        found = list(self._execute(
            f"SELECT {CANDIDATE_COLUMNS}, record_json, extras_json, removed_at FROM records "
            f"WHERE {where} LIMIT ?", [*args, most + 1]))
        if len(found) > most:
            return None
        rows = [CandidateRow(*r[:7]) for r in found]
        return rows, {r[0]: (r[7], r[8], r[6], r[9]) for r in found}

    def rows_in_files(
        self: _Queries, file_names: list[str], repo: str | None = None
    ) -> list[CandidateRow]:
        """The records in files with these base names (stack-frame lookups)."""
        return _rows(self, "file_name", file_names, repo) if file_names else []


def _rows(store: _Queries, column: str, values: Sequence[object], repo: str | None
          ) -> list[CandidateRow]:
    where, args = _where(store, column, values, repo)
    return [CandidateRow(*r) for r in store._execute(
        f"SELECT {CANDIDATE_COLUMNS} FROM records WHERE {where}", args)]


def _where(store: _Queries, column: str, values: Sequence[object], repo: str | None
           ) -> tuple[str, list[object]]:
    """The condition on ``column`` being one of ``values`` (of ``repo`` only, if given)."""
    condition, args = store._in(column, values)
    return (f"{condition} AND repo = ?", [*args, repo]) if repo else (condition, args)
