"""One behaviour suite for both stores: every test that takes ``backend_store`` or
``backend_db`` runs once on SQLite and once on PostgreSQL (see tests/conftest.py).

What only one backend has (SQLite's lock waits, PostgreSQL's many writers and its
tsquery building) is at the end of this file and in tests/test_store_pg.py.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.datasets.lines import export_dataset, import_dataset, read_dataset
from errdex.errors import (
    RecordNotFoundError,
    StoreError,
    UsageError,
    exit_code_for,
    http_status_for,
)
from errdex.lookup.index import SNAPSHOT_FORMAT, Index
from errdex.mining import run as mining
from errdex.records.model import Record, RecordExtras, content_hash
from errdex.store.protocol import Store, is_postgres_url, open_store
from errdex.store.sqlite import STORE_FORMAT_VERSION, SQLiteStore
from tests.conftest import SEED_RECORD, sql

try:
    import psycopg
except ImportError:  # the 'postgres' extra is optional; its tests skip
    psycopg = None  # type: ignore[assignment]

SEED_LINE = json.loads(SEED_RECORD.read_text(encoding="utf-8"))
SEED_SLUG = "deform-conv2d-backward-unsupported-dtype"
DB_ERRORS: tuple[type[BaseException], ...] = (sqlite3.DatabaseError,) + (
    (psycopg.Error,) if psycopg is not None else ())


def _seed() -> Record:
    ((record, _),) = read_dataset(SEED_RECORD)
    return record


def _seed_variant(**changes: object) -> tuple[Record, RecordExtras | None]:
    ((record, extras),) = read_dataset(SEED_RECORD)
    return Record.model_validate(dict(record.model_dump(mode="json"), **changes)), extras


def _with_hash(
    rows: list[tuple[Record, RecordExtras | None]],
) -> list[tuple[Record, RecordExtras, str]]:
    return [(r, e or RecordExtras(), content_hash(r.error_message, r.source_code)) for r, e in rows]


def _record_count(db: str, repo: str) -> object:
    return sql(db, "SELECT record_count FROM repos WHERE repo = ?", (repo,))[0][0]


# --- opening, versions, migrations ------------------------------------------------------


def test_open_store_chooses_by_url(backend, backend_db, monkeypatch):
    assert is_postgres_url(backend_db) == (backend == "postgres")
    with open_store(backend_db) as store:
        assert isinstance(store, Store)
        assert type(store).__name__ == {"sqlite": "SQLiteStore", "postgres": "PostgresStore"}[
            backend]
        assert str(store.path) == backend_db  # what servers reopen
    monkeypatch.setenv("ERRDEX_DB", backend_db)
    with open_store(None) as store:
        assert str(store.path) == backend_db


def test_new_database_is_versioned_and_empty(backend_store):
    assert backend_store.format_version() == STORE_FORMAT_VERSION
    assert backend_store.generation() == 0
    assert backend_store.count() == 0 and backend_store.repos() == []
    assert backend_store.search("anything") == [] and list(backend_store.records()) == []
    assert list(backend_store.pattern_rows()) == []


def test_newer_database_is_refused(backend_db):
    open_store(backend_db).close()
    sql(backend_db, "UPDATE errdex_meta SET value = '99' WHERE key = 'format_version'")
    with pytest.raises(StoreError, match="newer than this errdex") as info:
        open_store(backend_db)
    assert "\n" not in str(info.value)


def test_foreign_database_is_one_clear_error(backend_db):
    sql(backend_db, "CREATE TABLE records (something INTEGER)")
    with pytest.raises(StoreError, match="not a usable errdex database") as info:
        open_store(backend_db)
    assert "\n" not in str(info.value) and "--db" in str(info.value)


def test_concurrent_first_opens_migrate_once(backend_db):
    errors: list[BaseException] = []

    def open_one() -> None:
        try:
            open_store(backend_db).close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with open_store(backend_db) as store:
        assert store.format_version() == STORE_FORMAT_VERSION and store.generation() == 0


def test_reopening_keeps_records_and_version(backend_db):
    with open_store(backend_db) as store:
        import_dataset(store, SEED_RECORD)
    with open_store(backend_db) as store:
        assert store.format_version() == STORE_FORMAT_VERSION
        assert store.count() == 1 and store.generation() == 1


def _create_version_1(backend: str, db: str, record: Record, extras: RecordExtras | None) -> None:
    """A database as errdex's first release wrote it: migration 1 and one record."""
    from errdex.store.rows import record_row

    if backend == "postgres":
        from errdex.store.postgres import MIGRATIONS as PG_MIGRATIONS

        statements = [PG_MIGRATIONS[0]]
    else:
        from errdex.store.sqlite import MIGRATIONS, _statements

        statements = list(_statements(MIGRATIONS[0]))
    sql(db, "CREATE TABLE errdex_meta (key TEXT PRIMARY KEY, value TEXT)")
    for statement in statements:
        sql(db, statement)
    sql(db, "INSERT INTO records VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", record_row(record, extras, "x"))
    sql(db, "INSERT INTO errdex_meta VALUES ('format_version', '1')")


