"""Publishing datasets: Parquet files and dataset folders (JSONL + Parquet + schema + card).

Parquet keeps the record's JSON shapes: lists stay lists, objects of the schema-3
superset (evidence) are JSON text. Every file is written beside its target and
renamed into place, so a reader never sees half a dataset. pyarrow is an optional
dependency (``pip install errdex[parquet]``).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from errdex.datasets.lines import dataset_line, read_dataset, read_dataset_lines
from errdex.errors import DatasetError, UsageError
from errdex.languages import language_for_path
from errdex.records.model import (
    SCHEMA_VERSION,
    SUPERSET_SCHEMA_VERSION,
    Record,
    RecordExtras,
    json_keys,
    json_schema,
    now_iso,
)
from errdex.records.stored import StoredRecord
from errdex.store.protocol import Store

_LIST_FIELDS = {"solutions", "preventionTips", "tags", "holeNames", "qualityFlags"}
_INT_FIELDS = {"httpStatus", "lineNumber", "sourceCodeStart", "sourceCodeEnd", "schemaVersion"}


_RECORD_KEYS = frozenset(json_keys(Record))

def _pyarrow() -> Any:
    """pyarrow with its parquet module loaded (untyped, so it is imported by name)."""
    try:
        pyarrow = importlib.import_module("pyarrow")
        importlib.import_module("pyarrow.parquet")
    except ImportError as exc:
        raise UsageError(
            "Parquet needs pyarrow: pip install 'errdex[parquet]' (or use --format jsonl)"
        ) from exc
    return pyarrow


def _columns(schema: int) -> list[str]:
    names = json_keys(Record)
    if schema == SUPERSET_SCHEMA_VERSION:
        names += json_keys(RecordExtras)
    return [*names, "datasetVersion"]


def _row(stored: StoredRecord, version: str, schema: int) -> dict[str, Any]:
    row: dict[str, Any] = stored.record.model_dump(mode="json")
    if schema == SUPERSET_SCHEMA_VERSION:
        for key, value in stored.extras.model_dump(mode="json").items():
            row[key] = value if key in _LIST_FIELDS or not isinstance(value, dict | list) else (
                json.dumps(value, ensure_ascii=False)
            )
    row["datasetVersion"] = version
    return row


def _arrow_type(pa: Any, name: str) -> Any:
    if name in _LIST_FIELDS:
        return pa.list_(pa.string())
    if name in _INT_FIELDS:
        return pa.int64()
    return pa.string()


def write_parquet(records: Iterable[StoredRecord], target: Path, *, schema: int,
                  version: str) -> int:
    """Write records as one Parquet file (atomically); returns the count."""
    pa = _pyarrow()
    columns = _columns(schema)
    arrow_schema = pa.schema([(name, _arrow_type(pa, name)) for name in columns])
    rows = [_row(stored, version, schema) for stored in records]
    table = pa.Table.from_pylist([{c: r.get(c) for c in columns} for r in rows],
                                 schema=arrow_schema)
    table = table.replace_schema_metadata(
        {"errdex.schema_version": str(schema), "errdex.dataset_version": version}
    )
    _atomic(target, lambda path: pa.parquet.write_table(table, path, compression="zstd"))
    return len(rows)


def read_parquet(path: Path) -> list[dict[str, Any]]:
    """Dataset lines from a Parquet file written by errdex (checked later, like a JSONL's)."""
    pa = _pyarrow()
    try:
        rows = pa.parquet.read_table(path).to_pylist()
    except (OSError, pa.ArrowException) as exc:
        raise DatasetError(f"{path}: not a readable Parquet file ({exc})") from exc
    lines = []
    for row in rows:
        version = row.pop("datasetVersion", None) or now_iso()
        if isinstance(row.get("evidence"), str):
            # text that is not JSON stays text: the check says evidence must be an object
            with contextlib.suppress(ValueError, RecursionError):
                row["evidence"] = json.loads(row["evidence"])
        lines.append({"record": {k: v for k, v in row.items() if v is not None or k in
                                 _RECORD_KEYS}, "datasetVersion": version})
    return lines


def import_path(store: Store, path: str | os.PathLike[str]) -> int:
    """Import a JSONL/JSON file, a Parquet file, or a dataset folder; idempotent by id.

    Each is checked whole (``errdex.records.validate``) before one record is written.
    """
    source = Path(path)
    if source.is_dir():
        for candidate in ("records.jsonl", "records.parquet"):
            if (source / candidate).exists():
                return import_path(store, source / candidate)
        raise DatasetError(f"{source}: no records.jsonl or records.parquet in this folder")
    if source.suffix == ".parquet":
        records = read_dataset_lines(read_parquet(source), str(source), store, unit="row")
    else:
        records = read_dataset(source, store)
    return store.upsert(records)


def write_dataset_folder(store: Store, folder: Path, *, schema: int = SCHEMA_VERSION,
                         repo: str | None = None, version: str | None = None) -> int:
    """JSONL, Parquet, the JSON Schema and a README card, each written atomically."""
    version = version or now_iso()
    folder.mkdir(parents=True, exist_ok=True)
    stored = list(store.records(repo))

    def write_jsonl(path: str) -> None:
        with open(path, "w", encoding="utf-8") as out:
            for item in stored:
                out.write(dataset_line(item.record, item.extras, version, schema) + "\n")

    _atomic(folder / "records.jsonl", write_jsonl)
    write_parquet(stored, folder / "records.parquet", schema=schema, version=version)
    schema_text = json.dumps(json_schema(), indent=2) + "\n"
    _atomic(folder / "schema.json", lambda p: Path(p).write_text(schema_text, encoding="utf-8"))
    card = dataset_card(stored, version, schema)
    _atomic(folder / "README.md", lambda p: Path(p).write_text(card, encoding="utf-8"))
    return len(stored)


def _language(item: StoredRecord) -> str:
    if item.extras.language:
        return item.extras.language
    language = language_for_path(item.record.file_path)
    return language.name if language else "unknown"


def dataset_card(stored: list[StoredRecord], version: str, schema: int) -> str:
    """A README for the dataset: what it holds, counted three ways, and how to load it."""
    by_repo = Counter(s.record.repo for s in stored)
    by_language = Counter(_language(s) for s in stored)
    by_type = Counter(str(s.record.error_type) for s in stored)
    by_release = Counter(  # sites mined from registry releases (pypi:, npm:, mine-deps)
        f"{s.extras.package_ecosystem or '?'}:{s.extras.package} {s.extras.package_version}"
        for s in stored if s.extras.package)

    def table(title: str, counts: Counter[str]) -> str:
        rows = "\n".join(f"| {name} | {count:,} |" for name, count in counts.most_common())
        return f"### By {title}\n\n| {title} | records |\n| --- | ---: |\n{rows}\n"

    return (
        f"# errdex dataset\n\n"
        f"- datasetVersion: `{version}`\n- record schema: {schema}\n"
        f"- records: {len(stored):,} from {len(by_repo):,} repositories\n\n"
        "Files: `records.jsonl` (one `{\"record\": …, \"datasetVersion\": …}` a line), "
        "`records.parquet` (the same records, one column per field), `schema.json` "
        "(the JSON Schema of a line).\n\n"
        "Load it: `errdex import records.jsonl`, or `pandas.read_parquet(\"records.parquet\")`."
        "\n\n"
        + table("repository", by_repo) + "\n" + table("language", by_language) + "\n"
        + table("errorType", by_type)
        + ("\n" + table("package release", by_release) if by_release else "")
    )


def _atomic(target: Path, write: Callable[[str], object]) -> None:
    if not target.parent.exists():
        raise UsageError(f"{target}: folder {target.parent} does not exist; create it first")
    fd, temp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    os.close(fd)
    try:
        write(temp_name)
        os.replace(temp_name, target)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
