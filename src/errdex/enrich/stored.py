"""What enrichment reads and rewrites of a store.

Enrichment sits below the store in the pipeline, so it names the three things it uses
rather than importing ``errdex.store``; every ``errdex.store.protocol.Store`` has them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Protocol

from errdex.records.model import Record, RecordExtras
from errdex.records.stored import StoredRecord


class RecordStore(Protocol):
    """Records to enrich, read from a store and written back to it."""

    @property
    def path(self) -> str | os.PathLike[str]:
        """Where the database is (the LLM answer cache is kept beside it)."""
        ...

    def records(
        self, repo: str | None = None, *, include_removed: bool = False
    ) -> Iterator[StoredRecord]: ...
    def upsert(self, records: Iterable[tuple[Record, RecordExtras | None]]) -> int: ...


__all__ = ["RecordStore"]
