"""Datasets in and out: JSON Lines of ``{"record": …, "datasetVersion": …}``.

Import accepts a JSONL of dataset lines, or one dataset line / one bare record
(pretty-printed or not). Every line is validated before anything is written, so
a bad file changes nothing. Export writes to a temporary file and renames it,
so a reader never sees half a dataset.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from pydantic import ValidationError

from errdex.errors import DatasetError, UsageError
from errdex.record import SUPERSET_SCHEMA_VERSION, Record, RecordExtras, now_iso
from errdex.stores import Store

EXPORT_SCHEMAS = (2, 3)


def read_dataset(path: str | os.PathLike[str]) -> list[tuple[Record, RecordExtras | None]]:
    """Every record of a dataset file, validated; DatasetError names the file and line."""
    source = Path(path)
    try:
        text = sys.stdin.read() if str(path) == "-" else source.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise DatasetError(
            f"{source}: no such file; give a .jsonl dataset or a record .json"
        ) from exc
    except UnicodeDecodeError as exc:
        raise DatasetError(f"{source}: not UTF-8 text; give a JSONL dataset file") from exc
    except OSError as exc:
        raise DatasetError(f"{source}: cannot read ({exc.strerror})") from exc
    return list(_parse(text, str(source)))


def _parse(text: str, name: str) -> Iterator[tuple[Record, RecordExtras | None]]:
    stripped = text.strip()
    if not stripped:
        raise DatasetError(f"{name}: empty file; nothing to import")
    try:
        whole = json.loads(stripped)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, dict):
        yield _entry(whole, name, 1)
        return
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(
                f"{name}:{number}: not valid JSON ({exc.msg} at column {exc.colno}); "
                "each line must be one dataset line"
            ) from exc
        yield _entry(obj, name, number)


def _entry(obj: Any, name: str, number: int) -> tuple[Record, RecordExtras | None]:
    if not isinstance(obj, dict):
        raise DatasetError(f"{name}:{number}: expected a JSON object, got {type(obj).__name__}")
    raw = obj.get("record", obj)
    if not isinstance(raw, dict):
        raise DatasetError(f"{name}:{number}: 'record' must be a JSON object")
    fields = dict(raw)
    extras_fields = {k: fields.pop(k) for k in list(fields) if k in RecordExtras.model_fields}
    try:
        record = Record.model_validate(fields)
        extras = RecordExtras.model_validate(extras_fields) if extras_fields else None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "record"
        raise DatasetError(
            f"{name}:{number}: field {where!r}: {first['msg']} "
            f"({exc.error_count()} problem(s) in this record)"
        ) from exc
    return record, extras


def read_dataset_lines(
    objects: list[Any], name: str
) -> list[tuple[Record, RecordExtras | None]]:
    """Validate already-decoded dataset lines (from Parquet, an API body, …)."""
    return [_entry(obj, name, number) for number, obj in enumerate(objects, 1)]


def import_dataset(store: Store, path: str | os.PathLike[str]) -> int:
    """Validate a whole dataset file, then add or replace its records in one transaction."""
    return store.upsert(read_dataset(path))


def dataset_line(record: Record, extras: RecordExtras | None, version: str, schema: int) -> str:
    """One JSONL line; schema 3 adds errdex's optional fields after the seed's."""
    body: dict[str, Any] = record.model_dump(mode="json")
    if schema == SUPERSET_SCHEMA_VERSION and extras is not None:
        body.update(extras.model_dump(mode="json"))
    return json.dumps(
        {"record": body, "datasetVersion": version}, ensure_ascii=False, separators=(",", ":")
    )


def export_dataset(
    store: Store, out: str | os.PathLike[str] | None, *, schema: int = 2, repo: str | None = None,
    version: str | None = None,
) -> int:
    """Write every record (of one repo) as a JSONL dataset; ``None`` or ``-`` is stdout."""
    if schema not in EXPORT_SCHEMAS:
        raise UsageError(f"--schema {schema}: unknown; use one of {EXPORT_SCHEMAS}")
    version = version or now_iso()
    if out is None or str(out) == "-":
        return _write(store, sys.stdout, schema, repo, version)
    target = Path(out)
    if target.parent and not target.parent.exists():
        raise UsageError(f"{target}: folder {target.parent} does not exist; create it first")
    fd, temp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with open(fd, "w", encoding="utf-8") as handle:
            count = _write(store, handle, schema, repo, version)
        os.replace(temp_name, target)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
    return count


def _write(store: Store, stream: IO[str], schema: int, repo: str | None, version: str) -> int:
    count = 0
    for stored in store.records(repo):
        stream.write(dataset_line(stored.record, stored.extras, version, schema) + "\n")
        count += 1
    return count
