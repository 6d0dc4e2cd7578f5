"""``errdex mcp``: the index as an MCP server on stdio (the official ``mcp`` SDK).

Tools (thin layers over the Python API, same JSON shapes as the CLI's ``--json``):

- ``explain_error(text, top, repo, deps)`` → ``{"matches": [...]}`` as ``errdex explain --json``
- ``search_records(query, limit)`` → ``{"records": [...]}`` as ``errdex search --json``
- ``get_record(id_or_slug)`` → the record as ``errdex show --json``

An ``ErrdexError`` becomes a tool error carrying its one-line message; anything
else is reported by the SDK without its details.

A lone surrogate (``"\\ud800"`` in the JSON a client sends) is not Unicode: the
SDK's JSON reader refuses the whole line, so the call would never be answered.
stdin lines are read here first: such a string is replaced (U+FFFD) so the line
parses, and the call it belongs to is answered with a tool error naming the
argument and character. Lone surrogates in stored text are replaced the same way
on the way out (no UTF-8 writer can send them).
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import AsyncIterable, AsyncIterator, Callable
from functools import wraps
from io import TextIOWrapper
from typing import Annotated, Any, ParamSpec, TypeVar

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.stdio import stdio_server
from pydantic import Field

import errdex
from errdex.api import StorePool
from errdex.errors import ErrdexError
from errdex.visible import first_surrogate, scrub_surrogates, surrogate_problem

P = ParamSpec("P")
R = TypeVar("R")

INSTRUCTIONS = (
    "errdex indexes every error that the mined repositories can raise. Give explain_error "
    "the whole error text a user saw (a message, traceback, panic or stack trace): it returns "
    "the source sites that raise it, best first, with the values bound to the message's "
    "holes, why each matched, and an explanation when one is written. search_records is "
    "full-text search; get_record fetches one record by id or slug."
)


class Rejections:
    """Calls whose arguments were not valid Unicode, by request id, with the reason."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_id: dict[str, str] = {}

    def add(self, request_id: object, reason: str) -> None:
        with self._lock:
            self._by_id[str(request_id)] = reason

    def pop(self, request_id: str) -> str | None:
        with self._lock:
            return self._by_id.pop(request_id, None)


def _surrogate_in(value: Any, where: str) -> str | None:
    """One line naming the first string of ``value`` with a lone surrogate, if any."""
    if isinstance(value, str):
        return surrogate_problem(value, where)
    if isinstance(value, dict):
        for key, item in value.items():
            if first_surrogate(str(key)) is not None:
                return f"{where} has a key that is not valid Unicode (a lone surrogate)"
            found = _surrogate_in(item, f"argument {key!r}" if where == "arguments"
                                  else f"{where}.{key}")
            if found:
                return found
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = _surrogate_in(item, f"{where}[{index}]")
            if found:
                return found
    return None


def checked_line(line: str, rejections: Rejections) -> str:
    """A JSON-RPC line the SDK can parse: lone surrogates replaced, and the request
    they were in remembered, so its tool answers with an error instead of silence."""
    if "\\u" not in line:  # a lone surrogate can only arrive as a JSON escape
        return line
    try:
        message = json.loads(line)
    except ValueError:
        return line  # the SDK reports what is wrong with it
    if not isinstance(message, dict):
        return line
    params = message.get("params")
    arguments = params.get("arguments") if isinstance(params, dict) else None
    problem = _surrogate_in(arguments, "arguments") or _surrogate_in(message, "request")
    if problem is None:
        return line
    if "id" in message:
        rejections.add(message["id"], problem)
    return json.dumps(scrub_surrogates(message), ensure_ascii=False) + "\n"


class _CheckedStdin:
    """The lines of ``source`` through :func:`checked_line`."""

    def __init__(self, source: AsyncIterable[str], rejections: Rejections):
        self.source = source
        self.rejections = rejections

    async def __aiter__(self) -> AsyncIterator[str]:
        async for line in self.source:
            yield checked_line(line, self.rejections)


class ErrdexMCPServer(MCPServer):
    """The SDK's server, reading stdin through :func:`checked_line`."""

    rejections: Rejections

    async def run_stdio_async(self) -> None:
        raw = anyio.wrap_file(TextIOWrapper(sys.stdin.buffer, encoding="utf-8",
                                            errors="replace"))
        stdin: Any = _CheckedStdin(raw, self.rejections)
        async with stdio_server(stdin=stdin) as (read_stream, write_stream):
            lowlevel = self._lowlevel_server
            await lowlevel.run(read_stream, write_stream,
                               lowlevel.create_initialization_options())


def _tool_errors(rejections: Rejections) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Report errdex's own errors, and calls rejected by :func:`checked_line`, as tool
    errors with their one-line message; results leave without lone surrogates."""

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        @wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            ctx = kwargs.get("ctx")
            if isinstance(ctx, Context):
                rejected = rejections.pop(ctx.request_id)
                if rejected is not None:
                    raise ToolError(rejected)
            try:
                result: R = scrub_surrogates(func(*args, **kwargs))
                return result
            except ErrdexError as exc:
                raise ToolError(str(exc)) from exc

        return wrapper

    return decorate


def create_server(db_path: str | os.PathLike[str]) -> ErrdexMCPServer:
    """The MCP server over the errdex database at ``db_path``."""
    pool = StorePool(db_path)
    server = ErrdexMCPServer("errdex", version=errdex.__version__, instructions=INSTRUCTIONS)
    server.rejections = rejections = Rejections()
    checked = _tool_errors(rejections)

    @server.tool()
    @checked
    def explain_error(
        text: Annotated[str, Field(description="The error text as the user saw it.")],
        top: Annotated[int, Field(ge=1, le=50, description="How many matches at most.")] = 5,
        repo: Annotated[str | None, Field(description="Only records of OWNER/NAME.")] = None,
        deps: Annotated[list[str] | None, Field(
            max_length=5000,
            description="The releases the user's project pins (pypi:NAME==VERSION, "
                        "npm:NAME@VERSION): matches from these versions rank first, and "
                        "'note' says when the best is another version.")] = None,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Find where an error comes from: the source sites that raise it, best first."""
        # no record: the lines holding the text, flagged (no record says how it is raised)
        found = errdex.resolve(text, db=pool.index(), top=top, repo=repo or None,
                               deps=deps or None)
        return errdex.explained_json(found, db=pool.store())

    @server.tool()
    @checked
    def search_records(
        query: Annotated[str, Field(description="Free text; any text is safe.")],
        limit: Annotated[int, Field(ge=1, le=200)] = 20,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Full-text search over error messages, explanations and tags."""
        found = pool.store().search(query, limit=limit)
        return {"records": [s.record.model_dump(mode="json") for s in found]}

    @server.tool()
    @checked
    def get_record(
        id_or_slug: Annotated[str, Field(description="A record id, a slug, or OWNER/NAME:slug.")],
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """One record by id or slug, with its source window and explanation."""
        return pool.store().show(id_or_slug).record.model_dump(mode="json")

    return server


def run_mcp(db_path: str | os.PathLike[str]) -> None:
    """Serve the database at ``db_path`` over MCP on stdin/stdout until stdin closes."""
    create_server(db_path).run("stdio")