def test_version_1_database_is_migrated_with_its_records(backend, backend_db):
    ((record, extras),) = read_dataset(SEED_RECORD)
    _create_version_1(backend, backend_db, record, extras)
    with open_store(backend_db) as store:
        assert store.format_version() == STORE_FORMAT_VERSION
        (match,) = Index(store).explain("deform_conv2d_backward: unsupported dtype F8")
        assert match.record.id == record.id and match.bound == {"{:?}": "F8"}
        assert [s.record.id for s in store.search("deform_conv2d_backward")] == [record.id]
        # the explanation of migrated rows is searchable too, as for rows written later
        assert [s.record.id for s in store.search("casts gradients")] == [record.id]
        assert store.show(record.id).removed is None and store.count() == 1


# --- writing ------------------------------------------------------------------------------


def test_upsert_is_idempotent(backend_db, backend_store):
    store = backend_store
    assert import_dataset(store, SEED_RECORD) == 1
    assert import_dataset(store, SEED_RECORD) == 1
    assert store.count() == 1 and store.repos() == ["tracel-ai/burn"]
    assert store.generation() == 2
    assert len(list(store.pattern_rows())) == 1
    assert _record_count(backend_db, "tracel-ai/burn") == 1
    assert len(store.search("unsupported dtype")) == 1


def test_import_then_export_gives_identical_bytes(tmp_path, backend_store):
    import_dataset(backend_store, SEED_RECORD)
    out = tmp_path / "out.jsonl"
    assert export_dataset(backend_store, out, version=SEED_LINE["datasetVersion"]) == 1
    assert out.read_text(encoding="utf-8") == SEED_RECORD.read_text(encoding="utf-8").strip() + (
        "\n")


def test_upsert_replaces_a_record_that_moved_repository(backend_db, backend_store):
    store = backend_store
    import_dataset(store, SEED_RECORD)
    store.upsert([_seed_variant(repo="other/repo", errorMessage="moved: {}",
                                messagePattern="moved: (.+?)")])
    assert store.count() == 1 and store.count("other/repo") == 1
    assert store.count("tracel-ai/burn") == 0
    assert sql(backend_db, "SELECT repo, record_count FROM repos ORDER BY repo") == [
        ("other/repo", 1), ("tracel-ai/burn", 0)]
    assert [p for _, p, _, _ in store.pattern_rows()] == ["moved: (.+?)"]  # none orphaned


def test_replace_repo_is_atomic(backend_store, monkeypatch):
    store = backend_store
    import_dataset(store, SEED_RECORD)
    record = _seed()
    generation = store.generation()
    twice = _with_hash([_seed_variant(id="0123456789abcdef", slug="x")] * 2)
    with pytest.raises(DB_ERRORS):  # a duplicate id: fails after the delete
        store.replace_repo("tracel-ai/burn", twice, analyzed_sha="b" * 40)
    assert store.show(record.id).record == record and store.show(record.id).removed is None
    assert store.count() == 1 and store.generation() == generation

    def broken(*args: object) -> None:
        raise RuntimeError("killed mid-write")

    monkeypatch.setattr(type(store), "_drop_unused_patterns", broken)
    with pytest.raises(RuntimeError):
        store.replace_repo("tracel-ai/burn", [], analyzed_sha="b" * 40)
    assert [s.record.id for s in store.records()] == [record.id]
    assert store.search("unsupported") and store.generation() == generation


