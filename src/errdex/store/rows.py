"""A record as a table row and back: the columns both databases share, and the two
conversions every query of the SQL layer and the dialects uses."""

from __future__ import annotations

import json

from errdex.records.model import Record, RecordExtras, record_json, trusted_record
from errdex.records.stored import Removal, StoredRecord

CANDIDATE_COLUMNS = "id, pattern_id, error_class, repo, file_path, line_number, removed_sha"
RECORD_COLUMNS = (
    "id, repo, slug, error_message, message_pattern, error_class, error_type, file_path, "
    "line_number, content_hash, record_json, extras_json, pattern_id, file_name"
)
STORED_COLUMNS = "record_json, extras_json, removed_sha, removed_at"


def file_name(path: str) -> str:
    """The last part of a repository path: what a stack frame's file is looked up by."""
    return path.rsplit("/", 1)[-1]


def record_row(record: Record, extras: RecordExtras | None, digest: str) -> tuple[object, ...]:
    """The first twelve columns of a record row (migration 1's), in ``RECORD_COLUMNS`` order."""
    return (
        record.id, record.repo, record.slug, record.error_message, record.message_pattern,
        record.error_class, record.error_type, record.file_path, record.line_number, digest,
        record_json(record),
        json.dumps(extras.model_dump(mode="json"), separators=(",", ":")) if extras else None,
    )


def stored_record(
    record_text: str, extras_text: str | None, removed_sha: str | None = None,
    removed_at: str | None = None,
) -> StoredRecord:
    """A row's ``STORED_COLUMNS`` as the record it holds.

    Validated when written; reading back trusts it (validation would dominate lookups)."""
    record = trusted_record(json.loads(record_text))
    extras = RecordExtras.model_validate_json(extras_text) if extras_text else RecordExtras()
    removed = Removal(removed_sha, removed_at) if removed_sha or removed_at else None
    return StoredRecord(record, extras, removed)


__all__ = ["CANDIDATE_COLUMNS", "RECORD_COLUMNS", "STORED_COLUMNS", "file_name", "record_row",
           "stored_record"]
