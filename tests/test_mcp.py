"""The MCP server over stdio, driven by the ``mcp`` SDK's own stdio client."""

from __future__ import annotations

import json
import select
import subprocess
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
        args=["-c", f"from errdex.interfaces.mcp import run_mcp; run_mcp({str(db)!r})"],
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


def test_lone_surrogate_gets_a_tool_error(make_repo: Callable[..., GitRepo],
                                          tmp_path: Path) -> None:
    """JSON can escape a lone surrogate ("\\ud800"); the SDK's reader refused such a line
    and the call was never answered. Raw JSON-RPC lines, as a client writes them."""
    db = build_index_db(make_repo, tmp_path / "mcp.sqlite")
    params = _server(db)
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "explain_error", "arguments": {"text": "ValueError: width \ud800 got 3"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "search_records", "arguments": {"query": "\udfff dtype"}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
            "name": "explain_error", "arguments": {"text": WIDTH_ERROR}}},
    ]
    errlog = tmp_path / "mcp-raw-stderr.log"
    with errlog.open("wb") as err:
        server = subprocess.Popen([params.command, *params.args], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=err, env=params.env)
        assert server.stdin is not None and server.stdout is not None
        answers = {}
        try:
            for line in lines:  # one at a time: stdin stays open until each is answered
                server.stdin.write((json.dumps(line) + "\n").encode())  # \ud800 escapes
                server.stdin.flush()
                if "id" in line:  # before the fix: never answered (a bounded wait, not a timing)
                    ready, _, _ = select.select([server.stdout], [], [], 60)
                    assert ready, f"no answer to request {line['id']}"
                    answer = json.loads(server.stdout.readline())
                    answers[answer["id"]] = answer
        finally:
            server.stdin.close()
            server.wait(timeout=60)
    assert sorted(answers) == [1, 2, 3, 4], errlog.read_text()[-2000:]
    for request_id, argument, char in ((2, "text", "U+D800"), (3, "query", "U+DFFF")):
        result = answers[request_id]["result"]
        assert result["isError"] is True
        message = result["content"][0]["text"]
        assert f"argument '{argument}' is not valid Unicode" in message and char in message
    good = json.loads(answers[4]["result"]["content"][0]["text"])
    assert good["matches"][0]["record"]["filePath"] == "pkg/shapes.py"
    assert "Traceback" not in errlog.read_text()