def test_replace_repo_marks_vanished_sites_removed(backend_store):
    store = backend_store
    import_dataset(store, SEED_RECORD)
    record = _seed()
    store.replace_repo("tracel-ai/burn", [], analyzed_sha="c" * 40, miner_version="9")
    assert store.count() == 0 and store.count(include_removed=True) == 1
    assert store.count("tracel-ai/burn", include_removed=True) == 1
    assert list(store.records()) == [] and store.search("unsupported dtype") == []
    (kept,) = store.records(include_removed=True)
    assert kept.removed is not None and kept.removed.sha == "c" * 40 and kept.removed.at
    assert store.show(record.id).removed == kept.removed
    assert store.previous_records("tracel-ai/burn")[record.id].removed
    state = store.repo_state("tracel-ai/burn")
    assert state is not None and state.analyzed_sha == "c" * 40 and state.miner_version == "9"
    assert store.repo_state("nobody/nothing") is None
    (row,) = store.candidate_rows([pid for pid, _, _, _ in store.pattern_rows()])
    assert row.removed_sha == "c" * 40  # lookups still find it, marked
    import_dataset(store, SEED_RECORD)  # an import makes it current again
    assert store.show(record.id).removed is None


def test_replace_repo_of_some_files_restamps_the_others(backend_store):
    store = backend_store
    a = _seed_variant(id="a" * 16, slug="in-a", filePath="src/a.rs", errorMessage="fail a {}",
                      messagePattern="fail a (.+?)")
    b = _seed_variant(id="b" * 16, slug="in-b", filePath="src/b.rs", errorMessage="fail b {}",
                      messagePattern="fail b (.+?)")
    old_sha = a[0].analyzed_sha
    store.replace_repo("tracel-ai/burn", _with_hash([a, b]), analyzed_sha=old_sha)
    store.replace_repo("tracel-ai/burn", [], analyzed_sha="d" * 40, files={"src/a.rs"},
                       analyzed_at="2030-01-01T00:00:00.000Z")
    assert [s.record.id for s in store.records()] == ["b" * 16]
    restamped = store.show("b" * 16).record
    assert restamped.analyzed_sha == "d" * 40
    assert restamped.analyzed_at == "2030-01-01T00:00:00.000Z"
    assert restamped.github_url == b[0].github_url.replace(old_sha, "d" * 40)
    removed = store.show("a" * 16)
    assert removed.removed is not None and removed.removed.sha == "d" * 40
    assert removed.record.analyzed_sha == old_sha  # a removed site keeps the commit it was at


# --- reading ------------------------------------------------------------------------------


def test_records_count_and_repos_in_a_stable_order(backend_store):
    store = backend_store
    rows = [_seed_variant(id=f"{n:016x}", slug=f"s{n}", repo=repo, filePath=path, lineNumber=line)
            for n, (repo, path, line) in enumerate([
                ("b/two", "z.rs", 1), ("a/one", "m.rs", 20), ("a/one", "m.rs", 3),
                ("a/one", "c.rs", 7)])]
    store.upsert(rows)
    assert [(s.record.repo, s.record.file_path, s.record.line_number) for s in store.records()] == [
        ("a/one", "c.rs", 7), ("a/one", "m.rs", 3), ("a/one", "m.rs", 20), ("b/two", "z.rs", 1)]
    assert [s.record.id for s in store.records("b/two")] == [f"{0:016x}"]
    assert store.repos() == ["a/one", "b/two"]
    assert (store.count(), store.count("a/one"), store.count("c/three")) == (4, 3, 0)


