"""Records by their error code: what a paste carrying a code (or made of one) is looked up by.

A mixin of both stores (apart from ``sql`` so that each module stays one concern), reading
migration 9's expression index on the record JSON's ``errorCode``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from errdex.records.stored import CandidateRow
from errdex.store.rows import CANDIDATE_COLUMNS
from errdex.store.schema import Dialect

__all__ = ["CodeQueries"]


class _Queries(Protocol):
    """What the mixin needs of a ``SQLStore``."""

    @property
    def dialect(self) -> Dialect: ...
    def _execute(self, query: str, args: Sequence[object] = ()) -> Any: ...
    def _in(self, column: str, values: Iterable[object]) -> tuple[str, list[object]]: ...


class CodeQueries:
    """``rows_with_codes`` for a SQL store."""

    def rows_with_codes(
        self: _Queries, codes: list[str], repo: str | None = None, limit: int = 50
    ) -> list[CandidateRow]:
        """At most ``limit`` records whose ``errorCode`` is one of ``codes``, current sites
        first."""
        if not codes:
            return []
        condition, args = self._in(self.dialect.json_text("record_json", "errorCode"), codes)
        query = f"SELECT {CANDIDATE_COLUMNS} FROM records WHERE {condition}"
        if repo:
            query += " AND repo = ?"
            args.append(repo)
        query += " ORDER BY removed_sha IS NOT NULL, repo, file_path, line_number LIMIT ?"
        args.append(limit)
        return [CandidateRow(*r) for r in self._execute(query, args)]
