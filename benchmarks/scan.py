"""``errdex scan`` throughput against a minimal log filter measured in the same run.

    .venv/bin/python benchmarks/scan.py [--records 100000] [--lines 200000]
    .venv/bin/python benchmarks/scan.py --hostile

Builds a store of N varied records (as benchmarks/lookup.py does), writes a log
of mostly info lines with error lines rendered from random records, single
line and Python tracebacks, and reports lines/s of a full scan (parse, match,
rank, and read each match's record) next to the floor: reading the same log
and testing each line with one regex for an error level. Target: >= 100k
lines/s against 100k records.

``--hostile`` scans a log built to be slow instead, against the templates of
issue 13 (adjacent typed holes): near misses thousands of characters long, a run
of lines with no timestamps past the paste limit and lines over it (skipped and
counted), next to the same level-regex floor.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lookup import _hostile_store, build, identifier, render


def write_log(path: Path, patterns: list[str], lines: int, seed: int = 5) -> int:
    """A realistic log; returns how many error events it holds."""
    rng = random.Random(seed)
    events = 0
    with path.open("w", encoding="utf-8") as out:
        n = 0
        while n < lines:
            stamp = f"2026-01-02 10:{(n // 60) % 60:02d}:{n % 60:02d},{n % 1000:03d}"
            roll = rng.random()
            message = render(rng.choice(patterns)) if roll < 0.06 else None
            if message and roll < 0.05:
                out.write(f"{stamp} ERROR app.worker: {message}\n")
                n += 1
                events += 1
            elif message:
                out.write(f"{stamp} ERROR app.worker: request failed\n"
                          "Traceback (most recent call last):\n"
                          f'  File "/srv/app/{identifier(rng)}.py", line {rng.randint(1, 900)}, '
                          "in handle\n"
                          f"RuntimeError: {message}\n")
                n += 4
                events += 2
            else:
                out.write(f"{stamp} INFO app.worker: handled {identifier(rng)} in "
                          f"{rng.randint(1, 900)} ms\n")
                n += 1
    return events


def write_hostile_log(path: Path, near_misses: int = 200) -> None:
    """Near misses of the adjacent-holes templates, a megabyte without timestamps, and two
    lines over the paste limit."""
    with path.open("w", encoding="utf-8") as out:
        for n in range(near_misses):
            out.write(f"2026-01-02 10:00:{n % 60:02d},000 INFO app: step {n}\n")
            out.write("thread 'main' panicked at src/lib.rs:2:5:\nadjacent "
                      + "1" * (1_000 + 50 * n) + "g quux\n")
            out.write(f"2026-01-02 10:00:{n % 60:02d},500 INFO app: retry {n}\n")
            out.write("ValueError: " + "1" * (1_000 + 50 * n) + "x qqzz\n")
        out.write("working on item 1234567\n" * 60_000)
        out.write("x" * 1_100_000 + "\n")
        out.write("ERROR " + "a1" * 600_000 + "\n")
        out.write("ValueError: ab12 qqzz\n")


def hostile() -> None:
    from errdex.lookup.index import Index
    from errdex.lookup.scan import ScanSummary, scan
    from errdex.store.sqlite import SQLiteStore

    with tempfile.TemporaryDirectory() as tmp:
        db, log = Path(tmp) / "hostile.sqlite", Path(tmp) / "hostile.log"
        _hostile_store(db)
        write_hostile_log(log)
        level = re.compile(r"\b(ERROR|CRITICAL|FATAL|Traceback)\b")
        started = time.perf_counter()
        with log.open(encoding="utf-8") as stream:
            sum(1 for line in stream if level.search(line))
        floor_s = time.perf_counter() - started
        summary = ScanSummary()
        started = time.perf_counter()
        with log.open(encoding="utf-8") as stream:
            for _ in scan(Index(SQLiteStore(db)), stream, summary=summary):
                pass
        scan_s = time.perf_counter() - started
        size = log.stat().st_size
    print(f"hostile log: {size / 1e6:.1f} MB, {summary.lines:,} lines, "
          f"{summary.skipped_lines} over the paste limit skipped")
    print(f"errdex scan: {scan_s:.2f} s ({size / 1e6 / scan_s:.1f} MB/s), "
          f"{summary.events:,} events, {summary.matched:,} matched; "
          f"{scan_s / floor_s:.1f}x the level-regex filter's time ({floor_s:.3f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--lines", type=int, default=200_000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--hostile", action="store_true",
                        help="scan a log built to be slow, against the hostile templates")
    args = parser.parse_args()
    if args.hostile:
        hostile()
        return

    from errdex.lookup.index import Index
    from errdex.lookup.scan import ScanSummary, scan
    from errdex.store.sqlite import SQLiteStore

    with tempfile.TemporaryDirectory() as tmp:
        db, log = Path(tmp) / "scan.sqlite", Path(tmp) / "app.log"
        build(db, args.records, None)
        store = SQLiteStore(db)
        patterns = [p for _, p, _, _ in store.pattern_rows()]
        events = write_log(log, patterns, args.lines)
        index = Index(store)

        level = re.compile(r"\b(ERROR|CRITICAL|FATAL|Traceback)\b")
        started = time.perf_counter()
        with log.open(encoding="utf-8") as stream:
            flagged = sum(1 for line in stream if level.search(line))
        floor_s = time.perf_counter() - started

        timings = {}
        for jobs in sorted({1, args.jobs}):
            summary = ScanSummary()
            started = time.perf_counter()
            with log.open(encoding="utf-8") as stream:
                for _ in scan(index, stream, summary=summary, jobs=jobs):
                    pass
            timings[jobs] = time.perf_counter() - started

    print(f"log: {summary.lines:,} lines, {events:,} error lines written, "
          f"{flagged:,} flagged by the level regex")
    print(f"level-regex filter (1 process): {summary.lines / floor_s:,.0f} lines/s")
    for jobs, scan_s in timings.items():
        print(f"errdex scan, {jobs} process(es), vs {args.records:,} records: "
              f"{summary.lines / scan_s:,.0f} lines/s (target >= 100,000), "
              f"{summary.events:,} events, {summary.matched:,} matched; "
              f"{scan_s / floor_s:.1f}x the filter's time")


if __name__ == "__main__":
    main()
