"""Presentation helpers for the pages: URLs, highlighted source, explanation sections.

Pure functions over records; nothing here looks anything up except
``family_members``, which asks the store's full-text search.

All text a page shows passes :func:`errdex.visible.visible` (templates through the
``finalize`` hook :func:`shown`, code before Pygments, prose before escaping), so
control characters and bidi overrides from a repository are seen, never obeyed.
"""

from __future__ import annotations

import re
import textwrap
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal
from urllib.parse import quote

from markupsafe import Markup, escape
from pygments import highlight  # type: ignore[import-untyped,unused-ignore]
from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped,unused-ignore]
from pygments.lexer import Lexer  # type: ignore[import-untyped,unused-ignore]
from pygments.lexers import TextLexer, get_lexer_by_name, get_lexer_for_filename  # type: ignore[import-untyped,unused-ignore]
from pygments.util import ClassNotFound  # type: ignore[import-untyped,unused-ignore]

from errdex.api import Record, RecordExtras, Store, StoredRecord
from errdex.visible import https_url, visible

_BACKTICKS = re.compile(r"`([^`\n]+)`")
NO_OWNER = "-"
UNCLASSIFIED = "unclassified"
_FORMATTER = HtmlFormatter(nowrap=True)
PAGE_CONTEXT_LINES = 100  # a record page shows at most 2 × 100 + 1 source lines
MAX_LINE_CHARS = 1000
MAX_CODE_LINES = 200


def shown(value: object) -> object:
    """Jinja's ``finalize``: every ``{{ text }}`` a template prints is made visible
    (HTML that is already safe, such as Pygments' output, was made visible before)."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return visible(value)
    return value


def link_url(url: str | None) -> str | None:
    """The URL when a page may link it (``https://`` only); None shows it as text."""
    return https_url(url)


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


@dataclass(frozen=True)
class SourceLine:
    number: int
    html: Markup
    raised: bool


@lru_cache(maxsize=256)
def _lexer(language: str | None, file_path: str) -> Lexer:
    try:
        if language:
            return get_lexer_by_name(language, stripnl=False)
    except ClassNotFound:
        pass
    try:
        return get_lexer_for_filename(file_path, stripnl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False)


def highlighted(code: str, language: str | None, file_path: str) -> list[Markup]:
    """One HTML string per line of ``code``, syntax-highlighted (spans close per line),
    its controls and bidi overrides made visible first."""
    code = visible(code)
    count = code.count("\n") + 1
    html = highlight(code, _lexer(language, file_path), _FORMATTER).split("\n")
    lines = [Markup(line) for line in html[:count]]  # Pygments escapes the code
    return lines + [Markup("")] * (count - len(lines))


def capped_line(line: str, limit: int = MAX_LINE_CHARS) -> str:
    """A line cut to ``limit`` characters, saying how much was left out."""
    if len(line) <= limit:
        return line
    return f"{line[:limit]} … ({len(line) - limit:,} more characters)"


def source_window(record: Record, context: int = PAGE_CONTEXT_LINES) -> tuple[int, int, int]:
    """``(first, last, total)``: the lines shown (0-based, ``last`` excluded) around
    the raising line, ``context`` each side, of the ``total`` the record holds."""
    total = record.source_code.count("\n") + 1
    offset = record.line_number - record.source_code_start
    first = min(max(0, offset - context), total)
    return first, max(first, min(total, offset + context + 1)), total


def source_note(record: Record, context: int = PAGE_CONTEXT_LINES) -> str | None:
    """What a capped window leaves out, for a note under it (None: nothing left out)."""
    first, last, total = source_window(record, context)
    if first == 0 and last == total:
        return None
    start = record.source_code_start
    return (f"Showing lines {start + first:,}–{start + last - 1:,} of the {total:,} lines "
            "stored with this record; the JSON has them all.")


def source_lines(
    record: Record, extras: RecordExtras, context: int = PAGE_CONTEXT_LINES
) -> list[SourceLine]:
    """The source window with real line numbers: ``context`` lines each side at most,
    each line cut at ``MAX_LINE_CHARS`` (a record may hold a whole minified file).

    The lines shown are dedented together, so deep code still fits a phone.
    """
    first, last, _ = source_window(record, context)
    raw = _lines_between(record.source_code, first, last)
    start = record.source_code_start
    shown = textwrap.dedent("\n".join(capped_line(line) for line in raw))
    html = highlighted(shown, extras.language, record.file_path)
    return [
        SourceLine(start + first + i, line, start + first + i == record.line_number)
        for i, line in enumerate(html)
    ]


def _lines_between(text: str, first: int, last: int) -> list[str]:
    """Lines ``first`` to ``last`` (excluded) of ``text``, without splitting all of it."""
    at = 0
    for _ in range(first):
        at = text.find("\n", at) + 1
        if at == 0:
            return []
    out = []
    for _ in range(last - first):
        end = text.find("\n", at)
        if end < 0:
            out.append(text[at:])
            break
        out.append(text[at:end])
        at = end + 1
    return out


def code_block(code: str, record: Record, extras: RecordExtras) -> Markup:
    """An explanation's code, highlighted; long ones cut at ``MAX_CODE_LINES`` lines."""
    lines = _lines_between(code, 0, MAX_CODE_LINES + 1)
    if len(lines) > MAX_CODE_LINES:
        lines = [*lines[:MAX_CODE_LINES], "… (cut: the JSON has the rest)"]
    html = highlighted("\n".join(capped_line(line) for line in lines), extras.language,
                       record.file_path)
    return Markup("\n").join(html)


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    kind: str  # text | list | code | tags | value
    value: object


_SECTIONS: tuple[tuple[str, str, str], ...] = (
    ("documentation", "What it means", "text"),
    ("trigger_scenarios", "When it happens", "text"),
    ("common_situations", "Common situations", "text"),
    ("solutions", "How to fix it", "list"),
    ("example_fix", "Example fix", "code"),
    ("handling_strategy", "Handling strategy", "value"),
    ("validation_code", "Validate first", "code"),
    ("type_guard", "Type guard", "code"),
    ("try_catch_pattern", "Catch and recover", "code"),
    ("prevention_tips", "Prevention", "list"),
    ("tags", "Tags", "tags"),
    ("background_tag", "Family", "family"),
)


def explanation(record: Record, extras: RecordExtras) -> tuple[list[Section], list[str]]:
    """The explanation sections that are written, and the titles of those still empty."""
    present: list[Section] = []
    missing: list[str] = []
    for key, title, kind in _SECTIONS:
        value = getattr(record, key)
        if not value:
            missing.append(title)
            continue
        if kind == "code":
            value = code_block(str(value), record, extras)
        # the page's anchor is the field's JSON key (#triggerScenarios), as in the API
        anchor = "".join(w.capitalize() if i else w for i, w in enumerate(key.split("_")))
        present.append(Section(anchor, title, kind, value))
    return present, missing


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


def short(text: str | None, length: int = 220) -> str:
    if not text:
        return ""
    text = " ".join(text.split())
    return text if len(text) <= length else text[: length - 1].rstrip() + "…"




def prose(text: str | None) -> Markup:
    """Explanation text, made visible and escaped, with `backticked` spans shown as code."""
    return Markup(_BACKTICKS.sub(r"<code>\1</code>", str(escape(visible(text or "")))))


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
