"""Checking an import before anything is written: every field, every line, the index.

A dataset is text written by strangers, and its records end up in terminals, on web
pages and in the lookup index. So an import is checked as a whole before one record
is stored: each line against the record model (the committed JSON Schema, strictly:
``"243"`` is not a line number) and against ranges no real record leaves; each
``messagePattern`` compiled the way lookup compiles it; ids unique in the file; and
no id or slug taken from a record the index already holds for another repository or
site. Every problem is one line naming the file and line, and all of them (up to
``MAX_PROBLEMS_SHOWN``) are reported together, so one run shows what to fix.
"""

from __future__ import annotations

import heapq
import re
import types
import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, Union

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from errdex.errors import DatasetError
from errdex.records.model import (
    MAX_LINE_NUMBER,
    SCHEMA_VERSION,
    SUPERSET_SCHEMA_VERSION,
    Record,
    RecordExtras,
    json_keys,
)
from errdex.records.stored import PreviousRecord, StoredRecord
from errdex.templates.template import compile_pattern

Entry = tuple[Record, RecordExtras | None]

MAX_PROBLEMS_SHOWN = 20
# A source window is 37 lines; other producers may give more, but not a whole file.
MAX_SOURCE_LINES = 1_000
# Nothing mined is larger: errdex does not read files over 2 MB.
MAX_SOURCE_CHARS = 2_000_000
HTTP_STATUS_MIN, HTTP_STATUS_MAX = 100, 599
MAX_DATASET_VERSION_CHARS = 64
# Longest text of each field, in characters; prose fields not named here get the default.
TEXT_LIMITS: dict[str, int] = {
    "repo": 200, "errorCode": 200, "errorClass": 1_000, "errorMessage": 65_536,
    "messagePattern": 262_144, "filePath": 4_096, "sourceCode": MAX_SOURCE_CHARS,
    "githubUrl": 8_192, "analyzedSha": 128, "analyzedAt": 64, "contentChangedAt": 64,
    "backgroundTag": 100, "tags": 100, "qualityFlags": 100, "language": 64,
    "enclosingSymbol": 1_000, "holeNames": 1_000,
}
DEFAULT_TEXT_LIMIT = 20_000
# Most items of each list field; lists inside ``evidence`` get the default.
LIST_LIMITS: dict[str, int] = {
    "solutions": 100, "preventionTips": 100, "tags": 100, "qualityFlags": 100,
    "holeNames": 1_000,
}
DEFAULT_LIST_LIMIT = 1_000
FIX = "fix or drop this line"

_LINE_FIELDS = ("sourceCodeStart", "lineNumber", "sourceCodeEnd")
_LINE_WRAPPER_KEYS = {"record", "datasetVersion"}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _nullable(model: type[BaseModel]) -> set[str]:
    """Fields that may be null, to say "a string or null" where that is what is expected."""
    def optional(annotation: object) -> bool:
        union = isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is Union
        return union and type(None) in typing.get_args(annotation)

    fields = zip(json_keys(model), model.model_fields.values(), strict=True)
    return {name for name, info in fields if optional(info.annotation)}


_NULLABLE = _nullable(Record) | _nullable(RecordExtras)
_EXTRAS_KEYS = frozenset(json_keys(RecordExtras))


@dataclass
class Problems:
    """The problems of one input: the first ``MAX_PROBLEMS_SHOWN`` in line order, and a count.

    Problems arrive out of order (a file's JSON first, the index last); a bounded heap
    keeps the earliest lines without holding every problem of a huge bad file.
    """

    source: str
    unit: str = "line"  # "row" for Parquet
    total: int = 0
    _earliest: list[tuple[int, int, str]] = field(default_factory=list)

    def where(self, number: int) -> str:
        return f"{self.source}:{number}" if self.unit == "line" else (
            f"{self.source}: row {number}"
        )

    def add(self, number: int, text: str) -> None:
        self.total += 1
        item = (-number, -self.total, f"{self.where(number)}: {text}")
        if len(self._earliest) < MAX_PROBLEMS_SHOWN:
            heapq.heappush(self._earliest, item)
        else:
            heapq.heappushpop(self._earliest, item)

    @property
    def shown(self) -> list[str]:
        """The problems kept, earliest line first (in the order found within a line)."""
        return [text for _, _, text in sorted(self._earliest, reverse=True)]

    def raise_if_any(self) -> None:
        """A DatasetError of one line per problem (the rest counted), if there was one."""
        if not self.total:
            return
        lines = self.shown
        if self.total > len(lines):
            lines.append(
                f"{self.source}: and {self.total - len(lines)} more problem(s) "
                f"({self.total} in all); nothing was imported"
            )
        raise DatasetError("\n".join(lines))


