"""A scan's probe cache by message shape: the same records as the uncached lookup, and it
never drops a pattern that fullmatches."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.lookup.index import Index
from errdex.lookup.parse import parse_events
from errdex.lookup.prefilter import ShapeCache, index_words
from errdex.lookup.scan import scan
from errdex.records.model import Record
from errdex.store.sqlite import SQLiteStore
from errdex.templates.matching import verify
from tests.conftest import SEED_RECORD

SEED = json.loads(SEED_RECORD.read_text(encoding="utf-8"))["record"]
WORDS = ["cache", "shard", "tensor", "quota", "socket", "lease", "start", "404", "0x1f",
         "utf8", "replica", "token", "schema", "buffer", "peer"]
VERBS = ["failed", "missing", "refused", "exceeded", "expired", "corrupt", "unknown"]
# Hole shapes: lazy any-text (checked without a regex) and typed ones (run on RE2).
HOLES = ["(.+?)", "(.+?)", "(.+?)", r"(\d+)", r"([0-9a-fx]+)", "'(.+?)'"]


def _templates(rng: random.Random, count: int) -> list[tuple[str, str]]:
    """(written message, pattern) pairs of varied shapes; literal digits and quoted words
    too, which a line's values can also hold."""
    out: set[tuple[str, str]] = set()
    while len(out) < count:
        parts_w, parts_p = [], []
        for _ in range(rng.randint(2, 5)):
            if rng.random() < 0.35 and parts_p and not parts_p[-1].startswith("("):
                hole = rng.choice(HOLES)
                parts_w.append("{}" if "'" not in hole else "'{}'")
                parts_p.append(hole)
            else:
                word = rng.choice(WORDS + VERBS)
                if rng.random() < 0.15:
                    word = f"'{word}'"
                parts_w.append(word)
                parts_p.append(word)
        out.add((" ".join(parts_w), " ".join(parts_p)))
    return sorted(out)


