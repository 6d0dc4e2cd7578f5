"""errdex's public Python API: everything the CLI, the web app and the MCP server use.

Each function takes ``db``: a SQLite file, a ``postgresql://`` URL, ``None`` (then
``$ERRDEX_DB``, else the default file), or a store already open (:func:`open_store`),
which it leaves open. Results are typed, with snake_case attributes::

    import errdex

    errdex.mine("path/to/checkout", db="errdex.sqlite")
    for match in errdex.explain("ValueError: unsupported dtype I8", db="errdex.sqlite"):
        print(match.score, match.reason, match.bound, match.record.id)

Records themselves keep the dataset's field names (``record.file_path``), as the seed
record format spells them. Everything else under ``errdex`` (the stage packages) is
internal and may change; this module's ``__all__`` is what stays.

``LlmConfig`` and ``LlmReport`` (LLM enrichment) need the ``llm`` extra, so they are
reached as ``errdex.api.LlmConfig`` on demand rather than imported here; make one with
:func:`llm_config`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from errdex.api._datasets import export_dataset, import_dataset, publish_dataset
from errdex.api._history import HistorySummary, ReleaseMine, mine_history
from errdex.api._lookup import (
    GroupRow,
    LogSource,
    Resolution,
    ScanGroups,
    ScannedEvent,
    ScanSummary,
    explain,
    resolve,
    scan,
    search,
    show,
    skipped_note,
    text_sites,
)
from errdex.api._mining import (
    DEFAULT_CACHE_BUDGET,
    EnrichSummary,
    Entry,
    ManySummary,
    MineSummary,
    ProgressCallback,
    RepoOutcome,
    enrich,
    llm_config,
    mine,
    mine_many,
    read_repo_list,
)
from errdex.api._packages import (
    DepOutcome,
    DepsSummary,
    LockfileProblem,
    Pins,
    mine_deps,
    read_lockfiles,
)
from errdex.api._releases import (
    InstalledPackage,
    PackageOutcome,
    PackageSpec,
    PackagesSummary,
    ReleaseSummary,
    installed_packages,
    is_release_spec,
    mine_env,
    mine_package,
    parse_release,
)
from errdex.api._site import export_site
from errdex.api._stores import Db, DbPath, StorePool, open_index, open_store
from errdex.api._sync import (
    DatasetOrigin,
    Syncer,
    SyncReport,
    dataset_origins,
    explained_json,
    origin_note,
    sync_dataset,
    with_origins,
)
from errdex.errors import (
    DatasetError,
    ErrdexError,
    InputTooLargeError,
    NoMatchError,
    RecordNotFoundError,
    RepositoryError,
    StoreBusyError,
    StoreError,
    UsageError,
)
from errdex.lookup.index import Index, Match
from errdex.lookup.parse import MAX_INPUT_CHARS
from errdex.lookup.text_sites import TextSiteMatch
from errdex.records.lineage import WordingVersion
from errdex.records.model import DatasetLine, Record, RecordExtras
from errdex.store.protocol import Removal, Store, StoredRecord
from errdex.store.protocol import redact as redact_url

if TYPE_CHECKING:
    from errdex.datasets import record_view as record_view
    from errdex.enrich.llm import LlmConfig as LlmConfig
    from errdex.enrich.llm import LlmReport as LlmReport

__all__ = [
    "DEFAULT_CACHE_BUDGET",
    "MAX_INPUT_CHARS",
    "DatasetError",
    "DatasetLine",
    "DatasetOrigin",
    "Db",
    "DbPath",
    "DepOutcome",
    "DepsSummary",
    "EnrichSummary",
    "Entry",
    "ErrdexError",
    "GroupRow",
    "HistorySummary",
    "Index",
    "InputTooLargeError",
    "InstalledPackage",
    "LockfileProblem",
    "LogSource",
    "ManySummary",
    "Match",
    "MineSummary",
    "NoMatchError",
    "PackageOutcome",
    "PackageSpec",
    "PackagesSummary",
    "Pins",
    "ProgressCallback",
    "Record",
    "RecordExtras",
    "RecordNotFoundError",
    "ReleaseMine",
    "ReleaseSummary",
    "Removal",
    "RepoOutcome",
    "RepositoryError",
    "Resolution",
    "ScanGroups",
    "ScanSummary",
    "ScannedEvent",
    "Store",
    "StoreBusyError",
    "StoreError",
    "StorePool",
    "StoredRecord",
    "SyncReport",
    "Syncer",
    "TextSiteMatch",
    "UsageError",
    "WordingVersion",
    "dataset_origins",
    "enrich",
    "explain",
    "explained_json",
    "export_dataset",
    "export_site",
    "import_dataset",
    "installed_packages",
    "is_release_spec",
    "llm_config",
    "mine",
    "mine_deps",
    "mine_env",
    "mine_history",
    "mine_many",
    "mine_package",
    "open_index",
    "open_store",
    "origin_note",
    "parse_release",
    "publish_dataset",
    "read_lockfiles",
    "read_repo_list",
    "redact_url",
    "resolve",
    "scan",
    "search",
    "show",
    "skipped_note",
    "sync_dataset",
    "text_sites",
    "with_origins",
]

_NEEDS_LLM_EXTRA = ("LlmConfig", "LlmReport")


def __getattr__(name: str) -> Any:
    """``LlmConfig`` and ``LlmReport`` on first use: importing them needs the ``llm`` extra."""
    if name in _NEEDS_LLM_EXTRA:
        from errdex.enrich import llm

        return getattr(llm, name)
    if name == "record_view":  # what a record page shows, for the web pages (web extra)
        from errdex.datasets import record_view

        return record_view
    raise AttributeError(f"module 'errdex.api' has no attribute {name!r}")
