"""The benchmark scripts still run: each on a small mined repository (no figures asserted
beyond what must hold at any size)."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.conftest import GitRepo
from tests.test_llm import CORE, TESTS

ROOT = Path(__file__).resolve().parents[1]


def test_llm_tokens_benchmark_prints_a_line_a_repository_and_totals(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = make_repo()
    repo.commit_files({"src/shapes/core.py": CORE, "tests/test_core.py": TESTS})
    db = tmp_path / "bench.sqlite"
    errdex.mine(repo.root, db=db)
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "llm_tokens.py"),
                           "--db", str(db)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "acme/widgets: 3 records" in done.stdout
    ratios = {label: float(value) for label, value in re.findall(
        r"^\[([^\]]+)\] .* RATIO ([0-9.]+)", done.stdout, re.M)}
    assert {"chars / 4", "lexical"} <= set(ratios)
    # even three records cost less as a bundle than as ±12 lines (instructions included)
    assert all(0 < ratio < 1 for ratio in ratios.values())


def test_mine_benchmark_reports_the_least_of_alternated_rounds(
        make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    repo.commit_files({"src/shapes/core.py": CORE, "tests/test_core.py": TESTS})
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "mine.py"), str(repo.root),
                           "--jobs", "1", "--repeat", "2"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "(least of 2 rounds)" in done.stdout
    ratios = re.findall(r"ratio to the bare parse: ([0-9.]+)x .*CPU [0-9.]+s, ([0-9.]+)x",
                        done.stdout)
    assert len(ratios) == 2  # --enrich none, then static
    assert all(float(wall) > 0 and float(cpu) > 0 for wall, cpu in ratios)
