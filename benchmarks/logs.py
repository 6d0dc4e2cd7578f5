"""``errdex scan`` on real logs: Loghub's 2k samples, next to Drain3 (measured) and Drain
(published), because synthetic logs said nothing about production ones.

    .venv/bin/python benchmarks/logs.py --loghub DIR --sources DIR --db PATH \\
        [--system Zookeeper ...] [--split develop|held-out|all] [--remine] [--misses] [--json OUT]
    .venv/bin/python benchmarks/logs.py --suggest-labels Zookeeper --loghub DIR --sources DIR

``--loghub`` is a copy of the Loghub repository (``Zookeeper/Zookeeper_2k.log``,
``..._structured.csv``, ``..._templates.csv``); ``--sources`` a folder of git repositories
named ``owner+name`` (or ``owner+name/repo``, or ``name``). Per system
(benchmarks/logs/systems.json: the release the log came from, its split, Loghub's Drain
settings), the source is mined at that release into ``--db`` and the log scanned through
``errdex.scan``, every level. Reported per system:

- grouping accuracy, Loghub's definition: a line is grouped right iff the set of lines in
  its predicted group equals the set of lines sharing its ground-truth EventId; on the
  warning/error lines (both partitions restricted to them) and on all lines. errdex's
  group of a line is its row and variant of ``scan --group``: the record it was mapped
  to, else the info/debug statement, each split into variants by the values in its holes
  (``errdex.lookup.variants_log``), else the template learnt from the log, else the line
  alone;
- the share of warning/error lines mapped to the right statement, over the lines whose
  template is labelled with the statement printing it (benchmarks/logs/<system>.labels.json,
  checked by hand; templates printed by code outside the source mined are ``unknown``,
  excluded and counted);
- the same grouping accuracy for Drain3 on the same lines (each line's Content, masked
  with Loghub's regexes), and Drain's published figure;
- lines/s of each (errdex: the scan alone, the mine not counted; the faster of two runs);
- what a perfect map to the labelled statements would score on Loghub's definition (the
  ceiling for a tool that groups by statement alone: Loghub splits some statements' lines
  into several templates by a value, which errdex's variants tell apart), and each tool's
  all-lines grouping accuracy against the statements instead ("by statement": the truth
  is the labelled statement, else the EventId; errdex's groups are its rows, variants
  merged), the grouping an operator reading ``scan --group``'s rows wants.

A system without a level on its lines (OpenSSH's syslog) takes each line's level from its
template's label (the level of the statement printing it).
"""

from __future__ import annotations

import argparse
import csv
import inspect
import json
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

HERE = Path(__file__).resolve().parent / "logs"
SYSTEMS = HERE / "systems.json"


@dataclass(frozen=True)
class Line:
    """One line of a Loghub sample with its ground truth."""

    number: int
    level: str
    content: str
    event: str


@dataclass
class Outcome:
    """What one tool made of one system's sample."""

    tool: str
    warn_ga: float | None = None
    all_ga: float | None = None
    right: int | None = None
    known: int | None = None
    lines_per_s: float | None = None
    by_statement: float | None = None  # all-lines grouping against the labelled statements
    extra: dict[str, Any] = field(default_factory=dict)


# ---- scoring ---------------------------------------------------------------------------------


def grouping_accuracy(predicted: Sequence[Hashable | None], truth: Sequence[Hashable],
                      subset: Iterable[int] | None = None) -> float | None:
    """Loghub's grouping accuracy over ``subset`` (indices; default all): the share of lines
    whose predicted group holds exactly the lines of their true group. ``None`` in
    ``predicted`` is a group of that line alone; None when the subset is empty."""
    indices = list(range(len(truth))) if subset is None else list(subset)
    if not indices:
        return None
    pred: dict[Hashable, set[int]] = defaultdict(set)
    true: dict[Hashable, set[int]] = defaultdict(set)
    for i in indices:
        key = predicted[i]
        pred[("alone", i) if key is None else ("key", key)].add(i)
        true[truth[i]].add(i)
    right = 0
    for members in pred.values():
        events = {truth[i] for i in members}
        if len(events) == 1 and true[next(iter(events))] == members:
            right += len(members)
    return right / len(indices)


Location = tuple[str, int]


def statement_partition(accepted: Sequence[set[Location] | None],
                        truth: Sequence[Hashable]) -> list[Hashable]:
    """Each line grouped by the statement its label names (else by its EventId): what a
    perfect map to statements scores, below 1 where Loghub splits one statement's lines
    into several templates by a value (``VM %(state)s``, ``Notification: … LOOKING``)."""
    return [("event", event) if where is None else ("statement", min(where))
            for where, event in zip(accepted, truth, strict=True)]


