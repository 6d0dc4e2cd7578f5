"""What a record page shows, once: the source window with the raising line marked, the
explanation sections in their order, and the prose and code made visible and escaped.

The static site (:mod:`errdex.datasets.site`) renders its record pages from these
functions; the served record page shows the same sections from the same table
(``SECTIONS``), so a field added here appears on both. Pure functions over records.

All text passes :func:`errdex.visible.visible` (code before Pygments, prose before
escaping), so control characters and bidi overrides from a repository are seen, never
obeyed. Needs ``jinja2``/``markupsafe`` and ``pygments`` (the ``web`` extra).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from functools import lru_cache

from markupsafe import Markup, escape
from pygments import highlight  # type: ignore[import-untyped,unused-ignore]
from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped,unused-ignore]
from pygments.lexer import Lexer  # type: ignore[import-untyped,unused-ignore]
from pygments.lexers import TextLexer, get_lexer_by_name, get_lexer_for_filename  # type: ignore[import-untyped,unused-ignore]
from pygments.util import ClassNotFound  # type: ignore[import-untyped,unused-ignore]

from errdex.records.model import Record, RecordExtras
from errdex.visible import https_url, visible

_BACKTICKS = re.compile(r"`([^`\n]+)`")
_FORMATTER = HtmlFormatter(nowrap=True)
CODE_STYLE = "github-dark"  # the Pygments style both the site and the served pages use
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


def code_css() -> str:
    """The stylesheet of highlighted code (Pygments' ``CODE_STYLE``)."""
    return str(HtmlFormatter(style=CODE_STYLE).get_style_defs(".highlight"))


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
    raw = lines_between(record.source_code, first, last)
    start = record.source_code_start
    text = textwrap.dedent("\n".join(capped_line(line) for line in raw))
    html = highlighted(text, extras.language, record.file_path)
    return [
        SourceLine(start + first + i, line, start + first + i == record.line_number)
        for i, line in enumerate(html)
    ]


def lines_between(text: str, first: int, last: int) -> list[str]:
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
    lines = lines_between(code, 0, MAX_CODE_LINES + 1)
    if len(lines) > MAX_CODE_LINES:
        lines = [*lines[:MAX_CODE_LINES], "… (cut: the JSON has the rest)"]
    html = highlighted("\n".join(capped_line(line) for line in lines), extras.language,
                       record.file_path)
    return Markup("\n").join(html)


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    kind: str  # text | list | code | tags | value | family
    value: object


# The explanation a record page shows, in order: (field, title, how it is drawn).
SECTIONS: tuple[tuple[str, str, str], ...] = (
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
    for key, title, kind in SECTIONS:
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


def short(text: str | None, length: int = 220) -> str:
    """Text on one line, cut at ``length`` characters with an ellipsis."""
    if not text:
        return ""
    text = " ".join(text.split())
    return text if len(text) <= length else text[: length - 1].rstrip() + "…"


def prose(text: str | None) -> Markup:
    """Explanation text, made visible and escaped, with `backticked` spans shown as code."""
    return Markup(_BACKTICKS.sub(r"<code>\1</code>", str(escape(visible(text or "")))))


def worth_indexing(record: Record, extras: RecordExtras) -> bool:
    """Whether a record's page says more than the mechanical minimum, so that a search
    engine may index it (else the site marks it ``noindex`` and leaves it out of the
    sitemap).

    Static enrichment always writes a first sentence (who raises what, where) and, for
    errors and exceptions, a generic "handle it where it is called" solution; that is
    the minimum. A page is worth indexing when it has ``documentation`` and
    ``solutions`` and at least one of what evidence or a person wrote:

    * ``triggerScenarios`` (static enrichment writes it only from a test that expects
      the error or a guard around the site);
    * a doc comment that speaks about the site (no ``no-doc`` quality flag);
    * an explanation a model wrote and errdex verified (the ``llm-enriched`` flag).

    Records imported with their own explanation and no quality flags count as written
    by a person when they have documentation and solutions.
    """
    if not record.documentation or not record.solutions:
        return False
    flags = set(extras.quality_flags)
    return bool(record.trigger_scenarios) or "llm-enriched" in flags or "no-doc" not in flags
