"""The FastAPI application: JSON API, pages, static files, one error shape."""

from __future__ import annotations

import os
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

import errdex
from errdex.web import api, pages
from errdex.web.errors import BodyLimitMiddleware, install_error_handlers
from errdex.web.state import StorePool

STATIC = Path(__file__).parent / "static"


def create_app(db_path: str | os.PathLike[str]) -> FastAPI:
    """The web app over the errdex database at ``db_path`` (opened per thread)."""
    app = FastAPI(
        title="errdex",
        version=errdex.__version__,
        description="Paste an error, find the line that raised it. "
        "Every error is `{\"error\": {\"code\": str, \"message\": str}}`.",
        docs_url="/api/docs",
        redoc_url=None,
    )
    app.state.pool = StorePool(db_path)
    app.add_middleware(BodyLimitMiddleware)
    install_error_handlers(app, pages.error_page)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(api.router)
    app.include_router(pages.router)
    return app
