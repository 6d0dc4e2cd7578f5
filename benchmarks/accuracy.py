"""Top-1 / top-5 accuracy of ``explain`` on real error texts pasted in public issue trackers.

    .venv/bin/python benchmarks/accuracy.py --db /tmp/eval/eval.sqlite \
        [--cases benchmarks/accuracy_cases.jsonl] [--json]

Each line of the cases file is one pasted error from a public issue:
``{"repo", "url", "text", "expected_file", "expected_line"?, "note"?}``. The
repositories must be mined into ``--db`` first. A hit is a returned record of
that repo whose ``filePath`` equals ``expected_file`` (and whose line is within
±30 of ``expected_line`` when given). The baseline, measured in the same run,
is the rate at which a case's expected site is in the index at all (a record
near the expected line whose template shares most words with the paste):
accuracy can be no better than that.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import errdex
from errdex.lookup.index import Index, Match

LINE_TOLERANCE = 30
WORD = re.compile(r"[A-Za-z]{3,}")
TOP = 5


@dataclass
class Case:
    repo: str
    url: str
    text: str
    expected_file: str
    expected_line: int | None = None
    note: str = ""


@dataclass
class Outcome:
    case: Case
    rank: int | None  # 1-based rank of the first hit in the top 5; None: a miss
    indexed: bool  # the expected site is in the index at all
    got: list[str]


def load_cases(path: Path) -> list[Case]:
    cases = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            raw = json.loads(line)
            try:
                cases.append(Case(**raw))
            except TypeError as err:
                raise SystemExit(f"{path}:{number}: bad case: {err}") from None
    return cases


def is_hit(case: Case, repo: str, file_path: str, line: int) -> bool:
    if repo != case.repo or file_path != case.expected_file:
        return False
    return case.expected_line is None or abs(line - case.expected_line) <= LINE_TOLERANCE


def shares_words(template: str, text: str) -> bool:
    """Whether most words of a record's template occur in the pasted text (its site is mined)."""
    words = {w.lower() for w in WORD.findall(template)}
    present = {w.lower() for w in WORD.findall(text)}
    return bool(words) and len(words & present) >= 0.6 * len(words)


def describe(match: Match) -> str:
    rec = match.record
    flag = "~" if match.approximate else ""
    return f"{flag}{rec.repo}:{rec.file_path}:{rec.line_number} [{match.score:.2f}] {match.reason}"


def evaluate(index: Index, case: Case) -> Outcome:
    try:
        matches = index.explain(case.text, top=TOP)
    except errdex.ErrdexError as err:
        matches, got = [], [f"error: {err}"]
    else:
        got = [describe(m) for m in matches]
    rank = next(
        (
            i
            for i, m in enumerate(matches, 1)
            if is_hit(case, m.record.repo, m.record.file_path, m.record.line_number)
        ),
        None,
    )
    indexed = any(
        is_hit(case, s.record.repo, s.record.file_path, s.record.line_number)
        and shares_words(s.record.error_message, case.text)
        for s in index.store.records(repo=case.repo)
    )
    return Outcome(case, rank, indexed, got)


def main() -> int:
    parser = argparse.ArgumentParser(description="explain accuracy on real pasted errors")
    parser.add_argument("--db", required=True)
    parser.add_argument(
        "--cases", type=Path, default=Path(__file__).with_name("accuracy_cases.jsonl")
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per case")
    args = parser.parse_args()
    cases = load_cases(args.cases)
    index = errdex.open_index(args.db)
    start = time.perf_counter()
    outcomes = [evaluate(index, case) for case in cases]
    elapsed = time.perf_counter() - start
    if args.json:
        for o in outcomes:
            print(
                json.dumps({"url": o.case.url, "rank": o.rank, "indexed": o.indexed, "got": o.got})
            )
        return 0
    n = len(outcomes)
    top1 = sum(o.rank == 1 for o in outcomes)
    top5 = sum(o.rank is not None for o in outcomes)
    indexed = sum(o.indexed for o in outcomes)
    repos = sorted({o.case.repo for o in outcomes})
    print(f"{n} cases from {len(repos)} repositories, {elapsed / max(n, 1) * 1000:.1f} ms a case")
    print(f"top-1 {top1}/{n} = {top1 / n:.1%}   top-5 {top5}/{n} = {top5 / n:.1%}")
    print(
        f"baseline (expected site indexed at all) {indexed}/{n} = {indexed / n:.1%}; "
        f"top-5 / baseline = {top5 / max(indexed, 1):.1%}"
    )
    own = [o for o in outcomes if f"github.com/{o.case.repo}/" in o.case.url]
    if own:
        print(
            f"  pasted in the library's own tracker: top-1 {sum(o.rank == 1 for o in own)}/"
            f"{len(own)}  top-5 {sum(o.rank is not None for o in own)}/{len(own)}"
        )
    for repo in repos:
        mine = [o for o in outcomes if o.case.repo == repo]
        print(
            f"  {repo:30} top-1 {sum(o.rank == 1 for o in mine)}/{len(mine)}"
            f"  top-5 {sum(o.rank is not None for o in mine)}/{len(mine)}"
        )
    print("\nmisses and non-first hits:")
    for o in outcomes:
        if o.rank == 1:
            continue
        status = "MISS" if o.rank is None else f"rank {o.rank}"
        where = f"{o.case.expected_file}" + (
            f":{o.case.expected_line}" if o.case.expected_line else ""
        )
        print(f"- [{status}{'' if o.indexed else ', site not indexed'}] {o.case.url}")
        print(f"    expected {o.case.repo}:{where}")
        print(f"    text     {o.case.text.splitlines()[-1][:110] if o.case.text else ''!r}")
        if o.case.note:
            print(f"    note     {o.case.note}")
        for g in o.got or ["(nothing returned)"]:
            print(f"    got      {g[:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
