"""Reading a database through the public API: explain, scan, search, show."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from errdex.api._pinned import WIDEN, DepsSource, pinned_from, prefer_pinned
from errdex.api._stores import Db, open_index, using_store
from errdex.errors import UsageError
from errdex.lookup.context import named_texts_win
from errdex.lookup.index import Index, Match
from errdex.lookup.lineage import gone_for_good, lives_on_in_text
from errdex.lookup.text_sites import (
    TextSiteMatch,
    find_text_sites,
    hole_filled,
    outranks,
    thin,
)
from errdex.store.protocol import StoredRecord

if TYPE_CHECKING:  # the scan's modules load when a log is scanned, not for one explain
    from errdex.lookup.scan import ScannedEvent, ScanSummary

LogSource = str | os.PathLike[str] | TextIO
"""A log file's path (``"-"``: stdin), or an open text stream."""


def explain(text: str, *, db: Db | Index = None, top: int = 5,
            repo: str | None = None, deps: DepsSource | None = None) -> list[Match]:
    """The records that best explain a pasted error (a message, traceback, panic or log
    lines), best first; empty when none matches. Pass an :class:`Index` as ``db`` to reuse
    one across many lookups. ``deps`` (a project's lockfile or folder; default
    ``$ERRDEX_DEPS``): matches from the versions it pins rank first among equals."""
    pinned = pinned_from(deps)
    if not isinstance(db, Index):
        with using_store(db) as store:
            return explain(text, db=open_index(store), top=top, repo=repo,
                           deps=pinned)
    if pinned is None:
        return db.explain(text, top=top, repo=repo)
    return prefer_pinned(db.explain(text, top=top * WIDEN, repo=repo), pinned, top)[0]


def text_sites(text: str, *, db: Db | Index = None, top: int = 5,
               repo: str | None = None) -> list[TextSiteMatch]:
    """When :func:`explain` finds no record: the lines whose literal text the pasted
    message contains, flagged ``"the text appears here; errdex did not see how it is
    raised"`` (a place, no record)."""
    if isinstance(db, Index):
        return db.text_sites(text, top=top, repo=repo)
    with using_store(db) as store:
        return find_text_sites(store, text, top=top, repo=repo)


@dataclass(frozen=True)
class Resolution:
    """What a paste resolves to: its records, else (none matched) the lines holding its text."""

    matches: list[Match]
    text_sites: list[TextSiteMatch]
    note: str | None = None
    """With ``deps``: the best match is from another version than the project pins."""

    def to_json(self) -> dict[str, Any]:
        """``{"matches": [...]}`` as ``errdex explain --json`` prints it (and ``"note"``)."""
        found = [m.to_json() for m in self.matches] or [t.to_json() for t in self.text_sites]
        return {"matches": found, **({"note": self.note} if self.note else {})}


def resolve(text: str, *, db: Db | Index = None, top: int = 5,
            repo: str | None = None, deps: DepsSource | None = None) -> Resolution:
    """:func:`explain`, then :func:`text_sites` when no record matched, or when every
    record matched thinly and a line holds more of the message whole (``outranks``): what
    every interface shows for a paste, from one store. ``deps``: as for :func:`explain`,
    and ``note`` says when the best match is not the version the project pins."""
    pinned = pinned_from(deps)
    if not isinstance(db, Index):
        with using_store(db) as store:
            return resolve(text, db=open_index(store), top=top, repo=repo,
                           deps=pinned)
    note = None
    if pinned is None:
        matches = db.explain(text, top=top, repo=repo)
    else:
        matches, note = prefer_pinned(db.explain(text, top=top * WIDEN, repo=repo), pinned, top)
    # a wording of a site gone for good (mine --history) counts as thin
    if matches and not thin([m for m in matches if not gone_for_good(m)], text):
        return Resolution(matches, [], note)  # the usual case: no text-site probe at all
    texts = db.text_sites(text, top=top, repo=repo)
    filled = hole_filled(texts, matches)  # the line writing what a generic template's hole holds
    if filled:
        return Resolution([], filled)
    if matches and not outranks(texts, matches, text) and not named_texts_win(
            text, matches, texts) and not lives_on_in_text(texts, matches):
        return Resolution(matches, [], note)
    return Resolution([], texts)  # none matched, or thinly: the line holding more of it


def scan(log: LogSource, *, db: Db = None, top: int = 1, repo: str | None = None,
         jobs: int | None = None, summary: ScanSummary | None = None,
         layout: str | None = None, all_levels: bool = False,
         group: bool = False) -> Iterator[ScannedEvent]:
    """Every warning and error entry of a log with its best records, in log order, as it
    is read.

    ``summary`` (a :class:`ScanSummary`) is filled as events go by: events, matches, the
    records seen most, lines too long to scan. Logs over 256 KB are ranked on ``jobs``
    worker processes (default: every core). The log's layout is recognised from its
    first lines, or named by ``layout`` (a layout's name or a log4j-style pattern);
    ``all_levels`` maps every entry (info/debug ones to the log statements mined);
    ``group`` gives each event no statement explains a template learnt from the log
    (``event.group``), as :class:`ScanGroups` rows show.
    """
    from errdex.lookup import scan as _scan

    with using_store(db) as store, _open_log(log) as stream:
        index = open_index(store)
        yield from _scan.scan(index, stream, top=top, repo=repo, summary=summary,
                              jobs=jobs or os.cpu_count() or 1, layout=layout,
                              all_levels=all_levels, group=group)


def skipped_note(summary: ScanSummary) -> str:
    """The line that says how many over-long lines a scan left out."""
    from errdex.lookup import scan as _scan

    return _scan.skipped_note(summary)


@contextmanager
def _open_log(log: LogSource) -> Iterator[TextIO]:
    if not isinstance(log, (str, os.PathLike)):
        yield log
        return
    if str(log) == "-":
        yield sys.stdin
        return
    try:
        handle = open(log, encoding="utf-8", errors="replace")  # noqa: SIM115
    except FileNotFoundError as exc:
        raise UsageError(f"{log}: no such log file") from exc
    except IsADirectoryError as exc:
        raise UsageError(f"{log}: is a folder; give a log file") from exc
    except OSError as exc:
        raise UsageError(f"{log}: cannot read ({exc.strerror})") from exc
    with handle:
        yield handle


def search(query: str, *, db: Db = None, limit: int = 20,
           repo: str | None = None) -> list[StoredRecord]:
    """Full-text search over messages, explanations and tags; any text is safe to pass."""
    with using_store(db) as store:
        return store.search(query, limit=limit, repo=repo)


def show(id_or_slug: str, *, db: Db = None, repo: str | None = None) -> StoredRecord:
    """One record by id or slug (``repo`` when a slug is in several repositories); a
    :class:`RecordNotFoundError` when there is none."""
    with using_store(db) as store:
        return store.show(id_or_slug, repo=repo)
