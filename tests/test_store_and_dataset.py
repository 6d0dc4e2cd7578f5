"""The store (migrations, versions, transactions) and dataset import/export."""

from __future__ import annotations

import json
import sqlite3

import pytest

from errdex.datasets.lines import export_dataset, import_dataset
from errdex.errors import DatasetError, RecordNotFoundError, StoreError
from errdex.store.sqlite import STORE_FORMAT_VERSION, SQLiteStore
from tests.conftest import SEED_RECORD

SEED_LINE = json.loads(SEED_RECORD.read_text(encoding="utf-8"))


def test_new_database_is_wal_and_versioned(tmp_path):
    with SQLiteStore(tmp_path / "db.sqlite") as store:
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.format_version() == STORE_FORMAT_VERSION


def test_newer_database_is_refused(tmp_path):
    path = tmp_path / "db.sqlite"
    with SQLiteStore(path) as store:
        store.conn.execute("UPDATE errdex_meta SET value='99' WHERE key='format_version'")
    with pytest.raises(StoreError, match="newer than this errdex"):
        SQLiteStore(path)


def test_not_a_database_is_one_clear_error(tmp_path):
    path = tmp_path / "db.sqlite"
    path.write_text("this is not sqlite " * 100)
    with pytest.raises(StoreError, match="not a usable errdex database"):
        SQLiteStore(path)


def test_import_then_export_gives_identical_record(tmp_path, store):
    assert import_dataset(store, SEED_RECORD) == 1
    out = tmp_path / "out.jsonl"
    assert export_dataset(store, out, version="2026-09-12T17:17:11.597Z") == 1
    exported = out.read_text(encoding="utf-8").splitlines()
    assert len(exported) == 1
    assert json.loads(exported[0]) == SEED_LINE
    original = json.dumps(SEED_LINE["record"], ensure_ascii=False, separators=(",", ":"))
    assert exported[0].startswith('{"record":' + original)


def test_import_accepts_bare_record_and_jsonl(tmp_path, store):
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(SEED_LINE["record"], indent=2))
    assert import_dataset(store, bare) == 1
    second = dict(SEED_LINE["record"], id="0123456789abcdef", slug="another")
    jsonl = tmp_path / "two.jsonl"
    jsonl.write_text(
        json.dumps(SEED_LINE) + "\n\n" + json.dumps({"record": second, "datasetVersion": "x"})
    )
    assert import_dataset(store, jsonl) == 2
    assert store.count() == 2
    assert store.show("another").record.id == "0123456789abcdef"


def test_bad_import_names_file_and_line_and_writes_nothing(tmp_path, store):
    bad = dict(SEED_LINE["record"], id="fedcba9876543210", slug="other", lineNumber="243")
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(SEED_LINE) + "\n" + json.dumps({"record": bad}) + "\n")
    with pytest.raises(DatasetError) as info:
        import_dataset(store, path)
    assert str(info.value) == (
        f"{path}:2: lineNumber must be an integer, not a string; fix or drop this line"
    )
    assert store.count() == 0


def test_broken_json_line_is_reported(tmp_path, store):
    path = tmp_path / "broken.jsonl"
    path.write_text(json.dumps(SEED_LINE) + "\n{not json\n")
    with pytest.raises(DatasetError, match=r"broken.jsonl:2: not valid JSON"):
        import_dataset(store, path)


def test_export_schema_3_adds_optional_fields(make_repo, tmp_path, store):
    import errdex

    repo = make_repo()
    repo.write("m.py", "def f(x):\n    raise ValueError(f'bad {x}')\n")
    repo.commit()
    errdex.mine(repo.root, db=store)
    out2, out3 = tmp_path / "s2.jsonl", tmp_path / "s3.jsonl"
    export_dataset(store, out2, schema=2)
    export_dataset(store, out3, schema=3)
    rec2 = json.loads(out2.read_text())["record"]
    rec3 = json.loads(out3.read_text())["record"]
    assert list(rec2) == list(SEED_LINE["record"])
    assert rec3["language"] == "python" and rec3["enclosingSymbol"] == "f"
    assert rec3["holeNames"] == ["x"]
    # a schema-3 dataset imports back, extras included
    other = SQLiteStore(tmp_path / "other.sqlite")
    import_dataset(other, out3)
    assert other.show(rec3["id"]).extras.hole_names == ["x"]


def test_show_by_slug_and_missing(store):
    import_dataset(store, SEED_RECORD)
    assert store.show("deform-conv2d-backward-unsupported-dtype").record.line_number == 243
    assert store.show("tracel-ai/burn:deform-conv2d-backward-unsupported-dtype")
    with pytest.raises(RecordNotFoundError):
        store.show("no-such-slug")


def test_export_is_atomic_on_failure(tmp_path, store, monkeypatch):
    import_dataset(store, SEED_RECORD)
    out = tmp_path / "data.jsonl"
    out.write_text("previous dataset\n")

    def broken(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(SQLiteStore, "records", broken)
    with pytest.raises(sqlite3.OperationalError):
        export_dataset(store, out)
    assert out.read_text() == "previous dataset\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".data")] == []


def test_version_1_database_is_migrated_with_its_records(tmp_path):
    from errdex.datasets.lines import read_dataset
    from errdex.store.rows import record_row
    from errdex.store.sqlite import MIGRATIONS, _statements

    path = tmp_path / "v1.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE errdex_meta (key TEXT PRIMARY KEY, value TEXT)")
    for statement in _statements(MIGRATIONS[0]):
        conn.execute(statement)
    ((record, extras),) = read_dataset(SEED_RECORD)
    conn.execute("INSERT INTO records VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                 record_row(record, extras, "x"))
    conn.execute("INSERT INTO errdex_meta VALUES ('format_version', '1')")
    conn.commit()
    conn.close()
    with SQLiteStore(path) as store:
        assert store.format_version() == STORE_FORMAT_VERSION
        import errdex

        (match,) = errdex.open_index(store).explain("deform_conv2d_backward: unsupported dtype F8")
        assert match.record.id == record.id
        assert [s.record.id for s in store.search("deform_conv2d_backward")] == [record.id]


@pytest.mark.parametrize(
    "query", ['"', "dtype AND", "NEAR(", "*", "-x", "col:val", "a OR", "'", "(((", "", "ünïcode"]
)
def test_search_never_raises_on_user_syntax(store, query):
    import_dataset(store, SEED_RECORD)
    assert isinstance(store.search(query), list)


def test_search_finds_messages_and_prefixes(store):
    import_dataset(store, SEED_RECORD)
    assert len(store.search("unsupported dtype")) == 1
    assert len(store.search("unsupp")) == 1
    assert len(store.search("deform conv2d backward")) == 1
    assert store.search("nonexistentword") == []
    assert len(store.search("backward", repo="tracel-ai/burn")) == 1
    assert store.search("backward", repo="other/repo") == []
