"""Top-1 / top-5 accuracy of errdex on real errors pasted in public issue trackers, per
language, against what grepping the message finds in the same run.

    .venv/bin/python benchmarks/accuracy.py --repos DIR --db FILE [--cases benchmarks/cases]
        [--baseline grep [--grep-strict]] [--split tune|heldout|all] [--language L ...]
        [--scoped] [--tolerance 3] [--json] [--misses] [--remine]
        [--history [all|changed]] [--history-last N] [--history-stride minor]
    .venv/bin/python benchmarks/accuracy.py --repos DIR --check [--cases benchmarks/cases]

Cases are ``cases/<language>.jsonl``, one pasted error a line (see accuracy_cases.py);
``--split`` picks the tuning cases (default) or the held-out ones (measure those rarely).
The git data of repository owner/name is the first of ``DIR/owner+name/repo`` (bare),
``DIR/owner+name``, ``DIR/owner/name``. Each repository is mined into ``--db`` at its
cases' pinned commit (through ``errdex.mine``; a bare repository through a clone that
shares its objects, made under the db's folder, with nothing checked out) unless the store
already holds it at that commit, mined by this miner version (``--remine``: always, in
full). Each paste goes to ``errdex.resolve``: records, else text
sites, over every repository of the db (``--scoped``: the case's own, as grep searches
only its tree). A hit is a result of the case's repository at the expected file (or an
``also_accept`` one) within ``--tolerance`` lines of the expected line; text-site hits are
counted in errdex's figures and also shown apart. ``--baseline grep`` ranks the lines of
the same tree that grepping the message finds (grep_baseline.py). With ``--history`` and
``--misses``, a changed case's miss lists the wordings lineage linked to its expected site
(oldest first): whether the paste's wording is among them. ``--check`` validates
the case files against the repositories without mining: one problem a line, exit 1.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling modules below

import accuracy_cases as cases_mod
import grep_baseline

import errdex
from errdex.mining.run import miner_version
from errdex.repo.git import run_git
from errdex.store import lineage as lineage_table
from errdex.store.protocol import Store

TOP = 5
CHECKOUTS = "accuracy-checkouts"  # under the db's folder: clones of bare repositories
LINEAGE_SHOWN = 6  # wordings listed per expected site of a changed miss (--history)
Case = cases_mod.Case


@dataclass
class Outcome:
    """How errdex (and grep) did on one case."""

    case: Case
    rank: int | None  # 1-based rank of the first hit; None: not in the top 5
    text_site: bool  # the hit is a text-site candidate, not a record
    got: list[str]
    grep_rank: int | None = None
    grep_got: list[str] = field(default_factory=list)


def hit(case: Case, repo: str, path: str, line: int, tolerance: int) -> bool:
    """Whether a result names the case's expected site (or one it also accepts)."""
    return repo == case.repo and any(
        path == site.file and abs(line - site.line) <= tolerance for site in case.sites
    )


def evaluate(index: errdex.Index, case: Case, tolerance: int, scoped: bool) -> Outcome:
    """errdex's answer to one paste: records, else the lines holding its text (of the
    case's repository only when ``scoped``, as grep reads that one tree)."""
    try:
        found = errdex.resolve(case.text, db=index, top=TOP, repo=case.repo if scoped else None)
    except errdex.ErrdexError as exc:
        return Outcome(case, None, False, [f"error: {exc}"])
    results = [(m.record.repo, m.record.file_path, m.record.line_number,
                f"{'~' if m.approximate else ''}{m.record.file_path}:{m.record.line_number} "
                f"[{m.score:.2f}] {m.reason}") for m in found.matches]
    results += [(t.repo, t.site.file_path, t.site.line_number,
                 f"{t.site.file_path}:{t.site.line_number} [text site] {t.site.text[:60]!r}")
                for t in found.text_sites]
    rank = next((i for i, (repo, path, line, _) in enumerate(results, 1)
                 if hit(case, repo, path, line, tolerance)), None)
    got = [f"{repo}:{text}" if repo != case.repo else text for repo, _, _, text in results]
    return Outcome(case, rank, rank is not None and not found.matches, got)


