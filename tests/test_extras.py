"""A command whose extra is not installed says so in one line, never with a traceback.

Each case hides the extra's modules (``sys.modules[name] = None`` makes importing them
fail as if they were not installed) and forgets errdex's modules that import them.
The real bare install is checked by scripts/check-install.sh (``make install-check``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

import errdex
from errdex.interfaces.cli import main
from tests.conftest import GitRepo

# extra → (modules it provides, errdex modules importing them at their top)
EXTRAS = {
    "web": (("uvicorn", "fastapi", "starlette"), ("errdex.interfaces.web",)),
    "mcp": (("mcp",), ("errdex.interfaces.mcp",)),
    "parquet": (("pyarrow",), ()),
    "postgres": (("psycopg",), ("errdex.store.postgres",)),
    "ray": (("ray",), ("errdex.batch.ray_backend",)),
    "llm": (("httpx",), ("errdex.enrich.llm", "errdex.enrich.llm_client")),
}


def hide(monkeypatch: pytest.MonkeyPatch, extra: str) -> None:
    modules, importers = EXTRAS[extra]
    for name in list(sys.modules):
        if any(name == m or name.startswith(m + ".") for m in modules):
            monkeypatch.setitem(sys.modules, name, None)
        elif any(name == m or name.startswith(m + ".") for m in importers):
            monkeypatch.delitem(sys.modules, name)
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


@pytest.fixture
def mined(make_repo: Callable[..., GitRepo], tmp_path: Path) -> tuple[GitRepo, Path]:
    repo = make_repo()
    repo.commit_files({"a.py": "def f(x):\n    raise ValueError(f'bad value {x}')\n"})
    db = tmp_path / "e.sqlite"
    errdex.mine(repo.root, db=db)
    return repo, db


@pytest.mark.parametrize(("extra", "pip_name", "args"), [
    ("web", "web", ["serve", "--port", "0"]),
    ("mcp", "web", ["mcp"]),
    ("parquet", "parquet", ["export", "--format", "parquet", "-o", "{tmp}/x.parquet"]),
    ("postgres", "postgres", ["--db", "postgresql://nobody@/nothing", "search", "x"]),
    ("ray", "ray", ["mine-many", "--ray", "auto", "{tmp}/list.txt"]),
    ("llm", "llm", ["enrich", "--llm-base-url", "http://127.0.0.1:9/v1", "--llm-model", "m"]),
    ("llm", "llm", ["mine", "--enrich", "llm", "--llm-base-url", "http://127.0.0.1:9/v1",
                    "--llm-model", "m", "{repo}"]),
])
def test_a_missing_extra_is_one_line_naming_it(
    mined: tuple[GitRepo, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    extra: str, pip_name: str, args: list[str],
) -> None:
    repo, db = mined
    (tmp_path / "list.txt").write_text(f"{repo.root}\n")
    hide(monkeypatch, extra)
    argv = [a.format(tmp=tmp_path, repo=repo.root) for a in args]
    if argv[0] != "--db":
        argv = ["--db", str(db), *argv]
    result = CliRunner().invoke(main, argv)
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2, result.output
    assert len(lines) == 1 and lines[0].startswith("errdex: "), result.output
    assert f"pip install 'errdex[{pip_name}]'" in lines[0]
    assert "internal error" not in lines[0]
