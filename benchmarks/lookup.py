"""Lookup speed and memory at scale, against a naive regex loop measured in the same run.

    .venv/bin/python benchmarks/lookup.py [--records 1000000] [--from DATASET.jsonl] [--db PATH]

Builds a store of N realistic records — real templates (the given dataset, else
every template errdex mines from this repository's fixtures and example) varied
with generated identifiers the way real code bases vary them — then, in a fresh
process, reports index load time, peak memory, and p50/p99 latency of
``Index.explain`` for hits (messages rendered from random records) and misses,
and the per-query time of a naive loop over compiled regexes measured on a
subset and scaled to N. Not a test: read the ratios.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SYLLABLES = ["ten", "sor", "buf", "fer", "conv", "pool", "grad", "shape", "dim", "quant",
             "sched", "alloc", "page", "cache", "node", "graph", "kern", "el", "fuse", "pack",
             "io", "net", "sock", "file", "path", "lock", "task", "pipe", "row", "col"]


def base_records(source: Path | None) -> list[dict]:
    """Real records to vary: a dataset's, else what errdex mines from this repo's fixtures."""
    if source:
        return [json.loads(line)["record"] for line in source.open(encoding="utf-8")]
    from tests.golden import fixture_files

    from errdex.languages import language_for_path

    out = []
    files = [*fixture_files(), *sorted((ROOT / "examples").rglob("*.*"))]
    for path in files:
        language = language_for_path(path.name)
        if language is None:
            continue
        for site in language.extract(path.read_bytes()).sites:
            out.append({"errorMessage": site.template.written,
                        "messagePattern": site.template.pattern(),
                        "errorClass": site.error_class, "errorType": site.error_type})
    return out


def identifier(rng: random.Random) -> str:
    parts = [rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))]
    return "_".join(parts) + (str(rng.randint(0, 99)) if rng.random() < 0.5 else "")


def build(db: Path, count: int, source: Path | None, seed: int = 7) -> float:
    """Write ``count`` varied records into a fresh store; returns seconds."""
    from errdex.record import Record, empty_explanation, record_id
    from errdex.store import SQLiteStore
    from errdex.template import escape

    rng = random.Random(seed)
    bases = [b for b in base_records(source) if b["messagePattern"]]
    started = time.perf_counter()
    with SQLiteStore(db) as store, store.transaction():
        batch = []
        for n in range(count):
            base = rng.choice(bases)
            function = identifier(rng)
            path = f"crates/{rng.choice(SYLLABLES)}/src/{identifier(rng)}.rs"
            message = f"{function}: {base['errorMessage']}"
            record = Record.model_construct(
                id=record_id("bench/repo", path, base["errorClass"], message, function, n),
                repo=f"bench/repo{n % 50}", slug=f"s{n}", errorCode=None, errorMessage=message,
                messagePattern=f"{escape(function)}: {base['messagePattern']}",
                errorType=base["errorType"], errorClass=base["errorClass"], httpStatus=None,
                severity="error", filePath=path, lineNumber=rng.randint(1, 2000),
                sourceCode="", sourceCodeStart=1, sourceCodeEnd=1, githubUrl=None,
                **empty_explanation(), analyzedSha="0" * 40, analyzedAt="", contentChangedAt="",
                schemaVersion=2,
            )
            batch.append((record, None, "x"))
            if len(batch) == 10_000:
                store._insert(batch)
                batch.clear()
        store._insert(batch)
    return time.perf_counter() - started


def render(pattern: str) -> str | None:
    """A message the pattern fullmatches: each hole filled with a plausible value."""
    from errdex.lookup.patterns import shape_of

    shape = shape_of(pattern)
    for filler in ("7", "true", "1.500000", "x"):
        message = filler.join(shape.fragments)
        if re.fullmatch(pattern, message, re.DOTALL):
            return message
    return None


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def query(db: Path, queries: int, seed: int = 11) -> dict[str, float]:
    """Fresh process: load the index, time hits and misses, and the naive loop."""
    from errdex.lookup.index import Index
    from errdex.store import SQLiteStore

    rng = random.Random(seed)
    store = SQLiteStore(db)
    started = time.perf_counter()
    index = Index(store)
    load_s = time.perf_counter() - started
    rss_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    patterns = [p for _, p, _, _ in store.pattern_rows()]
    hits = [m for m in (render(rng.choice(patterns)) for _ in range(queries)) if m]
    misses = [" ".join(identifier(rng) for _ in range(rng.randint(3, 9))) + " failed"
              for _ in range(queries)]

    def timed(texts: list[str]) -> list[float]:
        out = []
        for text in texts:
            t0 = time.perf_counter()
            index.explain(text, top=5)
            out.append((time.perf_counter() - t0) * 1000)
        return out

    timed(hits[:50])  # warm the caches the way a running server would be
    hit_ms, miss_ms = timed(hits), timed(misses)
    found = sum(1 for text in hits[:200] if index.explain(text, top=1))
    subset = patterns[:10_000]
    compiled = [re.compile(p, re.DOTALL) for p in subset]
    t0 = time.perf_counter()
    for text in hits[:20]:
        for regex in compiled:
            regex.fullmatch(text)
    naive_ms = (time.perf_counter() - t0) * 1000 / 20 * (len(patterns) / len(subset))
    return {
        "patterns": len(patterns), "load_s": load_s, "rss_mib": rss_mib,
        "hit_p50": percentile(hit_ms, 0.5), "hit_p99": percentile(hit_ms, 0.99),
        "miss_p50": percentile(miss_ms, 0.5), "miss_p99": percentile(miss_ms, 0.99),
        "naive_ms": naive_ms, "hit_rate": found / min(200, len(hits)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--from", dest="source", type=Path)
    parser.add_argument("--db", type=Path, help="keep the built store here (default: temp)")
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--query-only", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))

    if args.query_only:
        print(json.dumps(query(args.query_only, args.queries)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "bench.sqlite"
        if db.exists():
            db.unlink()
        build_s = build(db, args.records, args.source)
        print(f"built {args.records:,} records in {build_s:.1f}s "
              f"({args.records / build_s:,.0f} records/s), {db.stat().st_size / 1e6:.0f} MB")
        done = subprocess.run(
            [sys.executable, __file__, "--query-only", str(db), "--queries", str(args.queries)],
            capture_output=True, text=True, check=True,
        )
        r = json.loads(done.stdout)
    print(f"index: {r['patterns']:,} distinct patterns, load {r['load_s']:.2f}s "
          f"(target <= 3s), peak RSS {r['rss_mib']:.0f} MiB (target <= 1024)")
    print(f"hits:   p50 {r['hit_p50']:.3f} ms, p99 {r['hit_p99']:.3f} ms "
          f"(top-1 found for {r['hit_rate']:.0%})")
    print(f"misses: p50 {r['miss_p50']:.3f} ms, p99 {r['miss_p99']:.3f} ms "
          f"(targets: p50 <= 0.2 ms, p99 <= 2 ms)")
    print(f"naive regex loop: {r['naive_ms']:.1f} ms/query (10k-pattern subset, scaled)")
    print(f"ratio naive / index p50: {r['naive_ms'] / r['hit_p50']:,.0f}x")


if __name__ == "__main__":
    main()
