"""Rankings replayed by coarse shape (``lookup.replay``: every value masked whatever words it
holds): each line ranks as the uncached lookup ranks it, on templates told apart only by an
identifier and values that hold other templates' words."""

from __future__ import annotations

import io
import json
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.languages._engine.pastes.common import ErrorEvent
from errdex.lookup.index import Index
from errdex.lookup.replay import Replays, coarse_key
from errdex.lookup.scan import scan
from errdex.records.model import Record
from errdex.store.sqlite import SQLiteStore
from tests.conftest import SEED_RECORD

SEED = json.loads(SEED_RECORD.read_text(encoding="utf-8"))["record"]
# Templates told apart by their leading identifier alone, as a service's modules prefix them;
# a wrapper, a thin one, a typed hole, a final period and one requiring an identifier word.
PREFIXES = ["sor_shape65", "fuse_dim72", "net_io", "kern_pool_7"]
BODIES = [r"no table (.+?) in schema (.+?)", r"flush of (.+?) took too long",
          r"bin ([a-z_]+) underflow: had (\d+)", r"store at (.+?) is corrupt\.",
          r"store at x_9 (.+?) is corrupt\."]
PATTERNS = [f"{prefix}: {body}" for prefix in PREFIXES for body in BODIES] + [
    r"(.+?): (.+?)", r"bad (.+?)", r"no table (.+?)"]
WORDS = ["table", "schema", "flush", "store", "corrupt", "bin", "x_9", "had"]


def _value() -> st.SearchStrategy[str]:
    """Values of every kind, holding index words: identifiers of other templates, template
    words, numbers, hex ids, quoted names, paths."""
    word = st.sampled_from(PREFIXES + WORDS + ["ab_c", "q_2"])
    return st.one_of(
        word, word.map(lambda w: f"'{w}'"), word.map(lambda w: f"/srv/{w}.db"),
        st.integers(0, 99_999).map(str), st.integers(0, 2**32).map(hex),
        st.tuples(word, st.integers(0, 99)).map(lambda t: f"{t[0]}{t[1]}"))


def _fill(pattern: str, values: list[str]) -> str:
    text = pattern.replace("\\.", ".")
    for value in values:
        for hole in ("(.+?)", "([a-z_]+)", r"(\d+)"):
            if hole in text:
                text = text.replace(hole, value, 1)
                break
    return text


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("coarse") / "db.sqlite"
    with SQLiteStore(path) as store:
        store.upsert([(Record.model_construct(**dict(
            SEED, id=f"{n:06d}{'0' * 10}", slug=f"c{n}", errorMessage=pattern,
            messagePattern=pattern, filePath=f"src/m{n % 5}.py", lineNumber=n + 1)), None)
            for n, pattern in enumerate(PATTERNS)])
    return path


def _entry(message: str) -> ErrorEvent:
    """A log entry's message as a scan ranks it (``lookup.entries``)."""
    return ErrorEvent(message, None, "message", (), message)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(st.integers(0, len(PATTERNS) - 1), st.lists(_value(), min_size=3,
                                                                       max_size=3)),
                min_size=1, max_size=40))
def test_each_line_ranks_as_the_uncached_lookup(db: Path,
                                                lines: list[tuple[int, list[str]]]) -> None:
    cached = Index(SQLiteStore(db))
    cached.cache_shapes()
    plain = Index(SQLiteStore(db))
    for number, values in lines:
        event = _entry(_fill(PATTERNS[number], values))
        assert cached.rank_event(event, top=5) == plain.rank_event(event, top=5), event.message


def test_lines_of_a_template_whose_values_hold_index_words_are_replayed(db: Path) -> None:
    cached = Index(SQLiteStore(db))
    cached.cache_shapes()
    replays = cached._replays
    assert replays is not None
    values = ["'q_2'", "fuse_dim72", "/srv/table.db", "net_io", "'kern_pool_7'", "0x1f"]
    for value in values:
        event = _entry(f"sor_shape65: flush of {value} took too long")
        assert cached.rank_event(event, top=5) == Index(SQLiteStore(db)).rank_event(
            event, top=5), value
    assert replays.probed >= 3  # other index words in the value: probed, not ranked again


def test_a_new_candidate_that_matches_is_ranked_again(db: Path) -> None:
    # One coarse shape, but the second line's value is the word another template requires
    # (x_9): that template is a candidate now, and it matches.
    cached = Index(SQLiteStore(db))
    cached.cache_shapes()
    first, second = (_entry(f"net_io: store at {v} 7 is corrupt.") for v in ("q_2", "x_9"))
    assert coarse_key(first.message, ())[0] == coarse_key(second.message, ())[0]
    assert cached.rank_event(first, top=5) == Index(SQLiteStore(db)).rank_event(first, top=5)
    again = cached.rank_event(second, top=5)
    assert again == Index(SQLiteStore(db)).rank_event(second, top=5)
    assert len(again) > len(cached.rank_event(first, top=5))


def test_templates_told_apart_by_an_identifier_keep_their_own_rankings(db: Path) -> None:
    # ``sor_shape65: …`` and ``fuse_dim72: …`` mask alike; the identifier the template holds
    # as literal text tells their kept rankings apart, so neither is even tried for the other.
    cached = Index(SQLiteStore(db))
    cached.cache_shapes()
    replays = cached._replays
    assert replays is not None
    best = {}
    for prefix, value in [("sor_shape65", "a_1"), ("fuse_dim72", "a_1"),
                          ("sor_shape65", "fuse_dim72"), ("fuse_dim72", "sor_shape65")]:
        event = _entry(f"{prefix}: flush of {value} took too long")
        found = cached.rank_event(event, top=1)
        assert found == Index(SQLiteStore(db)).rank_event(event, top=1)
        best.setdefault(prefix, found[0].id)
        assert found[0].id == best[prefix]
    assert len(set(best.values())) == 2
    assert replays.probed == 2  # the second round: each by its own template's ranking


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(st.integers(0, len(PATTERNS) - 1), st.lists(_value(), min_size=3,
                                                                       max_size=3)),
                min_size=1, max_size=60))
def test_a_scanned_log_reports_what_the_uncached_scan_does(
        db: Path, lines: list[tuple[int, list[str]]]) -> None:
    log = "".join(f"2026-01-02 10:00:{n % 60:02d},000 ERROR app.worker: "
                  f"{_fill(PATTERNS[number], values)}\n"
                  for n, (number, values) in enumerate(lines))

    def scanned() -> list[dict[str, object]]:
        return [event.to_json() for event in scan(Index(SQLiteStore(db)), io.StringIO(log),
                                                  top=3)]

    replayed = scanned()
    with patch.object(Replays, "replay", lambda self, key, message, count=True: None), \
            patch.object(Replays, "recheck", lambda self, key, event, shape: None):
        assert scanned() == replayed