def show(value: Any, limit: int = 60) -> str:
    """A value as it appears in JSON, shortened for a message line (never huge)."""
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, int):
        if value.bit_length() > 4 * limit:  # str() of a huge int is slow, or refused
            return "a huge number"
        return str(value) if len(str(value)) <= limit else "a huge number"
    if isinstance(value, str):
        text = value if len(value) <= limit else value[:limit] + "…"
        return repr(text)
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return kind_of(value)


def kind_of(value: Any) -> str:
    """The JSON name of a value's type, for 'must be …, not …'."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a floating-point number" if value == value else "NaN"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, bytes):
        return "binary data"
    return type(value).__name__


def _path(loc: Sequence[int | str]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "record"


_EXPECTED = {
    "string_type": "a string", "int_type": "an integer", "list_type": "a list",
    "dict_type": "an object", "model_type": "an object", "model_attributes_type": "an object",
    "bool_type": "true or false", "float_type": "a number",
}


def describe(error: ErrorDetails) -> str:
    """One pydantic error as a sentence about the field, in the dataset's own words."""
    loc = error["loc"]
    name = _path(loc)
    top = str(loc[0]) if loc else ""
    kind, value = error["type"], error.get("input")
    if kind == "missing":
        return f"{name} is missing; {FIX}"
    if kind == "extra_forbidden":
        where = "a record" if len(loc) == 1 else name.rsplit(".", 1)[0]
        return f"{name} is not a field of {where}; {FIX}"
    if kind in _EXPECTED:
        expected = _EXPECTED[kind]
        if len(loc) == 1 and top in _NULLABLE:
            expected += " or null"
        return f"{name} must be {expected}, not {kind_of(value)}; {FIX}"
    if kind == "literal_error":
        allowed = (error.get("ctx") or {}).get("expected", "")
        return f"{name} {show(value)} is not one of {allowed}; {FIX}"
    if kind == "string_too_short":
        return f"{name} is empty; {FIX}"
    if kind == "string_pattern_mismatch":
        return _pattern_mismatch(name, value)
    if kind in ("greater_than_equal", "less_than_equal") and top == "schemaVersion":
        return (
            f"schemaVersion {show(value)} is not a version errdex knows "
            f"({SCHEMA_VERSION} or {SUPERSET_SCHEMA_VERSION}); {FIX}"
        )
    if kind in ("greater_than_equal", "less_than_equal") and top in _LINE_FIELDS:
        return f"{name} {show(value)} is out of range (1..{MAX_LINE_NUMBER}); {FIX}"
    return f"{name}: {error['msg']}; {FIX}"


def _pattern_mismatch(name: str, value: Any) -> str:
    if name == "id":
        return f"id {show(value)} is not 16 lowercase hexadecimal characters; {FIX}"
    if name == "slug":
        return (
            f"slug {show(value)} is not a slug (lowercase letters and digits in words "
            f"joined by single dashes); {FIX}"
        )
    if name == "githubUrl":
        return (
            f"githubUrl {show(value)} is not an https:// link (pages link only https); "
            f"{FIX}"
        )
    return f"{name} {show(value)} does not have the required form; {FIX}"


