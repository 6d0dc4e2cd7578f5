"""Publishing an index and syncing it elsewhere: verified, incremental, all or nothing.

A mined fixture is published, served by a local HTTP server that records every request,
and synced into other stores; explain must then find what the original store finds.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import errdex
from errdex.datasets.published import publish_dataset
from errdex.interfaces.cli import main
from errdex.store.protocol import open_store
from tests.conftest import GitRepo

LEDGER = '''class LedgerError(Exception):
    pass


NOTES = {"frozen": "the ledger is frozen until the audit ends"}


def post(entry, balance):
    if entry.amount <= 0:
        raise LedgerError(f"entry {entry.id} has a non-positive amount {entry.amount}")
    if balance < entry.amount:
        raise LedgerError(f"insufficient balance {balance} for entry {entry.id}")
    raise LedgerError(NOTES[entry.state])  # a key the source does not spell: a text site
'''
GAUGE = '''def read_gauge(name, value):
    if value is None:
        raise ValueError(f"gauge {name!r} has no reading yet")
    if value > 100:
        raise OverflowError(f"gauge {name!r} reads {value}, over the scale")
    return value
'''
PASTES = [
    "LedgerError: entry 42 has a non-positive amount -3",
    "LedgerError: insufficient balance 10 for entry 7",
    "ValueError: gauge 'oil' has no reading yet",
    "OverflowError: gauge 'fuel' reads 130, over the scale",
    "LedgerError: the ledger is frozen until the audit ends",  # a text site, not a record
]


@dataclass
class Server:
    """A static file server over a folder, recording (path, status) of every request."""

    root: Path
    url: str = ""
    requests: list[tuple[str, int]] = field(default_factory=list)
    httpd: ThreadingHTTPServer | None = None

    def paths(self, status: int | None = None) -> list[str]:
        return [p for p, s in self.requests if status is None or s == status]

    def stop(self) -> None:
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None


@pytest.fixture
def serve() -> Iterator[Callable[[Path], Server]]:
    started: list[Server] = []

    def start(root: Path) -> Server:
        server = Server(root)

        class Handler(SimpleHTTPRequestHandler):
            def log_request(self, code: Any = "-", size: Any = "-") -> None:
                server.requests.append((self.path, int(code)))

        httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(root)))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        server.httpd, server.url = httpd, f"http://127.0.0.1:{httpd.server_address[1]}"
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def mined(make_repo: Callable[..., GitRepo], tmp_path: Path) -> tuple[str, GitRepo]:
    """A store holding two mined repositories (records and a text site)."""
    db = str(tmp_path / "origin.sqlite")
    ledger = make_repo()
    ledger.commit_files({"src/ledger.py": LEDGER})
    errdex.mine(ledger.root, db=db, repo="acme/ledger", jobs=1)
    gauge = make_repo()
    gauge.commit_files({"gauge.py": GAUGE})
    errdex.mine(gauge.root, db=db, repo="acme/gauge", jobs=1)
    return db, ledger


def _publish(db: str, folder: Path) -> errdex.Store:
    with open_store(db) as store:
        publish_dataset(store, folder)
    return store


def _sync(db: str, source: str, cache: Path, *extra: str) -> Result:
    return CliRunner().invoke(main, ["--db", db, "sync", source, "--cache", str(cache),
                                     *extra])


def _found(db: str) -> list[list[tuple[str, str]]]:
    """What explain --json finds for every paste: (repo, id or file:line) per match."""
    out = []
    for paste in PASTES:
        result = CliRunner().invoke(main, ["--db", db, "explain", "--json", paste])
        matches = json.loads(result.output)["matches"]
        out.append([(m["record"]["repo"], m["record"]["id"]) if "record" in m else
                    (m["candidate"]["repo"], f"{m['candidate']['filePath']}:"
                     f"{m['candidate']['lineNumber']}") for m in matches])
    return out


def _records(db: str) -> list[str]:
    with open_store(db) as store:
        return sorted(json.dumps(s.record.model_dump(mode="json")) for s in store.records())


def test_a_synced_store_explains_like_the_original_and_a_second_sync_moves_nothing(
    mined: tuple[str, GitRepo], tmp_path: Path, serve: Callable[[Path], Server], backend_db: str
) -> None:
    origin, _ = mined
    _publish(origin, tmp_path / "pub")
    # published a while ago: its one-second Last-Modified can then validate a cached copy
    aged = time.time() - 120
    os.utime(tmp_path / "pub" / "manifest.json", (aged, aged))
    server = serve(tmp_path / "pub")
    first = _sync(backend_db, server.url, tmp_path / "cache")
    assert first.exit_code == 0, first.output
    assert "2 repositories written" in first.output
    expected = _found(origin)
    assert all(expected) and _found(backend_db) == expected
    assert _records(backend_db) == _records(origin)
    # text sites came with the dataset: the untraced message lands on its line
    assert expected[-1] == [("acme/ledger", "src/ledger.py:5")]

    server.requests.clear()
    second = _sync(backend_db, server.url, tmp_path / "cache")
    assert second.exit_code == 0 and "0 repositories written" in second.output
    assert server.requests == [("/manifest.json", 304)]  # a conditional GET, no body


def test_explain_says_a_match_comes_from_a_synced_dataset(
    mined: tuple[str, GitRepo], tmp_path: Path
) -> None:
    origin, _ = mined
    _publish(origin, tmp_path / "pub")
    db = str(tmp_path / "copy.sqlite")
    assert _sync(db, str(tmp_path / "pub"), tmp_path / "cache").exit_code == 0
    text = CliRunner().invoke(main, ["--db", db, "explain", PASTES[0]]).output
    assert "from the synced dataset" in text and str(tmp_path / "pub") in text
    as_json = json.loads(CliRunner().invoke(main, ["--db", db, "explain", "--json",
                                                   PASTES[0]]).output)
    origin_field = as_json["matches"][0]["origin"]
    assert origin_field["dataset"] == str(tmp_path / "pub")
    assert origin_field["datasetVersion"].startswith("sha256-")
    local = json.loads(CliRunner().invoke(main, ["--db", origin, "explain", "--json",
                                                 PASTES[0]]).output)
    assert "origin" not in local["matches"][0]  # the original store mined it


def test_a_change_to_one_file_moves_one_repositorys_shards(
    mined: tuple[str, GitRepo], tmp_path: Path, serve: Callable[[Path], Server]
) -> None:
    origin, ledger = mined
    _publish(origin, tmp_path / "pub")
    server = serve(tmp_path / "pub")
    db = str(tmp_path / "copy.sqlite")
    assert _sync(db, server.url, tmp_path / "cache").exit_code == 0
    ledger.commit_files({"src/ledger.py": LEDGER.replace("insufficient", "not enough")})
    errdex.mine(ledger.root, db=origin, repo="acme/ledger", jobs=1)
    with open_store(origin) as store:
        manifest = publish_dataset(store, tmp_path / "pub")
    ledger_shards = {s.path for r in manifest.repos if r.repo == "acme/ledger" for s in r.shards}
    server.requests.clear()
    result = _sync(db, server.url, tmp_path / "cache")
    assert result.exit_code == 0 and "1 repositories written" in result.output
    fetched = {p.lstrip("/") for p in server.paths(200)} - {"manifest.json"}
    assert fetched and fetched <= ledger_shards
    assert _found(db) == _found(origin)


def _tamper(folder: Path, repo: str) -> None:
    manifest = json.loads((folder / "manifest.json").read_text())
    shard = next(r for r in manifest["repos"] if r["repo"] == repo)["shards"][0]
    path = folder / shard["path"]
    data = bytearray(path.read_bytes())
    data[-12] ^= 0xFF
    path.write_bytes(bytes(data))


def test_a_tampered_shard_is_rejected_and_the_old_data_kept(
    mined: tuple[str, GitRepo], tmp_path: Path, serve: Callable[[Path], Server]
) -> None:
    origin, ledger = mined
    _publish(origin, tmp_path / "pub")
    server = serve(tmp_path / "pub")
    db = str(tmp_path / "copy.sqlite")
    assert _sync(db, server.url, tmp_path / "cache").exit_code == 0
    before = _records(db)
    ledger.commit_files({"src/ledger.py": LEDGER + GAUGE.replace("gauge", "meter")})
    errdex.mine(ledger.root, db=origin, repo="acme/ledger", jobs=1)
    _publish(origin, tmp_path / "pub")
    _tamper(tmp_path / "pub", "acme/ledger")
    result = _sync(db, server.url, tmp_path / "cache")
    assert result.exit_code == 2
    assert "sha256 differs from the manifest" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert _records(db) == before


def test_a_dead_url_falls_back_to_the_cache_with_a_warning(
    mined: tuple[str, GitRepo], tmp_path: Path, serve: Callable[[Path], Server]
) -> None:
    origin, _ = mined
    _publish(origin, tmp_path / "pub")
    server = serve(tmp_path / "pub")
    assert _sync(str(tmp_path / "a.sqlite"), server.url, tmp_path / "cache").exit_code == 0
    server.stop()
    fresh = str(tmp_path / "b.sqlite")  # an empty store, filled from the cached copy
    result = _sync(fresh, server.url, tmp_path / "cache")
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "using the cached copy" in warnings[0]
    assert _found(fresh) == _found(origin)
    # no cache and no server: one line, nothing written
    lost = _sync(str(tmp_path / "c.sqlite"), server.url, tmp_path / "other-cache")
    assert lost.exit_code == 2 and "no cached copy" in lost.output


def test_offline_uses_only_the_cache(
    mined: tuple[str, GitRepo], tmp_path: Path, serve: Callable[[Path], Server]
) -> None:
    origin, _ = mined
    _publish(origin, tmp_path / "pub")
    server = serve(tmp_path / "pub")
    assert _sync(str(tmp_path / "a.sqlite"), server.url, tmp_path / "cache").exit_code == 0
    server.requests.clear()
    fresh = str(tmp_path / "b.sqlite")
    result = _sync(fresh, server.url, tmp_path / "cache", "--offline")
    assert result.exit_code == 0 and "from the cached copy" in result.output
    assert server.requests == []
    assert _records(fresh) == _records(origin)
    never = _sync(str(tmp_path / "c.sqlite"), server.url, tmp_path / "none", "--offline")
    assert never.exit_code == 2 and "no cached copy" in never.output


def _hostile(folder: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    manifest = json.loads((folder / "manifest.json").read_text())
    edit(manifest)
    (folder / "manifest.json").write_text(json.dumps(manifest))


def _first_shard(manifest: dict[str, Any]) -> dict[str, Any]:
    shard: dict[str, Any] = manifest["repos"][0]["shards"][0]
    return shard


def _replace_shard(folder: Path, manifest: dict[str, Any], lines: list[bytes]) -> None:
    """Point the first shard at new content, with a correct name, sha256 and size."""
    data = gzip.compress(b"".join(line + b"\n" for line in lines))
    sha = hashlib.sha256(data).hexdigest()
    path = f"shards/{sha[:32]}.jsonl.gz"
    (folder / path).write_bytes(data)
    shard = _first_shard(manifest)
    shard.update(path=path, sha256=sha, size=len(data), records=len(lines))
    manifest["recordCount"] = sum(s["records"] for r in manifest["repos"] for s in r["shards"]
                                  if s["kind"] == "records")


@pytest.mark.parametrize(("name", "edit", "says"), [
    ("traversal", lambda m, f: _first_shard(m).update(path="../../../etc/passwd"),
     "named by their content"),
    ("absolute", lambda m, f: _first_shard(m).update(path="/etc/passwd"),
     "named by their content"),
    ("repo", lambda m, f: m["repos"][0].update(repo="../x"), "is not OWNER/NAME"),
    ("format", lambda m, f: m.update(format=99), "upgrade errdex"),
    ("count", lambda m, f: m.update(recordCount=10**6), "recordCount"),
    ("foreign record", lambda m, f: _replace_shard(f, m, [json.dumps(
        {"record": {**json.loads(_line(f, m)), "repo": "evil/other"},
         "datasetVersion": "x"}).encode()]), "holds a record of evil/other"),
    ("bad record", lambda m, f: _replace_shard(f, m, [b'{"record": {"id": 1}}']),
     "id must be a string"),
    ("not gzip", lambda m, f: _not_gzip(f, m), "not gzip"),
])
def test_a_hostile_dataset_is_refused_in_one_line_and_changes_nothing(
    mined: tuple[str, GitRepo], tmp_path: Path, name: str,
    edit: Callable[[dict[str, Any], Path], None], says: str,
) -> None:
    origin, _ = mined
    folder = tmp_path / "pub"
    _publish(origin, folder)
    _hostile(folder, lambda m: edit(m, folder))
    db = str(tmp_path / "copy.sqlite")
    result = _sync(db, str(folder), tmp_path / "cache")
    assert result.exit_code == 2, (name, result.output)
    assert says in result.output and len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output
    assert _records(db) == []
    assert not list(tmp_path.glob("cache/*/manifest.json"))  # nothing cached either


def _line(folder: Path, manifest: dict[str, Any]) -> str:
    """The record (JSON text) of the first line of the first shard."""
    data = gzip.decompress((folder / _first_shard(manifest)["path"]).read_bytes())
    return json.dumps(json.loads(data.splitlines()[0])["record"])


def _not_gzip(folder: Path, manifest: dict[str, Any]) -> None:
    data = b"plain text, no gzip header\n"
    sha = hashlib.sha256(data).hexdigest()
    path = f"shards/{sha[:32]}.jsonl.gz"
    (folder / path).write_bytes(data)
    _first_shard(manifest).update(path=path, sha256=sha, size=len(data))


def test_a_local_mine_wins_over_a_synced_copy(
    mined: tuple[str, GitRepo], tmp_path: Path, make_repo: Callable[..., GitRepo],
    backend_db: str,
) -> None:
    origin, _ = mined
    _publish(origin, tmp_path / "pub")
    db = backend_db
    mine = make_repo()
    mine.commit_files({"src/ledger.py": LEDGER.replace("insufficient", "too small a")})
    errdex.mine(mine.root, db=db, repo="acme/ledger", jobs=1)
    local = _records(db)
    result = _sync(db, str(tmp_path / "pub"), tmp_path / "cache")
    assert result.exit_code == 0 and "kept the local mine of 1 repositories" in result.output
    with open_store(db) as store:
        ledger = sorted(json.dumps(s.record.model_dump(mode="json"))
                        for s in store.records("acme/ledger"))
        assert store.count("acme/gauge") > 0  # the other repository was synced
    assert ledger == local
    assert errdex.dataset_origins(["acme/ledger", "acme/gauge"], db=db).keys() == {"acme/gauge"}
    # mining a synced repository makes it local: explain no longer names the dataset
    gauge = make_repo()
    gauge.commit_files({"gauge.py": GAUGE})
    errdex.mine(gauge.root, db=db, repo="acme/gauge", jobs=1)
    assert errdex.dataset_origins(["acme/gauge"], db=db) == {}
    again = _sync(db, str(tmp_path / "pub"), tmp_path / "cache")
    assert "kept the local mine of 2 repositories" in again.output


def test_a_repository_dropped_from_the_dataset_is_removed(
    mined: tuple[str, GitRepo], tmp_path: Path, backend_db: str
) -> None:
    origin, _ = mined
    _publish(origin, tmp_path / "pub")
    db = backend_db
    assert _sync(db, str(tmp_path / "pub"), tmp_path / "cache").exit_code == 0
    with open_store(origin) as store:
        publish_dataset(store, tmp_path / "pub", repo="acme/gauge")
    result = _sync(db, str(tmp_path / "pub"), tmp_path / "cache")
    assert "removed 1 repositories" in result.output
    with open_store(db) as store:
        assert store.repos() == ["acme/gauge"] and store.count("acme/ledger") == 0


def test_publishing_unchanged_data_rewrites_nothing(
    mined: tuple[str, GitRepo], tmp_path: Path
) -> None:
    origin, _ = mined
    with open_store(origin) as store:
        first = publish_dataset(store, tmp_path / "pub")
        stamps = {p: p.stat().st_mtime_ns for p in (tmp_path / "pub" / "shards").iterdir()}
        second = publish_dataset(store, tmp_path / "pub")
    assert second.dataset_version == first.dataset_version
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "pub" / "shards").iterdir()} == stamps
    body = json.loads((tmp_path / "pub" / "manifest.json").read_text())
    assert body["recordCount"] == first.record_count == 4
    assert all(len(s["sha256"]) == 64 and s["size"] > 0 for r in body["repos"]
               for s in r["shards"])


def test_a_server_syncer_keeps_the_index_fresh_and_survives_a_dead_source(
    mined: tuple[str, GitRepo], tmp_path: Path, serve: Callable[[Path], Server]
) -> None:
    origin, ledger = mined
    _publish(origin, tmp_path / "pub")
    server = serve(tmp_path / "pub")
    db = str(tmp_path / "served.sqlite")
    warnings: list[str] = []
    syncer = errdex.Syncer(server.url, db, ttl=3600, cache_dir=tmp_path / "cache",
                           warn=warnings.append).start()
    try:
        pool = errdex.StorePool(db)
        assert errdex.explain(PASTES[1], db=pool.index())
        ledger.commit_files({"src/ledger.py": LEDGER.replace("insufficient", "not enough")})
        errdex.mine(ledger.root, db=origin, repo="acme/ledger", jobs=1)
        _publish(origin, tmp_path / "pub")
        syncer.sync_once()
        index = pool.index()  # rebuilt: the sync bumped the store's generation
        # the old message's site is kept, marked removed at the new commit, as a mine does
        assert all(m.removed is not None for m in errdex.explain(PASTES[1], db=index))
        assert errdex.explain("LedgerError: not enough balance 1 for entry 2", db=index)
        server.stop()
        shutil.rmtree(tmp_path / "cache")
        syncer.sync_once()  # no source, no cache: a warning, the data stays
        assert warnings and "sync of" in warnings[-1]
        assert errdex.explain("LedgerError: not enough balance 1 for entry 2", db=db)
    finally:
        syncer.stop()


def test_the_whole_chain_through_a_static_site(
    mined: tuple[str, GitRepo], tmp_path: Path, serve: Callable[[Path], Server]
) -> None:
    pytest.importorskip("jinja2")
    origin, _ = mined
    site = tmp_path / "site"
    exported = CliRunner().invoke(main, ["--db", origin, "export", "--site", str(site),
                                         "--base-url", "https://errors.example.org"])
    assert exported.exit_code == 0, exported.output
    server = serve(site)
    db = str(tmp_path / "copy.sqlite")
    result = _sync(db, f"{server.url}/data", tmp_path / "cache")
    assert result.exit_code == 0, result.output
    assert _found(db) == _found(origin)
    manifest = json.loads((site / "data" / "manifest.json").read_text())
    assert manifest["baseUrl"] == "https://errors.example.org/data"


def test_the_web_api_and_mcp_say_a_match_comes_from_a_synced_dataset(
    mined: tuple[str, GitRepo], tmp_path: Path
) -> None:
    """The same ``origin`` as ``explain --json``, from the other two ways to ask."""
    from contextlib import AsyncExitStack

    import anyio
    from fastapi.testclient import TestClient
    from mcp import ClientSession, stdio_client

    from errdex.interfaces.web.app import create_app
    from tests.test_mcp import _payload, _server

    origin, _ = mined
    _publish(origin, tmp_path / "pub")
    db = tmp_path / "copy.sqlite"
    assert _sync(str(db), str(tmp_path / "pub"), tmp_path / "cache").exit_code == 0
    cli = json.loads(CliRunner().invoke(main, ["--db", str(db), "explain", "--json",
                                               PASTES[0]]).output)
    expected = cli["matches"][0]["origin"]
    client = TestClient(create_app(db), base_url="http://localhost")
    assert client.post("/api/explain", json={"text": PASTES[0]}).json()[
        "matches"][0]["origin"] == expected

    async def ask_mcp() -> Any:
        async with AsyncExitStack() as stack:
            errlog = stack.enter_context((tmp_path / "mcp-stderr.log").open("w"))
            read, write = await stack.enter_async_context(stdio_client(_server(db),
                                                                       errlog=errlog))
            session = await stack.enter_async_context(ClientSession(read, write))
            await session.initialize()
            return _payload(await session.call_tool("explain_error", {"text": PASTES[0]}))

    assert anyio.run(ask_mcp)["matches"][0]["origin"] == expected
