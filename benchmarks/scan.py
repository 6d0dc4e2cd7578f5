"""``errdex scan`` throughput against a minimal log filter measured in the same run.

    .venv/bin/python benchmarks/scan.py [--records 100000] [--lines 200000] [--templates 5000]
    .venv/bin/python benchmarks/scan.py --db /tmp/x/records.sqlite --lines 100000
    .venv/bin/python benchmarks/scan.py --real-log Zookeeper_2k.log --db zk.sqlite \
        --repo apache/zookeeper
    .venv/bin/python benchmarks/scan.py --hostile

Builds a store of N varied records (as benchmarks/lookup.py does) and scans two logs
written from them, each next to the floor: reading the same log and testing each line
with one regex for an error level.

- all-error: every line an ERROR entry of one of ``--templates`` records, its holes
  filled with values that change from line to line (counts, hex ids, quoted names,
  paths), so no two lines repeat while their shapes do. Target: >= 25,000 lines/s for
  the whole ``errdex scan`` process against 100k records.
- mixed: a quarter of the lines warnings and errors of those records (values varied
  the same way), the rest INFO lines, and now and then a Python traceback.

Each log is scanned in this process (1 process, then ``--jobs``), and by ``errdex scan
--json`` itself as a child process (index load and JSON output included: the whole process),
then by ``errdex scan`` writing the annotated text a terminal or a pipe reads. The share of
rankings replayed by line shape (``lookup.replay``) is printed too: a log written from 5,000
templates with varied values holds tens of thousands of shapes, so the first line of each is
ranked in full. ``--db`` scans against a store built before (building 100k records takes
minutes; a path that does not exist yet is built there and kept); its records are left as
they are (the index snapshot may be saved in it).

``--real-log FILE --db DB [--copies 100]`` times a real log instead (a Loghub
sample, repeated ``--copies`` times with its numbers varied: see ``vary``) against a
store holding its system's mined source: the whole ``errdex scan`` process with
``--group`` (the table an operator reads from a big log), ``--json`` and ``--all-levels
--group``, next to the same level-regex floor, each with the minutes a gigabyte of that
log would take at that rate.

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
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lookup import _hostile_store, build, identifier, render


def value(rng: random.Random) -> str:
    """A hole's value as logs print them: a count, a hex id, a quoted name, a path."""
    roll = rng.random()
    if roll < 0.35:
        return str(rng.randint(0, 100_000))
    if roll < 0.5:
        return hex(rng.getrandbits(32))
    if roll < 0.7:
        return f"'{identifier(rng)}'"
    if roll < 0.85:
        return f"/srv/data/{identifier(rng)}.db"
    return identifier(rng)


def varied(pattern: str, rng: random.Random) -> str | None:
    """A message the pattern fullmatches, each hole filled with a value of its own."""
    from errdex.templates.analysis import shape_of

    shape = shape_of(pattern)
    if shape.groups and not shape.opaque:
        for _ in range(3):
            holes = [value(rng) for _ in shape.fragments[1:]]
            message = "".join(f + v for f, v in zip(shape.fragments, [*holes, ""], strict=True))
            if re.fullmatch(pattern, message, re.DOTALL):
                return message
    return render(pattern)


def write_errors(path: Path, patterns: list[str], lines: int, seed: int = 5) -> int:
    """An all-error log: one ERROR entry a line; returns how many lines it holds."""
    rng = random.Random(seed)
    n = 0
    with path.open("w", encoding="utf-8") as out:
        while n < lines:
            message = varied(rng.choice(patterns), rng)
            if not message or "\n" in message:
                continue
            out.write(f"{_stamp(n)} ERROR app.worker: {message}\n")
            n += 1
    return n


