"""The PostgreSQL store against a real server: same behaviour as SQLite, many writers.

A throwaway cluster is started once per test session (per xdist worker) by
``scripts/start-postgres.sh`` in a temporary folder, listening on a unix socket there;
every test gets a database of its own. The tests skip only when no PostgreSQL server
binaries exist even after the script's install step (it installs them as root).
"""

from __future__ import annotations

import glob
import inspect
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex import mining
from errdex.dataset import export_dataset, import_dataset, read_dataset
from errdex.errors import RecordNotFoundError, StoreError
from errdex.lookup.index import SNAPSHOT_FORMAT, Index
from errdex.record import Record, RecordExtras, content_hash
from errdex.store import STORE_FORMAT_VERSION, Store, _row
from errdex.store_pg import MIGRATIONS, SEPARATORS, PostgresStore, tsquery_terms
from errdex.stores import StoreLike, is_postgres_url, open_store
from tests.conftest import SEED_RECORD, GitRepo

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "start-postgres.sh"
SEED_LINE = json.loads(SEED_RECORD.read_text(encoding="utf-8"))
SEED_SLUG = "deform-conv2d-backward-unsupported-dtype"


def _server_binaries() -> bool:
    found = [d for d in glob.glob("/usr/lib/postgresql/*/bin") if Path(d, "pg_ctl").exists()]
    return bool(found) or shutil.which("pg_ctl") is not None


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a throwaway cluster's maintenance database, for this session."""
    if not _server_binaries():
        subprocess.run(["bash", str(SCRIPT)], check=False)  # installs postgresql when root
    if not _server_binaries():
        pytest.skip("no PostgreSQL server binaries (initdb, pg_ctl) after "
                    "scripts/start-postgres.sh; run 'sudo apt-get install -y postgresql'")
    folder = tempfile.mkdtemp(prefix="errdex-pg-", dir="/tmp")  # short: a unix socket path
    started = subprocess.run(["bash", str(SCRIPT), folder], capture_output=True, text=True)
    if started.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(f"scripts/start-postgres.sh {folder} failed:\n{started.stderr}")
    try:
        yield started.stdout.strip().splitlines()[-1]
    finally:
        subprocess.run(["bash", str(SCRIPT), "--stop", folder], check=False)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    """A fresh, empty database on the session's server."""
    name = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(pg_server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    yield urlsplit(pg_server)._replace(path=f"/{name}").geturl()
    with psycopg.connect(pg_server, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def pg(pg_url: str) -> Iterator[PostgresStore]:
    with PostgresStore(pg_url) as opened:
        yield opened


def _seed_variant(**changes: object) -> tuple[Record, RecordExtras | None]:
    ((record, extras),) = read_dataset(SEED_RECORD)
    return Record.model_validate(dict(record.model_dump(mode="json"), **changes)), extras


def _with_hash(
    rows: list[tuple[Record, RecordExtras | None]],
) -> list[tuple[Record, RecordExtras, str]]:
    return [(r, e or RecordExtras(), content_hash(r.errorMessage, r.sourceCode)) for r, e in rows]


# --- the factory and the interface ------------------------------------------------------


def test_open_store_chooses_by_url(tmp_path, pg_url, monkeypatch):
    assert is_postgres_url(pg_url) and is_postgres_url("postgres://x/y")
    assert not is_postgres_url(str(tmp_path / "db.sqlite"))
    with open_store(pg_url) as store:
        assert isinstance(store, PostgresStore)
    with open_store(tmp_path / "db.sqlite") as store:
        assert isinstance(store, Store)
    monkeypatch.setenv("ERRDEX_DB", pg_url)
    with open_store(None) as store:
        assert isinstance(store, PostgresStore) and store.path == pg_url


def test_both_stores_have_the_same_interface(tmp_path, pg):
    with Store(tmp_path / "db.sqlite") as sqlite_store:
        assert isinstance(sqlite_store, StoreLike) and isinstance(pg, StoreLike)
    # every public method of Store, with the same parameters: catches one store drifting
    for name, method in vars(Store).items():
        if name.startswith("_") or not callable(method):
            continue
        assert hasattr(PostgresStore, name), f"PostgresStore lacks {name}"
        ours = inspect.signature(getattr(PostgresStore, name)).parameters
        theirs = inspect.signature(method).parameters
        assert [(p.name, p.kind, p.default) for p in ours.values()] == [
            (p.name, p.kind, p.default) for p in theirs.values()], name


# --- schema and versions ----------------------------------------------------------------


def test_new_database_is_versioned(pg):
    assert pg.format_version() == STORE_FORMAT_VERSION == len(MIGRATIONS)
    assert pg.generation() == 0
    assert pg.count() == 0 and pg.repos() == [] and pg.search("anything") == []


def test_newer_database_is_refused(pg_url):
    with PostgresStore(pg_url) as store:
        store.conn.execute("UPDATE errdex_meta SET value = '99' WHERE key = 'format_version'")
    with pytest.raises(StoreError, match="newer than this errdex"):
        PostgresStore(pg_url)


def test_unreachable_server_is_one_clear_error_without_the_password():
    with pytest.raises(StoreError, match="cannot connect to PostgreSQL") as info:
        PostgresStore("postgresql://someone:s3cret@/errdex?host=/nonexistent-errdex&port=5432")
    assert "s3cret" not in str(info.value) and "\n" not in str(info.value)


def test_foreign_database_is_one_clear_error(pg_url):
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE records (something INTEGER)")
    with pytest.raises(StoreError, match="not a usable errdex database"):
        PostgresStore(pg_url)


def test_version_1_database_is_migrated_with_its_records(pg_url):
    ((record, extras),) = read_dataset(SEED_RECORD)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE errdex_meta (key TEXT PRIMARY KEY, value TEXT)")
        conn.execute(MIGRATIONS[0].encode())
        conn.execute("INSERT INTO records VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
                     _row(record, extras, "x"))
        conn.execute("INSERT INTO errdex_meta VALUES ('format_version', '1')")
    with PostgresStore(pg_url) as store:
        assert store.format_version() == STORE_FORMAT_VERSION
        (match,) = Index(store).explain("deform_conv2d_backward: unsupported dtype F8")
        assert match.record.id == record.id and match.bound == {"{:?}": "F8"}
        assert [s.record.id for s in store.search("deform_conv2d_backward")] == [record.id]
        # unlike SQLite's backfill, the explanation of migrated rows is searchable too
        assert [s.record.id for s in store.search("casts gradients")] == [record.id]


def test_concurrent_first_opens_migrate_once(pg_url):
    errors: list[BaseException] = []

    def open_one() -> None:
        try:
            PostgresStore(pg_url).close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with PostgresStore(pg_url) as store:
        assert store.format_version() == STORE_FORMAT_VERSION


# --- writing ------------------------------------------------------------------------------


def test_upsert_is_idempotent(pg):
    assert import_dataset(pg, SEED_RECORD) == 1
    assert import_dataset(pg, SEED_RECORD) == 1
    assert pg.count() == 1 and pg.repos() == ["tracel-ai/burn"]
    assert pg.generation() == 2
    assert len(list(pg.pattern_rows())) == 1
    assert pg.conn.execute("SELECT record_count FROM repos").fetchone() == (1,)
    assert len(pg.search("unsupported dtype")) == 1


def test_import_then_export_gives_identical_record(tmp_path, pg):
    import_dataset(pg, SEED_RECORD)
    out = tmp_path / "out.jsonl"
    assert export_dataset(pg, out, version="2026-09-12T17:17:11.597Z") == 1
    (line,) = out.read_text(encoding="utf-8").splitlines()
    assert json.loads(line) == SEED_LINE
    original = json.dumps(SEED_LINE["record"], ensure_ascii=False, separators=(",", ":"))
    assert line.startswith('{"record":' + original)


def test_upsert_replaces_a_record_that_moved_repository(pg):
    import_dataset(pg, SEED_RECORD)
    pg.upsert([_seed_variant(repo="other/repo", errorMessage="moved: {}",
                             messagePattern="moved: (.+?)")])
    assert pg.count() == 1 and pg.count("other/repo") == 1
    assert pg.conn.execute(
        "SELECT repo, record_count FROM repos ORDER BY repo").fetchall() == [
        ("other/repo", 1), ("tracel-ai/burn", 0)]
    assert [p for _, p, _, _ in pg.pattern_rows()] == ["moved: (.+?)"]


def test_replace_repo_is_atomic(pg, monkeypatch):
    import_dataset(pg, SEED_RECORD)
    ((record, _),) = read_dataset(SEED_RECORD)
    generation = pg.generation()
    twice = _with_hash([_seed_variant(id="0123456789abcdef", slug="x")] * 2)
    with pytest.raises(psycopg.errors.UniqueViolation):  # fails after the delete
        pg.replace_repo("tracel-ai/burn", twice, analyzed_sha="b" * 40)
    assert pg.show(record.id).record == record and pg.show(record.id).removed is None
    assert pg.count() == 1 and pg.generation() == generation

    def broken(*args: object) -> None:
        raise RuntimeError("killed mid-write")

    monkeypatch.setattr(PostgresStore, "_drop_unused_patterns", broken)
    with pytest.raises(RuntimeError):
        pg.replace_repo("tracel-ai/burn", [], analyzed_sha="b" * 40)
    assert [s.record.id for s in pg.records()] == [record.id]
    assert pg.search("unsupported") and pg.generation() == generation


def test_replace_repo_marks_vanished_sites_removed(pg):
    import_dataset(pg, SEED_RECORD)
    ((record, _),) = read_dataset(SEED_RECORD)
    pg.replace_repo("tracel-ai/burn", [], analyzed_sha="c" * 40, miner_version="9")
    assert pg.count() == 0 and pg.count(include_removed=True) == 1
    assert list(pg.records()) == [] and pg.search("unsupported dtype") == []
    (kept,) = pg.records(include_removed=True)
    assert kept.removed is not None and kept.removed.sha == "c" * 40
    assert pg.show(record.id).removed == kept.removed
    assert pg.previous_records("tracel-ai/burn")[record.id].removed
    state = pg.repo_state("tracel-ai/burn")
    assert state is not None and state.analyzed_sha == "c" * 40 and state.miner_version == "9"
    import_dataset(pg, SEED_RECORD)  # an import makes it current again
    assert pg.show(record.id).removed is None


# --- reading ------------------------------------------------------------------------------


@pytest.mark.parametrize("query", [
    '"', "dtype AND", "NEAR(", "*", "-x", "col:val", "a OR", "'", "(((", "", "ünïcode",
    "a & b | !c", "x <-> y", "foo:*", "\\", "'; DROP TABLE records; --", "a\x00b", ":*",
    "___", "x" * 5000, " ".join(["w"] * 500), "日本語のエラー", "e\u0301", "\u200b",
])
def test_search_never_raises_on_user_syntax(pg, query):
    import_dataset(pg, SEED_RECORD)
    assert isinstance(pg.search(query), list)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=60))