def right_statements(mapped: Sequence[Location | None], accepted: Sequence[set[Location] | None],
                     subset: Iterable[int]) -> tuple[int, int, int]:
    """(right, known, unknown) over ``subset``: a line is known when its template's statement
    is labelled (``accepted`` not None), right when it was mapped to one of its locations."""
    right = known = unknown = 0
    for i in subset:
        if accepted[i] is None:
            unknown += 1
            continue
        known += 1
        right += mapped[i] in accepted[i]  # type: ignore[operator]
    return right, known, unknown


# ---- inputs ----------------------------------------------------------------------------------


def read_truth(folder: Path, system: str) -> list[Line]:
    """The structured CSV of a Loghub sample, in line order."""
    path = folder / system / f"{system}_2k.log_structured.csv"
    if not path.exists():
        raise SystemExit(f"{path}: no such file; --loghub is a copy of the Loghub repository")
    with path.open(encoding="utf-8", newline="") as handle:
        return [Line(int(row["LineId"]), row.get("Level", ""), row["Content"], row["EventId"])
                for row in csv.DictReader(handle)]


def read_labels(system: str) -> dict[str, Any] | None:
    """benchmarks/logs/<system>.labels.json, or None when the system is not labelled yet."""
    path = HERE / f"{system}.labels.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def accepted_locations(labels: dict[str, Any] | None, lines: Sequence[Line]
                       ) -> list[set[Location] | None]:
    """Per line, the statements that may print it (None: unknown or not labelled)."""
    templates = (labels or {}).get("templates", {})
    out: list[set[Location] | None] = []
    for line in lines:
        where = (templates.get(line.event) or {}).get("statements")
        out.append({(s["file"], int(s["line"])) for s in where} if where else None)
    return out


def line_levels(spec: dict[str, Any], labels: dict[str, Any] | None,
                lines: Sequence[Line]) -> list[str | None]:
    """Each line's level: its own column, else its template's labelled statement's level."""
    if spec["level"].get("column"):
        return [line.level for line in lines]
    templates = (labels or {}).get("templates", {})
    return [(templates.get(line.event) or {}).get("level") for line in lines]


def find_source(sources: Path, name: str) -> Path:
    """The git repository of ``owner/name`` under ``sources``."""
    owner, repo = name.split("/")
    for candidate in (sources / f"{owner}+{repo}" / "repo", sources / f"{owner}+{repo}",
                      sources / repo):
        if candidate.exists():
            return candidate
    raise SystemExit(f"{name}: no {owner}+{repo} (or {repo}) repository under {sources}")


def checkout(source: Path, revision: str, into: Path) -> tuple[Path, str]:
    """A clone of ``source`` sharing its objects (no work tree) and the commit of ``revision``."""
    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(source), str(into)],
                   check=True)
    sha = subprocess.run(["git", "-C", str(into), "rev-parse", f"{revision}^{{commit}}"],
                         check=True, capture_output=True, text=True).stdout.strip()
    return into, sha


# ---- the tools -------------------------------------------------------------------------------


def run_drain(contents: Sequence[str], settings: dict[str, Any]) -> tuple[list[int], float]:
    """Drain3's cluster of each content, with Loghub's masks, threshold and depth; seconds."""
    from drain3 import TemplateMiner  # type: ignore[import-untyped]
    from drain3.masking import MaskingInstruction  # type: ignore[import-untyped]
    from drain3.template_miner_config import (  # type: ignore[import-untyped]
        TemplateMinerConfig,
    )

    config = TemplateMinerConfig()
    config.drain_sim_th = settings["st"]
    config.drain_depth = settings["depth"]
    config.masking_instructions = [MaskingInstruction(p, "*") for p in settings["regex"]]
    config.profiling_enabled = False
    start = time.perf_counter()
    miner = TemplateMiner(config=config)
    clusters = [miner.add_log_message(text.strip())["cluster_id"] for text in contents]
    return clusters, time.perf_counter() - start


def scan_options() -> dict[str, Any]:
    """Keyword arguments ``errdex.scan`` takes to map every line: every level, groups."""
    import errdex

    params = inspect.signature(errdex.scan).parameters
    wanted = {"all_levels": True, "group": True, "jobs": 1}
    return {k: v for k, v in wanted.items() if k in params}