def grep_case(git_dir: Path, case: Case, tolerance: int, outcome: Outcome,
              strict: bool) -> None:
    """Where grepping the paste's message lands in the pinned tree."""
    try:
        hits = grep_baseline.grep(git_dir, case.commit, case.text, strict)
    except errdex.ErrdexError as exc:
        outcome.grep_got = [f"error: {exc}"]
        return
    outcome.grep_rank = next((i for i, h in enumerate(hits[:TOP], 1)
                              if hit(case, case.repo, h.path, h.line, tolerance)), None)
    outcome.grep_got = [h.describe() for h in hits[:TOP]]


# --- mining ---------------------------------------------------------------------------


def mineable(git_dir: Path, repo: str, cache: Path) -> Path:
    """A path ``errdex.mine`` accepts: ``git_dir`` when it has a work tree, else a clone
    sharing its objects (nothing checked out, no hook run, origin set to the forge)."""
    bare = run_git(["rev-parse", "--is-bare-repository"], git_dir)
    if bare.returncode == 0 and bare.stdout.strip() == b"false":
        return git_dir
    clone = cache / repo.replace("/", "+")
    if not (clone / ".git").is_dir():
        clone.parent.mkdir(parents=True, exist_ok=True)
        done = run_git(["clone", "--quiet", "--shared", "--no-checkout", "--",
                        str(git_dir.resolve()), str(clone.resolve())])
        if done.returncode != 0:
            raise errdex.RepositoryError(
                f"cannot clone {git_dir}: {done.stderr.decode('utf-8', 'replace').strip()}")
        run_git(["remote", "set-url", "origin", f"https://github.com/{repo}"], clone)
    return clone


def mine_all(cases: list[Case], repos: Path, db: Path, remine: bool,
             say: Callable[[str], None], history: str | None = None,
             history_last: int | None = None, stride: str = "patch") -> dict[str, Path]:
    """Each repository of ``cases`` mined at its pinned commit; its git data by name.

    ``history`` ("all", or "changed": the repositories with a case whose wording changed):
    those are mined release by release up to the pinned commit (``errdex.mine_history``,
    the newest ``history_last`` releases), which resumes where an earlier run stopped."""
    pinned = {c.repo: c.commit for c in cases}
    changed = {c.repo for c in cases if c.wording_changed}
    found: dict[str, Path] = {}
    cache = db.resolve().parent / CHECKOUTS
    for number, (repo, sha) in enumerate(sorted(pinned.items()), 1):
        git_dir = cases_mod.locate(repos, repo)
        if git_dir is None:
            raise errdex.UsageError(f"repository {repo} not found under {repos}")
        found[repo] = git_dir
        if history == "all" or (history == "changed" and repo in changed):
            say(f"[{number}/{len(pinned)}] mining {repo}'s releases up to {sha[:12]}…")
            started = time.perf_counter()
            run = errdex.mine_history(mineable(git_dir, repo, cache), db=db, repo=repo,
                                      sha=sha, last=history_last,
                                      stride=stride)  # type: ignore[arg-type]
            say(f"    {len(run.mined)} of {len(run.releases)} releases mined, {run.linked} "
                f"sites linked, in {time.perf_counter() - started:.0f}s")
            say(f"    releases: {' '.join(r.name for r in run.releases)}; tags left out: "
                + (", ".join(f"{why} {n}" for why, n in run.skipped_tags.most_common())
                   or "none"))
            continue
        with errdex.open_store(db) as store:
            state = store.repo_state(repo)
        current = state is not None and state.miner_version == miner_version("static")
        if not remine and current and state is not None and state.analyzed_sha == sha:
            say(f"[{number}/{len(pinned)}] {repo} at {sha[:12]}: already mined")
            continue
        say(f"[{number}/{len(pinned)}] mining {repo} at {sha[:12]}…")
        summary = errdex.mine(mineable(git_dir, repo, cache), db=db, repo=repo, sha=sha,
                              enrich="static", full=remine)
        say(f"    {summary.records} records in {summary.seconds:.0f}s")
    return found


# --- reporting ------------------------------------------------------------------------


def figure(k: int, n: int) -> str:
    return f"{k}/{n} = {k / n:.1%}" if n else "0/0 = -"


def row(label: str, subset: str, group: list[Outcome], grep: bool, width: int) -> str:
    n = len(group)
    cells = [figure(sum(o.rank == 1 for o in group), n),
             figure(sum(o.rank is not None for o in group), n)]
    cells.append(str(sum(o.text_site for o in group)))
    if grep:
        cells += [figure(sum(o.grep_rank == 1 for o in group), n),
                  figure(sum(o.grep_rank is not None for o in group), n)]
    else:
        cells += ["-", "-"]
    return f"{label:{width}} {subset:10} {n:>5}  " + "  ".join(
        f"{c:>{w}}" for c, w in zip(cells, (18, 18, 6, 18, 18), strict=True))


