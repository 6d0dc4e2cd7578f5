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


def test_readme_python_api_names_only_public_functions():
    """Every name the README's Python API section calls ``errdex.X`` or lists in its table
    is public (in ``errdex.__all__``), and every public function is in the table."""
    import re

    import errdex

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Python API", 1)[1].split("\n## ", 1)[0]
    called = set(re.findall(r"\berrdex\.([A-Za-z_]+)(?![\w\"'])", section))
    listed = set(re.findall(r"^\| `([a-z_]+)\(", section, re.M))
    listed |= set(re.findall(r", `([a-zA-Z_]+)\(", section))
    assert called | listed <= set(errdex.__all__), (called | listed) - set(errdex.__all__)
    functions = {n for n in errdex.__all__ if n[0].islower() and callable(getattr(errdex, n))}
    assert functions - {"llm_config", "read_repo_list", "redact_url", "skipped_note"} <= listed
