"""What only the PostgreSQL store has: a server to reach, many concurrent writers, and
its own full-text query building. Everything both stores do is in
tests/test_store_behaviour.py, run on each; the cluster comes from tests/conftest.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
import uuid
from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from errdex.datasets.lines import read_dataset
from errdex.errors import StoreError
from errdex.lookup.index import Index
from errdex.records.model import Record
from tests.conftest import ROOT, SEED_RECORD, GitRepo

psycopg = pytest.importorskip("psycopg", reason="the 'postgres' extra is not installed")

from errdex.store.postgres import SEPARATORS, PostgresStore, tsquery_terms  # noqa: E402


def _seed_variant(**changes: object) -> tuple[Record, None]:
    ((record, _),) = read_dataset(SEED_RECORD)
    return Record.model_validate(dict(record.model_dump(mode="json"), **changes)), None


# --- reaching the server ----------------------------------------------------------------


def test_unreachable_server_is_one_clear_error_without_the_password():
    with pytest.raises(StoreError, match="cannot connect to PostgreSQL") as info:
        PostgresStore("postgresql://someone:s3cret@/errdex?host=/nonexistent-errdex&port=5432")
    assert "s3cret" not in str(info.value) and "\n" not in str(info.value)



# --- full-text search: PostgreSQL's own query language ------------------------------------


@given(st.text(max_size=200))
def test_tsquery_terms_only_quote_letters_and_digits(query):
    terms = tsquery_terms(query)
    assert terms == "" or re.fullmatch(
        r"'[^\W_]+'( (<->|&) '[^\W_]+')*:\*", terms
    ), terms


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


# --- many writers at once -----------------------------------------------------------------

_MINE = """
import sys, time
from pathlib import Path
from errdex.mining import run as mining
from errdex.store.postgres import PostgresStore
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
from errdex.datasets.lines import read_dataset
from errdex.records.model import Record, RecordExtras, content_hash
from errdex.store.postgres import PostgresStore
url, seed, repo, go, rounds = sys.argv[1:6]
((base, _),) = read_dataset(seed)
def make(i, pattern):
    data = dict(base.model_dump(mode="json"), repo=repo,
                id=hashlib.sha256(f"{repo} {i}".encode()).hexdigest()[:16],
                slug=f"s{i}", errorMessage=pattern, messagePattern=pattern)
    record = Record.model_validate(data)
    return record, RecordExtras(), content_hash(record.error_message, record.source_code)
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
