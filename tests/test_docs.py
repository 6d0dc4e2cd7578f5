"""Docs that can drift from the code are checked here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_cli_reference_matches_help():
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "readme_cli.py"), "--check"], cwd=ROOT
    )
    assert done.returncode == 0, "README.md's command reference is stale: run 'make readme'"


def test_readme_starts_with_the_two_commands():
    head = (ROOT / "README.md").read_text(encoding="utf-8").split("\n\n", 3)
    assert "make demo" in head[1] and "make test" in head[1]


def test_ci_runs_make_test():
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
