"""The FastAPI application: JSON API, pages, static files, one error shape."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp

import errdex
from errdex.api import StorePool
from errdex.interfaces.web import api, pages
from errdex.interfaces.web.errors import (
    BodyLimitMiddleware,
    SafeJSONResponse,
    install_error_handlers,
)
from errdex.interfaces.web.security import GuardMiddleware, allowed_host_names
from errdex.interfaces.web.state import LookupGate

STATIC = Path(__file__).parent / "static"


class _GuardedApp(FastAPI):
    """FastAPI with :class:`GuardMiddleware` outside Starlette's own error middleware,
    so that every response (a 500 too) carries the security headers."""

    allowed_hosts: frozenset[str] = frozenset()

    def build_middleware_stack(self) -> ASGIApp:
        return GuardMiddleware(super().build_middleware_stack(), self.allowed_hosts)


def create_app(
    db_path: str | os.PathLike[str], allowed_hosts: Iterable[str] = (),
    lookups: LookupGate | None = None,
) -> FastAPI:
    """The web app over the errdex database at ``db_path`` (opened per thread).

    It answers requests whose Host is a loopback name or one of ``allowed_hosts``
    (``*``: any); ``lookups`` bounds the lookups run at once.
    """
    app = _GuardedApp(
        title="errdex",
        version=errdex.__version__,
        description="Paste an error, find the line that raised it. "
        "Every error is `{\"error\": {\"code\": str, \"message\": str}}`.",
        docs_url=None,  # Swagger UI comes from a CDN: /api/docs is served here instead
        redoc_url=None,
        default_response_class=SafeJSONResponse,
    )
    app.allowed_hosts = allowed_host_names(allowed_hosts)
    app.state.pool = StorePool(db_path)
    app.state.gate = lookups or LookupGate()
    app.add_middleware(BodyLimitMiddleware)
    install_error_handlers(app, pages.error_page)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_api_route("/api/docs", pages.api_docs, methods=["GET"], include_in_schema=False,
                      response_class=HTMLResponse)
    app.include_router(api.router)
    app.include_router(pages.router)
    return app
