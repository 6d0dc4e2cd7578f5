"""Publishing: Parquet round trips, dataset folders with a card, idempotent imports."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import errdex
from errdex.datasets.publish import import_path, write_dataset_folder, write_parquet
from errdex.interfaces.cli import main
from errdex.store.sqlite import SQLiteStore
from tests.conftest import SEED_RECORD

SEED = json.loads(SEED_RECORD.read_text(encoding="utf-8"))


@pytest.fixture
def filled(make_repo, store):
    repo = make_repo()
    repo.write("pkg/m.py", "def f(n):\n    raise ValueError(f'need {n:d} more')\n")
    repo.write("src/lib.rs", 'fn g(x: u8) {\n    panic!("bad byte {:x}", x);\n}\n')
    repo.commit()
    errdex.mine(repo.root, db=store)
    import_path(store, SEED_RECORD)
    return store


def test_parquet_round_trip_keeps_records_identical(filled, tmp_path):
    target = tmp_path / "records.parquet"
    assert write_parquet(filled.records(), target, schema=2, version="v1") == 3
    table = pq.read_table(target)
    assert str(table.schema.field("solutions").type.value_type) == "string"
    assert table.schema.metadata[b"errdex.dataset_version"] == b"v1"
    other = SQLiteStore(tmp_path / "other.sqlite")
    assert import_path(other, target) == 3
    assert [s.record for s in other.records()] == [s.record for s in filled.records()]


def test_dataset_folder_has_all_files_and_a_card(filled, tmp_path):
    folder = tmp_path / "ds"
    assert write_dataset_folder(filled, folder, version="2026-11-30T00:00:00.000Z") == 3
    assert {p.name for p in folder.iterdir()} == {
        "records.jsonl", "records.parquet", "schema.json", "README.md"
    }
    lines = [json.loads(x) for x in (folder / "records.jsonl").read_text().splitlines()]
    assert {line["datasetVersion"] for line in lines} == {"2026-11-30T00:00:00.000Z"}
    card = (folder / "README.md").read_text()
    assert "| tracel-ai/burn | 1 |" in card and "| acme/widgets | 2 |" in card
    assert "| rust | 2 |" in card and "| python | 1 |" in card
    assert "| panic | 2 |" in card and "| exception | 1 |" in card
    # importing the folder into a fresh store gives the same records; twice changes nothing
    other = SQLiteStore(tmp_path / "o.sqlite")
    import_path(other, folder)
    import_path(other, folder)
    assert other.count() == 3
    assert [s.record for s in other.records()] == [s.record for s in filled.records()]


def test_cli_export_formats(filled, tmp_path):
    db = str(filled.path)
    runner = CliRunner()
    out = tmp_path / "x.parquet"
    assert runner.invoke(main, ["--db", db, "export", "--format", "parquet", "-o", str(out)]
                         ).exit_code == 0
    assert pq.read_table(out).num_rows == 3
    bad = runner.invoke(main, ["--db", db, "export", "--format", "parquet"])
    assert bad.exit_code == 2 and "needs -o" in bad.stderr
    folder = tmp_path / "published"
    assert runner.invoke(main, ["--db", db, "export", "--dataset", str(folder), "--schema", "3"]
                         ).exit_code == 0
    first = json.loads((folder / "records.jsonl").read_text().splitlines()[0])["record"]
    assert "language" in first


def test_bad_parquet_is_one_line(tmp_path, store):
    from errdex.errors import DatasetError

    fake = tmp_path / "fake.parquet"
    fake.write_text("not parquet")
    with pytest.raises(DatasetError, match="not a readable Parquet file"):
        import_path(store, fake)
