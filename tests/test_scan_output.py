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


def _printed(console_args: dict[str, object], events: list[ScannedEvent]) -> str:
    import io

    from errdex.interfaces.render import ScanPrinter, Terminal

    out = io.StringIO()
    printer = ScanPrinter(Terminal(file=out, **console_args))  # type: ignore[arg-type]
    for event in events:
        printer.add(event)
    printer.flush()
    return out.getvalue()


def test_scan_lines_in_a_pipe_are_plain_whole_and_escaped() -> None:
    hostile = _match(3, message="disk {} full\x1b[31m")
    hostile.record.slug = "r3\x1b]8;;http://x\x07"
    event = ScannedEvent(7, "ERROR disk /v full\x1b[2J " + "x" * 150 + "\nsecond line",
                         [hostile])
    text = _printed({"width": 40}, [event, ScannedEvent(9, "ERROR nothing", [])])
    lines = text.splitlines()
    assert "\x1b" not in text  # neither styles nor the log's own escapes reach a pipe
    assert lines[0].startswith("line 7: ERROR disk /v full\\x1b[2J xxx")
    assert len(lines[0]) > 150  # not wrapped at the console's width
    assert lines[1].startswith("  → r3\\x1b]8;;http://x\\x07  ")
    assert lines[1].endswith("  [{}='/v3']")
    assert lines[2:] == ["line 9: ERROR nothing", "  no record matches"]


def test_scan_lines_on_a_colour_terminal_are_styled_and_still_escaped() -> None:
    event = ScannedEvent(7, "ERROR disk \x1b[2J full", [_match(1)])
    text = _printed({"force_terminal": True, "color_system": "standard"}, [event])
    assert text.startswith("\x1b[1mline 7: \x1b[0mERROR disk \\x1b[2J full\n")
    assert "\x1b[32m  → \x1b[0m\x1b[1mr1\x1b[0m" in text
