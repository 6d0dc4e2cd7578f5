"""The CLI contract: commands, JSON shapes, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from errdex.interfaces.cli import main
from tests.conftest import SEED_RECORD

SEED_LINE = json.loads(SEED_RECORD.read_text(encoding="utf-8"))


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "cli.sqlite")


def run(db: str, *args: str, stdin: str | None = None):
    return CliRunner().invoke(main, ["--db", db, *args], input=stdin)


def test_import_explain_json_shape_and_export(db, tmp_path):
    result = run(db, "import", str(SEED_RECORD))
    assert result.exit_code == 0, result.output
    result = run(db, "explain", "--json", "deform_conv2d_backward: unsupported dtype I8")
    assert result.exit_code == 0
    payload = json.loads(result.stdout)
    assert list(payload) == ["matches"]
    (match,) = payload["matches"]
    assert list(match) == ["score", "reason", "bound", "record"]
    assert match["record"] == SEED_LINE["record"]
    assert list(match["bound"].values()) == ["I8"]
    out = tmp_path / "out.jsonl"
    assert run(db, "export", "--format", "jsonl", "--schema", "2", "-o", str(out)).exit_code == 0
    assert json.loads(out.read_text())["record"] == SEED_LINE["record"]


def test_explain_reads_stdin_and_renders_readably(db, make_repo):
    repo = make_repo()
    repo.write("pkg/m.py", "def f(n):\n    raise ValueError(f'need {n:d} more')\n")
    repo.commit()
    assert run(db, "mine", str(repo.root)).exit_code == 0
    result = run(db, "explain", "-", stdin="ValueError: need 3 more\n")
    assert result.exit_code == 0
    assert "pkg/m.py:2" in result.stdout
    assert "n = '3'" in result.stdout
    assert "https://github.com/acme/widgets/blob/" in result.stdout


def test_no_match_exits_1(db):
    run(db, "import", str(SEED_RECORD))
    result = run(db, "explain", "--json", "something entirely different")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {"matches": []}
    assert run(db, "explain", "something entirely different").exit_code == 1


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (["explain", ""], None, "empty input"),
        (["explain", "-"], "  \n", "empty input"),
        (["mine", "/no/such/folder"], None, "no such file or directory"),
        (["import", "/no/such/file.jsonl"], None, "no such file"),
        (["show", "nothing-like-this"], None, "no record"),
        (["explain", "--top", "0", "x"], None, "--top"),
    ],
)
def test_bad_input_is_one_line_nonzero(db, args, stdin, needle):
    result = run(db, *args, stdin=stdin)
    assert result.exit_code in (1, 2)
    assert needle in result.output
    assert "Traceback" not in result.output
    error_lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(error_lines) <= 2  # click usage errors add one "Usage:" line


def test_not_a_git_repo_exits_2(db, tmp_path):
    (tmp_path / "plain").mkdir()
    result = run(db, "mine", str(tmp_path / "plain"))
    assert result.exit_code == 2
    assert "not inside a git repository" in result.stderr


def test_mine_summary_and_show(db, make_repo):
    repo = make_repo()
    repo.write("pkg/m.py", "def f():\n    raise RuntimeError('engine stalled')\n")
    repo.write("pkg/data.py", b"\x00\x00binary")
    repo.commit()
    result = run(db, "mine", str(repo.root))
    assert result.exit_code == 0
    assert "acme/widgets" in result.stdout and "1 records from 1 files" in result.stdout
    assert "skipped files: 1 binary" in result.stdout
    shown = run(db, "show", "--json", "engine-stalled")
    assert json.loads(shown.stdout)["errorMessage"] == "engine stalled"


def test_debug_shows_traceback(db):
    result = run(db, "--debug", "mine", "/no/such/folder")
    assert result.exit_code != 0
    assert result.exception is not None


def test_real_subprocess_round_trip(tmp_path, make_repo):
    """The installed console script, as a user runs it, with ERRDEX_DB."""
    repo = make_repo()
    repo.write("svc/api.py", "def get(key):\n    raise KeyError(f'no key {key}')\n")
    repo.commit()
    env = dict(os.environ, ERRDEX_DB=str(tmp_path / "env.sqlite"))
    script = Path(sys.executable).parent / "errdex"
    mined = subprocess.run([str(script), "mine", str(repo.root)], env=env,
                           capture_output=True, text=True)
    assert mined.returncode == 0, mined.stderr
    explained = subprocess.run(
        [str(script), "explain", "--json", "-"], env=env, capture_output=True, text=True,
        input="Traceback (most recent call last):\n"
              '  File "/srv/svc/api.py", line 2, in get\n'
              "KeyError: 'no key token'\n",
    )
    assert explained.returncode == 0, explained.stderr
    (best, *_) = json.loads(explained.stdout)["matches"]
    assert best["record"]["filePath"] == "svc/api.py"
    assert best["bound"] == {"key": "token"}
    missing = subprocess.run([str(script), "mine", str(tmp_path / "nowhere")], env=env,
                             capture_output=True, text=True)
    assert missing.returncode == 2
    assert missing.stderr.count("\n") == 1 and "Traceback" not in missing.stderr


def test_search_command(db):
    run(db, "import", str(SEED_RECORD))
    result = run(db, "search", "--json", "unsupported dtype")
    assert result.exit_code == 0
    assert [r["id"] for r in json.loads(result.stdout)["records"]] == ["d59d5538758c7e08"]
    assert "deform-conv2d-backward" in run(db, "search", "deform").stdout
    missing = run(db, "search", 'NEAR("unbalanced')
    assert missing.exit_code == 1 and "Traceback" not in missing.output


def test_export_into_a_closed_pipe_ends_quietly(tmp_path):
    """``errdex export | head``: the reader leaves early; no traceback, no internal error.

    The read end is closed before errdex writes, so its first write meets a closed pipe
    (as it does once ``head`` has its lines), whatever the timing.
    """
    db = str(tmp_path / "pipe.sqlite")
    assert run(db, "import", str(SEED_RECORD)).exit_code == 0
    script = Path(sys.executable).parent / "errdex"
    explain = ["explain", "--json", "deform_conv2d_backward: unsupported dtype I8"]
    for args in (["export"], ["search", "dtype"], ["show", SEED_LINE["record"]["id"]], explain):
        process = subprocess.Popen([str(script), "--db", db, *args], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
        process.stdout.close()
        stderr = process.stderr.read().decode()
        assert process.wait() == 141, (args, stderr)  # 128 + SIGPIPE, as the shell reports
        assert stderr == "", (args, stderr)
