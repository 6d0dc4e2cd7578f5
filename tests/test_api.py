"""The public Python API: what ``errdex`` exports, and the boundary the interfaces keep.

The end-to-end test drives one small repository through every public function and reads
results by their snake_case attributes; the boundary test reads the import graph (grimp,
type-only imports included) so that the CLI, web app and MCP server use nothing else.
"""

from __future__ import annotations

import inspect
import io
import json
from collections.abc import Callable
from pathlib import Path

import grimp
import pytest

import errdex
import errdex.api
from tests.conftest import GitRepo

SOURCE = '''import json


def load(path):
    if not path.endswith(".json"):
        raise ValueError(f"unsupported config file {path}")
    return json.loads(open(path).read())


def port(value):
    if value < 1024:
        raise PermissionError(f"port {value} needs root")
    return value
'''

# What an interface may import besides other interfaces.
INTERFACE_MAY_IMPORT = {"errdex", "errdex.api", "errdex.errors", "errdex.visible",
                        "errdex.version"}


def test_errdex_exports_exactly_the_api() -> None:
    assert errdex.__all__ == errdex.api.__all__
    assert len(set(errdex.__all__)) == len(errdex.__all__)
    for name in errdex.__all__:
        value = getattr(errdex, name)
        assert value is getattr(errdex.api, name), name
        if inspect.isfunction(value) or inspect.isclass(value):
            assert inspect.getdoc(value), f"errdex.{name} has no docstring"
    try:  # on demand: needs the llm extra
        import httpx  # noqa: F401
    except ImportError:
        pass
    else:
        assert errdex.LlmConfig is errdex.api.LlmConfig
    with pytest.raises(AttributeError):
        errdex.api.no_such_name  # noqa: B018


def test_interfaces_import_only_the_public_api() -> None:
    graph = grimp.build_graph("errdex", include_external_packages=False)
    crossing = sorted(
        (importer, imported)
        for importer in graph.find_descendants("errdex.interfaces")
        for imported in graph.find_modules_directly_imported_by(importer)
        if not imported.startswith("errdex.interfaces") and imported not in INTERFACE_MAY_IMPORT
    )
    assert crossing == [], "interfaces reach past errdex.api: " + ", ".join(
        f"{a} -> {b}" for a, b in crossing)
    # and the API itself is the only stage importer the interfaces lean on
    assert graph.find_modules_directly_imported_by("errdex") <= {
        "errdex.api", "errdex.version"} | set(graph.find_descendants("errdex.api"))


