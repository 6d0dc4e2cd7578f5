"""Datasets in and out: JSON Lines of ``{"record": …, "datasetVersion": …}``.

Import accepts a JSONL of dataset lines, or one dataset line / one bare record
(pretty-printed or not). The whole file is checked before anything is written
(``errdex.records.validate``: every field, every pattern, ids against the index), every
problem reported at once, so a bad file changes nothing. Export writes to a
temporary file and renames it, so a reader never sees half a dataset.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

from errdex.errors import DatasetError, UsageError
from errdex.records.model import SUPERSET_SCHEMA_VERSION, Record, RecordExtras, now_iso
from errdex.records.validate import Problems, check_entries
from errdex.store.protocol import Store
from errdex.visible import json_text

EXPORT_SCHEMAS = (2, 3)
STDIN_NAME = "stdin"


def read_dataset(
    path: str | os.PathLike[str], store: Store | None = None
) -> list[tuple[Record, RecordExtras | None]]:
    """Every record of a dataset file, checked; DatasetError names the file and line.

    With ``store``, ids and slugs are also checked against the records it holds.
    """
    source = Path(path)
    name = STDIN_NAME if str(path) == "-" else str(source)
    try:
        text = sys.stdin.read() if str(path) == "-" else source.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise DatasetError(
            f"{source}: no such file; give a .jsonl dataset or a record .json"
        ) from exc
    except IsADirectoryError as exc:
        raise DatasetError(
            f"{source}: a folder; give a .jsonl dataset, a .parquet file or a dataset folder"
        ) from exc
    except UnicodeDecodeError as exc:
        raise DatasetError(f"{name}: not UTF-8 text; give a JSONL dataset file") from exc
    except OSError as exc:
        raise DatasetError(f"{source}: cannot read ({exc.strerror})") from exc
    problems = Problems(name)
    return check_entries(_decode(text, problems), problems, store)


def _decode(text: str, problems: Problems) -> list[tuple[int, Any]]:
    """The JSON value of each line, by line number; lines that are not JSON go to problems."""
    stripped = text.strip()
    if not stripped:
        raise DatasetError(f"{problems.source}: empty file; nothing to import")
    try:
        whole = json.loads(stripped)
    except (ValueError, RecursionError):
        whole = None
    if isinstance(whole, dict):
        return [(1, whole)]
    decoded: list[tuple[int, Any]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            decoded.append((number, json.loads(line)))
        except json.JSONDecodeError as exc:
            problems.add(number, (
                f"not valid JSON ({exc.msg} at column {exc.colno}); "
                "each line must be one dataset line"
            ))
        except RecursionError:
            problems.add(number, "JSON nested too deeply; each line must be one dataset line")
        except ValueError as exc:  # an integer of thousands of digits
            problems.add(number, f"not usable JSON ({str(exc).split(';')[0]}); fix or drop "
                         "this line")
    return decoded


def read_dataset_lines(
    objects: list[Any], name: str, store: Store | None = None, *, unit: str = "line"
) -> list[tuple[Record, RecordExtras | None]]:
    """Check already-decoded dataset lines (from Parquet, an API body, …) like a file's."""
    problems = Problems(name, unit)
    return check_entries(enumerate(objects, 1), problems, store)


def import_dataset(store: Store, path: str | os.PathLike[str]) -> int:
    """Check a whole dataset file, then add or replace its records in one transaction."""
    return store.upsert(read_dataset(path, store))


def dataset_line(record: Record, extras: RecordExtras | None, version: str, schema: int) -> str:
    """One JSONL line; schema 3 adds errdex's optional fields after the seed's."""
    body: dict[str, Any] = record.model_dump(mode="json")
    if schema == SUPERSET_SCHEMA_VERSION and extras is not None:
        body.update(extras.model_dump(mode="json"))
    # Same data as plain json.dumps; controls, bidi overrides and surrogates as \u escapes,
    # so a line shown in a terminal (`export | less`) cannot act on it.
    return json_text({"record": body, "datasetVersion": version}, compact=True)


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
