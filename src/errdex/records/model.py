"""The record model (schema 2, exactly the seed's fields) and the helpers that derive its fields.

Field names and JSON shapes follow ``shared/seed-record.json``: camelCase, in the
seed's order, so a record read and written back is byte-identical JSON.
Schema 3 is a documented superset: the same fields plus optional ones that only
errdex fills (language, enclosing symbol, hole names, evidence, quality flags);
``export --schema 2`` drops them.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import AliasGenerator, BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from errdex.records.evidence import Evidence

# The slug is made from a template (see templates.slug); importable from here as before.
from errdex.templates.slug import SLUG_MAX_LENGTH as SLUG_MAX_LENGTH
from errdex.templates.slug import slugify as slugify

SCHEMA_VERSION = 2
SUPERSET_SCHEMA_VERSION = 3
SOURCE_WINDOW_RADIUS = 18
# No file errdex mines has this many lines (it skips files over 2 MB); a larger number
# is damage or an attack, never a site.
MAX_LINE_NUMBER = 10_000_000
# ``slugify``'s output, with the ``-2``, ``-3`` a repeated slug gets: safe in a URL path.
SLUG_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
# Links are rendered on pages: only https, never ``javascript:``, ``data:`` or ``http:``.
GITHUB_URL_PATTERN = r"^https://"

ErrorType = Literal["panic", "exception", "error", "http", "log", "warning", "exit"]
Severity = Literal["error", "warning", "fatal"]
HandlingStrategy = Literal[
    "validation", "try-catch", "retry", "type-guard", "fix-bug", "configuration", "upgrade",
    "unsupported",
]


# Python attributes are snake_case (``record.file_path``); JSON, the dataset and the schema
# keep the seed's camelCase (``filePath``): read by either name, written by alias.
_RECORD_CONFIG = ConfigDict(
    extra="forbid", alias_generator=AliasGenerator(to_camel), validate_by_name=True,
    validate_by_alias=True, serialize_by_alias=True,
)


class Record(BaseModel):
    """One error site: where it is raised, the message it produces, and its explanation."""

    model_config = _RECORD_CONFIG

    id: str = Field(pattern=r"^[0-9a-f]{16}$")
    repo: str = Field(min_length=1)
    slug: str = Field(min_length=1, pattern=SLUG_PATTERN)
    error_code: str | None
    error_message: str
    message_pattern: str
    error_type: ErrorType
    error_class: str | None
    http_status: int | None
    severity: Severity
    file_path: str
    line_number: int = Field(ge=1, le=MAX_LINE_NUMBER)
    source_code: str
    source_code_start: int = Field(ge=1, le=MAX_LINE_NUMBER)
    source_code_end: int = Field(ge=1, le=MAX_LINE_NUMBER)
    github_url: str | None = Field(pattern=GITHUB_URL_PATTERN)
    documentation: str | None
    trigger_scenarios: str | None
    common_situations: str | None
    solutions: list[str]
    example_fix: str | None
    handling_strategy: HandlingStrategy | None
    validation_code: str | None
    type_guard: str | None
    try_catch_pattern: str | None
    prevention_tips: list[str]
    tags: list[str]
    background_tag: str | None
    analyzed_sha: str
    analyzed_at: str
    content_changed_at: str
    schema_version: int = Field(ge=SCHEMA_VERSION, le=SUPERSET_SCHEMA_VERSION)


class TemplateSource(BaseModel):
    """Where part of a composed message is written: an exception class, a factory, a helper."""

    model_config = _RECORD_CONFIG

    file_path: str
    line_number: int
    role: str  # "class message", "class decoration", "factory", "helper"


class RecordExtras(BaseModel):
    """Schema-3 superset fields: facts errdex knows that the seed format has no place for."""

    model_config = _RECORD_CONFIG

    language: str | None = None
    enclosing_symbol: str | None = None
    hole_names: list[str] = Field(default_factory=list)
    # What enrichment read about the site (doc comments, guards, tests, history), and the
    # quality flags it raised where that evidence is thin (``no-doc``, ``no-trigger`` …).
    evidence: Evidence | None = None
    quality_flags: list[str] = Field(default_factory=list)
    # Where the message's parts are written when not all at the raise site (composition).
    template_sources: list[TemplateSource] = Field(default_factory=list)
    # A site mined from a registry release (``pypi:NAME==VERSION``, ``npm:NAME@VERSION``, an
    # installed environment): the package, its version and ecosystem (``pypi`` | ``npm``).
    package: str | None = None
    package_version: str | None = None
    package_ecosystem: str | None = None


class DatasetLine(BaseModel):
    """One line of a dataset file."""

    model_config = _RECORD_CONFIG

    record: Record
    dataset_version: str


EXPLANATION_FIELDS = (
    "documentation", "triggerScenarios", "commonSituations", "solutions", "exampleFix",
    "handlingStrategy", "validationCode", "typeGuard", "tryCatchPattern", "preventionTips",
    "tags", "backgroundTag",
)


# JSON key → Python attribute, for code that names fields by their JSON keys (the LLM's
# answers, the explanation table, stored JSON read back without validation).
ATTRIBUTE_FOR_KEY: dict[str, str] = {
    info.alias or name: name
    for model in (Record, RecordExtras)
    for name, info in model.model_fields.items()
}


def json_keys(model: type[BaseModel]) -> list[str]:
    """A model's field names as JSON writes them (the seed's camelCase), in order."""
    return [info.alias or name for name, info in model.model_fields.items()]


def attribute(key: str) -> str:
    """The attribute of a record field named by its JSON key: ``filePath`` → ``file_path``."""
    return ATTRIBUTE_FOR_KEY.get(key, key)


def empty_explanation() -> dict[str, Any]:
    """The explanation fields of a record that has not been enriched."""
    return {
        "documentation": None, "triggerScenarios": None, "commonSituations": None,
        "solutions": [], "exampleFix": None, "handlingStrategy": None, "validationCode": None,
        "typeGuard": None, "tryCatchPattern": None, "preventionTips": [], "tags": [],
        "backgroundTag": None,
    }


def assign(model: BaseModel, values: dict[str, Any]) -> None:
    """Attributes set as ``model.name = value`` sets them (no model of errdex validates an
    assignment): one update of its fields, where pydantic's ``__setattr__`` per field cost
    a mine more than the values did."""
    model.__dict__.update(values)
    model.__pydantic_fields_set__.update(values)


# JSON keys of a stored record, in their order → the attributes they name (``trusted_record``):
# records written by one errdex share an order, so this holds one or a few entries.
_ATTRIBUTES_OF_KEYS: dict[tuple[str, ...], tuple[str, ...]] = {}
_KEY_ORDERS = 64


def trusted_record(data: dict[str, Any]) -> Record:
    """A Record from data errdex validated when it wrote it (the store), without validating again.

    Lookups read a record for every match; ``model_construct`` costs several times
    this, and validation far more. Equal to ``Record.model_construct(**data)`` (a test
    holds the two together).
    """
    record = Record.__new__(Record)
    keys = tuple(data)  # a store's records share one key order: its attributes read once
    names = _ATTRIBUTES_OF_KEYS.get(keys)
    if names is None:
        if len(_ATTRIBUTES_OF_KEYS) >= _KEY_ORDERS:
            _ATTRIBUTES_OF_KEYS.clear()
        names = _ATTRIBUTES_OF_KEYS[keys] = tuple(ATTRIBUTE_FOR_KEY.get(key, key) for key in keys)
    data = dict(zip(names, data.values(), strict=True))
    object.__setattr__(record, "__dict__", data)
    object.__setattr__(record, "__pydantic_fields_set__", set(data))
    object.__setattr__(record, "__pydantic_extra__", None)
    object.__setattr__(record, "__pydantic_private__", None)
    return record


def record_json(record: Record) -> str:
    """Compact JSON in the seed's style (field order, no spaces, non-ASCII kept)."""
    return json.dumps(record.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))


