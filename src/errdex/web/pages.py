"""Server-rendered pages (Jinja2). They work without JavaScript."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

import errdex
from errdex.errors import RecordNotFoundError, UsageError, http_status_for
from errdex.web import view
from errdex.web.api import Pool
from errdex.web.state import StorePool

templates = Jinja2Templates(directory=Path(__file__).parent / "templates")
templates.env.filters["prose"] = view.prose
templates.env.globals.update(
    record_path=view.record_path, repo_path=view.repo_path, family_path=view.family_path,
    short=view.short, source_lines=view.source_lines, version=errdex.__version__,
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


def _explain(request: Request, pool: StorePool, text: str, top: int, repo: str | None) -> Response:
    repo = repo or None
    try:
        matches = pool.index().explain(text, top=top, repo=repo)
    except UsageError as exc:
        return render(request, "home.html", http_status_for(exc), repos=_repos(pool),
                      text=text, repo=repo, problem=str(exc))
    return render(request, "results.html", matches=matches, text=text, repo=repo,
                  repos=_repos(pool))


@router.post("/explain", summary="Explain a pasted error (form)")
def explain_form(
    request: Request, pool: Pool,
    text: Annotated[str, Form()] = "",
    top: Annotated[int, Form(ge=1, le=50)] = 5,
    repo: Annotated[str | None, Form()] = None,
) -> Response:
    return _explain(request, pool, text, top, repo)


@router.get("/explain", summary="Explain an error given in the URL")
def explain_link(
    request: Request, pool: Pool,
    text: Annotated[str, Query(max_length=20000)] = "",
    top: Annotated[int, Query(ge=1, le=50)] = 5,
    repo: Annotated[str | None, Query()] = None,
) -> Response:
    if not text.strip():
        return RedirectResponse("/", status_code=303)
    return _explain(request, pool, text, top, repo)


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


@router.get("/{owner}/{name}", summary="A repository's records by type and family")
def repo_page(request: Request, owner: str, name: str, pool: Pool) -> HTMLResponse:
    repo = view.repo_name(owner, name)
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


@router.get("/{owner}/{name}/{slug}", summary="One record")
def record_page(request: Request, owner: str, name: str, slug: str, pool: Pool) -> HTMLResponse:
    repo = view.repo_name(owner, name)
    store = pool.store()
    stored = store.show(slug, repo=repo)
    if stored.record.repo != repo:
        raise RecordNotFoundError(f"no record {slug!r} in {repo}")
    record, extras = stored.record, stored.extras
    sections, missing = view.explanation(record, extras)
    related = []
    if record.backgroundTag:
        related = [s for s in view.family_members(store, record.backgroundTag, limit=21)
                   if s.record.id != record.id][:20]
    return render(request, "record.html", record=record, extras=extras, sections=sections,
                  missing=missing, related=related,
                  lines=view.source_lines(record, extras))
