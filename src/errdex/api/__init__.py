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

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what each name is, for type checkers; at run time a name's module is
    # imported the first time the name is used (see __getattr__): `import errdex` stays cheap
    from errdex.api._datasets import export_dataset, import_dataset, publish_dataset
    from errdex.api._history import HistorySummary, ReleaseMine, mine_history
    from errdex.api._lookup import (
        LogSource,
        Resolution,
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
        MineSummary,
        ProgressCallback,
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
    from errdex.batch.entries import Entry
    from errdex.batch.many import ManySummary, RepoOutcome
    from errdex.datasets import record_view as record_view
    from errdex.enrich.llm import LlmConfig as LlmConfig
    from errdex.enrich.llm import LlmReport as LlmReport
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
    from errdex.lookup.groups import GroupRow, ScanGroups
    from errdex.lookup.index import Index, Match
    from errdex.lookup.parse import MAX_INPUT_CHARS
    from errdex.lookup.scan import ScannedEvent, ScanSummary
    from errdex.lookup.text_sites import TextSiteMatch
    from errdex.records.lineage import WordingVersion
    from errdex.records.model import DatasetLine, Record, RecordExtras
    from errdex.store.protocol import Removal, Store, StoredRecord
    from errdex.store.protocol import redact as redact_url

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

_HOMES: dict[str, tuple[str, str]] = {  # public name -> (module, name there)
    "export_dataset": ("errdex.api._datasets", "export_dataset"),
    "import_dataset": ("errdex.api._datasets", "import_dataset"),
    "publish_dataset": ("errdex.api._datasets", "publish_dataset"),
    "HistorySummary": ("errdex.api._history", "HistorySummary"),
    "ReleaseMine": ("errdex.api._history", "ReleaseMine"),
    "mine_history": ("errdex.api._history", "mine_history"),
    "GroupRow": ("errdex.lookup.groups", "GroupRow"),
    "LogSource": ("errdex.api._lookup", "LogSource"),
    "Resolution": ("errdex.api._lookup", "Resolution"),
    "ScanGroups": ("errdex.lookup.groups", "ScanGroups"),
    "ScanSummary": ("errdex.lookup.scan", "ScanSummary"),
    "ScannedEvent": ("errdex.lookup.scan", "ScannedEvent"),
    "explain": ("errdex.api._lookup", "explain"),
    "resolve": ("errdex.api._lookup", "resolve"),
    "scan": ("errdex.api._lookup", "scan"),
    "search": ("errdex.api._lookup", "search"),
    "show": ("errdex.api._lookup", "show"),
    "skipped_note": ("errdex.api._lookup", "skipped_note"),
    "text_sites": ("errdex.api._lookup", "text_sites"),
    "DEFAULT_CACHE_BUDGET": ("errdex.api._mining", "DEFAULT_CACHE_BUDGET"),
    "EnrichSummary": ("errdex.api._mining", "EnrichSummary"),
    "Entry": ("errdex.batch.entries", "Entry"),
    "ManySummary": ("errdex.batch.many", "ManySummary"),
    "MineSummary": ("errdex.api._mining", "MineSummary"),
    "ProgressCallback": ("errdex.api._mining", "ProgressCallback"),
    "RepoOutcome": ("errdex.batch.many", "RepoOutcome"),
    "enrich": ("errdex.api._mining", "enrich"),
    "llm_config": ("errdex.api._mining", "llm_config"),
    "mine": ("errdex.api._mining", "mine"),
    "mine_many": ("errdex.api._mining", "mine_many"),
    "read_repo_list": ("errdex.api._mining", "read_repo_list"),
    "DepOutcome": ("errdex.api._packages", "DepOutcome"),
    "DepsSummary": ("errdex.api._packages", "DepsSummary"),
    "LockfileProblem": ("errdex.api._packages", "LockfileProblem"),
    "Pins": ("errdex.api._packages", "Pins"),
    "mine_deps": ("errdex.api._packages", "mine_deps"),
    "read_lockfiles": ("errdex.api._packages", "read_lockfiles"),
    "InstalledPackage": ("errdex.api._releases", "InstalledPackage"),
    "PackageOutcome": ("errdex.api._releases", "PackageOutcome"),
    "PackageSpec": ("errdex.api._releases", "PackageSpec"),
    "PackagesSummary": ("errdex.api._releases", "PackagesSummary"),
    "ReleaseSummary": ("errdex.api._releases", "ReleaseSummary"),
    "installed_packages": ("errdex.api._releases", "installed_packages"),
    "is_release_spec": ("errdex.api._releases", "is_release_spec"),
    "mine_env": ("errdex.api._releases", "mine_env"),
    "mine_package": ("errdex.api._releases", "mine_package"),
    "parse_release": ("errdex.api._releases", "parse_release"),
    "export_site": ("errdex.api._site", "export_site"),
    "Db": ("errdex.api._stores", "Db"),
    "DbPath": ("errdex.api._stores", "DbPath"),
    "StorePool": ("errdex.api._stores", "StorePool"),
    "open_index": ("errdex.api._stores", "open_index"),
    "open_store": ("errdex.api._stores", "open_store"),
    "DatasetOrigin": ("errdex.api._sync", "DatasetOrigin"),
    "SyncReport": ("errdex.api._sync", "SyncReport"),
    "Syncer": ("errdex.api._sync", "Syncer"),
    "dataset_origins": ("errdex.api._sync", "dataset_origins"),
    "explained_json": ("errdex.api._sync", "explained_json"),
    "origin_note": ("errdex.api._sync", "origin_note"),
    "sync_dataset": ("errdex.api._sync", "sync_dataset"),
    "with_origins": ("errdex.api._sync", "with_origins"),
    "DatasetError": ("errdex.errors", "DatasetError"),
    "ErrdexError": ("errdex.errors", "ErrdexError"),
    "InputTooLargeError": ("errdex.errors", "InputTooLargeError"),
    "NoMatchError": ("errdex.errors", "NoMatchError"),
    "RecordNotFoundError": ("errdex.errors", "RecordNotFoundError"),
    "RepositoryError": ("errdex.errors", "RepositoryError"),
    "StoreBusyError": ("errdex.errors", "StoreBusyError"),
    "StoreError": ("errdex.errors", "StoreError"),
    "UsageError": ("errdex.errors", "UsageError"),
    "Index": ("errdex.lookup.index", "Index"),
    "Match": ("errdex.lookup.index", "Match"),
    "MAX_INPUT_CHARS": ("errdex.lookup.parse", "MAX_INPUT_CHARS"),
    "TextSiteMatch": ("errdex.lookup.text_sites", "TextSiteMatch"),
    "WordingVersion": ("errdex.records.lineage", "WordingVersion"),
    "DatasetLine": ("errdex.records.model", "DatasetLine"),
    "Record": ("errdex.records.model", "Record"),
    "RecordExtras": ("errdex.records.model", "RecordExtras"),
    "Removal": ("errdex.store.protocol", "Removal"),
    "Store": ("errdex.store.protocol", "Store"),
    "StoredRecord": ("errdex.store.protocol", "StoredRecord"),
    "redact_url": ("errdex.store.protocol", "redact"),
}

_NEEDS_LLM_EXTRA = ("LlmConfig", "LlmReport")


def __getattr__(name: str) -> Any:
    """A public name's module on first use (a CLI call, a worker pays only for what it runs);
    ``LlmConfig`` and ``LlmReport`` too, whose import needs the ``llm`` extra."""
    home = _HOMES.get(name)
    if home is not None:
        value = getattr(importlib.import_module(home[0]), home[1])
        globals()[name] = value
        return value
    if name in _NEEDS_LLM_EXTRA:
        from errdex.enrich import llm

        return getattr(llm, name)
    if name == "record_view":  # what a record page shows, for the web pages (web extra)
        from errdex.datasets import record_view

        return record_view
    raise AttributeError(f"module 'errdex.api' has no attribute {name!r}")


def __dir__() -> list[str]:
    """Every public name, loaded or not."""
    return sorted(set(globals()) | set(__all__))
