"""The accuracy benchmark measures what it says: on a tiny repository with a bare copy, grep
lands on the raising line, ``--check`` names a bad case by file:line, and a full run mines
through the public API and reports per-language figures."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import GitRepo

ROOT = Path(__file__).resolve().parents[1]

CATALOG = '''"""Catalog lookups."""


def find(catalog, name):
    if name not in catalog:
        raise ValueError(f"no such item in the catalog: {name}")
    return catalog[name]
'''
POOL = """function connect(pool) {
  if (pool.size === 0) {
    throw new Error("connection pool exhausted after retries");
  }
  return pool.take();
}
module.exports = { connect };
"""
# A literal errdex does not see raised: only a text site explains a paste of it.
MESSAGES = """MESSAGES = {
    "full": "the widget cache is full and cannot grow",
}
"""
# The test file quotes the whole message: more windows match here than on the raising line.
TEST_CATALOG = """from catalog import find


def test_missing():
    try:
        find({}, "widget")
    except ValueError as exc:
        assert str(exc) == "no such item in the catalog: widget"
"""
PYTHON_PASTE = """Traceback (most recent call last):
  File "/home/me/app/tests/test_catalog.py", line 6, in test_missing
    find({}, "widget")
  File "/home/me/app/src/catalog.py", line 6, in find
    raise ValueError(f"no such item in the catalog: {name}")
ValueError: no such item in the catalog: widget
"""
JS_PASTE = """Error: connection pool exhausted after retries
    at connect (/srv/app/src/pool.js:3:11)
    at Object.<anonymous> (/srv/app/index.js:1:1)