def test_mine_explain_scan_search_show_export_import_enrich(
    make_repo: Callable[..., GitRepo], tmp_path: Path,
) -> None:
    repo = make_repo()
    repo.commit_files({"app/config.py": SOURCE})
    db = tmp_path / "api.sqlite"

    seen: list[errdex.MineSummary] = []
    summary = errdex.mine(repo.root, db=db, on_mined=seen.append, warm_index=True)
    assert summary.repo == "acme/widgets" and summary.records == 2
    assert summary.files_mined == 1 and summary.new == 2 and summary.llm is None
    assert seen == [summary]
    again = errdex.mine(repo.root, db=db)
    assert again.records == 2 and again.new == 0 and again.incremental

    matches = errdex.explain("ValueError: unsupported config file settings.yaml", db=db)
    assert matches and isinstance(matches[0], errdex.Match)
    best = matches[0]
    assert best.bound == {"path": "settings.yaml"} and best.score > 0 and best.reason
    assert best.record.repo == "acme/widgets"
    with errdex.open_store(db) as store:  # an open store or index is reused, not closed
        index = errdex.open_index(store)
        assert [m.record.id for m in errdex.explain(
            "PermissionError: port 80 needs root", db=index)] == [
            m.record.id for m in errdex.explain("PermissionError: port 80 needs root",
                                                db=store)]
        assert len(index) == 2
    assert errdex.explain("KeyError: nothing like it", db=db) == []

    log = tmp_path / "app.log"
    log.write_text("2026-01-01 12:00:00 INFO started\n"
                   "2026-01-01 12:00:01 ERROR PermissionError: port 80 needs root\n"
                   "2026-01-01 12:00:02 INFO done\n", encoding="utf-8")
    scan_summary = errdex.ScanSummary()
    events = list(errdex.scan(log, db=db, summary=scan_summary))
    assert [event.line for event in events] == [2]
    assert events[0].matches[0].bound == {"value": "80"}
    assert scan_summary.events == 1 and scan_summary.matched == 1
    streamed = list(errdex.scan(io.StringIO(log.read_text(encoding="utf-8")), db=db))
    assert [e.matches[0].record.id for e in streamed] == [events[0].matches[0].record.id]
    with pytest.raises(errdex.UsageError, match="no such log file"):
        list(errdex.scan(tmp_path / "missing.log", db=db))

    found = errdex.search("unsupported config", db=db)
    assert [s.record.id for s in found] == [best.record.id]
    shown = errdex.show(best.record.slug, db=db)
    assert shown.record.id == best.record.id and shown.removed is None
    with pytest.raises(errdex.RecordNotFoundError):
        errdex.show("no-such-record", db=db)

    exported = tmp_path / "records.jsonl"
    assert errdex.export_dataset(exported, db=db, schema=3) == 2
    lines = [json.loads(line) for line in exported.read_text(encoding="utf-8").splitlines()]
    assert {line["record"]["id"] for line in lines} == {s.record.id for s in found} | {
        m.record.id for m in events[0].matches}
    with pytest.raises(errdex.UsageError, match="parquet"):
        errdex.export_dataset(None, db=db, format="parquet")

    copy_db = tmp_path / "copy.sqlite"
    assert errdex.import_dataset(exported, db=copy_db, warm_index=True) == 2
    assert errdex.import_dataset(exported, db=copy_db) == 2  # same records: nothing changes
    assert [m.record.id for m in errdex.explain(
        "ValueError: unsupported config file a.toml", db=copy_db)][:1] == [best.record.id]

    enriched = errdex.enrich(db=copy_db, repo="acme/widgets", root=repo.root)
    assert enriched.records == 2 and enriched.llm is None
    assert errdex.enrich(db=copy_db, repo="other/repo").records == 0

    folder = tmp_path / "published"
    assert errdex.publish_dataset(folder, db=db) == 2
    assert errdex.import_dataset(folder, db=tmp_path / "third.sqlite") == 2


def test_mine_many_and_the_llm_settings_checked_first(
    make_repo: Callable[..., GitRepo], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = make_repo()
    repo.commit_files({"app/config.py": SOURCE})
    listing = tmp_path / "list.txt"
    listing.write_text(f"# one repository\n{repo.root}\n", encoding="utf-8")
    entries = errdex.read_repo_list(listing)
    assert [entry.location for entry in entries] == [str(repo.root)]
    db = tmp_path / "many.sqlite"
    summary = errdex.mine_many([str(repo.root)], db=db, jobs=1, cache_dir=tmp_path / "cache",
                               cache_budget="1G", warm_index=True)
    assert summary.ok and summary.mined == 1 and summary.records == 2
    again = errdex.mine_many(entries, db=db, jobs=1, cache_dir=tmp_path / "cache")
    assert again.unchanged == 1 and again.mined == 0

    monkeypatch.delenv("ERRDEX_LLM_BASE_URL", raising=False)
    monkeypatch.delenv("ERRDEX_LLM_MODEL", raising=False)
    with pytest.raises(errdex.UsageError, match="--llm-base-url"):
        errdex.llm_config(model="m")
    config = errdex.llm_config("http://127.0.0.1:9/v1", "m", batch_records=5)
    assert config.model == "m" and config.batch_records == 5
    with pytest.raises(errdex.UsageError, match="go together"):
        errdex.mine(repo.root, db=db, enrich="llm")
    with pytest.raises(errdex.UsageError, match="go together"):
        errdex.mine(repo.root, db=db, llm=config)
