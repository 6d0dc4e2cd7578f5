"""Server-rendered pages (Jinja2). They work without JavaScript (and get none: the
Content-Security-Policy allows no script).

Every text a template prints is made visible (``view.shown`` is Jinja's ``finalize``),
then escaped; links are only drawn for ``https://`` URLs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

import errdex
from errdex.api import StorePool
from errdex.errors import RecordNotFoundError, UsageError, http_status_for
from errdex.interfaces.web import view
from errdex.interfaces.web.api import Pool, check_text, lookup_slot

templates = Jinja2Templates(directory=Path(__file__).parent / "templates")
templates.env.finalize = view.shown
templates.env.filters["prose"] = view.prose
templates.env.globals.update(
    record_path=view.record_path, repo_path=view.repo_path, family_path=view.family_path,
    short=view.short, source_lines=view.source_lines, link_url=view.link_url,
    version=errdex.__version__,
)

router = APIRouter(tags=["pages"], default_response_class=HTMLResponse)
REPO_PAGE_LIMIT = 5000


def render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, context, status_code=status)


def error_page(request: Request, status: int, code: str, message: str) -> HTMLResponse:
    return render(request, "error.html", status, status_code=status, code=code, message=message)


def _repos(pool: StorePool) -> list[tuple[str, int]]:
    store = pool.store()
    return [(repo, store.count(repo)) for repo in store.repos()]


@router.get("/", summary="Home: paste an error")
def home(request: Request, pool: Pool) -> HTMLResponse:
    return render(request, "home.html", repos=_repos(pool), text="", repo=None)


def _explain(request: Request, pool: StorePool, text: str, top: int, repo: str | None,
             deps: str | None = None) -> Response:
    repo = repo or None
    pinned = (deps or "").replace(",", " ").split()  # release specs the project pins
    try:
        check_text(**{"the pasted text": text, "repo": repo})
        with lookup_slot(request):
            found = errdex.resolve(text, db=pool.index(), top=top, repo=repo,
                                   deps=pinned or None)
            matches, texts = found.matches, found.text_sites
    except UsageError as exc:
        return render(request, "home.html", http_status_for(exc), repos=_repos(pool),
                      text=text, repo=repo, problem=str(exc))
    return render(request, "results.html", matches=matches, texts=texts, text=text, repo=repo,
                  repos=_repos(pool), note=found.note)


@router.post("/explain", summary="Explain a pasted error (form)")
def explain_form(
    request: Request, pool: Pool,
    text: Annotated[str, Form()] = "",
    top: Annotated[int, Form(ge=1, le=50)] = 5,
    repo: Annotated[str | None, Form()] = None,
    deps: Annotated[str | None, Form(max_length=200000)] = None,
) -> Response:
    return _explain(request, pool, text, top, repo, deps)


@router.get("/explain", summary="Explain an error given in the URL")
def explain_link(
    request: Request, pool: Pool,
    text: Annotated[str, Query(max_length=20000)] = "",
    top: Annotated[int, Query(ge=1, le=50)] = 5,
    repo: Annotated[str | None, Query()] = None,
    deps: Annotated[str | None, Query(max_length=20000, description=(
        "Release specs the project pins, space- or comma-separated (pypi:NAME==VERSION, "
        "npm:NAME@VERSION): matches from them rank first"))] = None,
) -> Response:
    """A shareable link to an explanation. Opened from another site's page (the browser
    says so in ``Sec-Fetch-Site``), it only fills the paste box: the lookup runs when
    the reader presses Explain, so no page elsewhere can spend this server's CPU."""
    if not text.strip():
        return RedirectResponse("/", status_code=303)
    if request.headers.get("sec-fetch-site", "").lower() in ("cross-site", "same-site"):
        return render(request, "home.html", repos=_repos(pool), text=text, repo=repo or None,
                      notice="This error came in a link from another site. Read it, then "
                             "press Explain to look it up.")
    return _explain(request, pool, text, top, repo, deps)


@router.get("/search", summary="Full-text search")
def search(
    request: Request, pool: Pool,
    q: Annotated[str, Query(max_length=2000)] = "",
    repo: Annotated[str | None, Query()] = None,
) -> HTMLResponse:
    found = pool.store().search(q, limit=100, repo=repo or None) if q.strip() else []
    return render(request, "search.html", q=q, found=found)


@router.get("/family/{tag}", summary="Every record of one family, across repositories")
def family(request: Request, tag: str, pool: Pool) -> HTMLResponse:
    members = view.family_members(pool.store(), tag)
    if not members:
        raise RecordNotFoundError(f"no record is in the family {tag!r}")
    by_repo: dict[str, list[Any]] = {}
    for stored in members:
        by_repo.setdefault(stored.record.repo, []).append(stored)
    return render(request, "family.html", tag=tag, by_repo=by_repo, count=len(members))


def api_docs(request: Request) -> HTMLResponse:
    """The JSON API's reference, rendered here from ``/openapi.json`` (no CDN, no script)."""
    spec = request.app.openapi()
    return render(request, "api_docs.html", operations=view.api_operations(spec),
                  title=spec.get("info", {}).get("title", "errdex"))


@router.get("/{path:path}", summary="A repository (/OWNER/NAME) or one of its records "
                                    "(/OWNER/NAME/SLUG); OWNER may hold slashes")
def repo_or_record(request: Request, path: str, pool: Pool) -> HTMLResponse:
    store = pool.store()
    target = view.page_target(path, set(store.repos()))
    if target is None:
        raise RecordNotFoundError(f"no repository or record at /{path} in this index; "
                                  "mine the repository first")
    if target[0] == "repo":
        return _repo_page(request, pool, target[1])
    return _record_page(request, pool, target[1], target[2])


def _repo_page(request: Request, pool: StorePool, repo: str) -> HTMLResponse:
    store = pool.store()
    total = store.count(repo)
    if not total:
        raise RecordNotFoundError(f"no repository {repo!r} in this index; mine it first")
    records = []
    for stored in store.records(repo):
        records.append(stored)
        if len(records) >= REPO_PAGE_LIMIT:
            break
    return render(request, "repo.html", repo=repo, total=total, shown=len(records),
                  groups=view.grouped(records))


def _record_page(request: Request, pool: StorePool, repo: str, slug: str) -> HTMLResponse:
    store = pool.store()
    stored = store.show(slug, repo=repo)
    if stored.record.repo != repo:
        raise RecordNotFoundError(f"no record {slug!r} in {repo}")
    record, extras = stored.record, stored.extras
    sections, missing = view.explanation(record, extras)
    related = []
    if record.background_tag:
        related = [s for s in view.family_members(store, record.background_tag, limit=21)
                   if s.record.id != record.id][:20]
    return render(request, "record.html", record=record, extras=extras, sections=sections,
                  missing=missing, related=related,
                  lines=view.source_lines(record, extras), note=view.source_note(record))
