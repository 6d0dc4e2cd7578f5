"""benchmarks/logs.py scores what it says: Loghub's grouping accuracy on hand-computed
partitions, the right-statement share over labelled lines only, and a whole run (mine a
tiny repository, scan its log, Drain3 on the same lines) on a log written here."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import GitRepo

ROOT = Path(__file__).resolve().parents[1]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("logs_benchmark", ROOT / "benchmarks/logs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["logs_benchmark"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


logs = _load()


def test_a_group_is_right_only_when_it_holds_exactly_its_event() -> None:
    truth = ["A", "A", "B", "B", "C"]
    # {0,1} is all of A: right; {2,3,4} mixes B and C: all three wrong
    assert logs.grouping_accuracy([1, 1, 2, 2, 2], truth) == pytest.approx(2 / 5)
    # B split in two: both halves wrong; C alone is all of C: right
    assert logs.grouping_accuracy([1, 1, 2, 3, 4], truth) == pytest.approx(3 / 5)
    # the labels of groups do not matter, only the partition
    assert logs.grouping_accuracy(["x", "x", 7, 7, None], truth) == 1.0


def test_an_unmapped_line_is_a_group_of_its_own() -> None:
    assert logs.grouping_accuracy([None, None, None], ["A", "B", "B"]) == pytest.approx(1 / 3)
    assert logs.grouping_accuracy([None, None], ["A", "B"]) == 1.0


def test_a_subset_restricts_both_partitions() -> None:
    truth = ["A", "A", "B", "B"]
    predicted = [1, 2, 3, 3]
    assert logs.grouping_accuracy(predicted, truth) == pytest.approx(2 / 4)
    # line 1 left out: A is {0} in the subset and so is group 1
    assert logs.grouping_accuracy(predicted, truth, [0, 2, 3]) == 1.0
    assert logs.grouping_accuracy(predicted, truth, []) is None


def test_right_statements_count_labelled_lines_only() -> None:
    here = {("src/Pool.java", 5)}
    accepted = [here, here, None, {("a.c", 1), ("a.c", 9)}]
    mapped = [("src/Pool.java", 5), ("src/Pool.java", 6), ("x", 1), ("a.c", 9)]
    assert logs.right_statements(mapped, accepted, range(4)) == (2, 3, 1)
    assert logs.right_statements(mapped, accepted, [2]) == (0, 0, 1)


def test_a_perfect_statement_map_loses_where_loghub_splits_a_statement() -> None:
    here = {("m.py", 7)}
    accepted = [here, here, here, None]
    truth = ["E1", "E2", "E2", "E3"]  # one statement printed E1 and E2 (a value in the text)
    partition = logs.statement_partition(accepted, truth)
    assert partition[0] == partition[1] == partition[2] != partition[3]
    assert logs.grouping_accuracy(partition, truth) == pytest.approx(1 / 4)


def test_levels_come_from_the_label_when_the_log_has_none() -> None:
    lines = [logs.Line(1, "", "a", "E1"), logs.Line(2, "", "b", "E2")]
    labels = {"templates": {"E1": {"level": "error", "statements": [{"file": "f.c", "line": 3}]},
                            "E2": {"level": None, "statements": None}}}
    assert logs.line_levels({"level": {"from": "label"}}, labels, lines) == ["error", None]
    assert logs.accepted_locations(labels, lines) == [{("f.c", 3)}, None]


POOL = """package acme;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class Pool {
    private static final Logger LOG = LoggerFactory.getLogger(Pool.class);

    void take(int id) {
        if (id < 0) {
            LOG.error("Pool exhausted while serving request " + id);
        }
        LOG.info("Borrowed session 0x" + Long.toHexString(id) + " from the pool");
    }
}
"""
LOG = """2026-01-02 10:00:00,001 - INFO  [main:Main@3] - Slow borrow of connection 1 from the pool
2026-01-02 10:00:00,002 - ERROR [main:Pool@11] - Pool exhausted while serving request 7
2026-01-02 10:00:00,003 - INFO  [main:Main@3] - Slow borrow of connection 2 from the pool
2026-01-02 10:00:00,004 - ERROR [main:Pool@11] - Pool exhausted while serving request 8
2026-01-02 10:00:00,005 - INFO  [main:Pool@13] - Borrowed session 0x1f2a from the pool
"""
STRUCTURED = """LineId,Level,Content,EventId,EventTemplate
1,INFO,Slow borrow of connection 1 from the pool,E1,Slow borrow of connection <*> from the pool
2,ERROR,Pool exhausted while serving request 7,E2,Pool exhausted while serving request <*>
3,INFO,Slow borrow of connection 2 from the pool,E1,Slow borrow of connection <*> from the pool
4,ERROR,Pool exhausted while serving request 8,E2,Pool exhausted while serving request <*>
5,INFO,Borrowed session 0x1f2a from the pool,E3,Borrowed session <*> from the pool
"""


SPEC = {"split": "develop", "source": "acme/widgets", "revision": "HEAD",
        "level": {"column": "Level", "warn": ["WARN", "ERROR"]},
        "drain": {"regex": [], "st": 0.5, "depth": 4}, "published": None}
LABELS = {"templates": {"E1": {"statements": None},
                        "E2": {"statements": [{"file": "src/acme/Pool.java", "line": 11}]},
                        "E3": {"statements": [{"file": "src/acme/Pool.java", "line": 13}]}}}


def _tiny(tmp_path: Path, make_repo: Callable[..., GitRepo]) -> tuple[GitRepo, Path, Path]:
    """A repository under a sources folder and a Loghub folder holding its log: (repo,
    sources, loghub)."""
    repo = make_repo()
    repo.commit_files({"src/acme/Pool.java": POOL})
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "acme+widgets").symlink_to(repo.root)
    loghub = tmp_path / "loghub" / "Tiny"
    loghub.mkdir(parents=True)
    (loghub / "Tiny_2k.log").write_text(LOG, encoding="utf-8")
    (loghub / "Tiny_2k.log_structured.csv").write_text(STRUCTURED, encoding="utf-8")
    return repo, sources, loghub.parent


def test_a_whole_run_mines_scans_and_runs_drain(
    tmp_path: Path, make_repo: Callable[..., GitRepo]
) -> None:
    repo, sources, loghub = _tiny(tmp_path, make_repo)
    result = logs.measure("Tiny", SPEC, loghub, sources, str(tmp_path / "db.sqlite"),
                          labels=LABELS)
    ours, drain, published, best = result["outcomes"]
    assert (result["lines"], result["warn_lines"], result["commit"]) == (5, 2, repo.head())
    assert (ours.right, ours.known) == (2, 2)  # both ERROR lines name Pool.java:11
    assert (ours.extra["templates_indexed"], ours.extra["templates_labelled"]) == (2, 2)
    # the INFO line maps to its statement too: "0x" glued to a hole is no word of the line
    assert (ours.extra["right_all_levels"], ours.extra["known_all_levels"]) == (3, 3)
    assert ours.warn_ga == 1.0
    assert (drain.warn_ga, drain.all_ga) == (1.0, 1.0)
    assert published.all_ga is None
    assert (best.warn_ga, best.all_ga) == (1.0, 1.0)
    table = logs.table([result], {})
    assert "| Tiny (develop, HEAD) | 2 | errdex | 1.000 | 1.000 | 1.000 |" in table
    assert "2/2 = 1.000 (0 unknown)" in table
    assert logs.verdict(result) == "Tiny (develop): meets the bar"
    drain.all_ga, ours.all_ga = 0.9, 0.8
    assert logs.verdict(result) == ("Tiny (develop): short of: all-lines grouping >= 0.90, "
                                    "above Drain3")
    json.dumps([{**result, "outcomes": [vars(o) for o in result["outcomes"]]}])


def test_the_command_prints_the_table_and_a_verdict_per_system(
    tmp_path: Path, make_repo: Callable[..., GitRepo], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, sources, loghub = _tiny(tmp_path, make_repo)
    folder = tmp_path / "config"
    folder.mkdir()
    systems = {"Tiny": SPEC, "Big": {"split": "not measured", "why": "too big",
                                     "published": 0.5}}
    (folder / "systems.json").write_text(json.dumps({"systems": systems}))
    (folder / "Tiny.labels.json").write_text(json.dumps(LABELS))
    monkeypatch.setattr(logs, "HERE", folder)
    monkeypatch.setattr(logs, "SYSTEMS", folder / "systems.json")
    out = tmp_path / "figures.json"
    assert logs.main(["--loghub", str(loghub), "--sources", str(sources),
                      "--db", str(tmp_path / "db.sqlite"), "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| Tiny (develop, HEAD) | 2 | errdex |" in printed
    assert "| Big (not measured: too big) | - | Drain (published) | - | 0.500 |" in printed
    assert "Tiny (develop): meets the bar; 2/2 labelled templates have a statement" in printed
    figures = json.loads(out.read_text())
    assert figures[0]["outcomes"][0]["right"] == 2 and figures[0]["misses"] == 0


def test_an_event_groups_by_record_then_statement_then_template() -> None:
    from types import SimpleNamespace as NS

    record = NS(id="r1", slug="pool-exhausted", repo="acme/widgets",
                file_path="src/Pool.java", line_number=11, message_pattern="Pool exhausted")
    info = NS(repo="acme/widgets", file_path="src/Pool.java", line_number=20,
              template="Borrowed {}", pattern="Borrowed (.+?)", level="info")
    common = {"line": 1, "text": "x", "level": None, "template": None}
    by_record = NS(matches=[NS(record=record, approximate=False, bound={})], statement=None,
                   group="g1", **common)
    by_statement = NS(matches=[], statement=NS(statement=info, bound={}), group=None,
                      **common)
    by_template = NS(matches=[], statement=None, group="g7", **common)
    nothing = NS(matches=[], statement=None, group=None, **common)
    for group in (logs.event_group, logs._own_group):
        assert group(by_record)[1] == ("src/Pool.java", 11)
        assert group(by_statement)[1] == ("src/Pool.java", 20)
        assert group(by_template)[1] is None and group(by_template)[0] is not None
        assert group(nothing) == (None, None)
        keys = [group(e)[0] for e in (by_record, by_statement, by_template)]
        assert len(set(keys)) == 3


@pytest.mark.parametrize("path", sorted((ROOT / "benchmarks/logs").glob("*.labels.json")),
                         ids=lambda p: p.name)
def test_each_labels_file_names_a_commit_and_a_statement_or_why_not(path: Path) -> None:
    labels = json.loads(path.read_text(encoding="utf-8"))
    systems = json.loads((ROOT / "benchmarks/logs/systems.json").read_text())["systems"]
    spec = systems[labels["system"]]
    assert (labels["source"], labels["revision"]) == (spec["source"], spec["revision"])
    assert len(labels["commit"]) == 40
    for event, label in labels["templates"].items():
        assert event.startswith("E") and label["template"]
        if label["statements"] is None:
            assert label.get("note"), f"{event}: an unknown statement says why"
            continue
        assert label["level"] in {"trace", "debug", "info", "notice", "warn", "warning",
                                  "error", "fatal"}
        for statement in label["statements"]:
            assert not statement["file"].startswith("/") and statement["line"] > 0


def test_templates_alone_next_to_drain3_on_the_same_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    spec = importlib.util.spec_from_file_location("logs_templates",
                                                  ROOT / "benchmarks/logs_templates.py")
    assert spec is not None and spec.loader is not None
    templates = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(templates)
    loghub = tmp_path / "loghub" / "Tiny"
    loghub.mkdir(parents=True)
    (loghub / "Tiny_2k.log_structured.csv").write_text(STRUCTURED, encoding="utf-8")
    folder = tmp_path / "config"
    folder.mkdir()
    (folder / "templates.json").write_text(json.dumps(
        {"systems": {"Tiny": {"regex": [], "st": 0.5, "depth": 4},
                     "Absent": {"regex": [], "st": 0.5, "depth": 4}}}))
    (folder / "systems.json").write_text(json.dumps({"systems": {}}))
    monkeypatch.setattr(templates, "HERE", folder)
    assert templates.main(["--loghub", str(loghub.parent)]) == 0
    captured = capsys.readouterr()
    assert "| Tiny (templates only) | 1.000 | 1.000 |" in captured.out
    assert "| mean of the 1 the threshold was chosen on | 1.000 | 1.000 | | |" in captured.out
    assert "Absent: no sample under" in captured.err