def event_group(event: Any) -> tuple[Hashable | None, Location | None]:
    """The group ``scan --group`` puts one event in (None: a line of its own) and the
    statement it names: through ``errdex.ScanGroups`` when the library has it, so the
    benchmark scores the rows an operator sees (a record, else the info/debug statement,
    else the template learnt from the log)."""
    import errdex

    rows = getattr(errdex, "ScanGroups", None)
    if rows is None:
        return _own_group(event)
    grouped = rows()
    grouped.add(event)
    row = next(iter(grouped.rows.values()))
    if row.kind not in ("record", "statement"):
        return (None if row.kind == "line" else row.key), None
    path, _, number = row.statement.partition(" ")[2].rpartition(":")
    return row.key, (path, int(number))


def _own_group(event: Any) -> tuple[Hashable | None, Location | None]:
    """:func:`event_group` for a library without ``ScanGroups``: the best record, else
    the info/debug statement, else the template group."""
    targets = [getattr(m, "record", None) for m in getattr(event, "matches", None) or []]
    statement = getattr(event, "statement", None)
    targets.append(getattr(statement, "statement", statement))
    for target in targets:
        path = getattr(target, "file_path", None)
        number = getattr(target, "line_number", None)
        if path is not None and number is not None:
            return ("statement", getattr(target, "repo", ""), path, number), (path, int(number))
    key = getattr(event, "group", None)
    return (None if key is None else ("template", str(key))), None


def run_errdex(log: Path, db: str, repo: str, count: int
               ) -> tuple[list[Hashable | None], list[Location | None], float, dict[str, Any]]:
    """Each line's group (row and variant) and statement as ``errdex.scan`` maps the log;
    seconds; counts (``stats["rows"]``: each line's row, its variants not told apart)."""
    import errdex

    groups: list[Hashable | None] = [None] * count
    statements: list[Hashable | None] = [None] * count
    mapped: list[Location | None] = [None] * count
    summary = errdex.ScanSummary()
    start = time.perf_counter()
    events = list(errdex.scan(str(log), db=db, repo=repo, summary=summary, **scan_options()))
    seconds = time.perf_counter() - start
    start = time.perf_counter()  # again: the faster of two runs, on a machine others share
    for _ in errdex.scan(str(log), db=db, repo=repo, **scan_options()):
        pass
    seconds = min(seconds, time.perf_counter() - start)
    grouped = getattr(errdex, "ScanGroups", None)
    rows = grouped() if grouped is not None else None
    for event in events:
        if rows is not None:
            rows.add(event)
    variant_of = getattr(rows, "group_of", None)  # (statement, variant): as --group lists them
    for event in events:
        row, where = event_group(event)
        key = variant_of(event) if variant_of is not None else row
        first = int(event.line) - 1
        for i in range(first, min(count, first + max(1, len(event.text.splitlines())))):
            groups[i], mapped[i], statements[i] = key, where, row
    stats: dict[str, Any] = {"events": len(events), "matched": summary.matched,
                             "rows": statements}
    return groups, mapped, seconds, stats


def indexed_templates(db: str, repo: str, labels: dict[str, Any] | None) -> tuple[int, int]:
    """(indexed, labelled): the labelled templates one of whose statements is in the store
    (a record or an info/debug statement at its file:line), the first thing to look at
    when lines do not map, before any line is looked at."""
    import errdex

    with errdex.open_store(db) as store:
        places = {(r.record.file_path, r.record.line_number) for r in store.records(repo)}
        read = getattr(store, "log_statements", None)
        places |= {(s.file_path, s.line_number) for s in (read(repo) if read else [])}
    wanted = [label["statements"] for label in (labels or {}).get("templates", {}).values()
              if label.get("statements")]
    found = sum(any((s["file"], int(s["line"])) in places for s in where) for where in wanted)
    return found, len(wanted)


def mine(checkout_path: Path, sha: str, repo: str, db: str, full: bool = False
         ) -> tuple[str, int]:
    """Mine the release into ``db`` (``full``: every file again, as after a change to
    errdex's readers); the repository's name and its record count."""
    import errdex

    summary = errdex.mine(str(checkout_path), db=db, repo=repo, sha=sha, enrich="none",
                          full=full, warm_index=True)  # the scan then reads the index
    return summary.repo, summary.records


# ---- one system ------------------------------------------------------------------------------


