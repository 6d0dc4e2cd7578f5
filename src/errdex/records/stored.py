"""Records as a store hands them out: a record with its extras and removal, what a
re-mine carries over, and the columns lookup ranks by.

They are defined below the store (``errdex.store.protocol`` re-exports them) so that
the stages under it, such as import validation and enrichment, can name what they
read from a store without importing the store.
"""

from __future__ import annotations

from dataclasses import dataclass

from errdex.records.model import Record, RecordExtras


@dataclass(frozen=True)
class Removal:
    """When a site stopped existing: the commit mined without it, and when that was."""

    sha: str | None
    at: str | None


@dataclass(frozen=True)
class StoredRecord:
    """A record as stored: the seed-format record, errdex's extras, and its removal when
    the site is gone from the repository."""

    record: Record
    extras: RecordExtras
    removed: Removal | None = None


@dataclass(frozen=True)
class PreviousRecord:
    """What a re-mine carries over from the last mine of the same site."""

    slug: str
    content_changed_at: str
    content_hash: str | None
    removed: bool = False
    file_path: str = ""


@dataclass(frozen=True)
class CandidateRow:
    """The columns ranking needs, before a record is read whole."""

    id: str
    pattern_id: int
    error_class: str | None
    repo: str
    file_path: str
    line_number: int
    removed_sha: str | None = None


# A record row's stored columns as read (record JSON, extras JSON, removed sha, removed at),
# before ``errdex.store.rows.stored_record`` reads them into a ``StoredRecord``.
StoredText = tuple[str, str | None, str | None, str | None]


@dataclass(frozen=True)
class RepoState:
    """How a repository was last mined (to re-mine only what changed since)."""

    analyzed_sha: str | None
    miner_version: str | None


__all__ = ["CandidateRow", "PreviousRecord", "Removal", "RepoState", "StoredRecord", "StoredText"]
