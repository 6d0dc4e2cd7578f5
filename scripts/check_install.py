"""Run every errdex command once from a bare install (driven by scripts/check-install.sh).

Run by the fresh virtual environment's Python, which holds ``errdex[all]`` and nothing
from the dev extra: each command is started as a user would start it (the ``errdex``
script), on a tiny git repository made here, and its exit status and output are
checked. The first failure stops the run with a non-zero exit and what went wrong.

    python scripts/check_install.py --errdex VENV/bin/errdex --work DIR [--postgres URL]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

APP = '''def find(name, widgets):
    if name not in widgets:
        raise ValueError(f"no widget named {name!r}")
    return widgets[name]
'''
TEST = '''import pytest

def test_find():
    with pytest.raises(ValueError, match="no widget named"):
        find("x", {})
'''
ERROR = "ValueError: no widget named 'gear'"
TRIES = 200  # polls, POLL_S apart, for a server to answer
POLL_S = 0.05


class CheckFailed(Exception):
    pass


class Checker:
    def __init__(self, errdex: str, work: Path):
        self.errdex = errdex
        self.work = work
        self.db = str(work / "errdex.sqlite")
        self.timings: list[tuple[str, float]] = []

    def run(self, *args: str, db: str | None = None, expect: int = 0,
            stdin: str | None = None) -> str:
        """``errdex --db DB ARGS``: its stdout, or CheckFailed on another exit status or
        an internal error."""
        command = [self.errdex, "--db", db or self.db, *args]
        started = time.perf_counter()
        done = subprocess.run(command, input=stdin, capture_output=True, text=True,
                              cwd=self.work, timeout=600, check=False)
        self.timings.append((" ".join(args[:1]), time.perf_counter() - started))
        if done.returncode != expect or "internal error" in done.stderr or (
            "Traceback" in done.stderr
        ):
            raise CheckFailed(
                f"errdex {' '.join(args)}: exit {done.returncode} (expected {expect})\n"
                f"stdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-2000:]}"
            )
        return done.stdout


def check(condition: bool, what: str) -> None:
    if not condition:
        raise CheckFailed(what)


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), "-c", "user.name=errdex", "-c",
                    "user.email=check@errdex.invalid", *args], check=True, capture_output=True)


def make_repo(work: Path) -> Path:
    root = work / "tiny"
    (root / "pkg").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "pkg" / "app.py").write_text(APP)
    (root / "tests" / "test_app.py").write_text(TEST)
    git(root, "init", "--quiet", "--initial-branch=main")
    git(root, "remote", "add", "origin", "https://github.com/errdex-check/tiny.git")
    git(root, "add", "--all")
    git(root, "commit", "--quiet", "-m", "tiny")
    return root


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def http(url: str, body: dict[str, Any] | None = None) -> tuple[int, str]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


class _FakeModel(BaseHTTPRequestHandler):
    """An OpenAI-compatible endpoint that answers every chat with an empty JSON object:
    enough for the LLM path to import, send, parse and verify (and reject) an answer."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        answer = {"choices": [{"message": {"role": "assistant", "content": "{}"},
                               "finish_reason": "stop"}],
                  "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}}
        payload = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:  # quiet: no access log
        pass


@contextmanager
def fake_model() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeModel)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def check_bare(c: Checker) -> None:
    """The environment has errdex's extras and none of the dev tools."""
    for dev in ("pytest", "hypothesis", "ruff", "playwright", "schemathesis", "mypy"):
        check(importlib.util.find_spec(dev) is None, f"{dev} is installed: not a bare install")
    for module in ("fastapi", "uvicorn", "mcp", "pyarrow", "psycopg", "ray", "httpx", "re2",
                   "rapidfuzz"):
        check(importlib.util.find_spec(module) is not None, f"errdex[all] lacks {module}")


def check_cli(c: Checker, repo: Path) -> str:
    """mine, explain, scan, search, show, export, import, enrich: the record's id."""
    out = c.run("mine", str(repo))
    check("mined errdex-check/tiny" in out, f"mine: {out}")
    out = c.run("mine", "--blame", "--full", str(repo))
    check("1 records from 1 files" in out, f"mine --blame: {out}")
    check("pkg/app.py" in c.run("explain", ERROR), "explain found nothing")
    matches = json.loads(c.run("explain", "--json", ERROR))["matches"]
    check(matches and matches[0]["record"]["filePath"] == "pkg/app.py", f"explain: {matches}")
    log = c.work / "app.log"
    log.write_text(f"2026-01-01 12:00:00 INFO start\n2026-01-01 12:00:01 ERROR {ERROR}\n")
    check("pkg/app.py" in c.run("scan", str(log)), "scan did not annotate the error")
    found = json.loads(c.run("search", "--json", "widget"))["records"]
    check(len(found) == 1, f"search: {found}")
    record_id = found[0]["id"]
    check(json.loads(c.run("show", "--json", record_id))["id"] == record_id, "show --json")
    check("no widget named" in c.run("show", record_id), "show")
    jsonl, parquet, folder = c.work / "out.jsonl", c.work / "out.parquet", c.work / "dataset"
    c.run("export", "-o", str(jsonl))
    c.run("export", "--format", "parquet", "-o", str(parquet))
    c.run("export", "--dataset", str(folder))
    check(len(jsonl.read_text().splitlines()) == 1, "export wrote no line")
    for source, name in ((jsonl, "jsonl"), (parquet, "parquet"), (folder, "folder")):
        out = c.run("import", str(source), db=str(c.work / f"import-{name}.sqlite"))
        check("imported 1 record" in out, f"import {name}: {out}")
    check("enriched 1 record" in c.run("enrich", "--root", str(repo)), "enrich")
    with fake_model() as url:
        out = c.run("enrich", "--llm-base-url", url, "--llm-model", "fake", "--concurrency", "1")
    check("record" in out, f"enrich --llm: {out}")
    return str(record_id)


