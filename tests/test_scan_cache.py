"""A scan's rankings replayed by line shape (``lookup.replay``): every line reports the
records, scores, reasons and hole values the uncached lookup gives it, on logs whose values
try to fool the shape (typed holes, codes, clock times, program names, lost periods)."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.languages._engine.pastes.common import ErrorEvent
from errdex.lookup.index import Index
from errdex.lookup.parse import parse_events
from errdex.lookup.replay import Replays
from errdex.lookup.scan import scan
from errdex.records.model import Record
from errdex.store.sqlite import SQLiteStore
from tests.conftest import SEED_RECORD

SEED = json.loads(SEED_RECORD.read_text(encoding="utf-8"))["record"]
WORDS = ["journal", "segment", "ledger", "bucket", "cursor", "window", "mirror", "volume",
         "codec", "usage", "code", "sqlstate", "errno"]
VERBS = ["stalled", "vanished", "overflowed", "rejected", "truncated", "expired"]
HOLES = ["(.+?)", "(.+?)", r"(\d+)", r"([0-9a-f]+)", r"([a-z_]+)", "'(.+?)'", r"(\d{4})"]


def _templates(rng: random.Random, count: int) -> list[str]:
    """Patterns of varied shapes: typed holes, wrappers (``{}: {}``), a final period."""
    out: set[str] = {r"(.+?): (.+?)", r"(.+?) failed", r"segment (\d+) stalled\.",
                     r"ledger ([a-z_]+) rejected: (.+?)", r"cursor (\d{4}) expired"}
    while len(out) < count:
        parts: list[str] = []
        for _ in range(rng.randint(2, 5)):
            if parts and not parts[-1].startswith(("(", "'(")) and rng.random() < 0.4:
                parts.append(rng.choice(HOLES))
            else:
                parts.append(rng.choice(WORDS + VERBS))
        pattern = " ".join(parts) + ("\\." if rng.random() < 0.2 else "")
        out.add(pattern)
    return sorted(out)


# Values that look alike once masked but read differently: numbers of other lengths, hex
# and words, identifiers ending in ``_``, clock times, codes, program names, class names.
def _value(rng: random.Random) -> str:
    return rng.choice([
        str(rng.randint(0, 9)), str(rng.randint(10, 99)), str(rng.randint(1000, 9999)),
        str(rng.randint(10_000, 99_999)), hex(rng.getrandbits(20))[2:], hex(rng.getrandbits(16)),
        f"{rng.choice(WORDS)}_{rng.randint(1, 99)}", f"x{rng.randint(1, 9)}_",
        f"{rng.randint(1, 23)}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}",
        f"SQLSTATE {rng.randint(100, 99_999)}", f"code: '{rng.choice(WORDS)}_{rng.randint(1, 9)}'",
        f"prog_{rng.randint(1, 9)}[{rng.randint(1, 999)}]: bad", "ERR_SOME_CODE", "ENOENT",
        f"pkg_{rng.randint(1, 9)}.mod.BrokenError", rng.choice(WORDS), f"/var/{rng.choice(WORDS)}",
        "a1b2c", "deadbeef", f"'{rng.choice(VERBS)}'", "",
    ])


def _line(pattern: str, rng: random.Random) -> str:
    text = pattern.replace("\\.", ".")
    for hole in HOLES:
        while hole in text:
            text = text.replace(hole, _value(rng), 1)
    if text.endswith(".") and rng.random() < 0.4:
        text = text[:-1]  # a sentence that lost its final period
    return text


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "db.sqlite"
    rng = random.Random(11)
    records = []
    for n, pattern in enumerate(_templates(rng, 160)):
        written = pattern.replace("\\.", ".")
        for hole in HOLES:
            written = written.replace(hole, "{}")
        records.append((Record.model_construct(**dict(
            SEED, id=f"{n:06d}{'0' * 10}", slug=f"r{n}", errorMessage=written,
            messagePattern=pattern, filePath=f"src/{WORDS[n % len(WORDS)]}/m{n}.py",
            lineNumber=10 + n, repo=f"acme/r{n % 3}")), None))
    with SQLiteStore(path) as store:
        store.upsert(records)
    return path


def _log(db: Path, lines: int, seed: int) -> str:
    rng = random.Random(seed)
    patterns = [p for _, p, _, _ in SQLiteStore(db).pattern_rows()]
    out = []
    for n in range(lines):
        stamp = f"2026-01-02 10:{(n // 60) % 60:02d}:{n % 60:02d},{n % 1000:03d}"
        message = _line(rng.choice(patterns), rng) if rng.random() < 0.9 else " ".join(
            _value(rng) for _ in range(3))
        out.append(f"{stamp} ERROR app.worker: {message}")
    return "\n".join(out) + "\n"


def _scanned(db: Path, log: str, top: int = 3) -> list[dict[str, object]]:
    return [event.to_json() for event in scan(Index(SQLiteStore(db)), io.StringIO(log),
                                              top=top)]


def test_a_replayed_scan_reports_what_the_uncached_scan_does(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = _log(db, 3_000, seed=5)
    counts: list[Replays] = []
    original = Replays.__init__

    def counted(self: Replays, *args: Any) -> None:
        original(self, *args)
        counts.append(self)

    monkeypatch.setattr(Replays, "__init__", counted)
    replayed = _scanned(db, log)
    assert sum(r.hits for r in counts) > 50  # lines of a shape seen before were replayed
    assert sum(r.rechecked for r in counts) > 100  # and of the same index words
    monkeypatch.setattr(Replays, "replay", lambda self, key, message, count=True: None)
    monkeypatch.setattr(Replays, "recheck", lambda self, key, event, shape: None)
    assert _scanned(db, log) == replayed
    assert sum(1 for event in replayed if event["matches"]) > 1_500


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(min_value=0, max_value=10_000))
def test_each_event_ranks_as_the_uncached_lookup(db: Path, seed: int) -> None:
    log = _log(db, 80, seed=seed)
    events = list(parse_events(log))
    plain = Index(SQLiteStore(db))
    cached = Index(SQLiteStore(db))
    cached.cache_shapes()
    for repo in (None, "acme/r1"):
        for event in events:
            assert cached.rank_event(event, top=5, repo=repo) == plain.rank_event(
                event, top=5, repo=repo), event.message


def test_a_line_whose_values_check_otherwise_is_ranked_again(db: Path) -> None:
    index = Index(SQLiteStore(db))
    index.cache_shapes()
    replays = index._replays
    assert replays is not None
    # One shape (an identifier with an underscore), but only the first fits ([a-z_]+).
    first, second = (_entry(f"ledger {v} rejected: late") for v in ("ab_c", "ab_1"))
    assert replays.key(first.message, ()) == replays.key(second.message, ())
    found = index.rank_event(first, top=3)
    assert any(r.groups[:1] == ("ab_c",) for r in found)
    again = index.rank_event(second, top=3)
    assert (replays.hits, replays.misses) == (0, 2)  # checked otherwise: ranked again
    assert again == Index(SQLiteStore(db)).rank_event(second, top=3)
    assert not any(r.groups[:1] == ("ab_1",) for r in again)
    third = _entry("ledger de_f rejected: late")
    assert [r.groups for r in index.rank_event(third, top=3)] == [
        r.groups for r in Index(SQLiteStore(db)).rank_event(third, top=3)]
    assert replays.hits == 1


def _entry(message: str) -> ErrorEvent:
    """A log entry's message as a scan ranks it (``lookup.entries``)."""
    return ErrorEvent(message, None, "message", (), message)


