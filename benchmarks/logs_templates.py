"""scan's own templates (``errdex.lookup.drain``: how ``scan --group`` groups the entries
no statement explains) next to Drain3 on the same lines, on every Loghub sample: no
source is mined, each line's Content goes to both, and both are scored with Loghub's
grouping accuracy. Drain3 gets Loghub's settings for each log (masks, threshold,
depth: benchmarks/logs/templates.json and systems.json); errdex's templates take none.

    .venv/bin/python benchmarks/logs_templates.py --loghub DIR [--system HDFS ...]

``--loghub`` is a copy of the Loghub repository. The twelve samples of templates.json
are the ones the threshold was chosen on; Zookeeper, OpenSSH, OpenStack and Apache
(systems.json) are measured the same way and only reported.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import logs  # benchmarks/logs.py: the scoring and Drain3's run

HERE = Path(__file__).resolve().parent / "logs"


def settings() -> dict[str, dict[str, Any]]:
    """Each system's Drain settings: templates.json's, then systems.json's."""
    out: dict[str, dict[str, Any]] = json.loads(
        (HERE / "templates.json").read_text())["systems"]
    for system, spec in json.loads((HERE / "systems.json").read_text())["systems"].items():
        if "drain" in spec:
            out[system] = {**spec["drain"], "split": spec["split"]}
    return out


def run_templates(contents: Sequence[str]) -> tuple[list[int], float]:
    """errdex's template of each content, as scan learns them; seconds."""
    from errdex.lookup.drain import Drain

    drain = Drain()
    start = time.perf_counter()
    clusters = [drain.add(text.strip()).id for text in contents]
    return clusters, time.perf_counter() - start


def measure(system: str, spec: dict[str, Any], loghub: Path) -> dict[str, Any] | None:
    """(errdex's, Drain3's) grouping accuracy and lines/s on one sample; None: no sample."""
    if not (loghub / system / f"{system}_2k.log_structured.csv").exists():
        return None
    lines = logs.read_truth(loghub, system)
    contents = [line.content for line in lines]
    truth = [line.event for line in lines]
    ours, ours_s = run_templates(contents)
    theirs, theirs_s = logs.run_drain(contents, spec)
    return {"system": system, "split": spec.get("split", "templates only"),
            "errdex": logs.grouping_accuracy(ours, truth), "drain3": logs.grouping_accuracy(
                theirs, truth), "errdex_lines_per_s": len(lines) / ours_s,
            "drain3_lines_per_s": len(lines) / theirs_s}


def table(results: Sequence[dict[str, Any]]) -> str:
    """One row per sample, and the mean of the samples the threshold was chosen on."""
    rows = ["| system (split) | errdex templates | Drain3 (Loghub's settings) | errdex lines/s "
            "| Drain3 lines/s |", "|---|---|---|---|---|"]
    for r in results:
        rows.append(f"| {r['system']} ({r['split']}) | {r['errdex']:.3f} | {r['drain3']:.3f} "
                    f"| {r['errdex_lines_per_s']:.0f} | {r['drain3_lines_per_s']:.0f} |")
    chosen = [r for r in results if r["split"] == "templates only"]
    if chosen:
        mean = [sum(r[k] for r in chosen) / len(chosen) for k in ("errdex", "drain3")]
        rows.append(f"| mean of the {len(chosen)} the threshold was chosen on | {mean[0]:.3f} "
                    f"| {mean[1]:.3f} | | |")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, measure the samples found, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loghub", type=Path, required=True)
    parser.add_argument("--system", nargs="*", help="samples to measure (default: all)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    every = settings()
    unknown = [s for s in args.system or [] if s not in every]
    if unknown:
        parser.error(f"no system {', '.join(unknown)}: {', '.join(every)}")
    results = []
    for system in args.system or list(every):
        result = measure(system, every[system], args.loghub)
        if result is None:
            print(f"{system}: no sample under {args.loghub}", file=sys.stderr)
            continue
        results.append(result)
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
