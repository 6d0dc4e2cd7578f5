"""Every command, through the CLI, on both backends: ``--db`` a SQLite file or a
PostgreSQL URL (each test taking ``backend_db`` runs on each, see tests/conftest.py).

Then parity: the same mined inputs give byte-identical exports and the same
``explain --json`` rankings on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from contextlib import AsyncExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
from click.testing import CliRunner, Result

import errdex.records.model
from errdex.interfaces.cli import main
from errdex.store.protocol import open_store
from tests.conftest import SEED_RECORD, GitRepo

SRC = str(Path(__file__).resolve().parents[1] / "src")
SEED_LINE = json.loads(SEED_RECORD.read_text(encoding="utf-8"))

PARSE_PY = """\
def parse_width(text):
    \"\"\"Read a width in pixels.\"\"\"
    if not text.isdigit():
        raise ValueError(f"invalid size {text!r}")
    return int(text)


def connect(host, port):
    raise ConnectionError("cannot reach %s:%d" % (host, port))
"""

GEARS_RS = """\
pub fn turn(gear: u8, speed: u32) -> u32 {
    if speed > 9000 {
        panic!("gear {} slipped at {} rpm", gear, speed);
    }
    speed.checked_mul(2).expect("speed overflow while turning")
}
"""

SERVER_GO = """\
package server

import "fmt"

func Listen(port int) error {
\treturn fmt.Errorf("port %d is already taken", port)
}
"""

LOG = """\
2026-01-02 10:00:00,001 INFO app.main: starting
Traceback (most recent call last):
  File "/srv/app/widgets/parse.py", line 4, in parse_width
