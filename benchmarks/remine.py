"""Re-mining after a one-file change, against a full mine of the same tree in the same run.

    .venv/bin/python benchmarks/remine.py PATH [--jobs N]

Clones PATH locally (shared objects, nothing of PATH is touched), mines it fully,
commits a one-line change to one mined file, and mines again: only the changed
file is read. Target: the re-mine costs <= 5% of the full mine.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path

import errdex
from errdex.languages import language_for_path
from errdex.repo.git import load_tree


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "--quiet", "--shared", str(args.path), str(clone)],
                       check=True)
        db = Path(tmp) / "remine.sqlite"
        started = time.perf_counter()
        full = errdex.mine(clone, db=db, jobs=args.jobs)
        full_s = time.perf_counter() - started
        target = max(load_tree(clone, classify=language_for_path).files, key=lambda f: f.size)
        with (clone / target.path).open("a", encoding="utf-8") as handle:
            handle.write("\n")
        git(clone, "-c", "user.name=bench", "-c", "user.email=bench@errdex.invalid",
            "commit", "--quiet", "-am", "one-line change")
        started = time.perf_counter()
        again = errdex.mine(clone, db=db, jobs=args.jobs)
        again_s = time.perf_counter() - started
    print(f"full mine: {full.files_mined} files, {full.records} records in {full_s:.2f}s")
    print(f"re-mine after changing {target.path}: {again.files_mined} file(s) read, "
          f"{again.records} records in {again_s:.2f}s")
    print(f"ratio re-mine / full mine: {again_s / full_s:.1%}  (target <= 5%)")


if __name__ == "__main__":
    main()
