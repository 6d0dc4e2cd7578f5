"""Datasets through the public API: import, export, and a published dataset folder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from errdex.api._stores import Db, open_index, using_store
from errdex.datasets import lines as _lines
from errdex.datasets import publish as _publish
from errdex.datasets import published as _published
from errdex.errors import UsageError
from errdex.records.model import now_iso


def import_dataset(source: str | os.PathLike[str], *, db: Db = None,
                   warm_index: bool = False) -> int:
    """Import a dataset into ``db``: JSONL (one record a line), JSON, Parquet, a dataset
    folder, or ``"-"`` for JSONL on stdin. Checked whole first, all or nothing; importing
    the same records again changes nothing. Returns how many records were written."""
    with using_store(db) as store:
        if str(source) == "-":
            count = _lines.import_dataset(store, source)
        else:
            count = _publish.import_path(store, source)
        if warm_index:
            open_index(store)
    return count


def export_dataset(
    output: str | os.PathLike[str] | None = None, *, db: Db = None,
    format: Literal["jsonl", "parquet"] = "jsonl", schema: int = 2, repo: str | None = None,
) -> int:
    """Write the records (of ``repo``, or all) as a versioned dataset, atomically; every
    line is stamped with ``datasetVersion``. JSONL goes to stdout when ``output`` is
    ``None`` or ``"-"``; Parquet needs a file. Schema 2 is exactly the seed's fields, 3 adds
    errdex's optional ones. Returns how many records were written."""
    with using_store(db) as store:
        if format == "parquet":
            if output is None or str(output) == "-":
                raise UsageError("--format parquet needs -o FILE.parquet (it is not text)")
            return _publish.write_parquet(store.records(repo), Path(output), schema=schema,
                                          version=now_iso())
        return _lines.export_dataset(store, output, schema=schema, repo=repo)


def publish_dataset(folder: str | os.PathLike[str], *, db: Db = None, schema: int = 2,
                    repo: str | None = None, base_url: str | None = None) -> int:
    """Write a dataset folder ready to publish: ``records.jsonl``, ``records.parquet``, the
    JSON Schema and a README card, each written atomically, and the layout ``errdex sync``
    reads (``manifest.json`` and content-addressed ``shards/``, always schema 3 so a synced
    store holds what a mined one does; ``base_url``: where it will be served). Returns the
    record count."""
    with using_store(db) as store:
        count = _publish.write_dataset_folder(store, Path(folder), schema=schema, repo=repo)
        _published.publish_dataset(store, Path(folder), base_url=base_url, repo=repo)
    return count