ValueError: invalid size 'abc'
2026-01-02 10:00:02,003 INFO app.main: retrying
ConnectionError: cannot reach db.internal:5432
thread 'main' panicked at src/gears.rs:3:9:
gear 4 slipped at 12000 rpm
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
"""

PASTES = [
    "ValueError: invalid size 'abc'",
    "ConnectionError: cannot reach db.internal:5432",
    "thread 'main' panicked at src/gears.rs:3:9:\ngear 4 slipped at 12000 rpm",
    "speed overflow while turning",
    "port 8080 is already taken",
    "deform_conv2d_backward: unsupported dtype I8",
    "invalid",
]


def cli(db: str, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args], input=stdin)


def ok(db: str, *args: str, stdin: str | None = None) -> Result:
    result = cli(db, *args, stdin=stdin)
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result


def _widgets(make_repo: Callable[..., GitRepo]) -> GitRepo:
    repo = make_repo()
    repo.write("widgets/parse.py", PARSE_PY)
    repo.write("src/gears.rs", GEARS_RS)
    repo.write("server/listen.go", SERVER_GO)
    repo.commit()
    return repo


# --- every command on each backend --------------------------------------------------------


def test_mine_explain_search_show(backend_db, make_repo):
    repo = _widgets(make_repo)
    mined = ok(backend_db, "mine", str(repo.root), "--jobs", "1")
    assert "mined acme/widgets" in mined.output and "5 records" in mined.output
    explained = json.loads(ok(backend_db, "explain", "--json", PASTES[0]).stdout)
    best = explained["matches"][0]
    assert (best["record"]["filePath"], best["record"]["lineNumber"]) == ("widgets/parse.py", 4)
    assert list(best["bound"].values()) == ["'abc'"]
    assert "widgets/parse.py" in ok(backend_db, "explain", "-", stdin=PASTES[0]).stdout
    nothing = cli(backend_db, "explain", "--json", "zzqx completely unrelated words")
    assert nothing.exit_code == 1 and json.loads(nothing.stdout) == {"matches": []}

    found = json.loads(ok(backend_db, "search", "--json", "slipped rpm").stdout)["records"]
    assert [r["filePath"] for r in found] == ["src/gears.rs"]
    assert "gears.rs" in ok(backend_db, "search", "slipped").stdout
    assert cli(backend_db, "search", "nothingmatcheshere").exit_code == 1

    record = found[0]
    shown = json.loads(ok(backend_db, "show", "--json", record["id"]).stdout)
    assert shown == record
    by_slug = json.loads(ok(backend_db, "show", "--json", f"acme/widgets:{record['slug']}").stdout)
    assert by_slug == record
    assert "gears.rs" in ok(backend_db, "show", record["id"]).stdout
    missing = cli(backend_db, "show", "no-such-record")
    assert missing.exit_code == 1 and "no record with id or slug" in missing.stderr

    again = ok(backend_db, "mine", str(repo.root), "--jobs", "1")  # incremental: nothing new
    assert "0 new, 0 changed, 0 removed" in again.output
    repo.write("server/listen.go", "package server\n")
    repo.commit()
    removed = ok(backend_db, "mine", str(repo.root), "--jobs", "1")
    assert "0 new, 0 changed, 1 removed" in removed.output
    with open_store(backend_db) as store:
        assert store.count() == 4 and store.count(include_removed=True) == 5


def test_mine_many(backend_db, make_repo, tmp_path):
    """``mine-many`` writes through the store ``--db`` names (it crashed on PostgreSQL)."""
    first = _widgets(make_repo)
    second = make_repo("https://github.com/acme/other.git")
    second.write("lib/io.py", "def read(p):\n    raise OSError(f'cannot read {p}')\n")
    second.commit()
    listing = tmp_path / "repos.txt"
    listing.write_text(f"{first.root}\n{second.root}\n# done\n")
    result = ok(backend_db, "mine-many", str(listing), "--jobs", "1",
                "--cache", str(tmp_path / "cache"))
    assert "acme/widgets" in result.stdout and "acme/other" in result.stdout
    with open_store(backend_db) as store:
        assert store.repos() == ["acme/other", "acme/widgets"]
        assert (store.count("acme/widgets"), store.count("acme/other")) == (5, 1)
    explained = json.loads(ok(backend_db, "explain", "--json", "OSError: cannot read x").stdout)
    assert explained["matches"][0]["record"]["repo"] == "acme/other"
    again = ok(backend_db, "mine-many", str(listing), "--jobs", "1",
               "--cache", str(tmp_path / "cache"))
    assert again.stdout.count("unchanged") >= 2


def test_import_export_round_trip(backend_db, tmp_path, monkeypatch):
    imported = ok(backend_db, "import", str(SEED_RECORD))
    assert "imported 1 record(s)" in imported.output
    monkeypatch.setattr("errdex.datasets.lines.now_iso", lambda: SEED_LINE["datasetVersion"])
    exported = ok(backend_db, "export")
    assert exported.stdout == SEED_RECORD.read_text(encoding="utf-8").strip() + "\n"
    out = tmp_path / "out.jsonl"
    ok(backend_db, "export", "--schema", "3", "-o", str(out))
    assert json.loads(out.read_text(encoding="utf-8"))["record"]["id"] == SEED_LINE["record"]["id"]
    folder = tmp_path / "dataset"
    ok(backend_db, "export", "--dataset", str(folder))
    assert (folder / "README.md").exists()
    parquet = tmp_path / "out.parquet"
    ok(backend_db, "export", "--format", "parquet", "-o", str(parquet))
    assert "imported 1 record(s)" in ok(backend_db, "import", str(parquet)).output
    assert "imported 1 record(s)" in ok(backend_db, "import", "-",
                                        stdin=SEED_RECORD.read_text()).output
    with open_store(backend_db) as store:
        assert store.count() == 1 and store.repos() == ["tracel-ai/burn"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    failed = cli(backend_db, "import", str(bad))
    assert failed.exit_code == 2 and "bad.jsonl:1" in failed.stderr
    assert "Traceback" not in failed.output


def test_scan(backend_db, make_repo, tmp_path):
    ok(backend_db, "mine", str(_widgets(make_repo).root), "--jobs", "1")
    log = tmp_path / "app.log"
    log.write_text(LOG)
    events = [json.loads(line) for line in ok(backend_db, "scan", "--json", str(log))
              .stdout.splitlines()]
    assert [e["matches"][0]["record"]["filePath"] for e in events] == [
        "widgets/parse.py", "widgets/parse.py", "src/gears.rs"]
    assert "3 error events, 3 explained by 3 records" in ok(backend_db, "scan", str(log)).stdout
    # a log over the parallel threshold: worker processes reopen the store by its path/URL
    big = tmp_path / "big.log"
    big.write_text(LOG * 800)
    lines = ok(backend_db, "scan", "--json", "--jobs", "2", str(big)).stdout.splitlines()
    assert len(lines) == 3 * 800
    assert {json.loads(line)["matches"][0]["record"]["filePath"] for line in lines} == {
        "widgets/parse.py", "src/gears.rs"}


def test_enrich(backend_db, make_repo):
    repo = _widgets(make_repo)
    ok(backend_db, "mine", str(repo.root), "--jobs", "1", "--enrich", "none")
    with open_store(backend_db) as store:
        before = {s.record.id: s.record for s in store.records()}
    assert all(not r.documentation for r in before.values())
    result = ok(backend_db, "enrich", "--root", str(repo.root))
    assert "enriched 5 record(s)" in result.output
    with open_store(backend_db) as store:
        after = {s.record.id: s.record for s in store.records()}
        assert store.generation() == 2
    assert after.keys() == before.keys()
    assert any(r.documentation for r in after.values())


def test_mine_and_enrich_with_an_llm(backend_db, make_repo, tmp_path, monkeypatch):
    """``mine --enrich llm`` and ``enrich --llm-*`` against a local Chat Completions
    server: the rewritten fields are stored, and a re-run is served from the cache."""
    from tests.test_llm import CORE, TESTS, ChatServer

    # a PostgreSQL database keeps its answer cache in the user cache directory
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))

    repo = make_repo()
    repo.write("src/shapes/core.py", CORE)
    repo.write("tests/test_core.py", TESTS)
    repo.commit("fixture")
    chat = ChatServer()
    try:
        llm = ["--llm-base-url", chat.url, "--llm-model", "test-model"]
        ok(backend_db, "mine", "--enrich", "llm", *llm, str(repo.root))
        sent = len(chat.requests)
        assert sent >= 1
        with open_store(backend_db) as store:
            flags = {flag for s in store.records() for flag in s.extras.quality_flags}
        assert "llm-enriched" in flags
        ok(backend_db, "enrich", *llm)
        assert len(chat.requests) == sent  # nothing changed: every answer from the cache
        if backend_db.startswith("postgresql://"):
            assert (tmp_path / "cache" / "errdex" / "llm-cache.sqlite").exists()
    finally:
        chat.close()


def test_serve(backend_db, make_repo, monkeypatch):
    from fastapi.testclient import TestClient

    ok(backend_db, "mine", str(_widgets(make_repo).root), "--jobs", "1")
    served: dict[str, Any] = {}

    def fake_run(app: Any, **options: Any) -> None:
        served.update(app=app, **options)

    monkeypatch.setattr("uvicorn.run", fake_run)
    result = ok(backend_db, "serve", "--port", "8765")
    assert served["port"] == 8765 and "serving" in result.stderr
    client = TestClient(served["app"], base_url="http://127.0.0.1:8765")
    explained = client.post("/api/explain", json={"text": PASTES[2]})
    assert explained.status_code == 200, explained.text
    best = explained.json()["matches"][0]["record"]
    assert best["filePath"] == "src/gears.rs"
    assert client.get("/api/repos").json() == {"repos": [{"repo": "acme/widgets",
                                                          "records": 5}]}
    assert client.get(f"/api/records/{best['id']}").json() == best
    assert [r["id"] for r in client.get("/api/search", params={"q": "slipped"}).json()[
        "records"]] == [best["id"]]
    page = client.get(f"/acme/widgets/{best['slug']}")
    assert page.status_code == 200 and "slipped" in page.text


async def _mcp_calls(db: str, log: Path) -> tuple[Any, Any]:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    server = StdioServerParameters(command=sys.executable,
                                   args=["-m", "errdex.interfaces.cli", "--db", db, "mcp"],
                                   env={"PYTHONPATH": SRC})
    async with AsyncExitStack() as stack:
        errlog = stack.enter_context(log.open("w"))
        read, write = await stack.enter_async_context(stdio_client(server, errlog=errlog))
        session = await stack.enter_async_context(ClientSession(read, write))
        await session.initialize()
        explained = await session.call_tool("explain_error", {"text": PASTES[4]})
        record = await session.call_tool("get_record", {"id_or_slug": "no-such-record"})
        return explained, record


def test_mcp(backend_db, make_repo, tmp_path):
    ok(backend_db, "mine", str(_widgets(make_repo).root), "--jobs", "1")
    explained, missing = anyio.run(_mcp_calls, backend_db, tmp_path / "mcp.log")
    assert not explained.is_error, explained.content
    (content,) = explained.content
    best = json.loads(content.text)["matches"][0]
    assert best["record"]["filePath"] == "server/listen.go" and list(best["bound"].values()) == [
        "8080"]
    assert missing.is_error and "no record with id or slug" in missing.content[0].text


def test_a_bad_db_is_one_line(backend, tmp_path):
    db = (str(tmp_path / "folder-that-is-a-file") if backend == "sqlite"
          else "postgresql://nobody:secret@/errdex?host=/nonexistent-errdex&port=5432")
    if backend == "sqlite":
        Path(db).write_text("not a database " * 200)
    result = cli(db, "search", "x")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("errdex: ")
    assert "secret" not in result.stderr and "Traceback" not in result.output


# --- parity: the same inputs give the same outputs on both ---------------------------------


class _FrozenClock(datetime):
    """``now`` is one fixed instant: mines at different moments stamp the same times."""

    @classmethod
    def now(cls, tz: Any = None) -> _FrozenClock:
        return cls(2026, 3, 4, 5, 6, 7, 890000, tzinfo=UTC)


def test_same_inputs_give_the_same_export_and_rankings(make_repo, tmp_path, pg_url,
                                                        monkeypatch):
    monkeypatch.setattr(errdex.records.model, "datetime", _FrozenClock)
    dbs = {"sqlite": str(tmp_path / "parity.sqlite"), "postgres": pg_url}
    repo = _widgets(make_repo)
    for db in dbs.values():
        ok(db, "import", str(SEED_RECORD))
        ok(db, "mine", str(repo.root), "--jobs", "1")
    # a change: one site goes, one comes, one file stays (restamped), then a re-mine
    repo.write("widgets/parse.py", PARSE_PY.replace("cannot reach", "no route to"))
    repo.write("server/listen.go", "package server\n")
    repo.commit()
    for db in dbs.values():
        ok(db, "mine", str(repo.root), "--jobs", "1")

    exports = {name: ok(db, "export", "--schema", "3").stdout for name, db in dbs.items()}
    assert exports["sqlite"].count("\n") == 5
    assert exports["postgres"] == exports["sqlite"]
    repo_only = {name: ok(db, "export", "--repo", "acme/widgets").stdout
                 for name, db in dbs.items()}
    assert repo_only["postgres"] == repo_only["sqlite"] != ""

    for paste in [*PASTES, "ConnectionError: no route to db:1"]:
        answers = {name: cli(db, "explain", "--json", "--top", "10", paste)
                   for name, db in dbs.items()}
        assert answers["postgres"].exit_code == answers["sqlite"].exit_code, paste
        assert answers["postgres"].stdout == answers["sqlite"].stdout, paste
    for query in ("invalid", "gear rpm", "cannot", "dtype", "route"):
        found = {name: sorted(r["id"] for r in json.loads(
            cli(db, "search", "--json", query).stdout or '{"records": []}')["records"])
            for name, db in dbs.items()}
        assert found["postgres"] == found["sqlite"], query
    with open_store(dbs["sqlite"]) as sqlite_store, open_store(pg_url) as pg_store:
        for name in ("acme/widgets", "tracel-ai/burn"):
            assert pg_store.repo_state(name) == sqlite_store.repo_state(name)
        assert [(s.record.id, s.removed) for s in pg_store.records(include_removed=True)] == [
            (s.record.id, s.removed) for s in sqlite_store.records(include_removed=True)]