def _text_problem(name: str, value: Any, limit: int, items: int) -> str | None:
    """NUL, a lone surrogate, text over ``limit`` or a list over ``items``, anywhere in value.

    NUL and lone surrogates are refused because PostgreSQL (and UTF-8) cannot store them.
    """
    stack: list[tuple[str, Any]] = [(name, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            if len(item) > limit:
                return f"{where} is {len(item):,} characters (at most {limit:,}); {FIX}"
            if "\x00" in item:
                return f"{where} contains a NUL character; {FIX}"
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                code = ord(item[exc.start])
                return (
                    f"{where} contains a lone surrogate (\\u{code:04x}), which is not "
                    f"Unicode text; {FIX}"
                )
        elif isinstance(item, list | tuple):
            most = items if where == name else DEFAULT_LIST_LIMIT
            if len(item) > most:
                return f"{where} has {len(item):,} items (at most {most:,}); {FIX}"
            stack.extend((f"{where}[{i}]", x) for i, x in reversed(list(enumerate(item))))
        elif isinstance(item, dict):
            if len(item) > DEFAULT_LIST_LIMIT:
                return f"{where} has {len(item):,} keys (at most {DEFAULT_LIST_LIMIT:,}); {FIX}"
            stack.extend(
                (f"{where}.{key}", x) for key, x in reversed(list(item.items()))
            )
            stack.extend((f"{where} key", key) for key in item if isinstance(key, str))
    return None


def _repo_problem(repo: str) -> str | None:
    if repo != repo.strip() or _CONTROL.search(repo):
        return f"repo {show(repo)} has spaces at an end or control characters; {FIX}"
    parts = repo.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return (
            f"repo {show(repo)} is not OWNER/NAME (a part is empty, '.' or '..'); {FIX}"
        )
    return None


def _file_path_problem(path: str) -> str | None:
    parts = path.split("/")
    if path.startswith("/") or any(part in ("", ".", "..") for part in parts):
        return (
            f"filePath {show(path)} is not a path inside the repository "
            f"(absolute, or a part is empty, '.' or '..'); {FIX}"
        )
    return None


def _pattern_problem(pattern: str) -> str | None:
    try:
        compile_pattern(pattern)
    except (ValueError, re.error, RecursionError, OverflowError) as exc:
        reason = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
        return (
            f"messagePattern {show(pattern)} is not a pattern errdex can match in linear "
            f"time ({reason}); {FIX}"
        )
    return None


def _fields_problems(fields: dict[str, Any]) -> dict[str, str]:
    """Problems of one record's own values (no model needed), by the field they concern."""
    found: dict[str, str] = {}
    source = fields.get("sourceCode")
    if isinstance(source, str) and source.count("\n") >= MAX_SOURCE_LINES:
        found["sourceCode"] = (
            f"sourceCode is {source.count(chr(10)) + 1:,} lines (at most "
            f"{MAX_SOURCE_LINES:,}); {FIX}"
        )
    for name, value in fields.items():
        if name in found:
            continue
        limit = TEXT_LIMITS.get(name, DEFAULT_TEXT_LIMIT)
        problem = _text_problem(name, value, limit, LIST_LIMITS.get(name, DEFAULT_LIST_LIMIT))
        if problem:
            found[name] = problem

    def text(name: str) -> str | None:
        value = fields.get(name)
        return value if isinstance(value, str) and name not in found else None

    repo, path, pattern = text("repo"), text("filePath"), text("messagePattern")
    if repo:
        problem = _repo_problem(repo)
        if problem:
            found["repo"] = problem
    if path:
        problem = _file_path_problem(path)
        if problem:
            found["filePath"] = problem
    if pattern is not None:
        problem = _pattern_problem(pattern)
        if problem:
            found["messagePattern"] = problem
    status = fields.get("httpStatus")
    if isinstance(status, int) and not isinstance(status, bool) and not (
        HTTP_STATUS_MIN <= status <= HTTP_STATUS_MAX
    ):
        found["httpStatus"] = (
            f"httpStatus {show(status)} is out of range ({HTTP_STATUS_MIN}..{HTTP_STATUS_MAX})"
            f" or null; {FIX}"
        )
    lines = [fields.get(name) for name in _LINE_FIELDS]
    numbers = [n for n in lines if isinstance(n, int) and not isinstance(n, bool)]
    if len(numbers) == 3 and all(1 <= n <= MAX_LINE_NUMBER for n in numbers):
        start, line, end = numbers
        if not start <= line <= end:
            found["lineNumber"] = (
                f"lineNumber {line} is outside its source window (sourceCodeStart {start}.."
                f"sourceCodeEnd {end}); {FIX}"
            )
        elif end - start + 1 > MAX_SOURCE_LINES:
            found["sourceCodeEnd"] = (
                f"the source window {start}..{end} is {end - start + 1:,} lines "
                f"(at most {MAX_SOURCE_LINES:,}); {FIX}"
            )
    return found


def check_entry(obj: Any) -> tuple[Entry | None, list[str]]:
    """One decoded dataset line: its record, or every problem found in it (one per field)."""
    if not isinstance(obj, dict):
        return None, [
            f"expected a JSON object (a dataset line or a record), not {kind_of(obj)}; {FIX}"
        ]
    problems: dict[str, str] = {}
    raw: Any = obj
    if "record" in obj:
        raw = obj["record"]
        for key in obj:
            if key not in _LINE_WRAPPER_KEYS:
                problems[f"/{key}"] = (
                    f"{show(key)} is not a key of a dataset line (only 'record' and "
                    f"'datasetVersion'); {FIX}"
                )
        version = obj.get("datasetVersion")
        if version is not None and not isinstance(version, str):
            problems["/datasetVersion"] = (
                f"datasetVersion must be a string, not {kind_of(version)}; {FIX}"
            )
        elif version is not None:
            problem = _text_problem("datasetVersion", version, MAX_DATASET_VERSION_CHARS, 0)
            if problem:
                problems["/datasetVersion"] = problem
        if not isinstance(raw, dict):
            problems["record"] = f"'record' must be a JSON object, not {kind_of(raw)}; {FIX}"
            return None, list(problems.values())
    fields = {str(key): value for key, value in raw.items()}
    extras_fields = {k: fields.pop(k) for k in list(fields) if k in _EXTRAS_KEYS}
    record: Record | None = None
    extras: RecordExtras | None = None
    for model, data in ((Record, fields), (RecordExtras, extras_fields)):
        try:
            validated = model.model_validate(data, strict=True)
        except ValidationError as exc:
            for error in exc.errors():
                problems.setdefault(str(error["loc"][0]) if error["loc"] else "", describe(error))
            continue
        if isinstance(validated, Record):
            record = validated
        elif extras_fields:
            assert isinstance(validated, RecordExtras)
            extras = validated
    for name, problem in _fields_problems({**fields, **extras_fields}).items():
        problems.setdefault(name, problem)
    if problems or record is None:
        return None, list(problems.values())
    return (record, extras), []


class KnownRecords(Protocol):
    """What checking an import against a database reads of it; every
    ``errdex.store.protocol.Store`` has it (records sit below the store: no import of it)."""

    def get_many(self, ids: Iterable[str]) -> dict[str, StoredRecord]: ...
    def previous_records(self, repo: str) -> dict[str, PreviousRecord]: ...


def check_entries(
    entries: Iterable[tuple[int, Any]], problems: Problems, store: KnownRecords | None = None
) -> list[Entry]:
    """Every line checked, then the file as a whole, then against ``store`` if given.

    Raises one DatasetError listing every problem (the first ``MAX_PROBLEMS_SHOWN``);
    returns the records only when there is none.
    """
    valid: list[tuple[int, Entry]] = []
    first_id: dict[str, int] = {}
    first_slug: dict[tuple[str, str], tuple[int, str]] = {}
    for number, obj in entries:
        entry, found = check_entry(obj)
        for problem in found:
            problems.add(number, problem)
        if isinstance(obj, dict):
            duplicate = _duplicate(obj, number, first_id, first_slug, problems.unit)
            if duplicate:
                problems.add(number, duplicate)
                entry = None
        if entry is not None:
            valid.append((number, entry))
    if store is not None and valid:
        for number, problem in _store_problems(valid, store):
            problems.add(number, problem)
    problems.raise_if_any()
    return [entry for _, entry in valid]


def _duplicate(
    obj: dict[Any, Any], number: int, first_id: dict[str, int],
    first_slug: dict[tuple[str, str], tuple[int, str]], unit: str,
) -> str | None:
    raw = obj.get("record", obj)
    if not isinstance(raw, dict):
        return None
    rid, repo, slug = raw.get("id"), raw.get("repo"), raw.get("slug")
    if not isinstance(rid, str) or not rid:
        return None
    if rid in first_id:
        return (
            f"id {show(rid)} is also on {unit} {first_id[rid]}; an import holds each id "
            f"once; drop one of the two {unit}s"
        )
    first_id[rid] = number
    if isinstance(repo, str) and isinstance(slug, str) and slug:
        earlier = first_slug.setdefault((repo, slug), (number, rid))
        if earlier[1] != rid:
            return (
                f"slug {show(slug)} of {repo} is also on {unit} {earlier[0]} (id {earlier[1]});"
                f" slugs are unique within a repository; fix or drop one of the two {unit}s"
            )
    return None


def _store_problems(
    valid: list[tuple[int, Entry]], store: KnownRecords
) -> list[tuple[int, str]]:
    """Ids the index holds for another repository, slugs another record of the repo has."""
    found: list[tuple[int, str]] = []
    incoming = {entry[0].id for _, entry in valid}
    stored = store.get_many(incoming)
    for number, (record, _) in valid:
        held = stored.get(record.id)
        if held is not None and held.record.repo != record.repo:
            found.append((number, (
                f"id {record.id} belongs to a record of {held.record.repo} in this index, "
                f"not {record.repo}; an import may not replace another repository's record; "
                "drop this line"
            )))
    for repo in sorted({record.repo for _, (record, _) in valid}):
        taken = {
            previous.slug: rid for rid, previous in store.previous_records(repo).items()
            if rid not in incoming
        }
        if not taken:
            continue
        for number, (record, _) in valid:
            other = taken.get(record.slug) if record.repo == repo else None
            if other is not None:
                found.append((number, (
                    f"slug {show(record.slug)} is taken by record {other} of {repo} in this "
                    "index; give this record another slug or drop this line"
                )))
    return found