@pytest.mark.parametrize("query", [
    '"', "dtype AND", "NEAR(", "*", "-x", "col:val", "a OR", "'", "(((", "", "ünïcode",
    "a & b | !c", "x <-> y", "foo:*", "\\", "'; DROP TABLE records; --", "a\x00b", ":*",
    "___", "x" * 5000, " ".join(["w"] * 500), "日本語のエラー", "e\u0301", "\u200b",
])
def test_search_never_raises_on_user_syntax(backend_store, query):
    import_dataset(backend_store, SEED_RECORD)
    assert isinstance(backend_store.search(query), list)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=60))
def test_search_never_raises_on_any_text(backend_store, query):
    assert isinstance(backend_store.search(query), list)


def test_search_finds_messages_and_prefixes(backend_store):
    store = backend_store
    import_dataset(store, SEED_RECORD)
    for query in ("unsupported dtype", "unsupp", "deform conv2d backward",
                  "deform_conv2d_backward", "UNSUPPORTED Dtype", "casts gradients"):
        assert len(store.search(query)) == 1, query
    assert store.search("nonexistentword") == []
    assert len(store.search("backward", repo="tracel-ai/burn")) == 1
    assert store.search("backward", repo="other/repo") == []
    store.upsert([_seed_variant(id="0123456789abcdef", slug="two")])
    assert len(store.search("backward")) == 2 and len(store.search("backward", limit=1)) == 1


def test_search_ranks_message_over_explanation(backend_store):
    store = backend_store
    import_dataset(store, SEED_RECORD)
    store.upsert([_seed_variant(id="0123456789abcdef", slug="tensor-shape",
                                errorMessage="tensor shape mismatch: {}",
                                messagePattern="tensor shape mismatch: (.+?)",
                                documentation="Mentions widget once.")])
    store.upsert([_seed_variant(id="fedcba9876543210", slug="widget-broken",
                                errorMessage="widget broken: {}",
                                messagePattern="widget broken: (.+?)")])
    assert [s.record.slug for s in store.search("widget")] == ["widget-broken", "tensor-shape"]


def test_show_by_id_slug_and_repo_and_get_many(backend_store):
    store = backend_store
    import_dataset(store, SEED_RECORD)
    record = _seed()
    assert store.show(record.id).record.line_number == 243
    assert store.show(f"  {SEED_SLUG} ").record.id == record.id
    assert store.show(f"tracel-ai/burn:{SEED_SLUG}").record.id == record.id
    with pytest.raises(RecordNotFoundError, match="no record with id or slug"):
        store.show("no-such-slug")
    store.upsert([_seed_variant(id="0123456789abcdef", repo="other/repo")])
    with pytest.raises(RecordNotFoundError, match="several repositories"):
        store.show(SEED_SLUG)
    assert store.show(SEED_SLUG, repo="other/repo").record.id == "0123456789abcdef"
    found = store.get_many([record.id, "0123456789abcdef", "missing", record.id])
    assert set(found) == {record.id, "0123456789abcdef"}
    assert found[record.id].record == record
    assert store.get_many([]) == {}


def test_get_many_beyond_one_query_chunk(backend_store):
    store = backend_store
    rows = [_seed_variant(id=f"{n:016x}", slug=f"s{n}") for n in range(1203)]
    assert store.upsert(rows) == 1203
    wanted = [f"{n:016x}" for n in range(0, 1203, 2)] + ["nope"]
    assert sorted(store.get_many(wanted)) == sorted(wanted[:-1])
    ((pid, *_),) = store.pattern_rows()
    assert len(store.candidate_rows([pid])) == 1203


def test_previous_records(backend_store):
    store = backend_store
    import_dataset(store, SEED_RECORD)
    record = _seed()
    previous = store.previous_records("tracel-ai/burn")
    assert list(previous) == [record.id]
    assert previous[record.id].slug == SEED_SLUG
    assert previous[record.id].content_changed_at == record.content_changed_at
    assert previous[record.id].content_hash == content_hash(record.error_message,
                                                            record.source_code)
    assert previous[record.id].file_path == record.file_path
    assert not previous[record.id].removed
    assert store.previous_records("nobody/nothing") == {}


