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

from pydantic import BaseModel, ConfigDict, Field

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


class Record(BaseModel):
    """One error site: where it is raised, the message it produces, and its explanation."""

    model_config = ConfigDict(extra="forbid", frozen=False)

    id: str = Field(pattern=r"^[0-9a-f]{16}$")
    repo: str = Field(min_length=1)
    slug: str = Field(min_length=1, pattern=SLUG_PATTERN)
    errorCode: str | None
    errorMessage: str
    messagePattern: str
    errorType: ErrorType
    errorClass: str | None
    httpStatus: int | None
    severity: Severity
    filePath: str
    lineNumber: int = Field(ge=1, le=MAX_LINE_NUMBER)
    sourceCode: str
    sourceCodeStart: int = Field(ge=1, le=MAX_LINE_NUMBER)
    sourceCodeEnd: int = Field(ge=1, le=MAX_LINE_NUMBER)
    githubUrl: str | None = Field(pattern=GITHUB_URL_PATTERN)
    documentation: str | None
    triggerScenarios: str | None
    commonSituations: str | None
    solutions: list[str]
    exampleFix: str | None
    handlingStrategy: HandlingStrategy | None
    validationCode: str | None
    typeGuard: str | None
    tryCatchPattern: str | None
    preventionTips: list[str]
    tags: list[str]
    backgroundTag: str | None
    analyzedSha: str
    analyzedAt: str
    contentChangedAt: str
    schemaVersion: int = Field(ge=SCHEMA_VERSION, le=SUPERSET_SCHEMA_VERSION)


class RecordExtras(BaseModel):
    """Schema-3 superset fields: facts errdex knows that the seed format has no place for."""

    model_config = ConfigDict(extra="forbid")

    language: str | None = None
    enclosingSymbol: str | None = None
    holeNames: list[str] = Field(default_factory=list)
    # What enrichment read about the site (doc comments, guards, tests, history), and the
    # quality flags it raised where that evidence is thin (``no-doc``, ``no-trigger`` …).
    evidence: Evidence | None = None
    qualityFlags: list[str] = Field(default_factory=list)


class DatasetLine(BaseModel):
    """One line of a dataset file."""

    model_config = ConfigDict(extra="forbid")

    record: Record
    datasetVersion: str


EXPLANATION_FIELDS = (
    "documentation", "triggerScenarios", "commonSituations", "solutions", "exampleFix",
    "handlingStrategy", "validationCode", "typeGuard", "tryCatchPattern", "preventionTips",
    "tags", "backgroundTag",
)


def empty_explanation() -> dict[str, Any]:
    """The explanation fields of a record that has not been enriched."""
    return {
        "documentation": None, "triggerScenarios": None, "commonSituations": None,
        "solutions": [], "exampleFix": None, "handlingStrategy": None, "validationCode": None,
        "typeGuard": None, "tryCatchPattern": None, "preventionTips": [], "tags": [],
        "backgroundTag": None,
    }


def trusted_record(data: dict[str, Any]) -> Record:
    """A Record from data errdex validated when it wrote it (the store), without validating again.

    Lookups read a record for every match; ``model_construct`` costs several times
    this, and validation far more. Equal to ``Record.model_construct(**data)`` (a test
    holds the two together).
    """
    record = Record.__new__(Record)
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
