"""errdex: the index of every error a codebase can raise.

The Python API is the product; the CLI, web app and MCP server are thin layers
over it (they import nothing else)::

    import errdex

    summary = errdex.mine("path/to/checkout", db="errdex.sqlite")
    for match in errdex.explain("ValueError: unsupported dtype I8", db="errdex.sqlite"):
        print(match.score, match.reason, match.bound, match.record.file_path)

Every public name is in ``__all__`` and documented in :mod:`errdex.api`; the stage
packages below (``errdex.mining``, ``errdex.lookup``, ...) are internal.
"""

from __future__ import annotations

from typing import Any

from errdex import api as _api
from errdex.api import (
    DEFAULT_CACHE_BUDGET,
    MAX_INPUT_CHARS,
    DatasetError,
    DatasetLine,
    Db,
    DbPath,
    EnrichSummary,
    Entry,
    ErrdexError,
    Index,
    InputTooLargeError,
    LogSource,
    ManySummary,
    Match,
    MineSummary,
    NoMatchError,
    ProgressCallback,
    Record,
    RecordExtras,
    RecordNotFoundError,
    Removal,
    RepoOutcome,
    RepositoryError,
    ScannedEvent,
    ScanSummary,
    Store,
    StoreBusyError,
    StoredRecord,
    StoreError,
    StorePool,
    UsageError,
    enrich,
    explain,
    export_dataset,
    import_dataset,
    llm_config,
    mine,
    mine_many,
    open_index,
    open_store,
    publish_dataset,
    read_repo_list,
    redact_url,
    scan,
    search,
    show,
    skipped_note,
)
from errdex.version import __version__ as __version__

__all__ = [
    "DEFAULT_CACHE_BUDGET",
    "MAX_INPUT_CHARS",
    "DatasetError",
    "DatasetLine",
    "Db",
    "DbPath",
    "EnrichSummary",
    "Entry",
    "ErrdexError",
    "Index",
    "InputTooLargeError",
    "LogSource",
    "ManySummary",
    "Match",
    "MineSummary",
    "NoMatchError",
    "ProgressCallback",
    "Record",
    "RecordExtras",
    "RecordNotFoundError",
    "Removal",
    "RepoOutcome",
    "RepositoryError",
    "ScanSummary",
    "ScannedEvent",
    "Store",
    "StoreBusyError",
    "StoreError",
    "StorePool",
    "StoredRecord",
    "UsageError",
    "enrich",
    "explain",
    "export_dataset",
    "import_dataset",
    "llm_config",
    "mine",
    "mine_many",
    "open_index",
    "open_store",
    "publish_dataset",
    "read_repo_list",
    "redact_url",
    "scan",
    "search",
    "show",
    "skipped_note",
]


def __getattr__(name: str) -> Any:
    """``errdex.LlmConfig`` / ``errdex.LlmReport`` on first use (they need the ``llm`` extra)."""
    return _api.__getattr__(name)
