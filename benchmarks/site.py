"""Static site export at scale: a full ``export --site``, a re-export with nothing
changed, and a re-export after one file's records changed, each against the full export
measured in the same run.

    .venv/bin/python benchmarks/site.py [--records 100000] [--from DB] [--work DIR]

The store holds N records cloned from real mined ones (``--from`` a database, else what
errdex mines from this checkout's ``src/`` and ``examples/``), with varied ids, slugs,
repositories and files, their source windows, explanations and families kept, so pages
are as heavy as real ones. The one-file change rewrites the message and source of every
record of one file (what a re-mine after editing that file stores). Not a test: read the
ratios.
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPOS = 50  # the cloned records are spread over this many repositories
FILES_PER_REPO = 400


def base_records(source: Path | None, work: Path) -> list[tuple[object, object]]:
    """Real (record, extras) pairs: a database's, else a fresh mine of this checkout."""
    import errdex

    if source is None:
        checkout = work / "checkout"
        cloned = subprocess.run(["git", "clone", "--quiet", "--depth", "1", f"file://{ROOT}",
                                 str(checkout)], capture_output=True)
        if cloned.returncode != 0:
            sys.exit(f"benchmarks/site.py: {ROOT} is not a git checkout to mine base records "
                     "from; pass --from DB (a store whose records to clone)")
        source = work / "bases.sqlite"
        errdex.mine(checkout, db=source, jobs=2)
    with errdex.open_store(source) as store:
        return [(s.record, s.extras) for s in store.records()]


def build(db: Path, count: int, bases: list[tuple[object, object]]) -> float:
    """``count`` clones of ``bases`` in a fresh store; returns seconds."""
    from errdex.store.sqlite import SQLiteStore

    started = time.perf_counter()
    with SQLiteStore(db) as store:
        batch = []
        for n in range(count):
            batch.append(clone(bases[n % len(bases)], n))
            if len(batch) == 5000:
                store.upsert(batch)
                batch.clear()
        store.upsert(batch)
    return time.perf_counter() - started


def clone(base: tuple[object, object], n: int, edit: str = "") -> tuple[object, object]:
    record, extras = base
    repo = f"bench/repo{n % REPOS}"
    folder = f"m{(n // REPOS) % FILES_PER_REPO}"
    path = f"{folder}/{record.file_path}"  # type: ignore[attr-defined]
    update = {
        "id": hashlib.sha256(f"{repo}\x1f{path}\x1f{n}".encode()).hexdigest()[:16],
        "repo": repo, "file_path": path, "slug": f"{record.slug}-{n}",  # type: ignore[attr-defined]
    }
    if edit:
        update["error_message"] = f"{record.error_message} {edit}"  # type: ignore[attr-defined]
        update["source_code"] = f"{record.source_code}\n# {edit}"  # type: ignore[attr-defined]
    return record.model_copy(update=update), extras  # type: ignore[attr-defined]


def change_one_file(db: Path, bases: list[tuple[object, object]], count: int) -> int:
    """Rewrite every record of one file (repo 0, folder m0): returns how many."""
    from errdex.store.sqlite import SQLiteStore

    changed = [clone(bases[n % len(bases)], n, edit="(edited)") for n in range(count)
               if n % REPOS == 0 and (n // REPOS) % FILES_PER_REPO == 0
               and bases[n % len(bases)][0].file_path == bases[0][0].file_path]  # type: ignore[attr-defined]
    with SQLiteStore(db) as store:
        store.upsert(changed)
    return len(changed)


def cpu() -> float:
    """CPU seconds of this process and its finished workers (the machine may be shared:
    wall time then says little)."""
    own, workers = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                         resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def export(db: Path, folder: Path) -> tuple[float, float, object]:
    """Wall and CPU seconds of one export, and its summary."""
    import errdex

    started, spent = time.perf_counter(), cpu()
    summary = errdex.export_site(folder, db=db, base_url="https://errors.example.org",
                                 dataset=False)
    return time.perf_counter() - started, cpu() - spent, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--from", dest="source", type=Path, help="a database to clone from")
    parser.add_argument("--work", type=Path, help="working folder (default: a temporary one)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    work = args.work or Path(tempfile.mkdtemp(prefix="errdex-site-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    db, folder = work / "site.sqlite", work / "site"
    for stale in (db, folder):
        if stale.is_dir():
            shutil.rmtree(stale)
        elif stale.exists():
            stale.unlink()
    bases = base_records(args.source, work)
    print(f"{len(bases)} real records to clone; building {args.records:,}")
    built = build(db, args.records, bases)
    print(f"store built in {built:.1f}s")

    full, full_cpu, first = export(db, folder)
    size = first.bytes  # type: ignore[attr-defined]
    print(f"full export:      {full:8.1f}s wall, {full_cpu:8.1f}s CPU  {first.pages:,} pages, "  # type: ignore[attr-defined]
          f"{size / 1e6:,.1f} MB ({size / max(1, first.records):,.0f} B/record), "  # type: ignore[attr-defined]
          f"{first.records / full:,.0f} records/s")  # type: ignore[attr-defined]
    same, same_cpu, again = export(db, folder)
    print(f"nothing changed:  {same:8.1f}s wall, {same_cpu:8.1f}s CPU  "
          f"({same / full:.3f}× the full export's wall, {same_cpu / full_cpu:.3f}× its CPU), "
          f"{again.written} pages written")  # type: ignore[attr-defined]
    records = change_one_file(db, bases, args.records)
    one, one_cpu, after = export(db, folder)
    print(f"one file changed: {one:8.1f}s wall, {one_cpu:8.1f}s CPU  "
          f"({one / full:.3f}× the full export's wall, {one_cpu / full_cpu:.3f}× its CPU), "
          f"{records} records changed, {after.written} pages written "  # type: ignore[attr-defined]
          f"({after.written / max(1, first.written):.4f}× the full export's)")  # type: ignore[attr-defined]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:,.0f} MB; work folder {work}")


if __name__ == "__main__":
    main()
