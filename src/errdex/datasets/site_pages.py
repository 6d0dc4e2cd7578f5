"""Where each page of the static site lives, and the Jinja environment that draws them.

Every file name is made from untrusted text (repository names, slugs, family tags), so
each path segment is kept only when it is plainly safe (letters, digits, ``.``, ``_``,
``-``, starting with a letter or digit); anything else becomes its slug plus a short
hash of the original, so two names never share a file and nothing escapes the folder.
Pages link to each other by relative paths, so the site works from any URL prefix and
from ``file://``.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from jinja2 import Environment, PackageLoader, select_autoescape

from errdex.datasets import record_view
from errdex.templates.slug import slugify
from errdex.version import __version__

_SAFE_SEGMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_SAFE_SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,99}")
TEMPLATES = "site_templates"
LIST_PAGE_SIZE = 1000  # records on one repository or family page; more go to page.N.html


@dataclass(slots=True)
class Summary:
    """What listings, related records and the search index need of a record (its page
    is drawn from the full record, read again from the store)."""

    id: str
    repo: str
    href: str  # from the site's root
    message: str
    error_type: str
    error_class: str | None
    file_path: str
    line_number: int
    tag: str | None
    indexable: bool
    changed: str  # contentChangedAt's date: the sitemap's lastmod
    digest: str  # of the record and extras as stored: a page is redrawn when it changes


def _hashed(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]


def segment(text: str) -> str:
    """A path segment for a repository's owner or name."""
    if _SAFE_SEGMENT.fullmatch(text):
        return text
    return f"{slugify(text, 'x')[:60]}-{_hashed(text)}"


def name_file(text: str) -> str:
    """A file stem for a slug or a family tag: the slug itself when it is one, not
    ``index`` or ``page`` (the listing pages' names)."""
    if _SAFE_SLUG.fullmatch(text) and text not in ("index", "page"):
        return text
    return f"{slugify(text, 'x')[:60]}-{_hashed(text)}"


@lru_cache(maxsize=4096)
def repo_dir(repo: str) -> str:
    """``repos/OWNER/NAME`` (owners with slashes keep them as folders)."""
    return "/".join(["repos", *(segment(part) for part in repo.split("/") if part)])


def repo_page(repo: str, page: int = 1) -> str:
    return f"{repo_dir(repo)}/{list_page_name(page)}"


def record_page(repo: str, slug: str) -> str:
    return f"{repo_dir(repo)}/{name_file(slug)}.html"


def family_page(tag: str, page: int = 1) -> str:
    stem = name_file(tag)
    return f"families/{stem}.html" if page == 1 else f"families/{stem}.page.{page}.html"


def list_page_name(page: int) -> str:
    return "index.html" if page == 1 else f"page.{page}.html"


def root_of(path: str) -> str:
    """The relative prefix from a page back to the site's root (``../../``)."""
    return "../" * path.count("/")


def canonical(base_url: str | None, path: str) -> str | None:
    """The page's absolute URL under ``base_url`` (a folder's ``index.html`` as the folder)."""
    if not base_url:
        return None
    tail = path[: -len("index.html")] if path.endswith("index.html") else path
    return f"{base_url.rstrip('/')}/{tail}"


def chunks(items: list[Summary], size: int = LIST_PAGE_SIZE) -> list[list[Summary]]:
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]


def grouped(items: Iterable[Summary]) -> dict[str, dict[str, list[Summary]]]:
    """errorType → family → records, as the served repository page groups them."""
    groups: dict[str, dict[str, list[Summary]]] = {}
    for item in items:
        family = item.tag or "unclassified"
        groups.setdefault(item.error_type, {}).setdefault(family, []).append(item)
    return {kind: dict(sorted(families.items(), key=lambda f: (f[0] == "unclassified", f[0])))
            for kind, families in sorted(groups.items())}


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The site's templates: autoescaped, every printed text made visible first."""
    env = Environment(loader=PackageLoader("errdex.datasets", TEMPLATES),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      finalize=record_view.shown, trim_blocks=False)
    env.filters["prose"] = record_view.prose
    env.globals.update(short=record_view.short, link_url=record_view.link_url,
                       version=__version__, family_page=family_page, repo_page=repo_page,
                       record_view=record_view)
    return env


def asset_files() -> dict[str, bytes]:
    """The site's assets: the served pages' stylesheet, the code colours, the site's own
    additions and the search script."""
    folder = importlib.resources.files("errdex.datasets").joinpath(TEMPLATES)
    web = importlib.resources.files("errdex").joinpath("interfaces/web/static/style.css")
    return {
        "assets/style.css": web.read_bytes() if web.is_file() else b"",
        "assets/code.css": record_view.code_css().encode(),
        "assets/site.css": folder.joinpath("site.css").read_bytes(),
        "assets/search.js": folder.joinpath("search.js").read_bytes(),
        "assets/favicon.svg": folder.joinpath("favicon.svg").read_bytes(),
    }


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """Changes when anything that draws a page changes (templates, assets, this code):
    then every page is drawn again."""
    digest = hashlib.sha256(__version__.encode())
    folder = importlib.resources.files("errdex.datasets")
    for name in ("record_view.py", "site_pages.py", "site_render.py"):
        source = folder.joinpath(name)
        if source.is_file():  # an install may hold bytecode only: the version then says it
            digest.update(source.read_bytes())
    templates = folder.joinpath(TEMPLATES)
    for entry in sorted(templates.iterdir(), key=lambda e: e.name):
        if entry.is_file():
            digest.update(entry.name.encode() + entry.read_bytes())
    return digest.hexdigest()
