"""The JSON API: the same shapes as the CLI's ``--json`` output."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field

from errdex.api import Record, StorePool, explained_json, resolve
from errdex.errors import UsageError
from errdex.interfaces.web.errors import SafeJSONResponse
from errdex.interfaces.web.state import BusyError, LookupGate
from errdex.visible import surrogate_problem

RETRY_AFTER_SECONDS = 5


def get_pool(request: Request) -> StorePool:
    pool: StorePool = request.app.state.pool
    return pool


Pool = Annotated[StorePool, Depends(get_pool)]


@contextmanager
def lookup_slot(request: Request) -> Iterator[None]:
    """Run a lookup within the app's :class:`LookupGate`; a 503 when it is full."""
    gate: LookupGate = request.app.state.gate
    try:
        with gate.slot():
            yield
    except BusyError as exc:
        raise HTTPException(503, "the server is busy with other lookups; try again shortly",
                            headers={"Retry-After": str(RETRY_AFTER_SECONDS)}) from exc


def check_text(**fields: str | None) -> None:
    """A 400 naming the field when a text holds a lone surrogate (JSON can escape one;
    no UTF-8 can carry it, so nothing downstream could store, match or print it)."""
    for name, value in fields.items():
        problem = surrogate_problem(value, name) if value else None
        if problem:
            raise UsageError(problem)


class ExplainRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(description="The pasted error: a message, a traceback, a panic, a stack.")
    top: int = Field(5, ge=1, le=100, description="How many matches at most.")
    repo: str | None = Field(None, description="Only records of this OWNER/NAME.")
    deps: list[str] | None = Field(
        None, max_length=5000,
        description="The releases the project pins (pypi:NAME==VERSION, npm:NAME@VERSION): "
                    "matches from these versions rank first.")


class CandidateOut(BaseModel):
    repo: str
    filePath: str
    lineNumber: int
    text: str = Field(description="The literal text found in the message.")
    githubUrl: str | None = None


class MatchOut(BaseModel):
    score: float
    reason: str = Field(description="Why it matched; starts with 'approximate' when fuzzy.")
    bound: dict[str, str] = Field(description="The values bound to the message's holes.")
    record: Record | None = Field(None, description="The record; absent for a text-only match.")
    candidate: CandidateOut | None = Field(
        None, description="Only when no record matched: a line whose literal text the message "
        "contains (no record: errdex did not see how it is raised).")
    package: dict[str, str | None] | None = Field(
        None, description="A match from a registry release: its name, version and ecosystem.")
    origin: dict[str, str] | None = Field(
        None, description="A match from a synced dataset, not a local mine: the dataset's URL "
        "('dataset') and version ('datasetVersion').")


class ExplainResponse(BaseModel):
    matches: list[MatchOut] = Field(description="Best first; empty when nothing matched.")
    note: str | None = Field(None, description="With deps: the best match is from another "
                                               "version than the one pinned.")


class SearchResponse(BaseModel):
    records: list[Record]


class RepoOut(BaseModel):
    repo: str
    records: int


class ReposResponse(BaseModel):
    repos: list[RepoOut]


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorResponse(BaseModel):
    error: ErrorDetail


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorResponse, "description": text}
    for status, text in (
        (400, "Bad input"), (404, "Not found"), (413, "Request body over 1 MiB"),
        (422, "Invalid request"), (500, "Internal error"),
        (503, "Busy: every lookup slot is taken; retry after the Retry-After seconds"),
    )
}

router = APIRouter(prefix="/api", tags=["api"], responses=ERRORS)


@router.post("/explain", response_model=ExplainResponse)
def explain(body: ExplainRequest, pool: Pool, request: Request) -> SafeJSONResponse:
    """Find the source of an error: the same output as ``errdex explain --json``."""
    check_text(text=body.text, repo=body.repo)
    with lookup_slot(request):
        # as ``errdex explain --json``: no record, then the lines holding the text, flagged
        found = resolve(body.text, db=pool.index(), top=body.top, repo=body.repo,
                        deps=body.deps or None)
    return SafeJSONResponse(explained_json(found, db=pool.store()))


@router.get("/search", response_model=SearchResponse)
def search(
    pool: Pool,
    q: Annotated[str, Query(max_length=2000, description="Free text; any text is safe.")],
    limit: Annotated[int, Query(ge=1, le=200)] = 20,
    repo: Annotated[str | None, Query(description="Only records of this OWNER/NAME.")] = None,
) -> SafeJSONResponse:
    """Full-text search over messages, explanations and tags (as ``errdex search --json``)."""
    found = pool.store().search(q, limit=limit, repo=repo)
    return SafeJSONResponse({"records": [s.record.model_dump(mode="json") for s in found]})


@router.get("/records/{record_id}", response_model=Record)
def record(
    record_id: str, pool: Pool,
    repo: Annotated[str | None, Query(description="OWNER/NAME when a slug is ambiguous.")] = None,
) -> SafeJSONResponse:
    """One record by id or slug (as ``errdex show --json``)."""
    stored = pool.store().show(record_id, repo=repo)
    return SafeJSONResponse(stored.record.model_dump(mode="json"))


@router.get("/repos", response_model=ReposResponse)
def repos(pool: Pool) -> SafeJSONResponse:
    """Every mined or imported repository with its record count."""
    store = pool.store()
    return SafeJSONResponse({"repos": [{"repo": r, "records": store.count(r)}
                                       for r in store.repos()]})


_ANY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


@router.api_route("/{rest:path}", methods=_ANY_METHOD, include_in_schema=False)
def no_such_endpoint(request: Request, rest: str) -> None:
    """Anything else under /api: 405 for a known path, 404 otherwise (never a page)."""
    path = request.scope["path"]
    allowed = sorted({
        method
        for route in router.routes
        if isinstance(route, APIRoute) and route.endpoint is not no_such_endpoint
        and route.path_regex.match(path)
        for method in route.methods or ()
    })
    if allowed:
        raise HTTPException(405, "method not allowed", headers={"Allow": ", ".join(allowed)})
    raise HTTPException(404, f"no API endpoint {path}; /openapi.json lists them")