def table(title: str, groups: Sequence[tuple[str, list[Outcome]]], grep: bool) -> list[str]:
    width = max(len(title), *(len(label) for label, _ in groups))
    lines = [f"{title:{width}} {'wording':10} {'cases':>5}  {'errdex top-1':>18}  "
             f"{'errdex top-5':>18}  {'text':>6}  {'grep top-1':>18}  {'grep top-5':>18}"]
    for label, group in groups:
        if not group:
            continue
        lines.append(row(label, "all", group, grep, width))
        same = [o for o in group if not o.case.wording_changed]
        lines.append(row("", "unchanged", same, grep, width))
        if len(same) < len(group):
            lines.append(row("", "changed", [o for o in group if o.case.wording_changed],
                             grep, width))
    return lines


def report(outcomes: list[Outcome], split: str, grep: bool, seconds: float,
           scoped: bool) -> list[str]:
    n = len(outcomes)
    scope = "its case's repository" if scoped else "every repository of the db"
    lines = [f"split {split}: {n} cases from {len({o.case.repo for o in outcomes})} "
             f"repositories; errdex looks each paste up in {scope}, "
             f"{seconds / max(n, 1) * 1000:.0f} ms a case; 'text' = errdex top-5 hits that "
             "are text sites, not records", ""]
    languages = [(lang, [o for o in outcomes if o.case.language == lang])
                 for lang in cases_mod.LANGUAGES]
    lines += table("language", [*languages, ("total", outcomes)], grep)
    forms = sorted({o.case.form for o in outcomes})
    by_form = [(f, [o for o in outcomes if o.case.form == f]) for f in forms]
    lines += ["", *table("form", by_form, grep)]
    return lines


def lineage_lines(store: Store, case: Case, tolerance: int) -> list[str]:
    """Every wording mine --history linked to the case's expected site (oldest release
    first), so a miss reads as: the paste's wording is there (lookup ranked it wrong), is
    not (never linked, or printed by a release not mined), or the site has no lineage."""
    found = lineage_table.current_heads(store, case.repo, {site.file for site in case.sites})
    current = store.get_many([rid for rid, *_ in found])
    heads = [(rid, r.record.file_path, r.record.line_number) for rid, r in current.items()
             if hit(case, case.repo, r.record.file_path, r.record.line_number, tolerance)]
    if not heads:
        return ["    lineage  (no site of the expected lines heads a lineage)"]
    family = lineage_table.site_wordings(store, [rid for rid, _, _ in heads])
    order = lineage_table.release_positions(store, [case.repo])
    lines = []
    for rid, path, line in sorted(heads, key=lambda head: (head[1], head[2], head[0])):
        members = sorted(family.get(rid, []),
                         key=lambda w: (order.get((case.repo, w.first_seen), 0), w.id))
        records = store.get_many([w.id for w in members])
        for w in members[:LINEAGE_SHOWN]:
            found = records.get(w.id)
            template = found.record.error_message if found is not None else "?"
            lines.append(f"    lineage  {path}:{line} {w.first_seen}–{w.last_seen}: "
                         f"{template[:110]!r}")
        if len(members) > LINEAGE_SHOWN:
            lines.append(f"    lineage  {path}:{line} … {len(members) - LINEAGE_SHOWN} more")
    return lines


def misses(outcomes: list[Outcome], store: Store | None = None,
           tolerance: int = 3) -> list[str]:
    """Each case not answered first; with ``store`` (mined --history), a changed case's
    expected site's wordings too (``lineage_lines``)."""
    lines = ["", "misses and non-first hits:"]
    for o in outcomes:
        if o.rank == 1:
            continue
        c = o.case
        status = "MISS" if o.rank is None else f"rank {o.rank}"
        grep = "grep MISS" if o.grep_rank is None else f"grep rank {o.grep_rank}"
        lines += [f"- [{status}, {grep}] {c.url}",
                  f"    expected {c.repo}:{c.expected_file}:{c.expected_line}"
                  f"{' (wording changed)' if c.wording_changed else ''}",
                  f"    text     {(c.text.strip().splitlines() or [''])[-1][:110]!r}"]
        lines += [f"    got      {g[:150]}" for g in o.got or ["(nothing returned)"]]
        lines.append(f"    grep     {o.grep_got[0][:150] if o.grep_got else '(nothing)'}")
        if store is not None and c.wording_changed:
            lines += lineage_lines(store, c, tolerance)
    return lines if len(lines) > 2 else [*lines, "(none)"]