def measure(system: str, spec: dict[str, Any], loghub: Path, sources: Path, db: str,
            labels: dict[str, Any] | None = None, remine: bool = False) -> dict[str, Any]:
    """errdex, Drain3 and Drain (published) on one system's sample (``labels``: default
    benchmarks/logs/<system>.labels.json)."""
    lines = read_truth(loghub, system)
    labels = labels if labels is not None else read_labels(system)
    accepted = accepted_locations(labels, lines)
    levels = line_levels(spec, labels, lines)
    warn = [i for i, level in enumerate(levels) if level in spec["level"]["warn"]]
    truth = [line.event for line in lines]
    with tempfile.TemporaryDirectory(prefix="errdex-logs-") as tmp:
        path, sha = checkout(find_source(sources, spec["source"]), spec["revision"],
                             Path(tmp) / "src")
        repo, records = mine(path, sha, spec["source"], db, full=remine)
    log = loghub / system / f"{system}_2k.log"
    groups, mapped, seconds, stats = run_errdex(log, db, repo, len(lines))
    rows = stats.pop("rows")
    right, known, unknown = right_statements(mapped, accepted, warn)
    every = right_statements(mapped, accepted, range(len(lines)))
    indexed, labelled = indexed_templates(db, repo, labels)
    ours = Outcome("errdex", grouping_accuracy(groups, truth, warn),
                   grouping_accuracy(groups, truth), right, known, len(lines) / seconds,
                   extra={**stats, "records": records, "unknown": unknown,
                          "right_all_levels": every[0], "known_all_levels": every[1],
                          "templates_indexed": indexed, "templates_labelled": labelled})
    clusters, drain_seconds = run_drain([line.content for line in lines], spec["drain"])
    drain = Outcome("Drain3", grouping_accuracy(clusters, truth, warn),
                    grouping_accuracy(clusters, truth), lines_per_s=len(lines) / drain_seconds)
    published = Outcome("Drain (published)", all_ga=spec["published"])
    ceiling = statement_partition(accepted, truth)
    best = Outcome("a perfect statement map", grouping_accuracy(ceiling, truth, warn),
                   grouping_accuracy(ceiling, truth), by_statement=1.0)
    ours.by_statement = grouping_accuracy(rows, ceiling)
    drain.by_statement = grouping_accuracy(clusters, ceiling)
    misses = [(lines[i].number, lines[i].event, mapped[i], sorted(want))
              for i in warn if (want := accepted[i]) is not None and mapped[i] not in want]
    return {"system": system, "split": spec["split"], "revision": spec["revision"],
            "commit": sha, "lines": len(lines), "warn_lines": len(warn),
            "labelled": labels is not None, "outcomes": [ours, drain, published, best],
            "misses": misses}


# ---- report ----------------------------------------------------------------------------------


