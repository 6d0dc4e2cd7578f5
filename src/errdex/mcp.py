"""``errdex mcp``: the index as an MCP server on stdio (the official ``mcp`` SDK).

Tools (thin layers over the Python API, same JSON shapes as the CLI's ``--json``):

- ``explain_error(text, top, repo)`` → ``{"matches": [...]}`` as ``errdex explain --json``
- ``search_records(query, limit)`` → ``{"records": [...]}`` as ``errdex search --json``
- ``get_record(id_or_slug)`` → the record as ``errdex show --json``

An ``ErrdexError`` becomes a tool error carrying its one-line message; anything
else is reported by the SDK without its details.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import wraps
from typing import Annotated, Any, ParamSpec, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

import errdex
from errdex.errors import ErrdexError
from errdex.web.state import StorePool

P = ParamSpec("P")
R = TypeVar("R")

INSTRUCTIONS = (
    "errdex indexes every error that the mined repositories can raise. Give explain_error "
    "the whole error text a user saw (a message, traceback, panic or stack trace): it returns "
    "the source sites that raise it, best first, with the values bound to the message's "
    "holes, why each matched, and an explanation when one is written. search_records is "
    "full-text search; get_record fetches one record by id or slug."
)


def _tool_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Report errdex's own errors as tool errors with their one-line message."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except ErrdexError as exc:
            raise ToolError(str(exc)) from exc

    return wrapper


def create_server(db_path: str | os.PathLike[str]) -> MCPServer:
    """The MCP server over the errdex database at ``db_path``."""
    pool = StorePool(db_path)
    server: MCPServer = MCPServer(
        "errdex", version=errdex.__version__, instructions=INSTRUCTIONS
    )

    @server.tool()
    @_tool_errors
    def explain_error(
        text: Annotated[str, Field(description="The error text as the user saw it.")],
        top: Annotated[int, Field(ge=1, le=50, description="How many matches at most.")] = 5,
        repo: Annotated[str | None, Field(description="Only records of OWNER/NAME.")] = None,
    ) -> dict[str, Any]:
        """Find where an error comes from: the source sites that raise it, best first."""
        matches = pool.index().explain(text, top=top, repo=repo or None)
        return {"matches": [m.to_json() for m in matches]}

    @server.tool()
    @_tool_errors
    def search_records(
        query: Annotated[str, Field(description="Free text; any text is safe.")],
        limit: Annotated[int, Field(ge=1, le=200)] = 20,
    ) -> dict[str, Any]:
        """Full-text search over error messages, explanations and tags."""
        found = pool.store().search(query, limit=limit)
        return {"records": [s.record.model_dump(mode="json") for s in found]}

    @server.tool()
    @_tool_errors
    def get_record(
        id_or_slug: Annotated[str, Field(description="A record id, a slug, or OWNER/NAME:slug.")],
    ) -> dict[str, Any]:
        """One record by id or slug, with its source window and explanation."""
        return pool.store().show(id_or_slug).record.model_dump(mode="json")

    return server


def run_mcp(db_path: str | os.PathLike[str]) -> None:
    """Serve the database at ``db_path`` over MCP on stdin/stdout until stdin closes."""
    create_server(db_path).run("stdio")
