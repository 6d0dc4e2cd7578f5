"""The MCP server over stdio, driven by the ``mcp`` SDK's own stdio client."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

from tests.conftest import GitRepo
from tests.test_web import SEED, WIDTH_ERROR, build_index_db

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _server(db: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-c", f"from errdex.mcp import run_mcp; run_mcp({str(db)!r})"],
        env={"PYTHONPATH": SRC},
    )


def _payload(result: Any) -> Any:
    """The tool's JSON: its text content, which must agree with the structured content."""
    assert not result.is_error, result.content
    (content,) = result.content
    payload = json.loads(content.text)
    if result.structured_content is not None:
        assert result.structured_content == payload
    return payload


async def _session_checks(db: Path) -> None:
    async with AsyncExitStack() as stack:
        errlog = stack.enter_context((db.parent / "mcp-stderr.log").open("w"))
        read, write = await stack.enter_async_context(stdio_client(_server(db), errlog=errlog))
        session = await stack.enter_async_context(ClientSession(read, write))
        await session.initialize()
        tools = {tool.name for tool in (await session.list_tools()).tools}
        assert tools == {"explain_error", "search_records", "get_record"}

        explained = _payload(await session.call_tool(
            "explain_error", {"text": WIDTH_ERROR, "top": 2}))
        assert list(explained) == ["matches"]
        best = explained["matches"][0]
        assert list(best) == ["score", "reason", "bound", "record"]
        assert best["record"]["filePath"] == "pkg/shapes.py"
        assert list(best["bound"].values()) == ["-2"]

        burn = _payload(await session.call_tool("explain_error", {
            "text": "deform_conv2d_backward: unsupported dtype I8",
            "repo": "tracel-ai/burn"}))
        assert burn["matches"][0]["record"] == SEED

        found = _payload(await session.call_tool(
            "search_records", {"query": "unsupported dtype", "limit": 10}))
        assert SEED["slug"] in {r["slug"] for r in found["records"]}

        record = _payload(await session.call_tool("get_record", {"id_or_slug": SEED["id"]}))
        assert record == SEED
        by_slug = _payload(await session.call_tool(
            "get_record", {"id_or_slug": "tracel-ai/burn:conv3d-unsupported-dtype"}))
        assert by_slug["id"] == "a1b2c3d4e5f60718"

        missing = await session.call_tool("get_record", {"id_or_slug": "no-such-thing"})
        assert missing.is_error
        assert "no record with id or slug 'no-such-thing'" in missing.content[0].text
        empty = await session.call_tool("explain_error", {"text": "   "})
        assert empty.is_error and "empty input" in empty.content[0].text
        invalid = await session.call_tool("search_records", {"query": "x", "limit": 0})
        assert invalid.is_error
    assert "Traceback" not in (db.parent / "mcp-stderr.log").read_text()


def test_mcp_tools_over_stdio(make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    db = build_index_db(make_repo, tmp_path / "mcp.sqlite")
    anyio.run(_session_checks, db)