def write_log(path: Path, patterns: list[str], lines: int, seed: int = 5) -> int:
    """A mixed log (a quarter warnings and errors); returns how many error events it holds."""
    rng = random.Random(seed)
    events = 0
    with path.open("w", encoding="utf-8") as out:
        n = 0
        while n < lines:
            stamp = _stamp(n)
            roll = rng.random()
            message = varied(rng.choice(patterns), rng) if roll < 0.25 else None
            if message and "\n" in message:
                continue
            if message and roll < 0.08:
                out.write(f"{stamp} WARN app.pool: {message}\n")
                n += 1
                events += 1
            elif message and roll < 0.24:
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


def _stamp(n: int) -> str:
    return f"2026-01-02 10:{(n // 60) % 60:02d}:{n % 60:02d},{n % 1000:03d}"


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
    parser.add_argument("--templates", type=int, default=5_000,
                        help="records the logs' lines are written from")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--real-log", type=Path,
                        help="time this real log against --db (see the module docstring)")
    parser.add_argument("--repo", help="with --real-log: only records of this OWNER/NAME")
    parser.add_argument("--copies", type=int, default=100,
                        help="with --real-log: copies of the log, numbers varied (1: as is)")
    parser.add_argument("--hostile", action="store_true",
                        help="scan a log built to be slow, against the hostile templates")
    parser.add_argument("--db", type=Path,
                        help="a store built by an earlier run (benchmarks/lookup.py's records) "
                             "to scan against instead of building --records anew; kept "
                             "(built there first when it does not exist)")
    args = parser.parse_args()
    if args.hostile:
        hostile()
        return
    if args.real_log:
        if args.db is None:
            parser.error("--real-log needs --db, a store holding the log's mined source")
        with tempfile.TemporaryDirectory() as tmp:
            log = args.real_log
            if args.copies > 1:
                log = Path(tmp) / args.real_log.name
                vary(args.real_log, log, args.copies)
            real_log(args.db, log, args.jobs, args.repo)
        return

    from errdex.store.sqlite import SQLiteStore

    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "scan.sqlite"
        if not db.exists():
            build(db, args.records, None)
        store = SQLiteStore(db)
        patterns = [p for _, p, _, _ in store.pattern_rows()]
        store.close()
        chosen = random.Random(3).sample(patterns, min(args.templates, len(patterns)))
        logs = {"all-error": Path(tmp) / "errors.log", "mixed": Path(tmp) / "mixed.log"}
        write_errors(logs["all-error"], chosen, args.lines)
        write_log(logs["mixed"], chosen, args.lines)
        print(f"{store_size(db):,} records, logs written from {len(chosen):,} of them")
        for name, log in logs.items():
            measure(name, db, log, args.jobs)


def store_size(db: Path) -> int:
    """The records of a store."""
    from errdex.store.sqlite import SQLiteStore

    store = SQLiteStore(db)
    try:
        return store.count()
    finally:
        store.close()


