"""errdex scan: every error event of a log, annotated, in order, with a summary."""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner

import errdex
from errdex.interfaces.cli import main
from errdex.lookup.parse import MAX_INPUT_CHARS
from errdex.lookup.scan import ScanSummary, chunks, scan
from tests.steps import counting_lookup_work

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
    messages = [e.matches[0].record.error_message for e in events]
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


def test_worker_processes_bind_the_loaded_index_instead_of_loading_it(db, monkeypatch):
    """Forked workers rank with the scanning process's tables over a connection of their
    own: a worker that built an index of its own would break the pool here."""
    import errdex.lookup.scan as scan_module

    index = errdex.open_index(db)

    def no_second_load(store):
        raise AssertionError("a worker loaded the index again")

    monkeypatch.setattr(scan_module, "Index", no_second_load)
    events = list(scan(index, io.StringIO(LOG * 3000), jobs=2))
    assert len(events) == 9000
    assert events[-1].matches[0].record.error_message == "cannot reach %s:%d"
    assert scan_module._WORKER_INDEX is None  # the scanning process holds it no longer


def test_no_full_garbage_collection_while_a_scan_runs(db):
    """Full collections wait while the scan's events are read; the thresholds are the
    caller's again once it ends."""
    import gc

    before = gc.get_threshold()
    during = [gc.get_threshold() for _ in scan(errdex.open_index(db), io.StringIO(LOG))]
    assert len(during) == 3
    assert all(t[:2] == before[:2] and t[2] > 1_000_000 for t in during)
    assert gc.get_threshold() == before


# --- logs that used to stop the scan ---------------------------------------------------


def test_a_log_without_entry_starts_is_cut_within_the_paste_limit():
    """No timestamps, brackets or blank lines: pieces are still cut before the limit."""
    text = "working on item 1234567\n" * 130_000  # ~3 MB, no line starts an entry
    pieces = list(chunks(io.StringIO(text)))
    assert len(pieces) >= 3
    assert all(len(piece) <= MAX_INPUT_CHARS for _, piece in pieces)
    assert "".join(piece for _, piece in pieces) == text


def test_a_log_without_timestamps_over_a_megabyte_is_scanned_in_full(db, tmp_path):
    """Reproduction: such a log stopped the scan with "input too large"."""
    log = tmp_path / "plain.log"
    log.write_text("ConnectionError: cannot reach db.internal:5432\n"
                   + "working on item 1234567\n" * 60_000
                   + "ValueError: invalid size 'abc'\n")
    assert log.stat().st_size > MAX_INPUT_CHARS
    result = CliRunner().invoke(main, ["--db", str(db), "scan", "--json", str(log)])
    assert result.exit_code == 0, result.output
    found = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(e["line"], e["matches"][0]["record"]["errorMessage"]) for e in found] == [
        (1, "cannot reach %s:%d"), (60_002, "invalid size {text!r}")]


def test_a_line_over_a_megabyte_is_skipped_and_counted(db, tmp_path):
    """Reproduction: one line over 1 MB stopped the whole scan; now it is left out, the
    summary says so, and the events around it keep their line numbers."""
    log = tmp_path / "long-line.log"
    log.write_text(LOG + "x" * (MAX_INPUT_CHARS + 5) + "\n" + LOG)
    summary = ScanSummary()
    with log.open(encoding="utf-8") as stream:
        events = list(scan(errdex.open_index(db), stream, summary=summary))
    assert [e.line for e in events] == [3, 7, 9, 14, 18, 20]
    assert summary.skipped_lines == 1 and summary.lines == 21 and summary.matched == 6
    text = CliRunner().invoke(main, ["--db", str(db), "scan", str(log)])
    assert text.exit_code == 0, text.output
    assert "1 line over 1,000,000 characters skipped" in text.stdout
    as_json = CliRunner().invoke(main, ["--db", str(db), "scan", "--json", str(log)])
    assert as_json.exit_code == 0 and len(as_json.stdout.splitlines()) == 6
    assert "1 line over 1,000,000 characters skipped" in as_json.stderr


class _RecordingStream(io.StringIO):
    """A log that remembers the longest line it handed out."""

    longest = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline(size)
        self.longest = max(self.longest, len(line))
        return line


def test_an_over_long_line_is_read_in_bounded_pieces():
    stream = _RecordingStream("a\n" + "y" * (3 * MAX_INPUT_CHARS) + "\nb\n")
    summary = ScanSummary()
    pieces = list(chunks(stream, summary))
    assert pieces == [(1, "a\n"), (3, "b\n")]
    assert summary.skipped_lines == 1 and summary.lines == 3
    assert stream.longest <= MAX_INPUT_CHARS + 1


def test_a_three_line_log_with_adjacent_typed_holes_is_matched_by_re2(make_repo, tmp_path):
    """Reproduction: a 3-line log holding a near miss of ``adjacent {}{}{}{:x} quux`` hung."""
    repo = make_repo()
    repo.commit_files({"src/lib.rs": 'fn f(a: u8, b: u8, c: u8, d: u32) {\n'
                                     '    panic!("adjacent {}{}{}{:x} quux", a, b, c, d);\n}\n'})
    path = tmp_path / "adjacent.sqlite"
    errdex.mine(repo.root, db=path)
    index = errdex.open_index(path)
    stored = {s.record.message_pattern for s in index.store.records()}
    for body, explained in (("1" * 100_000 + "g", False), ("abc1f", True)):
        log = ("2026-01-02 10:00:00 INFO start\nthread 'main' panicked at src/lib.rs:2:5:\n"
               f"adjacent {body} quux\n")
        with counting_lookup_work() as work:
            events = list(scan(index, io.StringIO(log)))
        assert [e.line for e in events] == [2]
        assert events[0].matches[0].approximate is not explained  # a near miss: its frame only
        assert work.re2_runs >= 1 and not stored & set(work.python_regexes)


def test_a_ranked_event_crosses_from_a_worker_whole() -> None:
    """What a worker sends (``Mapped``, written as its fields in order) loads equal, every
    field kept: a field added and not sent fails here."""
    import dataclasses
    import pickle

    from errdex.lookup.entries import Mapped
    from errdex.lookup.ranking import Ranked
    from errdex.lookup.statements import StatementMatch
    from errdex.records.log_statements import LogStatement

    written = LogStatement("acme/x", "src/x.py", 3, "info", "done {}", "done (.+?)")
    values = {"line": 7, "text": "ERROR disk /v1 full",
              "ranked": [Ranked("0" * 16, 1.25, "full pattern match", ("/v1", None), False)],
              "layout": {"name": "log4j", "level": "error"}, "message": "disk /v1 full",
              "statement": StatementMatch(written, 0.9, "statement", {"{}": "7"})}
    assert [f.name for f in dataclasses.fields(Mapped)] == list(values)
    event = Mapped(**values)  # type: ignore[arg-type]
    assert pickle.loads(pickle.dumps(event, pickle.HIGHEST_PROTOCOL)) == event