"""


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "accuracy_benchmark", ROOT / "benchmarks" / "accuracy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def repos(make_repo: Callable[..., GitRepo], tmp_path: Path) -> tuple[Path, str]:
    """A folder holding acme/widgets as a bare repository, and its commit."""
    repo = make_repo()
    sha = repo.commit_files({"src/catalog.py": CATALOG, "src/pool.js": POOL,
                             "src/messages.py": MESSAGES, "tests/test_catalog.py": TEST_CATALOG})
    folder = tmp_path / "repos"
    subprocess.run(["git", "clone", "--quiet", "--bare", str(repo.root),
                    str(folder / "acme+widgets" / "repo")], check=True)
    return folder, sha


def case(sha: str, **changes: object) -> str:
    fields: dict[str, object] = {
        "language": "python", "repo": "acme/widgets", "commit": sha, "split": "tune",
        "url": "https://github.com/acme/widgets/issues/1", "text": PYTHON_PASTE,
        "expected_file": "src/catalog.py", "expected_line": 6,
        "template": "no such item in the catalog: {}", "form": "class message",
        "wording_changed": False, "also_accept": [], "note": "",
    }
    return json.dumps({**fields, **changes})


def test_grep_ranks_the_raising_line_first_skipping_tests_and_stack_lines(
        bench: ModuleType, repos: tuple[Path, str]) -> None:
    folder, sha = repos
    grep = bench.grep_baseline
    assert grep.message_lines(PYTHON_PASTE) == ["ValueError: no such item in the catalog: widget"]
    hits = grep.grep(folder / "acme+widgets" / "repo", sha, PYTHON_PASTE)
    assert (hits[0].path, hits[0].line) == ("src/catalog.py", 6)
    assert not [h for h in hits if h.path.startswith("tests/")]

    words = {w for window in grep.windows(JS_PASTE) for w in window}
    assert {"connection", "pool", "exhausted"} <= words
    assert not words & {"connect", "object", "anonymous", "srv", "app"}
    hits = grep.grep(folder / "acme+widgets" / "repo", sha, JS_PASTE)
    assert [(h.path, h.line) for h in hits] == [("src/pool.js", 3)]


def test_check_names_a_line_past_the_end_and_a_broken_line_and_exits_1(
        bench: ModuleType, repos: tuple[Path, str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder, sha = repos
    cases = tmp_path / "cases"
    cases.mkdir()
    lines = [case(sha), case(sha, expected_line=900), '{"language": "python", "repo": ']
    (cases / "python.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")

    code = bench.main(["--repos", str(folder), "--check", "--cases", str(cases)])

    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert (f"{cases}/python.jsonl:2: expected_line 900 past the end of a 7-line file "
            "(src/catalog.py)") in out
    assert any(line.startswith(f"{cases}/python.jsonl:3: not JSON") for line in out)
    assert any(re.fullmatch(r"python\s+2\s+1\s+0", line) for line in out)
    assert "2 problems" in out

    # a run (not --check) refuses the same file with one line a problem, no traceback
    assert bench.main(["--repos", str(folder), "--db", str(tmp_path / "x.sqlite"),
                       "--cases", str(cases)]) == 2
    err = capsys.readouterr().err
    assert f"{cases}/python.jsonl:3: not JSON" in err and "Traceback" not in err


def test_a_full_run_mines_the_bare_repository_and_reports_top_1_per_language(
        bench: ModuleType, repos: tuple[Path, str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder, sha = repos
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "python.jsonl").write_text(case(sha) + "\n", encoding="utf-8")
    db = tmp_path / "db" / "eval.sqlite"
    db.parent.mkdir()
    argv = ["--repos", str(folder), "--db", str(db), "--cases", str(cases),
            "--split", "all", "--baseline", "grep"]

    assert bench.main(argv) == 0

    captured = capsys.readouterr()
    assert "mining acme/widgets" in captured.err
    full = r"1/1 = 100\.0%"
    assert re.search(rf"^python\s+all\s+1\s+{full}\s+{full}\s+0\s+{full}\s+{full}$",
                     captured.out, re.M), captured.out
    assert re.search(rf"^total\s+all\s+1\s+{full}", captured.out, re.M)
    clone = db.parent / "accuracy-checkouts" / "acme+widgets"
    assert (clone / ".git").is_dir() and not (clone / "src").exists()  # nothing checked out

    assert bench.main([*argv, "--json"]) == 0
    captured = capsys.readouterr()
    assert "already mined" in captured.err
    (result,) = [json.loads(line) for line in captured.out.splitlines()]
    assert (result["language"], result["rank"], result["grep_rank"]) == ("python", 1, 1)
    assert result["got"][0].startswith("src/catalog.py:6 ")


def test_a_text_site_at_the_expected_line_is_a_hit_shown_apart(
        bench: ModuleType, repos: tuple[Path, str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder, sha = repos
    cases = tmp_path / "cases"
    cases.mkdir()
    paste = "CacheError: the widget cache is full and cannot grow"
    (cases / "python.jsonl").write_text(case(sha, text=paste, expected_file="src/messages.py",
                                             expected_line=2) + "\n", encoding="utf-8")
    argv = ["--repos", str(folder), "--db", str(tmp_path / "eval.sqlite"), "--cases",
            str(cases), "--scoped"]

    assert bench.main(argv) == 0

    full = r"1/1 = 100\.0%"
    out = capsys.readouterr().out
    assert re.search(rf"^python\s+all\s+1\s+{full}\s+{full}\s+1\s+-\s+-$", out, re.M), out
    assert bench.main([*argv, "--json"]) == 0
    (result,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (result["rank"], result["text_site"], result["grep_rank"]) == (1, True, None)


REWORDED_OLD = ("def register(name):\n"
                "    raise ValueError(f'duplicate argument {name} already registered')\n")
REWORDED_NEW = ("def check(name):\n"
                "    raise ValueError(f'Command failed: names must be distinct, {name} twice')\n")


def test_a_changed_miss_lists_its_expected_sites_wordings_with_history(
        bench: ModuleType, two_releases: Callable[..., GitRepo], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Moved into another function and reworded past what lineage links: the miss shows
    the expected site's one wording, so the reader sees the paste's was never linked."""
    repo = two_releases({"pkg/parser.py": REWORDED_OLD}, {"pkg/args.py": REWORDED_NEW})
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo.root, check=True,
                         capture_output=True, text=True).stdout.strip()
    folder = tmp_path / "repos"
    subprocess.run(["git", "clone", "--quiet", "--bare", str(repo.root),
                    str(folder / "acme+widgets" / "repo")], check=True)
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "python.jsonl").write_text(case(
        sha, text="ValueError: duplicate argument verbose already registered",
        expected_file="pkg/args.py", expected_line=2, wording_changed=True,
        template="Command failed: names must be distinct, {} twice") + "\n", encoding="utf-8")
    argv = ["--repos", str(folder), "--db", str(tmp_path / "eval.sqlite"), "--cases",
            str(cases), "--scoped", "--misses"]

    assert bench.main([*argv, "--history", "changed"]) == 0

    out = capsys.readouterr().out
    assert "[MISS" in out or "[rank" in out, out
    lineage = [line.strip() for line in out.splitlines() if line.strip().startswith("lineage")]
    assert lineage == ["lineage  pkg/args.py:2 v2.0.0–v2.0.0: "
                       "'Command failed: names must be distinct, {name} twice'"], out

    assert bench.main(argv) == 0  # without --history: no lineage to show
    assert "lineage" not in capsys.readouterr().out
