"""Mining a repository's releases (mine --history) against the mines it replaces, same run.

    .venv/bin/python benchmarks/history.py --repos DIR --repo OWNER+NAME [--last N]
        [--tags GLOB] [--jobs N]

DIR holds repositories as OWNER+NAME/repo (bare) or OWNER+NAME (a checkout). The
repository is cloned into a temporary folder (shared objects; nothing of DIR is
touched) keeping only its last N release tags (or those GLOB chooses). Three runs:

After an untimed warm-up mine (grammars loaded, git's objects cached):

1. ``mine_history`` up to the newest of those releases (a fresh database);
2. a full mine of that newest release alone (a fresh database): "HEAD";
3. the releases mined in turn with plain ``mine --sha`` (a fresh database), timing each
   incremental re-mine after the first.

Targets: (1) costs <= (2) + the sum of (3)'s incremental re-mines (the ratio is printed),
and the history store holds the same current records as (2) plus only the sites that
changed or went away across the releases (each kept once, with its wordings row).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import tempfile
import time
from pathlib import Path

import errdex
from errdex.repo.releases import release_tags
from errdex.store import lineage
from errdex.store.sqlite import SQLiteStore


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                          text=True)
    return done.stdout


def cpu() -> float:
    """CPU seconds of this process and its waited-for children (git, workers): on a shared
    machine the fair measure, where wall time depends on what else runs."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _source(repos: Path, name: str) -> Path:
    bare = repos / name / "repo"
    return bare if bare.exists() else repos / name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repos", type=Path, required=True)
    parser.add_argument("--repo", required=True, help="OWNER+NAME under --repos")
    parser.add_argument("--last", type=int, default=8, help="releases mined (the newest N)")
    parser.add_argument("--tags", help="a glob choosing the tags (before --last)")
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="errdex-history-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "--quiet", "--shared", "--no-checkout",
                        str(_source(args.repos, args.repo)), str(clone)], check=True)
        chosen = release_tags(clone, args.tags).tags[-args.last:]
        if not chosen:
            raise SystemExit("no release tags to mine")
        keep = {release.name for release in chosen}
        doomed = [t for t in git(clone, "tag").split() if t not in keep]
        for start in range(0, len(doomed), 200):
            git(clone, "tag", "-d", *doomed[start:start + 200])
        newest = chosen[-1].sha
        names = [release.name for release in chosen]
        print(f"{args.repo}: {len(chosen)} releases {names[0]} … {names[-1]}")

        # untimed: loads the grammars and warms git's object cache for the runs below
        errdex.mine(clone, db=Path(tmp) / "warm.sqlite", sha=chosen[0].sha, jobs=args.jobs)

        history_db = Path(tmp) / "history.sqlite"
        started, used = time.perf_counter(), cpu()
        history = errdex.mine_history(clone, db=history_db, sha=newest, jobs=args.jobs)
        history_s, history_cpu = time.perf_counter() - started, cpu() - used

        head_db = Path(tmp) / "head.sqlite"
        started, used = time.perf_counter(), cpu()
        head = errdex.mine(clone, db=head_db, sha=newest, jobs=args.jobs)
        head_s, head_cpu = time.perf_counter() - started, cpu() - used

        turn_db = Path(tmp) / "turn.sqlite"
        incremental_s = incremental_cpu = first_s = 0.0
        for number, release in enumerate(chosen):
            started, used = time.perf_counter(), cpu()
            errdex.mine(clone, db=turn_db, sha=release.sha, jobs=args.jobs)
            took, took_cpu = time.perf_counter() - started, cpu() - used
            if number == 0:
                first_s = took
            else:
                incremental_s += took
                incremental_cpu += took_cpu

        with SQLiteStore(history_db) as store:
            current = store.count(history.repo)
            kept = store.count(history.repo, include_removed=True)
            wordings = lineage.wording_count(store, history.repo)
        with SQLiteStore(turn_db) as store:
            turn_kept = store.count(head.repo, include_removed=True)
    baseline = head_s + incremental_s
    removed = sum(r.summary.removed for r in history.mined if r.summary)
    mining_s = sum(r.summary.seconds for r in history.mined if r.summary)
    print(f"history run: {history_s:.2f}s for {len(history.mined)} releases "
          f"({history.linked} reworded or moved sites linked); of it, tags, stamping and "
          f"linking {history_s - mining_s:.2f}s")
    print(f"full mine of {names[-1]} alone: {head_s:.2f}s, {head.records} records")
    print(f"releases mined in turn with plain mine: first (full) {first_s:.2f}s, "
          f"{len(chosen) - 1} incremental re-mines {incremental_s:.2f}s")
    print(f"ratio history / (full mine of {names[-1]} + incremental re-mines): "
          f"wall {history_s / baseline:.2f}, CPU {history_cpu / (head_cpu + incremental_cpu):.2f}"
          f"  (target <= 1.00; CPU: {history_cpu:.2f}s / {head_cpu:.2f}s + "
          f"{incremental_cpu:.2f}s)")
    print(f"store: {current} current records (a mine of {names[-1]} alone: {head.records}), "
          f"{kept} kept in all: +{kept - current} rows for sites changed or gone across the "
          f"releases ({removed} removals counted by the mines; plain mines in turn keep "
          f"{turn_kept}); {wordings} wordings rows (one per record kept)")


if __name__ == "__main__":
    main()