def test_candidate_rows_files_and_pattern_details(backend_store):
    store = backend_store
    import_dataset(store, SEED_RECORD)
    record = _seed()
    ((pid, pattern, words, literal),) = store.pattern_rows()
    assert pattern == record.message_pattern and "deform_conv2d_backward" in words.split()
    assert list(store.pattern_words()) == [(pid, words)]
    assert store.pattern_details([pid, 10_000]) == {pid: (pattern, literal)}
    assert store.pattern_details([]) == {}
    (row,) = store.candidate_rows([pid])
    assert (row.id, row.pattern_id, row.file_path, row.line_number, row.removed_sha) == (
        record.id, pid, record.file_path, 243, None)
    assert (row.repo, row.error_class) == ("tracel-ai/burn", None)
    assert store.candidate_rows([pid], repo="other/repo") == []
    assert store.candidate_rows([]) == []
    name = record.file_path.rsplit("/", 1)[-1]
    assert [r.id for r in store.rows_in_files([name, "other.rs"])] == [record.id]
    assert [r.id for r in store.rows_in_files([name], repo="tracel-ai/burn")] == [record.id]
    assert store.rows_in_files([name], repo="other/repo") == []
    assert store.rows_in_files([]) == [] and store.rows_in_files(["nope.rs"]) == []


def test_index_snapshot_follows_the_generation(backend_store):
    store = backend_store
    import_dataset(store, SEED_RECORD)
    Index(store)
    generation = store.generation()
    assert store.load_snapshot(generation, SNAPSHOT_FORMAT)
    assert store.load_snapshot(generation, SNAPSHOT_FORMAT + 1) is None
    store.save_snapshot(generation - 1, SNAPSHOT_FORMAT, b"stale")  # a writer got there first
    assert store.load_snapshot(generation - 1, SNAPSHOT_FORMAT) is None
    store.save_snapshot(generation, SNAPSHOT_FORMAT + 1, b"other format")
    assert store.load_snapshot(generation, SNAPSHOT_FORMAT + 1) == b"other format"
    import_dataset(store, SEED_RECORD)
    assert store.generation() == generation + 1
    assert store.load_snapshot(store.generation(), SNAPSHOT_FORMAT) is None
    (match,) = Index(store).explain("deform_conv2d_backward: unsupported dtype I8")
    assert match.bound == {"{:?}": "I8"}


def test_a_large_snapshot_comes_back_byte_for_byte(backend_store):
    """Saved and read in pieces: a snapshot over several pieces, of an odd length, with a
    shorter one saved over it, each reads back exactly as written."""
    store = backend_store
    import_dataset(store, SEED_RECORD)
    generation = store.generation()
    large = bytes(range(256)) * 12_289 + b"end"  # ~3 MiB, not a whole number of pieces
    store.save_snapshot(generation, SNAPSHOT_FORMAT, large)
    assert store.load_snapshot(generation, SNAPSHOT_FORMAT) == large
    store.save_snapshot(generation, SNAPSHOT_FORMAT, b"short")
    assert store.load_snapshot(generation, SNAPSHOT_FORMAT) == b"short"
    with store.transaction():  # read inside a caller's transaction too, which goes on
        assert store.load_snapshot(generation, SNAPSHOT_FORMAT) == b"short"
        assert store.generation() == generation
    store.save_snapshot(generation, SNAPSHOT_FORMAT, b"")
    assert store.load_snapshot(generation, SNAPSHOT_FORMAT) == b""


def test_mine_then_explain_and_remine(make_repo, backend_store):
    store = backend_store
    repo = make_repo()
    repo.write("widgets/core.py",
               "def spin(name, speed):\n"
               "    if speed > 9:\n"
               "        raise ValueError(f'widget {name} spins too fast: {speed} rpm')\n")
    repo.commit()
    summary = mining.mine(repo.root, store, jobs=1)
    assert summary.records == 1 and store.repos() == ["acme/widgets"]
    (match, *_) = Index(store).explain(
        "Traceback (most recent call last):\n"
        '  File "widgets/core.py", line 3, in spin\n'
        "ValueError: widget sprocket spins too fast: 12 rpm\n"
    )
    assert match.record.file_path == "widgets/core.py" and match.record.line_number == 3
    assert match.bound == {"name": "sprocket", "speed": "12"}
    assert [s.record.id for s in store.search("spins fast")] == [match.record.id]
    again = mining.mine(repo.root, store, jobs=1)  # a re-mine changes nothing
    assert again.records == 1 and again.new == 0 and store.count() == 1
    repo.write("widgets/core.py", "def spin(name):\n    return name\n")
    repo.commit()
    gone = mining.mine(repo.root, store, jobs=1)
    assert (gone.records, gone.removed, store.count(include_removed=True)) == (0, 1, 1)


