"""Workers ranking shares of every chunk (``lookup.shares``, ``lookup.share_workers``): each
entry ranked by exactly one worker, the same worker for a message's opening in every
chunk, and the shares merged back into the one-process scan's events, in order."""

from __future__ import annotations

import io
import os
import random
import signal
import string

import pytest

import errdex
from errdex.lookup.scan import scan
from errdex.lookup.share_workers import ShareWorkers, WorkerDied
from errdex.lookup.shares import heads, owners
from tests.test_scan import db  # noqa: F401  (the fixture: a store of two records)


def test_heads_stop_before_the_first_value():
    assert heads(["pack_io_fer85: missing file", "cannot reach db:5432", "'x' is bad",
                  "a very long message with no values in it", ""]) == [
        "pack_io_fer", "cannot reach db:", "", "a very long mess", ""]


def test_every_entry_has_one_owner_the_same_in_every_chunk():
    rng = random.Random(4)
    words = ["".join(rng.choice(string.ascii_lowercase) for _ in range(8)) for _ in range(300)]
    first = [rng.choice(words) for _ in range(2_000)]
    second = [rng.choice(words) for _ in range(2_000)]
    one, two = owners(first, 3), owners(second, 3)
    assert set(one) <= {0, 1, 2} and len(one) == len(first)
    seen: dict[str, int] = {}
    for head, owner in [*zip(first, one, strict=True), *zip(second, two, strict=True)]:
        assert seen.setdefault(head, owner) == owner  # light heads: one worker throughout


def test_a_frequent_head_is_dealt_in_turn():
    chunk = ["retrying"] * 40 + ["x"]
    dealt = owners(chunk, 2)[:40]
    assert dealt == [0, 1] * 20


def _double(value: int, share: tuple[int, int]) -> tuple[int, int]:
    return value * 2, share[0]


def _fail(value: int, share: tuple[int, int]) -> int:
    raise ValueError(f"bad {value} in {share[0]}")


def _die(value: int, share: tuple[int, int]) -> int:
    if share[0] == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return value


def _nothing() -> None:
    return None


def test_each_worker_answers_every_task_with_its_share_in_order():
    workers = ShareWorkers(3, _double, _nothing, ())
    try:
        for value in range(5):
            workers.submit(value)
        answers = [workers.results() for _ in range(5)]
    finally:
        workers.close()
    assert answers == [[(2 * v, 0), (2 * v, 1), (2 * v, 2)] for v in range(5)]
    assert all(not process.is_alive() for process in workers._processes)


def test_a_workers_failure_is_raised_in_the_scanning_process():
    workers = ShareWorkers(2, _fail, _nothing, ())
    try:
        workers.submit(7)
        with pytest.raises(ValueError, match="bad 7 in 0") as raised:
            workers.results()
    finally:
        workers.close(finished=False)
    assert any("in scan worker 0" in note for note in raised.value.__notes__)


def test_a_worker_that_died_is_reported():
    workers = ShareWorkers(2, _die, _nothing, ())
    try:
        workers.submit(1)
        with pytest.raises(WorkerDied, match="scan worker 1"):
            workers.results()
    finally:
        workers.close(finished=False)
    assert all(not process.is_alive() for process in workers._processes)


def test_a_log_of_many_openings_scanned_in_shares_equals_one_process(db):  # noqa: F811
    """Entries of light and frequent openings, traces below info and error entries: two
    workers' shares give the one-process scan's events, in order."""
    rng = random.Random(9)
    words = ["journal", "segment", "ledger", "bucket", "cursor", "window", "mirror"]
    lines = []
    for n in range(30_000):
        stamp = f"2026-01-02 10:{n // 60 % 60:02d}:{n % 60:02d},{n % 1000:03d}"
        roll = rng.random()
        if roll < 0.3:
            lines.append(f"{stamp} ERROR app.db: cannot reach db{n}.internal:{5000 + n}")
        elif roll < 0.6:
            word = rng.choice(words) + rng.choice(words)
            lines.append(f"{stamp} ERROR app.{word}: {word} stalled after {n} tries")
        elif roll < 0.7:
            lines.append(f"{stamp} {rng.choice(['INFO', 'ERROR'])} app.main: retrying\n"
                         "Traceback (most recent call last):\n"
                         f'  File "/srv/app/widgets/parse.py", line 3, in parse_width\n'
                         f"ValueError: invalid size '{rng.choice(words)}'")
        else:
            lines.append(f"{stamp} INFO app.main: handled {n}")
    text = "\n".join(lines) + "\n"
    assert len(text) > 1_000_000  # several chunks
    one = [e.to_json() for e in scan(errdex.open_index(db), io.StringIO(text), jobs=1)]
    two = [e.to_json() for e in scan(errdex.open_index(db), io.StringIO(text), jobs=2)]
    assert len(one) > 15_000 and one == two
