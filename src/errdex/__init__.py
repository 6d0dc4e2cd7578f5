"""errdex: the index of every error a codebase can raise.

The Python API is the product; the CLI, web app and MCP server are thin layers
over it::

    import errdex

    summary = errdex.mine("path/to/checkout", db="errdex.sqlite")
    index = errdex.open_index("errdex.sqlite")
    for match in index.explain("ValueError: unsupported dtype I8"):
        print(match.score, match.record.filePath, match.record.lineNumber, match.bound)
"""

from __future__ import annotations

import os
from typing import Literal

from errdex.errors import (
    DatasetError,
    ErrdexError,
    InputTooLargeError,
    NoMatchError,
    RecordNotFoundError,
    RepositoryError,
    StoreError,
    UsageError,
)
from errdex.lookup.index import Index, Match
from errdex.mining.run import MineSummary, ProgressCallback
from errdex.records.model import DatasetLine, Record, RecordExtras
from errdex.store.protocol import Store, open_store
from errdex.store.sqlite import SQLiteStore
from errdex.version import __version__ as __version__  # mining reads it from there

__all__ = [
    "DatasetError",
    "DatasetLine",
    "ErrdexError",
    "Index",
    "InputTooLargeError",
    "Match",
    "MineSummary",
    "NoMatchError",
    "Record",
    "RecordExtras",
    "RecordNotFoundError",
    "RepositoryError",
    "SQLiteStore",
    "Store",
    "StoreError",
    "UsageError",
    "mine",
    "open_index",
]

DbPath = str | os.PathLike[str] | None


def mine(
    path: str | os.PathLike[str], *, db: DbPath | Store = None, repo: str | None = None,
    sha: str | None = None, jobs: int | None = None, progress: ProgressCallback | None = None,
    enrich: Literal["static", "none"] = "static", blame: bool = False, full: bool = False,
) -> MineSummary:
    """Mine the git repository holding ``path`` into the database ``db``.

    ``enrich="static"`` fills the explanation fields from evidence; ``"none"`` skips it.
    """
    from errdex.mining import run as mining

    options = {"repo": repo, "sha": sha, "jobs": jobs, "progress": progress,
               "enrich": enrich, "blame": blame, "full": full}
    if isinstance(db, Store):
        return mining.mine(path, db, **options)  # type: ignore[arg-type]
    with open_store(db) as store:
        return mining.mine(path, store, **options)  # type: ignore[arg-type]


def open_index(db: DbPath | Store = None) -> Index:
    """A lookup index over every record in the database ``db``."""
    return Index(db if isinstance(db, Store) else open_store(db))
