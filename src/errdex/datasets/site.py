"""``errdex export --site DIR``: a static site of the store, and its re-export.

One page per record (drawn from :mod:`errdex.datasets.record_view`, the same content as
the served record page), one per repository and per family (``backgroundTag``), paged
at ``LIST_PAGE_SIZE`` records, an index page that searches ``search.json`` in the
browser, ``sitemap.xml`` and ``robots.txt`` with canonical URLs when a base URL is
given, and ``noindex`` on pages that say only the mechanical minimum
(:func:`record_view.worth_indexing`).

Scale: the store is read twice, as a stream. The first pass keeps a small
:class:`Summary` per record (no source, no explanation); the second reads again, in
batches, only the records whose page must be drawn. Incremental: ``site-state.json``
keeps, per page, a hash of what it is drawn from (the record, its related records, the
templates, the base URL; not the commit every re-mine restamps) and of the bytes
written; a page whose inputs did not change is neither drawn nor written, a page drawn
to the same bytes is not written, and pages no longer in the store are deleted.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape as xml_escape

from errdex.datasets import record_view
from errdex.datasets import site_pages as pages
from errdex.datasets import site_render as render
from errdex.datasets.publish import _atomic
from errdex.datasets.site_pages import Summary
from errdex.errors import UsageError
from errdex.records.stored import StoredRecord
from errdex.store.protocol import Store

STATE_FILE = "site-state.json"
STATE_FORMAT = 1
SITEMAP_MAX = 50_000  # URLs in one sitemap file (the protocol's limit)
MESSAGE_CHARS = 160  # of a message, in listings and the search index
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass
class SiteSummary:
    """What an export did: pages in the site, drawn, written (changed bytes), deleted."""

    records: int = 0
    pages: int = 0
    drawn: int = 0
    written: int = 0
    deleted: int = 0
    noindex: int = 0
    bytes: int = 0
    folder: str = ""
    dataset: bool = False
    notes: list[str] = field(default_factory=list)


class _Writer:
    """Writes pages that changed and remembers every page's hashes for the next run."""

    def __init__(self, folder: Path, old: dict[str, list[str]], summary: SiteSummary) -> None:
        self.folder, self.old, self.summary = folder, old, summary
        self.new: dict[str, list[str]] = {}

    def unchanged(self, path: str, key: str) -> bool:
        """Keeps the page as it is when it was drawn from the same inputs last time."""
        before = self.old.get(path)
        if before and before[0] == key and (self.folder / path).is_file():
            self.new[path] = before
            return True
        return False

    def put(self, path: str, content: str | bytes, key: str = "") -> None:
        data = content.encode("utf-8") if isinstance(content, str) else content
        digest = hashlib.sha256(data).hexdigest()
        self.summary.drawn += 1
        before = self.old.get(path)
        target = self.folder / path
        if not (before and before[1] == digest and target.is_file()):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            self.summary.written += 1
        self.new[path] = [key, digest]

    def drawn(self, path: str, key: str, digest: str, written: bool) -> None:
        """A page drawn (and written, when its bytes changed) by a worker."""
        self.summary.drawn += 1
        self.summary.written += written
        self.new[path] = [key, digest]

    def remove_stale(self) -> None:
        for path in sorted(set(self.old) - set(self.new)):
            target = self.folder / path
            if target.is_file():
                target.unlink()
                self.summary.deleted += 1
            parent = target.parent
            while parent != self.folder and parent.is_dir() and not any(parent.iterdir()):
                parent.rmdir()
                parent = parent.parent


# What every re-mine restamps on every record of the repository: a page is not redrawn
# for them alone, so it keeps the permalink of the commit it was drawn at (one where the
# line reads the same: the source window and the line number are in the digest).
_RESTAMPED = {"github_url", "analyzed_sha", "analyzed_at"}


def _digest(stored: StoredRecord) -> str:
    data = (stored.record.model_dump_json(by_alias=True, exclude=_RESTAMPED)
            + stored.extras.model_dump_json(by_alias=True))
    return hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()


def summarize(stored: StoredRecord) -> Summary:
    record = stored.record
    return Summary(
        id=record.id, repo=record.repo, href=pages.record_page(record.repo, record.slug),
        message=record_view.short(record.error_message, MESSAGE_CHARS),
        error_type=record.error_type, error_class=record.error_class,
        file_path=record.file_path, line_number=record.line_number,
        tag=record.background_tag, indexable=record_view.worth_indexing(record, stored.extras),
        changed=record.content_changed_at[:10], digest=_digest(stored))