def measure(name: str, db: Path, log: Path, jobs: int) -> None:
    """Lines/s of one log: the level-regex floor, scans in this process, the CLI's process."""
    from errdex.lookup.index import Index
    from errdex.lookup.scan import ScanSummary, scan
    from errdex.store.sqlite import SQLiteStore

    level = re.compile(r"\b(ERROR|CRITICAL|FATAL|Traceback)\b")
    started = time.perf_counter()
    with log.open(encoding="utf-8") as stream:
        flagged = sum(1 for line in stream if level.search(line))
    floor_s = time.perf_counter() - started
    index = Index(SQLiteStore(db))  # loaded (and its snapshot saved) outside the timings
    timings = {}
    summary = ScanSummary()
    replayed = ""
    for count in sorted({1, jobs}):
        summary = ScanSummary()
        started = time.perf_counter()
        with log.open(encoding="utf-8") as stream:
            for _ in scan(index, stream, summary=summary, jobs=count):
                pass
        timings[f"{count} process(es)"] = time.perf_counter() - started
        replays = index._replays
        if count == 1 and replays is not None:
            replayed = (f"; of {replays.hits + replays.misses:,} rankings {replays.hits:,} "
                        f"replayed by line shape, {replays.rechecked:,} by index words, "
                        f"{replays.probed:,} by coarse shape (probed again), "
                        f"{replays.misses - replays.rechecked - replays.probed:,} ranked in full")
    errdex = str(Path(sys.executable).with_name("errdex"))
    # the same scan as JSON Lines, then as the annotated text a terminal or a pipe reads
    for output, options in (("--json", ["--json"]), ("annotated text", [])):
        started = time.perf_counter()
        before = _children_cpu()
        subprocess.run([errdex, "--db", str(db), "scan", *options, "--jobs", str(jobs),
                        str(log)], check=True, stdout=subprocess.DEVNULL)
        timings[f"errdex scan {output} --jobs {jobs}, whole process"] = (
            time.perf_counter() - started)
        cpu = _children_cpu() - before  # a busy machine stretches the wall clock, not this
        timings[f"errdex scan {output} --jobs {jobs}, whole process, per CPU second "
                f"(user+sys, all processes; load {os.getloadavg()[0]:.1f})"] = cpu
    lines = summary.lines
    print(f"{name} log: {lines:,} lines, {flagged:,} flagged by the level regex, "
          f"{summary.events:,} events, {summary.matched:,} matched{replayed}")
    print(f"  level-regex filter (1 process): {lines / floor_s:,.0f} lines/s")
    for what, seconds in timings.items():
        print(f"  {what}: {lines / seconds:,.0f} lines/s, {seconds / floor_s:.0f}x the "
              "filter's time")


def _children_cpu() -> float:
    """CPU seconds (user and system) of this process's finished children."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def vary(sample: Path, out: Path, copies: int, seed: int = 7) -> int:
    """``copies`` of a real log, each number in its messages (after the layout's ``] - `` or
    ``: ``) replaced by another of as many digits, so lines repeat in shape, not in text;
    returns the lines written."""
    rng = random.Random(seed)

    def other(match: re.Match[str]) -> str:
        digits = len(match.group())
        return str(rng.randint(10 ** (digits - 1) if digits > 1 else 0, 10**digits - 1))

    lines = sample.read_text(encoding="utf-8", errors="replace").splitlines()
    written = 0
    with out.open("w", encoding="utf-8") as stream:
        for _ in range(copies):
            for line in lines:
                head, sep, message = line.partition("] - ")
                if not sep:
                    head, sep, message = line.partition(": ")
                stream.write(head + sep + re.sub(r"\d+", other, message) + "\n")
                written += 1
    return written


def real_log(db: Path, log: Path, jobs: int, repo: str | None) -> None:
    """Whole-process rates of ``errdex scan`` on a real log, and minutes per gigabyte."""
    level = re.compile(r"\b(WARN|WARNING|ERROR|CRITICAL|FATAL|Traceback)\b")
    started = time.perf_counter()
    with log.open(encoding="utf-8", errors="replace") as stream:
        lines = 0
        flagged = 0
        for line in stream:
            lines += 1
            flagged += bool(level.search(line))
    floor_s = time.perf_counter() - started
    size_gb = log.stat().st_size / 1e9
    errdex = str(Path(sys.executable).with_name("errdex"))
    scope = ["--repo", repo] if repo else []
    print(f"{log.name}: {lines:,} lines, {log.stat().st_size / 1e6:.1f} MB, {flagged:,} "
          f"warning/error lines by the level regex ({lines / floor_s:,.0f} lines/s)")
    for options in (["--group"], ["--json"], ["--all-levels", "--group"]):
        started = time.perf_counter()
        subprocess.run([errdex, "--db", str(db), "scan", *options, *scope, "--jobs", str(jobs),
                        str(log)], check=True, stdout=subprocess.DEVNULL)
        seconds = time.perf_counter() - started
        print(f"  errdex scan {' '.join(options)} --jobs {jobs}, whole process: "
              f"{lines / seconds:,.0f} lines/s, {seconds / floor_s:.0f}x the filter's time, "
              f"{seconds / size_gb / 60:.1f} min per GB")


if __name__ == "__main__":
    main()
