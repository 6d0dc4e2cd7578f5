"""The text sites table: written with a mine, replaced per file like records, probed by lead.

Kept apart from ``sql`` (records) because text sites share nothing with records but the
transaction a mine writes in: no ids, no patterns, no export, no search.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from errdex.records.text_sites import TextSite, leads_of, words

# Most rows a probe reads per lead (longest texts first): a lead shared by thousands of
# literals ("could not find …") still costs a bounded read.
PER_LEAD = 20


class _Runs(Protocol):
    """What the functions here need of a ``SQLStore`` (its own methods, in its transaction)."""

    def _execute(self, query: str, args: Sequence[object] = ()) -> Any: ...
    def _execute_many(self, query: str, rows: Iterable[Sequence[object]]) -> None: ...
    def _in(self, column: str, values: Iterable[object]) -> tuple[str, list[object]]: ...


def replace_text_sites(
    store: _Runs, repo: str, texts: list[TextSite], files: set[str] | None
) -> None:
    """The repository's text sites of ``files`` (None: every file) become ``texts``."""
    if files is None:
        store._execute("DELETE FROM text_sites WHERE repo = ?", (repo,))
    elif files:
        condition, values = store._in("file_path", sorted(files))
        store._execute(f"DELETE FROM text_sites WHERE repo = ? AND {condition}", [repo, *values])
    if texts:  # one row per lead: a probe by any of a text's first windows finds it
        store._execute_many(
            "INSERT INTO text_sites (repo, file_path, line_number, text, lead, word_count, "
            "github_url) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (row for t in texts for row in _rows(repo, t)),
        )


def _rows(repo: str, site: TextSite) -> list[tuple[object, ...]]:
    """A text's rows, one per lead; its words and text read once for all of them."""
    found = words(site.text)
    path, value = _utf8(site.file_path), _utf8(site.text)
    return [(repo, path, site.line_number, value, _utf8(key), len(found), site.github_url)
            for key in leads_of(found)]


def _utf8(text: str) -> str:
    """``text`` as the database can hold it: a lone surrogate (a string literal's escape
    of half a pair, an undecodable file name) becomes U+FFFD instead of failing the mine."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # through UTF-16: a well-formed pair becomes its character, a lone half U+FFFD
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def text_sites_by_lead(
    store: _Runs, leads: Sequence[str], repo: str | None
) -> list[tuple[str, TextSite]]:
    """(repo, text site) filed under any of ``leads``: at most ``PER_LEAD`` per lead, the
    longest texts first, in one statement."""
    if not leads:
        return []
    selects: list[str] = []
    args: list[object] = []
    for n, key in enumerate(leads):
        where = "lead = ?" + (" AND repo = ?" if repo else "")
        selects.append(
            f"SELECT * FROM (SELECT repo, file_path, line_number, text, github_url FROM "
            f"text_sites WHERE {where} ORDER BY word_count DESC LIMIT {PER_LEAD}) AS t{n}"
        )
        args.extend([key, repo] if repo else [key])
    rows = store._execute(" UNION ALL ".join(selects), args).fetchall()
    return [(r[0], TextSite(r[1], int(r[2]), r[3], r[4])) for r in rows]


def text_site_count(store: _Runs, repo: str | None = None) -> int:
    """How many text sites are stored (of one repository)."""
    distinct = "SELECT DISTINCT repo, file_path, line_number, text FROM text_sites"
    if repo is None:
        return int(store._execute(f"SELECT COUNT(*) FROM ({distinct}) AS d").fetchone()[0])
    row = store._execute(f"SELECT COUNT(*) FROM ({distinct} WHERE repo = ?) AS d",
                         (repo,)).fetchone()
    return int(row[0])


__all__ = ["PER_LEAD", "replace_text_sites", "text_site_count", "text_sites_by_lead"]