def check_many(c: Checker, repo: Path) -> None:
    listing = c.work / "list.txt"
    listing.write_text(f"{repo}\nfile://{repo}\n")
    out = c.run("mine-many", "--jobs", "2", "--cache", str(c.work / "clones"), str(listing),
                db=str(c.work / "many.sqlite"))
    check("2 mined" in out, f"mine-many: {out}")


def check_serve(c: Checker, record_id: str) -> None:
    port = free_port()
    server = subprocess.Popen([c.errdex, "--db", c.db, "serve", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    started = time.perf_counter()
    try:
        for _ in range(TRIES):
            try:
                status, _ = http(f"{base}/api/repos")
                break
            except OSError:
                if server.poll() is not None:
                    problem = server.stderr.read() if server.stderr else ""
                    raise CheckFailed(f"serve exited: {problem}") from None
                time.sleep(POLL_S)
        else:
            raise CheckFailed("serve never answered")
        check(status == 200, f"GET /api/repos: {status}")
        status, body = http(f"{base}/api/explain", {"text": ERROR})
        check(status == 200 and json.loads(body)["matches"][0]["record"]["id"] == record_id,
              f"POST /api/explain: {status} {body[:500]}")
        status, body = http(f"{base}/")
        check(status == 200 and "<html" in body.lower(), f"GET /: {status}")
    finally:
        server.terminate()
        server.wait(timeout=30)
    c.timings.append(("serve", time.perf_counter() - started))


async def _mcp_session(errdex: str, db: str) -> dict[str, Any]:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=errdex, args=["--db", db, "mcp"])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = {tool.name for tool in (await session.list_tools()).tools}
        check("explain_error" in tools, f"mcp tools: {tools}")
        result = await session.call_tool("explain_error", {"text": ERROR})
        check(not result.is_error, f"mcp explain_error: {result.content}")
        text = result.content[0].text  # type: ignore[union-attr]
        return json.loads(text)  # type: ignore[no-any-return]


def check_mcp(c: Checker, record_id: str) -> None:
    import anyio

    started = time.perf_counter()
    payload = anyio.run(_mcp_session, c.errdex, c.db)
    check(payload["matches"][0]["record"]["id"] == record_id, f"mcp: {payload}")
    c.timings.append(("mcp", time.perf_counter() - started))


def check_postgres(c: Checker, repo: Path, url: str) -> None:
    out = c.run("mine", str(repo), db=url)
    check("mined errdex-check/tiny" in out, f"mine into PostgreSQL: {out}")
    matches = json.loads(c.run("explain", "--json", ERROR, db=url))["matches"]
    check(matches and matches[0]["record"]["filePath"] == "pkg/app.py", f"explain: {matches}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errdex", required=True)
    parser.add_argument("--work", required=True, type=Path)
    parser.add_argument("--postgres")
    options = parser.parse_args()
    c = Checker(options.errdex, options.work)
    steps = ["bare", "cli", "mine-many", "serve", "mcp"] + (["postgres"] if options.postgres
                                                             else [])
    step = steps[0]
    try:
        check_bare(c)
        step = "cli"
        repo = make_repo(options.work)
        record_id = check_cli(c, repo)
        step = "mine-many"
        check_many(c, repo)
        step = "serve"
        check_serve(c, record_id)
        step = "mcp"
        check_mcp(c, record_id)
        if options.postgres:
            step = "postgres"
            check_postgres(c, repo, options.postgres)
    except (CheckFailed, subprocess.SubprocessError, OSError, ValueError, KeyError) as exc:
        print(f"check-install: FAILED at {step}: {exc}", file=sys.stderr)
        return 1
    slowest = ", ".join(f"{name} {seconds:.1f}s" for name, seconds in
                        sorted(c.timings, key=lambda t: -t[1])[:4])
    print(f"check-install: every command ran from the bare install ({', '.join(steps)}); "
          f"slowest: {slowest}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    sys.exit(main())