def as_json(o: Outcome) -> str:
    c = o.case
    return json.dumps({"url": c.url, "language": c.language, "repo": c.repo, "split": c.split,
                       "form": c.form, "wording_changed": c.wording_changed, "rank": o.rank,
                       "text_site": o.text_site, "grep_rank": o.grep_rank, "got": o.got,
                       "grep_got": o.grep_got})


# --- command line ---------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repos", type=Path, required=True, help="where the git data live")
    parser.add_argument("--db", type=Path, help="the SQLite file to mine into and look up")
    parser.add_argument("--cases", type=Path, default=Path(__file__).with_name("cases"))
    parser.add_argument("--baseline", choices=["grep"], help="measure grep on the same cases")
    parser.add_argument("--split", choices=["tune", "heldout", "all"], default="tune")
    parser.add_argument("--language", nargs="+", action="extend", choices=cases_mod.LANGUAGES)
    parser.add_argument("--grep-strict", action="store_true",
                        help="grep three-word windows only (no two-word messages)")
    parser.add_argument("--scoped", action="store_true",
                        help="look a paste up in its own repository only (grep's footing)")
    parser.add_argument("--tolerance", type=int, default=3, help="lines off still a hit")
    parser.add_argument("--json", action="store_true", help="one JSON object per case")
    parser.add_argument("--check", action="store_true", help="validate the cases; mine nothing")
    parser.add_argument("--misses", action="store_true", help="list each non-first case")
    parser.add_argument("--history", nargs="?", const="all", choices=["all", "changed"],
                        help="mine the case repositories release by release up to the "
                             "pinned commit (mine --history); 'changed': only those with a "
                             "case whose wording changed")
    parser.add_argument("--history-stride", choices=["patch", "minor", "major"],
                        default="patch", help="with --history: every release, or the first "
                                              "of each minor / major version")
    parser.add_argument("--history-last", type=int, metavar="N",
                        help="with --history: only the newest N releases before the commit")
    parser.add_argument("--remine", action="store_true",
                        help="mine every repository again in full, even one stored at its "
                             "commit by this miner version")
    args = parser.parse_args(argv)
    if not args.check and args.db is None:
        parser.error("--db is required (except with --check)")
    return args


def run_check(args: argparse.Namespace) -> int:
    cases, problems = cases_mod.load(args.cases)
    problems += cases_mod.check(cases, args.repos)
    for line in problems:
        print(line)
    for line in cases_mod.counts(cases):
        print(line)
    print(f"{len(problems)} problem{'s' * (len(problems) != 1)}")
    return 1 if problems else 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.check:
        return run_check(args)
    cases, problems = cases_mod.load(args.cases)
    problems += cases_mod.consistency(cases)
    if problems:
        for line in problems:
            print(line, file=sys.stderr)
        print(f"{len(problems)} problem{'s' * (len(problems) != 1)} in the case files; "
              "see --check", file=sys.stderr)
        return 2
    cases = [c for c in cases if args.split in ("all", c.split)
             and (not args.language or c.language in args.language)]
    if not cases:
        print(f"no {args.split} cases{' for ' + ' '.join(args.language) if args.language else ''}"
              f" in {args.cases}", file=sys.stderr)
        return 2

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    git_dirs = mine_all(cases, args.repos, args.db, args.remine, say, args.history,
                        args.history_last, args.history_stride)
    index = errdex.open_index(args.db)
    started = time.perf_counter()
    outcomes = [evaluate(index, c, args.tolerance, args.scoped) for c in cases]
    seconds = time.perf_counter() - started
    if args.baseline == "grep":
        for o in outcomes:
            grep_case(git_dirs[o.case.repo], o.case, args.tolerance, o, args.grep_strict)
    if args.json:
        for o in outcomes:
            print(as_json(o))
        return 0
    lines = report(outcomes, args.split, args.baseline == "grep", seconds, args.scoped)
    if args.misses:
        with errdex.open_store(args.db) as store:
            lines += misses(outcomes, store if args.history else None, args.tolerance)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except errdex.ErrdexError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