def _value(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.3:
        return str(rng.randint(0, 99_999))
    if roll < 0.45:
        return hex(rng.getrandbits(24))
    if roll < 0.7:
        return rng.choice(WORDS + VERBS)  # a value that is also an index word
    if roll < 0.85:
        return f"/srv/{rng.choice(WORDS)}/{rng.randint(1, 9)}.db"
    return f"{rng.choice(WORDS)}_{rng.randint(1, 99)}"


def _render(pattern: str, rng: random.Random) -> str:
    """The pattern with each hole filled (typed holes with a value of their type)."""
    text = pattern
    for hole in HOLES[2:]:
        while hole in text:
            filler = str(rng.randint(0, 999)) if hole == r"(\d+)" else (
                hex(rng.getrandbits(12)) if "0-9a-f" in hole else f"'{_value(rng)}'")
            text = text.replace(hole, filler, 1)
    while "(.+?)" in text:
        text = text.replace("(.+?)", _value(rng), 1)
    return text


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("prefilter") / "db.sqlite"
    rng = random.Random(3)
    records = []
    for n, (written, pattern) in enumerate(_templates(rng, 400)):
        for copy in range(1 + (n % 3 == 0)):  # some templates raised at two sites
            records.append((Record.model_construct(**dict(
                SEED, id=f"{n:06d}{copy:02d}{'0' * 8}", slug=f"t{n}-{copy}",
                errorMessage=written, messagePattern=pattern,
                filePath=f"src/{WORDS[n % len(WORDS)]}/m{n}.rs", lineNumber=10 + copy,
                repo=f"acme/r{n % 4}")), None))
    with SQLiteStore(path) as store:
        store.upsert(records)
    return path


def _log(db: Path, lines: int, seed: int = 9) -> str:
    rng = random.Random(seed)
    patterns = [p for _, p, _, _ in SQLiteStore(db).pattern_rows()]
    out = []
    for n in range(lines):
        stamp = f"2026-01-02 10:{(n // 60) % 60:02d}:{n % 60:02d},{n % 1000:03d}"
        roll = rng.random()
        if roll < 0.1:
            out.append(f"{stamp} INFO app.worker: handled {_value(rng)} in {n % 900} ms")
        elif roll < 0.15:
            out.append(f"{stamp} ERROR app.worker: {' '.join(rng.sample(WORDS, 4))}")
        else:
            out.append(f"{stamp} ERROR app.worker: {_render(rng.choice(patterns), rng)}")
    return "\n".join(out) + "\n"


def _ranked(index: Index, log: str, repo: str | None = None) -> list[object]:
    return [index.rank_event(event, top=5, repo=repo) for event in parse_events(log)]


def test_cached_probe_ranks_every_event_as_the_uncached_lookup(db: Path) -> None:
    log = _log(db, 800)
    plain = Index(SQLiteStore(db))
    cached = Index(SQLiteStore(db))
    shapes = cached.cache_shapes()
    for repo in (None, "acme/r1"):
        expected = _ranked(plain, log, repo)
        assert _ranked(cached, log, repo) == expected
        assert sum(1 for found in expected if found) > 80  # many lines match a record
    assert shapes.hits > shapes.misses  # repeated shapes skipped the probe


def test_scan_reports_the_records_of_the_uncached_path(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = _log(db, 1_200, seed=4)

    def scanned() -> list[dict[str, object]]:
        index = Index(SQLiteStore(db))
        return [event.to_json() for event in scan(index, io.StringIO(log), top=3)]

    with_cache = scanned()
    monkeypatch.setattr(Index, "cache_shapes", lambda self: None)
    assert scanned() == with_cache
    assert sum(1 for event in with_cache if event["matches"]) > 300


def test_shape_is_the_index_words_of_a_message() -> None:
    shapes = ShapeCache(index_words({"quota": [1], "lease": {"expired": [2], "": [3]}},
                                    {1: ("exceeded", "404")}))
    words = ["quota", "exceeded", "for", "404", "17", "expired", "lease"]
    assert shapes.shape(words) == {"quota", "exceeded", "404", "expired", "lease"}
    assert shapes.shape(["17", "0x1f", "for"]) == frozenset()


def test_a_probe_cut_short_by_its_budget_is_never_reused(db: Path) -> None:
    index = Index(SQLiteStore(db))
    index.cache_shapes()
    message = " ".join(WORDS + VERBS)
    whole = index.candidates(message)
    index._last_probe = (None, ([], []), 0)
    assert index.candidates(message, [1]) != whole or not whole  # the budget still applies
    index._last_probe = (None, ([], []), 0)
    budget = [10_000_000]
    assert index.candidates(message, budget) == whole
    assert budget[0] < 10_000_000  # a cached probe still spends its checks


def test_a_probe_for_full_matches_alone_finds_what_the_whole_probe_finds(db: Path) -> None:
    """The walk in C (no near misses) lists the same candidates in the same order, under
    the same budget; near misses asked for next are those of a whole probe of the message."""
    index = Index(SQLiteStore(db))
    lines = [event.message for event in parse_events(_log(db, 300, seed=11))]
    lines.append(" ".join(WORDS + VERBS))  # the words of many templates: budgets bite
    cut = 0
    for message in lines:
        for left in (None, 40, 5_000):
            index._last_probe = (None, ([], []), 0)
            whole_budget = None if left is None else [left]
            whole = index._probe(message, whole_budget, close=True)
            index._last_probe = (None, ([], []), 0)
            alone_budget = None if left is None else [left]
            full, near = index._probe(message, alone_budget, close=False)
            assert (full, near) == (whole[0], None)
            assert alone_budget == whole_budget
            cut += left is not None and whole_budget == [0]
            assert index._probe(message, close=True) == whole  # the same walk, near misses too
    assert cut  # some probe ran out of its budget


_PATTERNS: list[tuple[int, str]] = []


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.randoms(use_true_random=False), st.integers(min_value=0, max_value=10_000))
def test_the_cached_probe_never_drops_a_pattern_that_fullmatches(
        db: Path, rng: random.Random, pick: int) -> None:
    index = _cached_index(db)
    pid, pattern = _PATTERNS[pick % len(_PATTERNS)]
    for _ in range(3):  # several values of one shape, the cache warm after the first
        message = _render(pattern, rng)
        if verify(pattern, message) is None:
            continue
        index._last_probe = (None, ([], []), 0)
        assert pid in index.candidates(message), (pattern, message)


_INDEX: dict[Path, Index] = {}


def _cached_index(db: Path) -> Index:
    """One index for every example, so its cache carries over from one to the next."""
    if db not in _INDEX:
        _INDEX[db] = Index(SQLiteStore(db))
        _INDEX[db].cache_shapes()
        _PATTERNS[:] = [(pid, p) for pid, p, _, _ in SQLiteStore(db).pattern_rows()]
    return _INDEX[db]