# --- the same state on both, operation by operation -------------------------------------


def _state(store: Store, db: str) -> dict[str, object]:
    """Everything a reader can see, with pattern ids (store-specific) resolved."""
    texts = dict(sql(db, "SELECT id, record_json FROM records"))
    repos = sql(db, "SELECT repo, analyzed_sha, root, record_count, miner_version FROM repos "
                "ORDER BY repo")
    patterns = {pid: pattern for pid, pattern, _, _ in store.pattern_rows()}
    return {
        "texts": texts,
        "repos": repos,
        "records": [(s.record.id, s.removed) for s in store.records(include_removed=True)],
        "current": [s.record.id for s in store.records()],
        "previous": {repo: store.previous_records(repo) for repo in store.repos()},
        "count": (store.count(), store.count(include_removed=True)),
        "patterns": sorted((p, words) for pid, p, words, _ in store.pattern_rows()),
        "candidates": sorted((r.id, patterns[r.pattern_id], r.removed_sha)
                             for r in store.candidate_rows(list(patterns))),
        # the same hits; their order may differ (bm25 and ts_rank weigh term counts apart)
        "search": {q: sorted(s.record.id for s in store.search(q))
                   for q in ("widget", "invalid", "bad", "config toml", "gear")},
    }


def test_both_backends_hold_the_same_state_after_each_step(make_repo, tmp_path, pg_url):
    repo = make_repo()
    repo.write("widgets/a.py", "def f(name):\n    raise ValueError(f'bad widget {name} é')\n"
               "def g(n):\n    raise KeyError(f'missing gear {n} in config.toml')\n")
    repo.write("widgets/b.py", "def h(x):\n    raise TypeError(f'invalid sprocket {x}')\n")
    repo.commit()
    with SQLiteStore(tmp_path / "mined.sqlite") as scratch:
        mining.mine(repo.root, scratch, jobs=1)
        mined = [(s.record, s.extras, content_hash(s.record.error_message, s.record.source_code))
                 for s in scratch.records()]
    assert len(mined) == 3
    name = mined[0][0].repo
    in_a = [m for m in mined if m[0].file_path == "widgets/a.py"]
    steps: list[Callable[[Store], object]] = [
        lambda s: s.upsert(read_dataset(SEED_RECORD)),
        lambda s: s.replace_repo(name, mined, analyzed_sha="a" * 40, root="/r",
                                 analyzed_at="2026-01-01T00:00:00.000Z", miner_version="1"),
        # a re-mine of one file in which one site vanished: removed, the rest restamped
        lambda s: s.replace_repo(name, in_a[:1], analyzed_sha="b" * 40, files={"widgets/a.py"},
                                 analyzed_at="2026-02-01T00:00:00.000Z", miner_version="2"),
        lambda s: s.upsert([(r, e) for r, e, _ in mined[1:2]]),
        lambda s: s.replace_repo(name, mined[:1], analyzed_sha="c" * 40,
                                 analyzed_at="2026-03-01T00:00:00.000Z"),
    ]
    sqlite_db = str(tmp_path / "same.sqlite")
    with open_store(sqlite_db) as sqlite_store, open_store(pg_url) as pg_store:
        for number, step in enumerate(steps):
            step(sqlite_store)
            step(pg_store)
            expected, actual = _state(sqlite_store, sqlite_db), _state(pg_store, pg_url)
            for key in expected:
                assert actual[key] == expected[key], f"step {number}: {key} differs"


# --- SQLite: one writer at a time, the others wait ---------------------------------------