def _caching_index(db: Path, sites: list[dict[str, object]]) -> Index:
    """A store holding one record per site (its ``messagePattern`` its message too, and any
    other field given), and an index over it that replays rankings by line shape."""
    with SQLiteStore(db) as store:
        store.upsert([(Record.model_construct(**dict(
            SEED, id=f"{n:06d}{'0' * 10}", slug=f"s{n}", errorMessage=site["messagePattern"],
            lineNumber=n + 1, **site)), None) for n, site in enumerate(sites)])
    cached = Index(SQLiteStore(db))
    cached.cache_shapes()
    return cached


def test_a_wrapped_part_that_matches_only_now_is_not_missed(tmp_path: Path) -> None:
    # The message matches a specific template; its wrapped part matches another one only for
    # some values of the same kind ([a-z_]+ takes ab_c, not ab_1): never replayed by shape.
    db = tmp_path / "db.sqlite"
    patterns = [r"mirror (.+?): ledger (.+?) rejected: (.+?)", r"ledger ([a-z_]+) rejected: (.+?)"]
    cached = _caching_index(db, [{"messagePattern": p, "filePath": f"src/w{n}.py"}
                                 for n, p in enumerate(patterns)])
    for value in ("ab_1", "ab_c", "ab_2", "de_f"):
        event = _entry(f"mirror m_1: ledger {value} rejected: late")
        found = cached.rank_event(event, top=5)
        assert found == Index(SQLiteStore(db)).rank_event(event, top=5), value
        assert len(found) == (1 if value[-1].isdigit() else 2)


