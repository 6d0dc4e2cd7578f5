"""Presentation helpers for the pages: URLs, listings, the API reference.

What a record page shows (source window, explanation sections, highlighted code, prose)
is ``errdex.datasets.record_view``'s, reached through the API, which the static site
draws with too. Pure functions over records; nothing here looks anything up except
``family_members``, which asks the store's full-text search.

All text a page shows passes :func:`errdex.visible.visible` (templates through the
``finalize`` hook ``shown``, code before Pygments, prose before escaping), so control
characters and bidi overrides from a repository are seen, never obeyed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal
from urllib.parse import quote

from errdex.api import Record, Store, StoredRecord, record_view

NO_OWNER = "-"
UNCLASSIFIED = "unclassified"

# What a record page shows is written once, in errdex.datasets.record_view (the static
# site draws its record pages from it too): these are its names as the templates use them.
shown = record_view.shown
link_url = record_view.link_url
highlighted = record_view.highlighted
capped_line = record_view.capped_line
source_window = record_view.source_window
source_note = record_view.source_note
source_lines = record_view.source_lines
code_block = record_view.code_block
explanation = record_view.explanation
short = record_view.short
prose = record_view.prose
_lines_between = record_view.lines_between
SourceLine = record_view.SourceLine
Section = record_view.Section
PAGE_CONTEXT_LINES = record_view.PAGE_CONTEXT_LINES
MAX_LINE_CHARS = record_view.MAX_LINE_CHARS
MAX_CODE_LINES = record_view.MAX_CODE_LINES


def repo_path(repo: str) -> str:
    """``/owner/name``; an owner with slashes (GitLab subgroups) keeps them:
    ``/group/sub/name``; a repo without owner is ``/-/name``."""
    owner, _, name = repo.rpartition("/")
    segments = owner.split("/") if owner else [NO_OWNER]
    return "/" + "/".join(quote(part, safe="") for part in [*segments, name])


PageTarget = tuple[Literal["repo"], str, None] | tuple[Literal["record"], str, str]


def page_target(path: str, repos: Collection[str]) -> PageTarget | None:
    """What a page path names: a repository, or a record (``/REPO/SLUG``) of one.

    Repositories may have any number of segments (``group/sub/name``), so the path is
    read against the repositories in the index: the whole path when it is one, else
    all but the last segment with the last as the slug. (Were both ``a/b/c`` and
    ``a/b`` indexed, ``/a/b/c`` is the repository; GitLab allows no such pair.)
    """
    segments = path.strip("/").split("/")
    if len(segments) < 2 or not all(segments):
        return None

    def repo_of(parts: list[str]) -> str:
        if parts[0] == NO_OWNER and len(parts) == 2:
            return parts[1]
        return "/".join(parts)

    whole = repo_of(segments)
    if whole in repos:
        return ("repo", whole, None)
    if len(segments) >= 3:
        owner_and_name = repo_of(segments[:-1])
        if owner_and_name in repos:
            return ("record", owner_and_name, segments[-1])
    return None


def record_path(record: Record) -> str:
    return f"{repo_path(record.repo)}/{quote(record.slug, safe='')}"


def family_path(tag: str) -> str:
    return f"/family/{quote(tag, safe='')}"


def grouped(records: list[StoredRecord]) -> dict[str, dict[str, list[StoredRecord]]]:
    """errorType → family (backgroundTag) → records, both levels sorted by name."""
    groups: dict[str, dict[str, list[StoredRecord]]] = defaultdict(lambda: defaultdict(list))
    for stored in records:
        family = stored.record.background_tag or UNCLASSIFIED
        groups[stored.record.error_type][family].append(stored)
    return {
        kind: {family: families[family] for family in sorted(families, key=_family_order)}
        for kind, families in sorted(groups.items())
    }


def _family_order(family: str) -> tuple[bool, str]:
    return family == UNCLASSIFIED, family


def family_members(store: Store, tag: str, limit: int = 500) -> list[StoredRecord]:
    """Records whose ``backgroundTag`` is ``tag``, across repositories.

    The tag's words go through full-text search (which indexes tags), then the
    exact tag is checked, so only true members come back.
    """
    words = tag.replace("-", " ").replace("_", " ")
    found = store.search(words, limit=max(limit * 4, 200))
    members = [s for s in found if s.record.background_tag == tag]
    members.sort(key=lambda s: (s.record.repo, s.record.file_path, s.record.line_number))
    return members[:limit]


@dataclass(frozen=True)
class ApiField:
    name: str
    type: str
    required: bool
    description: str


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    summary: str
    description: str
    parameters: list[tuple[str, ApiField]]  # (where: path/query, field)
    body: list[ApiField]
    responses: list[tuple[str, str]]


def _dict(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _schema_type(schema: dict[str, object]) -> str:
    """``string``, ``integer | null``, ``array of Record``: a schema as a reader says it."""
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "anyOf" in schema:
        return " | ".join(_schema_type(_dict(part)) for part in _list(schema["anyOf"]))
    kind = str(schema.get("type", "any"))
    if kind == "array":
        return f"array of {_schema_type(_dict(schema.get('items')))}"
    return kind


def api_operations(spec: dict[str, object]) -> list[Operation]:
    """The API operations of an OpenAPI document, flattened for the reference page."""
    schemas = _dict(_dict(spec.get("components")).get("schemas"))
    out = []
    for path, methods in _dict(spec.get("paths")).items():
        if not path.startswith("/api/"):
            continue
        for method, raw in _dict(methods).items():
            op = _dict(raw)
            params = []
            for raw_param in _list(op.get("parameters")):
                param = _dict(raw_param)
                params.append((str(param.get("in", "")), ApiField(
                    str(param.get("name", "")), _schema_type(_dict(param.get("schema"))),
                    bool(param.get("required")), str(param.get("description", "")))))
            body = []
            content = _dict(_dict(op.get("requestBody")).get("content"))
            ref = _dict(_dict(content.get("application/json")).get("schema")).get("$ref")
            if ref:
                model = _dict(schemas.get(str(ref).rsplit("/", 1)[-1]))
                required = _list(model.get("required"))
                for name, raw_field in _dict(model.get("properties")).items():
                    field = _dict(raw_field)
                    body.append(ApiField(name, _schema_type(field), name in required,
                                         str(field.get("description", ""))))
            responses = [(str(code), str(_dict(r).get("description", "")))
                         for code, r in _dict(op.get("responses")).items()]
            out.append(Operation(method.upper(), path, str(op.get("summary", "")),
                                 str(op.get("description", "")), params, body, responses))
    return out