def _fmt(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _share(right: int | None, known: int | None, unknown: int | None = None) -> str:
    if right is None or known is None:
        return "-"
    text = f"{right}/{known}" + (f" = {right / known:.3f}" if known else "")
    return text + (f" ({unknown} unknown)" if unknown is not None else "")


def table(results: Sequence[dict[str, Any]], skipped: dict[str, dict[str, Any]]) -> str:
    """The per-system table: errdex vs Drain3 vs Drain (published)."""
    rows = ["| system (split, release) | w/e lines | tool | w/e grouping | all-lines grouping "
            "| by statement | right statement, w/e (known) | right statement, all lines "
            "| lines/s |", "|---|---|---|---|---|---|---|---|---|"]
    for result in results:
        head = f"{result['system']} ({result['split']}, {result['revision']})"
        for outcome in result["outcomes"]:
            extra = outcome.extra
            share = _share(outcome.right, outcome.known, extra.get("unknown"))
            every = _share(extra.get("right_all_levels"), extra.get("known_all_levels"))
            if outcome.known is not None and not result["labelled"]:
                share = every = "not labelled"
            rows.append(f"| {head} | {result['warn_lines']} | {outcome.tool} | "
                        f"{_fmt(outcome.warn_ga)} | {_fmt(outcome.all_ga)} | "
                        f"{_fmt(outcome.by_statement)} | {share} | {every} | "
                        f"{_fmt(outcome.lines_per_s, 0)} |")
            head = ""
    for system, spec in skipped.items():
        rows.append(f"| {system} (not measured: {spec.get('why', spec['split'])}) | - | "
                    f"Drain (published) | - | {_fmt(spec['published'])} | - | - | - | - |")
    return "\n".join(rows)


def verdict(result: dict[str, Any]) -> str:
    """Issue 17's bar for one system: the right statement for >= 90% of its known
    warning/error lines, grouping >= 0.95 on them and >= 0.9 on all lines, above Drain3
    (or both perfect)."""
    ours, drain = result["outcomes"][0], result["outcomes"][1]
    checks = {
        "right statement >= 0.90": bool(ours.known) and ours.right / ours.known >= 0.9,
        "w/e grouping >= 0.95": (ours.warn_ga or 0) >= 0.95,
        "all-lines grouping >= 0.90": (ours.all_ga or 0) >= 0.9,
        "above Drain3": all(mine == 1.0 or mine > theirs for mine, theirs in (
            (ours.all_ga or 0, drain.all_ga or 0), (ours.warn_ga or 0, drain.warn_ga or 0))),
    }
    failed = [name for name, ok in checks.items() if not ok]
    return f"{result['system']} ({result['split']}): " + (
        "meets the bar" if not failed else "short of: " + ", ".join(failed))


def suggest_labels(system: str, spec: dict[str, Any], loghub: Path, sources: Path) -> str:
    """A draft labels file: each template's longest literal, grepped in the release (to be
    checked by hand: the hits are listed under ``candidates``)."""
    source = find_source(sources, spec["source"])
    sha = subprocess.run(["git", "-C", str(source), "rev-parse", f"{spec['revision']}^{{commit}}"],
                         check=True, capture_output=True, text=True).stdout.strip()
    path = loghub / system / f"{system}_2k.log_templates.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        templates = [(row["EventId"], row["EventTemplate"]) for row in csv.DictReader(handle)]
    out: dict[str, Any] = {}
    for event, template in templates:
        pieces = sorted((p.strip() for p in template.split("<*>")), key=len, reverse=True)
        hits = list(_grep(source, sha, pieces[0])) if pieces and len(pieces[0]) >= 4 else []
        out[event] = {"template": template, "statements": None, "candidates": hits[:8]}
    return json.dumps({"system": system, "source": spec["source"], "revision": spec["revision"],
                       "commit": sha, "templates": out}, indent=1)


def _grep(source: Path, sha: str, text: str) -> Iterator[str]:
    found = subprocess.run(["git", "-C", str(source), "grep", "-n", "-F", "-e", text, sha],
                           capture_output=True, text=True)
    for hit in found.stdout.splitlines():
        yield re.sub(rf"^{sha}:", "", hit)[:200]


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, measure the chosen systems, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loghub", type=Path, required=True)
    parser.add_argument("--sources", type=Path, required=True)
    parser.add_argument("--db", help="the store to mine into (a file; reused across runs)")
    parser.add_argument("--system", nargs="*", help="systems to measure (default: by --split)")
    parser.add_argument("--split", choices=["develop", "held-out", "all"], default="all")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--remine", action="store_true",
                        help="mine every file again (after a change to errdex's readers)")
    parser.add_argument("--misses", action="store_true",
                        help="list the warning/error lines mapped wrong (develop systems only)")
    parser.add_argument("--suggest-labels", metavar="SYSTEM")
    args = parser.parse_args(argv)
    systems: dict[str, dict[str, Any]] = json.loads(SYSTEMS.read_text())["systems"]
    if args.suggest_labels:
        print(suggest_labels(args.suggest_labels, systems[args.suggest_labels], args.loghub,
                             args.sources))
        return 0
    if not args.db:
        parser.error("--db is required to measure")
    unknown = [s for s in args.system or [] if s not in systems]
    if unknown:
        parser.error(f"no system {', '.join(unknown)} in {SYSTEMS.name}: {', '.join(systems)}")
    chosen = args.system or [s for s, spec in systems.items()
                             if args.split in ("all", spec["split"])]
    measured = {s: systems[s] for s in chosen if "source" in systems[s]}
    skipped = {s: systems[s] for s in systems if "source" not in systems[s]}
    results = []
    for system, spec in measured.items():
        result = measure(system, spec, args.loghub, args.sources, args.db, remine=args.remine)
        results.append(result)
        print(f"{system}: {result['outcomes'][0].extra}", file=sys.stderr)
        if args.misses and spec["split"] == "develop":
            for number, event, got, wanted in result["misses"]:
                print(f"  miss line {number} {event}: got {got}, want {wanted}", file=sys.stderr)
    print(table(results, skipped))
    print()
    for result in results:
        extra = result["outcomes"][0].extra
        print(f"{verdict(result)}; {extra['templates_indexed']}/{extra['templates_labelled']} "
              "labelled templates have a statement in the index")
    if args.json:
        args.json.write_text(json.dumps(
            [{**r, "outcomes": [vars(o) for o in r["outcomes"]], "misses": len(r["misses"])}
             for r in results], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
