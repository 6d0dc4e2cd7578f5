"""Presentation helpers for the pages: URLs, highlighted source, explanation sections.

Pure functions over records; nothing here looks anything up except
``family_members``, which asks the store's full-text search.
"""

from __future__ import annotations

import re
import textwrap
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import quote

from markupsafe import Markup, escape
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_by_name, get_lexer_for_filename
from pygments.util import ClassNotFound

from errdex.record import Record, RecordExtras
from errdex.store import StoredRecord
from errdex.stores import Store

_BACKTICKS = re.compile(r"`([^`\n]+)`")
NO_OWNER = "-"
UNCLASSIFIED = "unclassified"
_FORMATTER = HtmlFormatter(nowrap=True)


def repo_name(owner: str, name: str) -> str:
    """The repo a ``/{owner}/{name}`` URL names (``-`` stands for no owner)."""
    return name if owner == NO_OWNER else f"{owner}/{name}"


def repo_path(repo: str) -> str:
    owner, _, name = repo.rpartition("/")
    return f"/{quote(owner or NO_OWNER, safe='')}/{quote(name, safe='')}"


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
    """One HTML string per line of ``code``, syntax-highlighted (spans close per line)."""
    count = code.count("\n") + 1
    html = highlight(code, _lexer(language, file_path), _FORMATTER).split("\n")
    lines = [Markup(line) for line in html[:count]]  # Pygments escapes the code
    return lines + [Markup("")] * (count - len(lines))


def source_lines(
    record: Record, extras: RecordExtras, context: int | None = None
) -> list[SourceLine]:
    """The source window with real line numbers; ``context`` lines each side, or all.

    The lines shown are dedented together, so deep code still fits a phone.
    """
    raw = record.sourceCode.split("\n")
    start = record.sourceCodeStart
    first, last = 0, len(raw)
    if context is not None:
        offset = record.lineNumber - start
        first, last = max(0, offset - context), min(len(raw), offset + context + 1)
    shown = textwrap.dedent("\n".join(raw[first:last]))
    html = highlighted(shown, extras.language, record.filePath)
    return [
        SourceLine(start + first + i, line, start + first + i == record.lineNumber)
        for i, line in enumerate(html)
    ]


def code_block(code: str, record: Record, extras: RecordExtras) -> Markup:
    lines = highlighted(code, extras.language, record.filePath)
    return Markup("\n").join(lines)


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    kind: str  # text | list | code | tags | value
    value: object


_SECTIONS: tuple[tuple[str, str, str], ...] = (
    ("documentation", "What it means", "text"),
    ("triggerScenarios", "When it happens", "text"),
    ("commonSituations", "Common situations", "text"),
    ("solutions", "How to fix it", "list"),
    ("exampleFix", "Example fix", "code"),
    ("handlingStrategy", "Handling strategy", "value"),
    ("validationCode", "Validate first", "code"),
    ("typeGuard", "Type guard", "code"),
    ("tryCatchPattern", "Catch and recover", "code"),
    ("preventionTips", "Prevention", "list"),
    ("tags", "Tags", "tags"),
    ("backgroundTag", "Family", "family"),
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
        present.append(Section(key, title, kind, value))
    return present, missing


def grouped(records: list[StoredRecord]) -> dict[str, dict[str, list[StoredRecord]]]:
    """errorType → family (backgroundTag) → records, both levels sorted by name."""
    groups: dict[str, dict[str, list[StoredRecord]]] = defaultdict(lambda: defaultdict(list))
    for stored in records:
        family = stored.record.backgroundTag or UNCLASSIFIED
        groups[stored.record.errorType][family].append(stored)
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
    members = [s for s in found if s.record.backgroundTag == tag]
    members.sort(key=lambda s: (s.record.repo, s.record.filePath, s.record.lineNumber))
    return members[:limit]


def short(text: str | None, length: int = 220) -> str:
    if not text:
        return ""
    text = " ".join(text.split())
    return text if len(text) <= length else text[: length - 1].rstrip() + "…"




def prose(text: str | None) -> Markup:
    """Explanation text, escaped, with `backticked` spans shown as code."""
    return Markup(_BACKTICKS.sub(r"<code>\1</code>", str(escape(text or ""))))
