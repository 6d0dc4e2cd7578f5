"""Mining speed against baselines measured in the same run.

    .venv/bin/python benchmarks/mine.py PATH [--jobs N] [--repeat N] [--semgrep PATH_TO_SEMGREP]

Prints files/s, MB/s and lines/s for ``errdex mine`` (all cores by default),
the ratio of its wall time to a bare tree-sitter parse of the same files on one
core (the floor: parsing is work any extractor must do), its peak memory
(largest process), and, when a Semgrep binary is given, the ratio of Semgrep
with one equivalent rule on the same tree. Not a test: machines are noisy, so
read the ratios, not the seconds.

It also prints the CPU seconds of both (the mine's processes together: itself, its
workers, git) and their ratio: the work done, which other programs running at the
same time change far less than the wall time. On a busy machine read that one; the
wall ratio holds only on an idle machine with as many free cores as jobs. The
``--repeat N`` alternates N rounds of the parse and both mines and reports the least of each
(single CPU readings on a busy machine move by a fifth from run to run). The
PATH is a git checkout (errdex mines what git holds at HEAD); a clone without a
work tree (``git clone --no-checkout``) is enough.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from errdex.languages import language_for_path
from errdex.languages.base import parse
from errdex.repo.git import load_tree, read_blobs

# One rule per language that finds the same kind of site errdex finds most often there.
SEMGREP_RULES = {
    "rust": "panic!(...)",
    "python": "raise $X(...)",
    "go": "errors.New(...)",
    "javascript": "throw new $X(...)",
    "typescript": "throw new $X(...)",
    "java": "throw new $X(...);",
}


def bare_parse_seconds(files: list[tuple[str, str, bytes]]) -> tuple[float, float]:
    """One core, parse only: the cost every tree-sitter based extractor pays (wall, CPU)."""
    started, cpu = time.perf_counter(), time.process_time()
    for _, grammar, data in files:
        parse(grammar, data)
    return time.perf_counter() - started, time.process_time() - cpu


@dataclass
class MineRun:
    """One ``errdex mine``: wall and CPU seconds, peak RSS (KiB, largest process), summary."""

    seconds: float
    cpu: float
    peak_kib: int
    summary: str


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def mine_run(path: Path, jobs: int | None, enrich: str) -> MineRun:
    """A real ``errdex mine`` run, byte-compiled modules written (as an installed errdex has
    them: without, every run compiles every module again)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "errdex.interfaces.cli", "--db", f"{tmp}/bench.sqlite",
                   "mine", "--enrich", enrich, str(path)]
        if jobs:
            command += ["--jobs", str(jobs)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        cpu = _children_cpu()
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
        seconds = time.perf_counter() - started
        cpu = _children_cpu() - cpu
        peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        return MineRun(seconds, cpu, peak, done.stdout.splitlines()[0])


def semgrep_seconds(semgrep: str, path: Path, language: str) -> float | None:
    rule = SEMGREP_RULES.get(language)
    if rule is None:
        return None
    lang = {"typescript": "ts", "javascript": "js"}.get(language, language)
    started = time.perf_counter()
    subprocess.run(
        [semgrep, "--quiet", "--metrics=off", "--disable-version-check", "--jobs", "1",
         "--lang", lang, "--pattern", rule, "--json", "--output", os.devnull, str(path)],
        check=False, capture_output=True,
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--jobs", type=int, default=None, help="errdex workers (default: all)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="rounds of the parse and both mines, alternated; the least of "
                             "each is reported")
    parser.add_argument("--semgrep", help="path of a semgrep binary to compare against")
    args = parser.parse_args()

    tree = load_tree(args.path, classify=language_for_path)
    files = [(s.path, s.language.grammar, data) for s, data in read_blobs(tree.root, tree.files)]
    size = sum(len(d) for _, _, d in files)
    lines = sum(d.count(b"\n") for _, _, d in files)
    languages = Counter(s.language.name for s in tree.files)
    print(f"tree: {tree.repo} at {tree.sha[:12]}: {len(files)} files, {size / 1e6:.1f} MB, "
          f"{lines:,} lines ({', '.join(f'{k} {v}' for k, v in languages.most_common())})")

    rounds = max(1, args.repeat)
    parses: list[tuple[float, float]] = []
    runs: dict[str, list[MineRun]] = {"none": [], "static": []}
    for _ in range(rounds):  # alternated, so a busy spell weighs on each alike
        parses.append(bare_parse_seconds(files))
        for enrich, done in runs.items():
            done.append(mine_run(args.path, args.jobs, enrich))
    parse_s, parse_cpu = min(s for s, _ in parses), min(c for _, c in parses)
    least = f" (least of {rounds} rounds)" if rounds > 1 else ""
    print(f"bare tree-sitter parse, 1 core: {parse_s:.2f}s (CPU {parse_cpu:.2f}s){least}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    jobs = args.jobs or os.cpu_count()
    timings = {}
    for enrich, done in runs.items():
        run = min(done, key=lambda r: r.seconds)
        cpu = min(r.cpu for r in done)
        mine_s = timings[enrich] = run.seconds
        print(f"errdex mine --enrich {enrich}, {jobs} jobs: {mine_s:.2f}s{least} "
              f"({len(files) / mine_s:,.0f} files/s, {size / 1e6 / mine_s:.2f} MB/s, "
              f"{lines / mine_s:,.0f} lines/s), peak RSS {run.peak_kib / 1024:.0f} MiB")
        print(f"  {run.summary}")
        print(f"  ratio to the bare parse: {mine_s / parse_s:.2f}x  (target <= 2.5x with "
              f"static enrichment); CPU {cpu:.2f}s, {cpu / parse_cpu:.2f}x the "
              f"parse's; load average {os.getloadavg()[0]:.1f}")
    mine_s = timings["none"]  # finding sites: the work one Semgrep rule does

    semgrep = args.semgrep or shutil.which("semgrep")
    if semgrep:
        language = languages.most_common(1)[0][0]
        sg = semgrep_seconds(semgrep, args.path, language)
        if sg is not None:
            print(f"semgrep, 1 rule ({SEMGREP_RULES[language]!r}), 1 job: {sg:.2f}s")
            print(f"ratio semgrep / errdex mine --enrich none: {sg / mine_s:.1f}x  (target >= 5x)"
                  f"; with static enrichment: {sg / timings['static']:.1f}x")
    else:
        print("semgrep: not found (pass --semgrep PATH to compare)")


if __name__ == "__main__":
    main()