def test_search_never_raises_on_any_text(pg, query):
    assert isinstance(pg.search(query), list)


@given(st.text(max_size=200))
def test_tsquery_terms_only_quote_letters_and_digits(query):
    terms = tsquery_terms(query)
    assert terms == "" or re.fullmatch(
        r"'[^\W_]+'( (<->|&) '[^\W_]+')*:\*", terms
    ), terms


def test_search_finds_messages_and_prefixes(pg):
    import_dataset(pg, SEED_RECORD)
    assert len(pg.search("unsupported dtype")) == 1
    assert len(pg.search("unsupp")) == 1
    assert len(pg.search("deform conv2d backward")) == 1
    assert len(pg.search("deform_conv2d_backward")) == 1
    assert len(pg.search("UNSUPPORTED Dtype")) == 1
    assert pg.search("nonexistentword") == []
    assert len(pg.search("backward", repo="tracel-ai/burn")) == 1
    assert pg.search("backward", repo="other/repo") == []


@pytest.mark.parametrize("locale", ["C.UTF-8", "C"])
def test_search_finds_words_in_any_script_whatever_the_locale(pg_server, locale):
    name = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(pg_server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8' "
                      f"LOCALE '{locale}'")
    try:
        with PostgresStore(urlsplit(pg_server)._replace(path=f"/{name}").geturl()) as store:
            store.upsert([_seed_variant(
                errorMessage="ungültiger schlüssel für {}: naïve—approach in config.toml",
                messagePattern="ungültiger schlüssel für (.+?): naïve—approach in config\\.toml",
            )])
            for query in ("schlüssel", "ungült", "naïve approach", "für", "config.toml",
                          "config_toml", "toml", "日本 schlüssel"[3:]):
                assert len(store.search(query)) == 1, query
    finally:
        with psycopg.connect(pg_server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_separators_never_split_a_query_word():
    """The document side only turns into spaces what the query side drops too."""
    ranges = re.findall(r"\\[xu]([0-9a-f]+)(?:-\\[xu]([0-9a-f]+))?", SEPARATORS)
    chars = [chr(c) for low, high in ranges for c in range(int(low, 16), int(high or low, 16) + 1)]
    assert len(chars) > 200
    assert [c for c in chars if re.fullmatch(r"[^\W_]", c)] == []


def test_search_ranks_message_over_explanation(pg):
    import_dataset(pg, SEED_RECORD)
    pg.upsert([_seed_variant(id="0123456789abcdef", slug="tensor-shape",
                             errorMessage="tensor shape mismatch: {}",
                             messagePattern="tensor shape mismatch: (.+?)",
                             documentation="Mentions widget once.")])
    pg.upsert([_seed_variant(id="fedcba9876543210", slug="widget-broken",
                             errorMessage="widget broken: {}",
                             messagePattern="widget broken: (.+?)")])
    found = [s.record.slug for s in pg.search("widget")]
    assert found == ["widget-broken", "tensor-shape"]


def test_show_by_id_slug_and_repo(pg):
    import_dataset(pg, SEED_RECORD)
    ((record, _),) = read_dataset(SEED_RECORD)
    assert pg.show(record.id).record.lineNumber == 243
    assert pg.show(SEED_SLUG).record.id == record.id
    assert pg.show(f"tracel-ai/burn:{SEED_SLUG}").record.id == record.id
    with pytest.raises(RecordNotFoundError):
        pg.show("no-such-slug")
    pg.upsert([_seed_variant(id="0123456789abcdef", repo="other/repo")])
    with pytest.raises(RecordNotFoundError, match="several repositories"):
        pg.show(SEED_SLUG)
    assert pg.show(SEED_SLUG, repo="other/repo").record.id == "0123456789abcdef"
    assert set(pg.get_many([record.id, "0123456789abcdef", "missing"])) == {
        record.id, "0123456789abcdef"}


def test_previous_records(pg):
    import_dataset(pg, SEED_RECORD)
    ((record, _),) = read_dataset(SEED_RECORD)
    previous = pg.previous_records("tracel-ai/burn")
    assert list(previous) == [record.id]
    assert previous[record.id].slug == SEED_SLUG
    assert previous[record.id].content_changed_at == record.contentChangedAt
    assert previous[record.id].content_hash == content_hash(record.errorMessage,
                                                            record.sourceCode)
    assert previous[record.id].file_path == record.filePath
    assert pg.previous_records("nobody/nothing") == {}


def test_candidate_rows_files_and_pattern_details(pg):
    import_dataset(pg, SEED_RECORD)
    ((record, _),) = read_dataset(SEED_RECORD)
    ((pid, pattern, words, literal),) = pg.pattern_rows()
    assert pattern == record.messagePattern and "deform_conv2d_backward" in words.split()
    assert list(pg.pattern_words()) == [(pid, words)]
    assert pg.pattern_details([pid, 10_000]) == {pid: (pattern, literal)}
    (row,) = pg.candidate_rows([pid])
    assert (row.id, row.pattern_id, row.file_path, row.line_number, row.removed_sha) == (
        record.id, pid, record.filePath, 243, None)
    assert pg.candidate_rows([pid], repo="other/repo") == []
    assert pg.candidate_rows([]) == []
    name = record.filePath.rsplit("/", 1)[-1]
    assert [r.id for r in pg.rows_in_files([name, "other.rs"])] == [record.id]
    assert pg.rows_in_files([]) == [] and pg.rows_in_files(["nope.rs"]) == []


def test_index_snapshot_follows_the_generation(pg):
    import_dataset(pg, SEED_RECORD)
    Index(pg)
    generation = pg.generation()
    assert pg.load_snapshot(generation, SNAPSHOT_FORMAT)
    assert pg.load_snapshot(generation, SNAPSHOT_FORMAT + 1) is None
    pg.save_snapshot(generation - 1, SNAPSHOT_FORMAT, b"stale")  # a writer got there first
    assert pg.load_snapshot(generation - 1, SNAPSHOT_FORMAT) is None
    import_dataset(pg, SEED_RECORD)
    assert pg.load_snapshot(pg.generation(), SNAPSHOT_FORMAT) is None
    (match,) = Index(pg).explain("deform_conv2d_backward: unsupported dtype I8")
    assert match.bound == {"{:?}": "I8"}


# --- the same behaviour as SQLite, operation by operation -------------------------------


def _snapshot(store: StoreLike) -> dict[str, object]:
    """Everything a reader can see, with pattern ids (store-specific) resolved."""
    conn = store.conn  # type: ignore[attr-defined]
    texts = dict(conn.execute("SELECT id, record_json FROM records").fetchall())
    repos = conn.execute(
        "SELECT repo, analyzed_sha, root, record_count, miner_version FROM repos ORDER BY repo"
    ).fetchall()
    patterns = {pid: pattern for pid, pattern, _, _ in store.pattern_rows()}
    return {
        "texts": texts,
        "repos": [tuple(r) for r in repos],
        "records": [(s.record.id, s.removed) for s in store.records(include_removed=True)],
        "current": [s.record.id for s in store.records()],
        "previous": {repo: store.previous_records(repo) for repo in store.repos()},
        "count": (store.count(), store.count(include_removed=True)),
        "patterns": sorted((p, words) for pid, p, words, _ in store.pattern_rows()),
        "candidates": sorted((r.id, patterns[r.pattern_id], r.removed_sha)
                             for r in store.candidate_rows(list(patterns))),
        # the same hits; the order may differ, bm25 and ts_rank weigh term counts apart
        "search": {q: sorted(s.record.id for s in store.search(q))
                   for q in ("widget", "invalid", "bad", "config toml", "gear")},
    }


def test_same_behaviour_as_sqlite(make_repo, tmp_path, pg):
    repo = make_repo()
    repo.write("widgets/a.py", "def f(name):\n    raise ValueError(f'bad widget {name} é')\n"
               "def g(n):\n    raise KeyError(f'missing gear {n} in config.toml')\n")
    repo.write("widgets/b.py", "def h(x):\n    raise TypeError(f'invalid sprocket {x}')\n")
    repo.commit()
    with Store(tmp_path / "mined.sqlite") as scratch:
        mining.mine(repo.root, scratch, jobs=1)
        mined = [(s.record, s.extras, content_hash(s.record.errorMessage, s.record.sourceCode))
                 for s in scratch.records()]
    assert len(mined) == 3
    name = mined[0][0].repo
    in_a = [m for m in mined if m[0].filePath == "widgets/a.py"]
    steps: list[Callable[[StoreLike], object]] = [
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
    with Store(tmp_path / "same.sqlite") as sqlite_store:
        for number, step in enumerate(steps):
            step(sqlite_store)
            step(pg)
            expected, actual = _snapshot(sqlite_store), _snapshot(pg)
            for key in expected:
                assert actual[key] == expected[key], f"step {number}: {key} differs"


# --- end to end -------------------------------------------------------------------------


def test_mine_into_postgres_then_explain(make_repo, pg):
    repo = make_repo()
    repo.write("widgets/core.py",
               "def spin(name, speed):\n"
               "    if speed > 9:\n"
               "        raise ValueError(f'widget {name} spins too fast: {speed} rpm')\n")
    repo.commit()
    summary = mining.mine(repo.root, pg, jobs=1)
    assert summary.records == 1 and pg.repos() == ["acme/widgets"]
    (match, *_) = Index(pg).explain(
        "Traceback (most recent call last):\n"
        '  File "widgets/core.py", line 3, in spin\n'
        "ValueError: widget sprocket spins too fast: 12 rpm\n"
    )
    assert match.record.filePath == "widgets/core.py" and match.record.lineNumber == 3
    assert match.bound == {"name": "sprocket", "speed": "12"}
    assert [s.record.id for s in pg.search("spins fast")] == [match.record.id]
    again = mining.mine(repo.root, pg, jobs=1)  # a re-mine changes nothing
    assert again.records == 1 and again.new == 0 and pg.count() == 1


_MINE = """
import sys, time
from pathlib import Path
from errdex import mining
from errdex.store_pg import PostgresStore
url, path, go = sys.argv[1:4]
while not Path(go).exists():
    time.sleep(0.01)
with PostgresStore(url) as store:
    print(mining.mine(path, store, jobs=1).records)
"""


def _widget_repo(make_repo: Callable[..., GitRepo], owner: str, sites: int) -> GitRepo:
    repo = make_repo(f"https://github.com/{owner}/widgets.git")
    for number in range(sites):
        repo.write(f"pkg/m{number}.py",
                   f"def f{number}(x):\n"
                   f"    raise ValueError(f'shared failure {{x}}')\n"
                   f"def g{number}(x):\n"
                   f"    raise KeyError(f'{owner} key {number} missing: {{x}}')\n")
    repo.commit()
    return repo


def test_two_processes_mine_different_repos_at_once(make_repo, tmp_path, pg_url):
    repos = [_widget_repo(make_repo, "alpha", 30), _widget_repo(make_repo, "beta", 20)]
    PostgresStore(pg_url).close()  # migrated once, so the race is in the writes
    go = tmp_path / "go"
    workers = [subprocess.Popen([sys.executable, "-c", _MINE, pg_url, str(r.root), str(go)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                cwd=ROOT) for r in repos]
    go.touch()
    results = [w.communicate(timeout=240) for w in workers]
    assert [w.returncode for w in workers] == [0, 0], [err for _, err in results]
    assert [int(out.strip()) for out, _ in results] == [60, 40]
    with PostgresStore(pg_url) as store:
        assert store.repos() == ["alpha/widgets", "beta/widgets"]
        assert (store.count("alpha/widgets"), store.count("beta/widgets")) == (60, 40)
        patterns = [p for _, p, _, _ in store.pattern_rows()]
        assert len(patterns) == len(set(patterns)) == 1 + 30 + 20
        assert len(Index(store).explain("ValueError: shared failure 7")) >= 2


_HAMMER = """
import hashlib, sys, time
from pathlib import Path
from errdex.dataset import read_dataset
from errdex.record import Record, RecordExtras, content_hash
from errdex.store_pg import PostgresStore
url, seed, repo, go, rounds = sys.argv[1:6]
((base, _),) = read_dataset(seed)
def make(i, pattern):
    data = dict(base.model_dump(mode="json"), repo=repo,
                id=hashlib.sha256(f"{repo} {i}".encode()).hexdigest()[:16],
                slug=f"s{i}", errorMessage=pattern, messagePattern=pattern)
    record = Record.model_validate(data)
    return record, RecordExtras(), content_hash(record.errorMessage, record.sourceCode)
while not Path(go).exists():
    time.sleep(0.01)
with PostgresStore(url) as store:
    for n in range(int(rounds)):
        # shared patterns come and go: the other writer keeps using them meanwhile
        rows = [make(0, "shared (.+?)"), make(1, f"round {n % 3} (.+?)"), make(2, f"{repo} own")]
        if n % 2:
            rows.append(make(3, "sometimes shared (.+?)"))
        store.replace_repo(repo, rows, analyzed_sha=f"{n:040d}")
        store.upsert([(rows[0][0], None)])
    print(store.count(repo))
"""


@pytest.mark.parametrize("same_repo", [False, True], ids=["different-repos", "same-repo"])
def test_concurrent_writers_share_patterns_without_conflicts(tmp_path, pg_url, same_repo):
    PostgresStore(pg_url).close()
    go = tmp_path / "go"
    names = ["one/repo", "one/repo" if same_repo else "two/repo"]
    workers = [subprocess.Popen([sys.executable, "-c", _HAMMER, pg_url, str(SEED_RECORD), name,
                                 str(go), "25"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, cwd=ROOT)
               for name in names]
    go.touch()
    results = [w.communicate(timeout=240) for w in workers]
    assert [w.returncode for w in workers] == [0, 0], [err for _, err in results]
    with PostgresStore(pg_url) as store:
        for name in set(names):
            # round 24 (even): three current records; the fourth, removed, is kept
            assert store.count(name, include_removed=True) == 4
            assert store.count(name) == len(list(store.records(name))) == 3
        used = {r.pattern_id for r in store.candidate_rows(
            [pid for pid, _, _, _ in store.pattern_rows()])}
        assert used == {pid for pid, _, _, _ in store.pattern_rows()}  # none orphaned
        assert store.conn.execute(
            "SELECT COUNT(*) FROM records r LEFT JOIN patterns p ON p.pid = r.pattern_id "
            "WHERE p.pid IS NULL").fetchone() == (0,)


def test_public_api_and_cli_take_a_postgres_url(make_repo, pg_url):
    """``errdex.mine(db=URL)``, ``open_index(URL)`` and ``--db URL``: the same as a file."""
    from click.testing import CliRunner

    import errdex
    from errdex.cli import main

    repo = make_repo()
    repo.write("svc/api.py", "def get(key):\n    raise KeyError(f'no key {key}')\n")
    repo.commit()
    summary = errdex.mine(repo.root, db=pg_url)
    assert summary.records == 1
    (match,) = errdex.open_index(pg_url).explain("KeyError: 'no key token'")
    assert match.bound == {"key": "token"} and match.record.filePath == "svc/api.py"
    pasted = "KeyError: 'no key abc'"
    result = CliRunner().invoke(main, ["--db", pg_url, "explain", "--json", pasted])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["matches"][0]["bound"] == {"key": "abc"}