def _read_state(folder: Path, base_url: str | None) -> dict[str, list[str]]:
    try:
        state = json.loads((folder / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
        return {}
    found = state.get("pages")
    if not isinstance(found, dict):
        return {}
    if state.get("baseUrl") != base_url or state.get("fingerprint") != pages.fingerprint():
        # drawn differently now: every page is drawn again, but the list still says
        # which pages to delete, and the digests which bytes need no rewrite
        return {path: ["", entry[1]] for path, entry in found.items()
                if isinstance(entry, list) and len(entry) == 2}
    return found


def _write_state(folder: Path, base_url: str | None, written: dict[str, list[str]]) -> None:
    data = json.dumps({"format": STATE_FORMAT, "baseUrl": base_url,
                       "fingerprint": pages.fingerprint(), "pages": written},
                      separators=(",", ":"), sort_keys=True)
    _atomic(folder / STATE_FILE, lambda path: Path(path).write_text(data, encoding="utf-8"))


def check_base_url(base_url: str | None) -> str | None:
    if base_url is None:
        return None
    if not base_url.startswith(("https://", "http://")) or any(c.isspace() for c in base_url):
        raise UsageError(f"--base-url must be an http(s) URL without spaces, not {base_url!r}")
    return base_url.rstrip("/")


def export_site(
    store: Store, folder: Path, *, base_url: str | None = None,
    dataset: Callable[[Path], object] | None = None, jobs: int | None = None,
) -> SiteSummary:
    """Write (or bring up to date) the static site of ``store`` in ``folder``.

    ``dataset``, when given, publishes the dataset into ``folder / "data"`` after the
    pages (the site's footer links its ``manifest.json``).
    """
    base_url = check_base_url(base_url)
    folder.mkdir(parents=True, exist_ok=True)
    summary = SiteSummary(folder=str(folder), dataset=dataset is not None)
    writer = _Writer(folder, _read_state(folder, base_url), summary)
    summaries = [summarize(stored) for stored in store.records()]
    summary.records = len(summaries)
    families: dict[str, list[Summary]] = {}
    for item in summaries:
        if item.tag:
            families.setdefault(item.tag, []).append(item)
    common: dict[str, Any] = {"dataset": dataset is not None}
    _record_pages(store, writer, summaries, base_url, common, jobs)
    by_repo: dict[str, list[Summary]] = {}
    for item in summaries:
        by_repo.setdefault(item.repo, []).append(item)
    _repo_pages(writer, by_repo, base_url, common)
    _family_pages(writer, families, base_url, common)
    _index_page(writer, by_repo, families, base_url, common)
    writer.put("search.json", search_index(by_repo))
    for path, data in pages.asset_files().items():
        writer.put(path, data)
    if base_url:
        for path, text in sitemaps(base_url, writer.new, summaries).items():
            writer.put(path, text)
        writer.put("robots.txt", f"User-agent: *\nAllow: /\nSitemap: {base_url}/sitemap.xml\n")
    writer.remove_stale()
    _write_state(folder, base_url, writer.new)
    if dataset is not None:
        dataset(folder / "data")
    summary.pages = len(writer.new)
    summary.noindex = sum(not s.indexable for s in summaries)
    summary.bytes = sum((folder / p).stat().st_size for p in writer.new)
    return summary


def _render(name: str, path: str, base_url: str | None, common: dict[str, Any],
            **context: Any) -> str:
    template = pages.environment().get_template(name)
    context.setdefault("indexable", True)
    return template.render(root=pages.root_of(path), canonical=pages.canonical(base_url, path),
                           **common, **context)


def _record_pages(store: Store, writer: _Writer, summaries: list[Summary],
                  base_url: str | None, common: dict[str, Any], jobs: int | None) -> None:
    """Each record's page, drawn only when its record or its related records changed."""
    families: dict[str, list[int]] = {}
    position = [-1] * len(summaries)
    for index, item in enumerate(summaries):
        if item.tag:
            members = families.setdefault(item.tag, [])
            position[index] = len(members)
            members.append(index)
    job = render.Job(writer.folder, base_url, common, summaries, families, position)
    tasks: list[render.Task] = []
    seen: set[str] = set()
    for index, item in enumerate(summaries):
        if item.href in seen:  # two records of one repo with the same slug: the first wins
            continue
        seen.add(item.href)
        near = render.related(job, index)
        key = hashlib.sha256("\n".join([item.digest, *(r.digest for r in near)])
                             .encode()).hexdigest()
        if not writer.unchanged(item.href, key):
            before = writer.old.get(item.href)
            tasks.append((index, key, before[1] if before else None))
    for path, key, digest, written in render.draw_pages(store, job, tasks, jobs):
        writer.drawn(path, key, digest, written)


def _repo_pages(writer: _Writer, by_repo: dict[str, list[Summary]], base_url: str | None,
                common: dict[str, Any]) -> None:
    for repo, items in by_repo.items():
        ordered = sorted(items, key=lambda s: (s.error_type, s.tag is None, s.tag or "",
                                               s.file_path, s.line_number))
        parts = pages.chunks(ordered)
        for number, part in enumerate(parts, 1):
            path = pages.repo_page(repo, number)
            writer.put(path, _render(
                "repo.html", path, base_url, common, repo=repo, total=len(items), page=number,
                pages=len(parts), groups=pages.grouped(part),
                path_of=lambda n, repo=repo: pages.repo_page(repo, n),
                description=f"Every error {repo} can raise: {len(items):,} records."))


def _family_pages(writer: _Writer, families: dict[str, list[Summary]],
                  base_url: str | None, common: dict[str, Any]) -> None:
    for tag, items in families.items():
        parts = pages.chunks(items)
        repos = len({s.repo for s in items})
        for number, part in enumerate(parts, 1):
            path = pages.family_page(tag, number)
            by_repo: dict[str, list[Summary]] = {}
            for item in part:
                by_repo.setdefault(item.repo, []).append(item)
            writer.put(path, _render(
                "family.html", path, base_url, common, tag=tag, count=len(items),
                repos=repos, page=number, pages=len(parts), by_repo=by_repo,
                path_of=lambda n, tag=tag: pages.family_page(tag, n),
                description=f"{len(items):,} errors of the {tag} family."))


def _index_page(writer: _Writer, by_repo: dict[str, list[Summary]],
                families: dict[str, list[Summary]], base_url: str | None,
                common: dict[str, Any]) -> None:
    repos = [(repo, len(items)) for repo, items in sorted(by_repo.items())]
    tags = [(tag, len(items)) for tag, items in sorted(families.items())]
    total = sum(count for _, count in repos)
    writer.put("index.html", _render(
        "index.html", "index.html", base_url, common, repos=repos, families=tags, total=total,
        description=f"{total:,} errors from {len(repos)} repositories: where each is raised, "
                    "what it means and how to fix it."))


def search_index(by_repo: dict[str, list[Summary]]) -> str:
    """``{"repos": [[name, folder]], "types": [...], "records": [[message, repo,
    file stem, type, class]]}``: what the index page searches, without spaces."""
    repos = sorted(by_repo)
    types: dict[str, int] = {}
    rows: list[list[Any]] = []
    for number, repo in enumerate(repos):
        for item in by_repo[repo]:
            stem = item.href.rsplit("/", 1)[-1][: -len(".html")]
            kind = types.setdefault(item.error_type, len(types))
            rows.append([item.message, number, stem, kind, item.error_class or ""])
    data = {"repos": [[repo, pages.repo_dir(repo)] for repo in repos],
            "types": list(types), "records": rows}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def sitemaps(base_url: str, written: dict[str, list[str]],
             summaries: list[Summary]) -> dict[str, str]:
    """``sitemap.xml`` (and ``sitemap-N.xml`` past 50,000 URLs, with ``sitemap.xml`` their
    index): every page except those marked ``noindex``."""
    thin = {s.href for s in summaries if not s.indexable}
    changed = {s.href: s.changed for s in summaries if _DATE.fullmatch(s.changed)}
    urls = [(pages.canonical(base_url, path) or "", changed.get(path))
            for path in sorted(written) if path.endswith(".html") and path not in thin]
    head = '<?xml version="1.0" encoding="UTF-8"?>\n'
    ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'

    def urlset(part: list[tuple[str, str | None]]) -> str:
        body = "".join(f"<url><loc>{xml_escape(url)}</loc>"
                       + (f"<lastmod>{date}</lastmod>" if date else "") + "</url>\n"
                       for url, date in part)
        return f"{head}<urlset {ns}>\n{body}</urlset>\n"

    if len(urls) <= SITEMAP_MAX:
        return {"sitemap.xml": urlset(urls)}
    out: dict[str, str] = {}
    for number, start in enumerate(range(0, len(urls), SITEMAP_MAX), 1):
        out[f"sitemap-{number}.xml"] = urlset(urls[start:start + SITEMAP_MAX])
    body = "".join(f"<sitemap><loc>{xml_escape(base_url)}/{name}</loc></sitemap>\n"
                   for name in out)
    out["sitemap.xml"] = f"{head}<sitemapindex {ns}>\n{body}</sitemapindex>\n"
    return out
