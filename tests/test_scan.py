"""errdex scan: every error event of a log, annotated, in order, with a summary."""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner

import errdex
from errdex.cli import main
from errdex.scan import ScanSummary, chunks, scan

PY = """\
def parse_width(text):
    if not text.isdigit():
        raise ValueError(f"invalid size {text!r}")
    return int(text)


def connect(host, port):
    raise ConnectionError("cannot reach %s:%d" % (host, port))
"""

LOG = """\
2026-01-02 10:00:00,001 INFO app.main: starting
2026-01-02 10:00:01,002 INFO app.main: listening
Traceback (most recent call last):
  File "/srv/app/widgets/parse.py", line 3, in parse_width
ValueError: invalid size 'abc'
2026-01-02 10:00:02,003 INFO app.main: retrying
ConnectionError: cannot reach db.internal:5432
2026-01-02 10:00:03,004 INFO app.main: retrying
ConnectionError: cannot reach db.internal:5432
2026-01-02 10:00:04,005 INFO app.main: done
"""


@pytest.fixture
def db(make_repo, tmp_path):
    repo = make_repo()
    repo.write("widgets/parse.py", PY)
    repo.commit()
    path = tmp_path / "scan.sqlite"
    errdex.mine(repo.root, db=path)
    return path


def test_scan_finds_every_event_in_order(db):
    summary = ScanSummary()
    events = list(scan(errdex.open_index(db), io.StringIO(LOG), summary=summary))
    messages = [e.matches[0].record.errorMessage for e in events]
    assert messages == ["invalid size {text!r}", "cannot reach %s:%d", "cannot reach %s:%d"]
    assert events[0].matches[0].bound == {"text": "'abc'"}
    assert events[1].matches[0].bound == {"host": "db.internal", "port": "5432"}
    assert summary.lines == 10 and summary.events == 3 and summary.matched == 3
    assert sorted(summary.by_record.values()) == [1, 2]


def test_scan_json_lines_shape_through_cli(db, tmp_path):
    log = tmp_path / "app.log"
    log.write_text(LOG)
    result = CliRunner().invoke(main, ["--db", str(db), "scan", "--json", str(log)])
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 3
    for obj in lines:
        assert list(obj) == ["line", "text", "matches"]
        assert list(obj["matches"][0]) == ["score", "reason", "bound", "record"]
    assert "ValueError: invalid size 'abc'" in lines[0]["text"]


def test_scan_text_output_has_summary(db, tmp_path):
    log = tmp_path / "app.log"
    log.write_text(LOG)
    result = CliRunner().invoke(main, ["--db", str(db), "scan", str(log)])
    assert result.exit_code == 0
    assert "3 error events, 3 explained by 2 records" in result.stdout
    assert "cannot-reach" in result.stdout


def test_scan_nothing_matched_and_missing_file(db, tmp_path):
    quiet = tmp_path / "quiet.log"
    quiet.write_text("2026-01-02 10:00:00 INFO all good\n")
    result = CliRunner().invoke(main, ["--db", str(db), "scan", str(quiet)])
    assert result.exit_code == 1
    missing = CliRunner().invoke(main, ["--db", str(db), "scan", str(tmp_path / "nope.log")])
    assert missing.exit_code == 2 and "no such log file" in missing.stderr


def test_chunks_never_split_a_traceback():
    entry = ("2026-01-02 10:00:00 ERROR x: boom\nTraceback (most recent call last):\n"
             '  File "a.py", line 1, in f\nValueError: bad\n')
    text = entry * 20_000
    pieces = list(chunks(io.StringIO(text)))
    assert len(pieces) > 1
    assert "".join(p for _, p in pieces) == text
    for first_line, piece in pieces:
        assert piece.startswith("2026-01-02")
        assert (first_line - 1) % 4 == 0


def test_scan_in_worker_processes_equals_one_process(db):
    """A log of several chunks scanned by two processes gives the same events, in order."""
    text = LOG * 3000  # ~1.3 MB: several chunks
    one = [(e.line, e.text, [m.record.id for m in e.matches], [m.bound for m in e.matches])
           for e in scan(errdex.open_index(db), io.StringIO(text), jobs=1)]
    two = [(e.line, e.text, [m.record.id for m in e.matches], [m.bound for m in e.matches])
           for e in scan(errdex.open_index(db), io.StringIO(text), jobs=2)]
    assert len(one) == 9000 and one == two