def now_iso() -> str:
    """UTC time in the seed's format: ``2026-09-05T13:19:14.260Z``."""
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def record_id(
    repo: str, file_path: str, error_class: str | None, normalized_template: str,
    symbol: str | None, occurrence: int = 0,
) -> str:
    """Stable identity of a site: never the line number, so moving code keeps the id."""
    key = "\x1f".join(
        [repo, file_path, error_class or "", normalized_template, symbol or "", str(occurrence)]
    )
    # surrogatepass: a template may hold a lone surrogate (Python's "\udc80"); every other
    # text hashes exactly as before, so ids do not change.
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def source_window(lines: list[str], line_number: int) -> tuple[str, int, int]:
    """The lines [line−18, line+18] clipped to the file, joined with newlines."""
    start = max(1, line_number - SOURCE_WINDOW_RADIUS)
    end = min(len(lines), line_number + SOURCE_WINDOW_RADIUS)
    return "\n".join(lines[start - 1 : end]), start, end


def content_hash(message: str, source_code: str) -> str:
    """What ``contentChangedAt`` tracks: the message and the code around it."""
    data = f"{message}\x1f{source_code}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:16]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a dataset line, generated from the models (committed as schema/)."""
    schema = DatasetLine.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "errdex dataset line (record schema 2)"
    return schema
