"""The runtime ground truth (benchmarks/runtime_truth.py) on fixtures written here: the
tracers record raises inside the package, not in its tests, and the scorer counts what
errdex really mines at those sites."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import errdex
from tests.conftest import GitRepo

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "runtime_truth.py"

CORE = '''\
class ShapeError(Exception):
    """Its message is written here, not where it is raised."""

    def __init__(self, sides):
        super().__init__(f"a shape needs at least three sides, got {sides}")


def polygon(sides):
    if sides < 3:
        raise ShapeError(sides)
    if sides > 12:
        raise ValueError(f"too many sides for a polygon: {sides}")
    return sides


def corners(name):
    return {"square": 4}[name]


def fail(message):
    raise RuntimeError(message)
'''
SHAPE_LINE, VALUE_LINE, KEY_LINE, FAIL_LINE = 10, 12, 17, 21

TESTS = '''\
import pytest

from shapes.core import ShapeError, corners, fail, polygon


def test_too_many():
    with pytest.raises(ValueError):
        polygon(20)


def test_too_few():
    with pytest.raises(ShapeError):
        polygon(2)


def test_unknown_name():
    with pytest.raises(KeyError):
        corners("circle")


def test_message_from_the_caller():
    with pytest.raises(RuntimeError):
        fail("a message only the tests write down")


def test_raised_here():
    with pytest.raises(LookupError):
        raise LookupError("raised by the test file itself")
'''

PYTEST_INI = "[pytest]\npythonpath = src\n"


def run_script(*args: str, cwd: Path | None = None) -> str:
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=300, cwd=cwd)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def observations(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def reported(output: str, label: str) -> tuple[int, int]:
    found = re.search(rf"{re.escape(label)}: (\d+)/(\d+)", output)
    assert found, output
    return int(found.group(1)), int(found.group(2))


def records_at(db: Path, file: str) -> dict[int, str]:
    with errdex.open_store(db) as store:
        return {s.record.line_number: s.record.message_pattern
                for s in store.records("acme/widgets") if s.record.file_path == file}


def fullmatches(pattern: str | None, message: str) -> bool:
    return pattern is not None and re.fullmatch(pattern, message, re.DOTALL) is not None


@pytest.fixture
def traced(make_repo: Callable[..., GitRepo], tmp_path: Path) -> tuple[GitRepo, Path]:
    repo = make_repo()
    repo.commit_files({"src/shapes/__init__.py": "", "src/shapes/core.py": CORE,
                       "tests/test_core.py": TESTS, "pytest.ini": PYTEST_INI})
    obs = tmp_path / "obs.jsonl"
    run_script("trace", "--lib", "shapes", "--repo-dir", str(repo.root), "--root",
               "src/shapes", "--out", str(obs), "--", sys.executable, "-m", "pytest", "-q",
               "tests")
    return repo, obs


def test_the_python_tracer_records_raises_in_the_package_only(
        traced: tuple[GitRepo, Path]) -> None:
    _, obs = traced
    seen = {(o["file"], o["line"]): o for o in observations(obs)}
    value = seen[("src/shapes/core.py", VALUE_LINE)]
    assert (value["class"], value["message"], value["op"]) == (
        "ValueError", "too many sides for a polygon: 20", "RAISE_VARARGS")
    shape = seen[("src/shapes/core.py", SHAPE_LINE)]
    assert (shape["class"], shape["message"]) == (
        "shapes.core.ShapeError", "a shape needs at least three sides, got 2")
    # the KeyError was raised by the interpreter (a subscript), not by a raise statement
    assert seen[("src/shapes/core.py", KEY_LINE)]["op"] != "RAISE_VARARGS"
    assert seen[("src/shapes/core.py", FAIL_LINE)]["message"] == (
        "a message only the tests write down")
    assert all(str(o["file"]).startswith("src/shapes/") for o in seen.values())
    assert not any("raised by the test file" in str(o["message"]) for o in seen.values())


def test_the_scorer_counts_what_errdex_mines_at_the_observed_sites(
        traced: tuple[GitRepo, Path], tmp_path: Path) -> None:
    repo, obs = traced
    db = tmp_path / "rt.sqlite"
    output = run_script("score", "--db", str(db), "--repo", "acme/widgets", "--repo-dir",
                        str(repo.root), "--obs", str(obs))
    # The expectation, from the fixture and the records errdex really wrote: eligible are
    # the ValueError site and the ShapeError site (its words are in __init__'s literal);
    # not the KeyError (the runtime's text), nor fail() (its message is only in tests/).
    mined = records_at(db, "src/shapes/core.py")
    assert fullmatches(mined.get(VALUE_LINE), "too many sides for a polygon: 20")
    shape_records = [p for line, p in mined.items() if SHAPE_LINE - 5 <= line <= SHAPE_LINE]
    shape_message = "a shape needs at least three sides, got 2"
    expected_recall = 1 + bool(shape_records)
    expected_matched = 1 + any(fullmatches(p, shape_message) for p in shape_records)
    assert reported(output, "site recall (raise line or <= 5 before)") == (expected_recall, 2)
    assert reported(output, "pattern precision (messages fullmatched at mined sites)") == (
        expected_matched, expected_recall)
    if not shape_records:
        assert "unmined sites by kind: class-message 1" in output
    assert "4 distinct raises at 4 sites; 1 written by the runtime; 2 sites" in output


JS_LIB = '''\
class ParseError extends Error {
  constructor (input) {
    super(`cannot parse the input ${JSON.stringify(input)}`)
    this.name = 'ParseError'
  }
}
function parse (text) {
  if (text === '') throw new TypeError('empty input is not allowed here')
  if (text === '?') throw new ParseError(text)
  return text
}
module.exports = { parse, ParseError }
'''
JS_TEST = '''\
const assert = require('assert')
const { parse, ParseError } = require('../lib')
assert.throws(() => parse(''), TypeError)
assert.throws(() => parse('?'), ParseError)
assert.throws(() => { throw new RangeError('thrown by the test itself') })
const made = new ParseError('x')
assert.ok(made instanceof Error && made instanceof ParseError)
assert.strictEqual(made.constructor, ParseError)
assert.strictEqual(new Error('plain').constructor, Error)
'''


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH: the "
                    "JavaScript tracer needs it")
def test_the_javascript_tracer_records_errors_made_in_the_library(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = make_repo()
    repo.commit_files({"lib/index.js": JS_LIB, "test/run.js": JS_TEST})
    obs = tmp_path / "obs.jsonl"
    run_script("trace", "--lib", "parser", "--repo-dir", str(repo.root), "--root", "lib",
               "--out", str(obs), "--", "node", "test/run.js")
    seen = {(o["file"], o["line"], o["class"]): o["message"] for o in observations(obs)}
    # the subclass is recorded where it is made (line 9), not at its super() call (line 3)
    assert seen == {("lib/index.js", 8, "TypeError"): "empty input is not allowed here",
                    ("lib/index.js", 9, "ParseError"): 'cannot parse the input "?"'}