def test_a_value_that_names_a_program_or_a_code_is_read_again(tmp_path: Path) -> None:
    # Program names and codes are read from values the shape masks (their length decides:
    # ``prog[12]: `` names a program of at most 31 characters): each line ranks as the
    # uncached lookup ranks it, the repository of the program named first.
    db = tmp_path / "db.sqlite"
    pattern = r"(.+?)\[12\]: volume stalled at (.+?) after retries"
    cached = _caching_index(db, [{"messagePattern": pattern, "filePath": f"src/v{n}.py",
                                  "repo": f"acme/{repo}"}
                                 for n, repo in enumerate(["tool", "other"])])
    names = ["x" * 31 + "_1", "tool_1", "x_2", "y" * 31 + "_9", "tool_1"]
    for line in [f"{name}[12]: volume stalled at a_1 after retries" for name in names]:
        event = _entry(line)
        assert cached.rank_event(event, top=5) == Index(SQLiteStore(db)).rank_event(
            event, top=5), line


def test_example_code_whose_holes_hold_more_is_ranked_per_line(tmp_path: Path) -> None:
    # Example code's match is lowered when its holes hold more text than its literal: a
    # value's length decides, which the shape masks, so such rankings are never replayed.
    db = tmp_path / "db.sqlite"
    pattern = r"volume stalled while reading (.+?)"
    cached = _caching_index(db, [{"messagePattern": pattern, "filePath": path}
                                 for path in ["examples/demo.c", "src/volume.c"]])
    for value in ("a" * 11 + "_1", "b" * 40 + "_2", "c" * 11 + "_3", "d" * 40 + "_4"):
        event = _entry(f"volume stalled while reading {value}")
        assert cached.rank_event(event, top=5) == Index(SQLiteStore(db)).rank_event(
            event, top=5), value


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab_1Z9. :'/-é", max_size=40))
def test_a_shape_masks_each_token_as_read_one_by_one(message: str) -> None:
    # ``key`` hands only tokens with a digit or an underscore to its mask: the shape is the
    # one read token by token (words of letters alone, of the index or with a capital kept).
    import re

    from errdex.lookup import replay

    replays = Replays(frozenset({"ab_1"}))
    kept: list[str] = []

    def spy(match: re.Match[str]) -> str:
        kept.append(match.group())
        return match.group()

    expected_tokens = [t for t in re.findall(r"[A-Za-z0-9_]+", message) if not t.isalpha()]
    replays.key(message, ())
    assert replay._MASKABLE.sub(spy, message) == message
    assert kept == expected_tokens


_NAMING = ["Usage: prog", "usage:", "sshd[12]: ", "git: error", ": fatal", ": warning",
           "pkg.mod.BrokenError", "x.y Exception", "code: 'ENOENT'", "errno 2", "[ERR_X_Y]",
           "error[E0308]", "SQLSTATE 23505", "StatusCode.NOT_FOUND", "ENOENT", "EACCES:",
           "NotFound", "ERR_BAD_RESPONSE", "E0308", "[ERROR]", "volume", "stalled", "_1", " "]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_NAMING) | st.text(alphabet="aEN_1.[]: ", max_size=8),
                max_size=6).map("".join))
def test_a_line_said_to_name_nothing_names_nothing(message: str) -> None:
    # A recheck reads a log line's context and codes only when these say it may hold some.
    from errdex.lookup.codes import may_carry_code, paste_codes
    from errdex.lookup.context import may_name, read_context

    event = ErrorEvent(message, None, "message", (), message)
    assert may_name(event) or not read_context(event).names
    assert may_carry_code(event) or not paste_codes(event).codes


def test_a_log_entrys_missed_replay_is_checked_once() -> None:
    """An entry's replay (``Index.replayed``) that missed is not checked again when its
    ranking asks at once (``rank_event``); the line after it is, whatever it asks."""
    from errdex.lookup.ranking import Ranked
    from errdex.lookup.replay import _Replay
    from errdex.templates.matching import verify

    calls: list[str] = []

    def counting(pattern: str, message: str, encoded: list[bytes]) -> Any:
        calls.append(message)
        return verify(pattern, message, encoded)

    replays = Replays(frozenset({"disk", "full"}), counting)
    extra = (None, "message", (), None, True, 5, None)
    message = "disk sda1 full"
    key = replays.key(message, extra)
    kept = _Replay((Ranked("0" * 16, 1.0, "full pattern match", ("sda1",), False),), (1,),
                   ((frozenset({"disk", "full"}), None, ((1, "disk (.+?) is full", True),)),),
                   100, True)
    replays._kept[key] = kept  # a template the line does not fullmatch: a miss
    assert replays.replay(key, message, count=False) is None and len(calls) == 1
    assert replays.replay(replays.key(message, extra), message) is None and len(calls) == 1
    assert replays.misses == 1
    assert replays.replay(key, message) is None and len(calls) == 2  # asked again: checked
    line = "disk sda2 is full"
    assert replays.replay(replays.key(line, extra), line, count=False) is None
    assert replays.replay(replays.key(line, extra), line) is None  # another shape: none kept
    assert replays.hits == 0 and replays.misses == 3 and len(calls) == 2
    replays._kept[replays.key(line, extra)] = kept  # as ranking the line keeps it
    found = replays.replay(replays.key(line, extra), line)
    assert found is not None and found[0].groups == ("sda2",) and len(calls) == 3