@pytest.fixture
def locked(tmp_path):
    """A SQLite database with a record, and a second connection holding its write lock."""
    path = tmp_path / "locked.sqlite"
    with SQLiteStore(path) as store:
        import_dataset(store, SEED_RECORD)
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    yield path, holder
    if holder.in_transaction:
        holder.execute("ROLLBACK")
    holder.close()


def test_a_writer_gets_one_clear_line_when_the_lock_wait_runs_out(locked):
    path, _ = locked
    with SQLiteStore(path, busy_timeout=0.05) as store:
        for write in (lambda: import_dataset(store, SEED_RECORD),
                      lambda: store.replace_repo("tracel-ai/burn", [], analyzed_sha="e" * 40)):
            with pytest.raises(StoreError) as info:
                write()
            message = str(info.value)
            assert message.startswith(f"the database {path} is locked by another errdex process")
            assert "try again when it finishes" in message and "\n" not in message
            assert not isinstance(info.value, sqlite3.Error)
            # busy, not broken: the web answers 503 (try again), the CLI exits 2
            assert (http_status_for(info.value), exit_code_for(info.value)) == (503, 2)
        # readers are not blocked (WAL), and the index works without saving its snapshot
        assert store.count() == 1 and len(store.search("unsupported")) == 1
        (match,) = Index(store).explain("deform_conv2d_backward: unsupported dtype I8")
        assert match.bound == {"{:?}": "I8"}
        assert store.load_snapshot(store.generation(), SNAPSHOT_FORMAT) is None
        assert store.generation() == 1  # nothing was written


def test_a_writer_waits_for_the_lock_and_then_writes(locked):
    path, holder = locked
    waiting = threading.Event()
    with SQLiteStore(path, busy_timeout=600) as store:

        def traced(statement: str) -> None:
            if statement == "BEGIN IMMEDIATE":
                waiting.set()

        store.conn.set_trace_callback(traced)

        def release() -> None:
            waiting.wait()
            holder.execute("INSERT INTO errdex_meta VALUES ('held', 'yes')")
            holder.execute("COMMIT")

        releaser = threading.Thread(target=release)
        releaser.start()
        try:
            assert store.upsert([_seed_variant(id="0123456789abcdef", slug="two")]) == 1
        finally:
            waiting.set()
            releaser.join()
        assert store.count() == 2 and store.generation() == 2
        assert sql(str(path), "SELECT value FROM errdex_meta WHERE key = 'held'") == [("yes",)]


def test_busy_timeout_comes_from_the_environment(locked, monkeypatch):
    path, _ = locked
    monkeypatch.setenv("ERRDEX_BUSY_TIMEOUT", "0.05")
    with SQLiteStore(path) as store, pytest.raises(StoreError, match=r"waited 0\.05s"):
        import_dataset(store, SEED_RECORD)
    for bad in ("soon", "-1", "nan", "inf"):
        monkeypatch.setenv("ERRDEX_BUSY_TIMEOUT", bad)
        with pytest.raises(UsageError, match="ERRDEX_BUSY_TIMEOUT") as info:
            SQLiteStore(path)
        assert "\n" not in str(info.value)


def test_the_cli_reports_a_locked_database_in_one_line(locked, monkeypatch):
    from click.testing import CliRunner

    from errdex.interfaces.cli import main

    path, _ = locked
    monkeypatch.setenv("ERRDEX_BUSY_TIMEOUT", "0.05")
    result = CliRunner().invoke(main, ["--db", str(path), "import", str(SEED_RECORD)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr == (f"errdex: the database {path} is locked by another errdex process "
                             "(waited 0.05s; $ERRDEX_BUSY_TIMEOUT sets how long); "
                             "try again when it finishes\n")
    found = CliRunner().invoke(main, ["--db", str(path), "search", "--json", "unsupported"])
    assert found.exit_code == 0 and len(json.loads(found.stdout)["records"]) == 1


def test_the_wal_journal_is_kept(tmp_path):
    with SQLiteStore(tmp_path / "db.sqlite") as store:
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        busy_ms = store.conn.execute("PRAGMA busy_timeout").fetchone()[0]
        assert busy_ms == 600_000
