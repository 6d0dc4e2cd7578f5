"""mine-deps on a real lockfile: the pipeline (downloads on threads overlapping mining in
worker processes) against mining the same releases one at a time, measured in one run.

    .venv/bin/python benchmarks/deps.py benchmarks/deps/requirements-30.txt [--jobs 2]
    .venv/bin/python benchmarks/deps.py benchmarks/deps/requirements-200.txt --no-baseline
    .venv/bin/python benchmarks/deps.py benchmarks/deps/package-lock.json

Each run starts from an empty database and an empty release cache, so every release is
downloaded from its registry and mined. The pipeline runs first (the baseline, second, may
find the registry's CDN warmer: the ratio errs on the baseline's side). The baseline is
what ``errdex mine pypi:NAME==VERSION`` one release after another does: download, then
mine, on one core. Download and mine seconds are summed over releases (in the pipeline
they overlap, so the wall time is less than their sum). Not a test: networks and shared
machines are noisy; read the ratio.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from errdex.packages.deps import (
    DepsSummary,
    mine_cached,
    mine_deps,
    one_line,
    prepare_release,
    release_miner,
)
from errdex.packages.lockfiles import read_lockfiles
from errdex.packages.specs import PackageSpec


@dataclass
class Run:
    name: str
    wall: float
    download: float
    mine: float
    mined: int
    failed: list[str]
    records: int
    slowest: list[str] = field(default_factory=list)


def pipeline(specs: list[PackageSpec], work: Path, jobs: int, downloads: int) -> Run:
    fetch, mine = release_miner(work / "cache-pipeline")
    started = time.perf_counter()
    summary: DepsSummary = mine_deps(specs, str(work / "pipeline.sqlite"), mine=mine,
                                     fetch=fetch, jobs=jobs, downloads=downloads)
    wall = time.perf_counter() - started
    failed = [f"{o.spec}: {o.reason}" for o in summary.outcomes if o.status == "failed"]
    slowest = sorted(summary.outcomes, key=lambda o: -o.mine_seconds)[:5]
    return Run(f"pipeline ({jobs} jobs, {downloads} downloads)", wall,
               summary.download_seconds, summary.mine_seconds, summary.count("mined"), failed,
               sum(o.records for o in summary.outcomes),
               [f"{o.spec}: mine {o.mine_seconds:.1f}s, download {o.download_seconds:.1f}s, "
                f"{o.records} records" for o in slowest])


def one_at_a_time(specs: list[PackageSpec], work: Path) -> Run:
    cache, db = str(work / "cache-baseline"), str(work / "baseline.sqlite")
    run = Run("one at a time (baseline)", 0.0, 0.0, 0.0, 0, [], 0)
    started = time.perf_counter()
    for spec in specs:
        try:
            t0 = time.perf_counter()
            prepare_release(spec, cache)
            t1 = time.perf_counter()
            mined = mine_cached(spec, db, cache)
            t2 = time.perf_counter()
        except Exception as exc:
            run.failed.append(f"{spec}: {one_line(exc)}")
            continue
        run.download += t1 - t0
        run.mine += t2 - t1
        run.mined += 1
        run.records += mined.records
    run.wall = time.perf_counter() - started
    return run


def report(runs: list[Run], count: int) -> None:
    print(f"\n{count} releases")
    print(f"{'run':<34} {'wall s':>8} {'download s':>11} {'mine s':>8} {'mined':>6} "
          f"{'failed':>6} {'records':>8}")
    for run in runs:
        print(f"{run.name:<34} {run.wall:8.1f} {run.download:11.1f} {run.mine:8.1f} "
              f"{run.mined:6d} {len(run.failed):6d} {run.records:8d}")
    if len(runs) == 2 and runs[0].wall:
        print(f"\nspeed-up of the pipeline over one at a time: {runs[1].wall / runs[0].wall:.2f}x")
    for run in runs:
        for line in run.slowest:
            print(f"  slowest to mine ({run.name}): {line}")
        for line in run.failed:
            print(f"  failed ({run.name}): {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lockfile", type=Path)
    parser.add_argument("--limit", type=int, help="Only the first N releases.")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--downloads", type=int, default=8)
    parser.add_argument("--no-baseline", action="store_true",
                        help="Only the pipeline (a 200-release baseline takes long).")
    parser.add_argument("--work", type=Path, help="Folder for databases and caches "
                        "(default: a temporary folder, removed after).")
    args = parser.parse_args()
    pins = read_lockfiles(args.lockfile)
    specs = pins.specs[: args.limit] if args.limit else pins.specs
    for problem in pins.problems:
        print(f"not mined: {problem}")
    with tempfile.TemporaryDirectory(prefix="errdex-deps-bench-") as temporary:
        work = args.work or Path(temporary)
        work.mkdir(parents=True, exist_ok=True)
        runs = [pipeline(specs, work, args.jobs, args.downloads)]
        if not args.no_baseline:
            runs.append(one_at_a_time(specs, work))
    report(runs, len(specs))


if __name__ == "__main__":
    main()
