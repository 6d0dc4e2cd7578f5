"""``scan --json`` lines written by ``JsonLines`` (each record's JSON once a scan): the same
text ``json_text(event.to_json())`` writes, for every part an event may carry."""

from __future__ import annotations

import json

from click.testing import CliRunner

from errdex.interfaces.cli import main
from errdex.lookup.ranking import Match
from errdex.lookup.scan import JsonLines, ScannedEvent
from errdex.lookup.statements import StatementMatch
from errdex.records.lineage import WordingVersion
from errdex.records.log_statements import LogStatement
from errdex.records.model import Record, RecordExtras
from errdex.records.stored import Removal
from errdex.visible import json_text
from tests.conftest import SEED_RECORD

SEED = json.loads(SEED_RECORD.read_text(encoding="utf-8"))["record"]


def _match(n: int, message: str = "disk {} full", **extras: str) -> Match:
    record = Record.model_validate(dict(SEED, id=f"{n:016d}", slug=f"r{n}", errorMessage=message))
    return Match(1.0 + n / 7, "full pattern match", {"{}": f"/v{n}"}, record,
                 RecordExtras(**extras))


def _scored(score: float, bound: dict[str, str]) -> Match:
    """A match of another score, reason and holes than ``_match``'s."""
    match = _match(6)
    match.score, match.bound, match.reason = score, bound, 'near "disk"; the log names é'
    return match


def _events() -> list[ScannedEvent]:
    encoder = JsonLines()
    gone = _match(2)
    gone.removed = Removal("abc123", "2026-01-01")
    gone.version = WordingVersion("disk %s is full", "src/old.py", 4, "v1.0", "v1.2", "v1.3")
    written = LogStatement("acme/x", "src/x.py", 3, "info", "done {}", "done (.+?)")
    statement = StatementMatch(written, 0.9, "statement", {"{}": "7"})
    return [
        ScannedEvent(1, "ERROR disk /v1 full", [_match(1)], {"name": "log4j", "level": "error"},
                     encoder=encoder),
        ScannedEvent(2, "ERROR disk /v1 full again", [_match(1), gone], None, encoder=encoder),
        ScannedEvent(3, "naïve \u202e \x1b[31m é", [_match(3, package="left-pad",
                                                           package_version="1.0",
                                                           package_ecosystem="npm")],
                     encoder=encoder),
        ScannedEvent(4, "INFO done 7", [], {"name": "log4j", "level": "info"}, statement,
                     encoder=encoder),
        ScannedEvent(5, "odd line 12", [], group="T3", template="odd line <*>", encoder=encoder),
        ScannedEvent(6, "ERROR disk /v4 full", [_match(4, message="disque {} plein ✓")],
                     encoder=encoder),
        ScannedEvent(7, "no encoder of its own", [_match(1)]),
        ScannedEvent(8, "ERROR scores", [_scored(0.1 + 0.2, {}), _scored(1e-7, {"a": "1"}),
                                         _scored(float("nan"), {"a": "x", "b": "é"}),
                                         _scored(float("inf"), {}), _scored(-2.00005, {})],
                     encoder=encoder),
        ScannedEvent(123_456_789, 'ERROR "quoted" back\\slash\ttab \x01 </script>',
                     [_match(5)], {"name": "log4j", "level": "error"}, encoder=encoder),
    ]


def test_each_line_is_the_text_json_text_writes() -> None:
    for event in _events():
        assert event.json_line() == json_text(event.to_json()), event.text


def test_a_record_is_written_once_a_scan() -> None:
    encoder = JsonLines()
    event = ScannedEvent(1, "ERROR disk /v1 full", [_match(1)], encoder=encoder)
    first = event.json_line()
    event.matches[0].record = event.matches[0].record.model_copy(update={"slug": "changed"})
    assert event.json_line() == first  # the record's text as the scan first wrote it


def test_scan_json_writes_every_event_once(tmp_path: object) -> None:
    runner = CliRunner()
    log = "".join(f"2026-01-02 10:{n // 60:02d}:{n % 60:02d},000 ERROR app: disk /v{n} full\n"
                  for n in range(600))  # more lines than one batch of output
    result = runner.invoke(main, ["--db", f"{tmp_path}/empty.sqlite", "scan", "--json", "-"],
                           input=log)
    lines = result.output.splitlines()
    assert [json.loads(line)["line"] for line in lines] == list(range(1, 601))