NEAR = ["alloc_cache53: retrying (.+?)", r"task_file: query took (\d+) ms",
        "page_node: opened (.+?)"]
NEAR_LINES = ["handled alloc_cache53 in 622 ms", "handled alloc_cache97 in 647 ms",
              "handled task_file in 24 ms", "handled task_file in 3 ms",
              "handled task_file in 770 ms", "handled page_node in 97 ms",
              "handled page_node in 5 ms"]


def _near_store(tmp_path: Path) -> Path:
    """A store of the NEAR templates, one record each."""
    path = tmp_path / "near.sqlite"
    with SQLiteStore(path) as store:
        store.upsert([(Record.model_construct(**dict(
            SEED, id=f"{n:06d}{'0' * 10}", slug=f"n{n}", messagePattern=pattern,
            errorMessage=pattern.replace(r"(\d+)", "{}").replace("(.+?)", "{}"),
            filePath=f"src/m{n}.py", lineNumber=10 + n)), None)
            for n, pattern in enumerate(NEAR)])
    return path


def test_an_info_line_near_a_template_ranks_as_it_does_alone(tmp_path: Path) -> None:
    """Near misses shared by lines of one shape (the costly approximate pass once) are
    shared only where the similarity cannot differ: the same digits' lengths, and the same
    index words holding digits (alloc_cache53 is a template's word, alloc_cache97 none)."""
    path = _near_store(tmp_path)
    stamp = "2026-01-02 10:58:01,481 INFO app.worker: "
    log = "".join(f"{stamp}{line}\n" for line in NEAR_LINES * 2)

    def ranked(text: str) -> list[list[tuple[object, object]]]:
        return [[(m["record"]["id"], m["score"]) for m in event.to_json()["matches"]]
                for event in scan(Index(SQLiteStore(path)), io.StringIO(text), top=3,
                                  all_levels=True)]

    alone = [ranked(f"{stamp}{line}\n")[0] for line in NEAR_LINES]
    assert any(alone) and not all(alone)  # near misses, and lines near none
    assert ranked(log) == alone * 2


def test_near_misses_of_a_shape_take_the_approximate_pass_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines of one shape near-missing a template share its near misses (one approximate
    pass); a line whose word holding digits is a template's own gets a pass of its own."""
    path = _near_store(tmp_path)
    passes: list[str] = []
    approximate = Index._approximate_matches

    def counted(self: Index, event: ErrorEvent, *args: Any) -> Any:
        passes.append(event.message)
        return approximate(self, event, *args)

    monkeypatch.setattr(Index, "_approximate_matches", counted)
    stamp = "2026-01-02 10:58:01,481 ERROR app.worker: "
    lines = ["handled task_file in 24 ms", "handled task_file in 31 ms",
             "handled task_file in 86 ms", "handled alloc_cache53 in 6 ms",
             "handled alloc_cache97 in 6 ms", "handled alloc_cache98 in 7 ms"]

    def ranked(text: str) -> list[list[tuple[object, object]]]:
        return [[(m["record"]["id"], m["score"]) for m in event.to_json()["matches"]]
                for event in scan(Index(SQLiteStore(path)), io.StringIO(text), top=3)]

    together = ranked("".join(f"{stamp}{line}\n" for line in lines))
    # one pass for the task_file lines, one for alloc_cache53 (a template's word), one
    # for alloc_cache97 and alloc_cache98 (no index word holds their digits)
    assert passes == ["handled task_file in 24 ms", "handled alloc_cache53 in 6 ms",
                      "handled alloc_cache97 in 6 ms"]
    assert together[0] and together[3]  # near misses
    assert together == [ranked(f"{stamp}{line}\n")[0] for line in lines]
