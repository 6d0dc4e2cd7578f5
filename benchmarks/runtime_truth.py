"""Runtime ground truth: run real libraries' test suites, record where their own code
raises, and score errdex's records against that (no labelling by hand).

    # run one suite under the tracer (observations are outputs: keep them under --work)
    .venv/bin/python benchmarks/runtime_truth.py trace --lib click --repo-dir /tmp/rt/click \\
        --out /tmp/rt/obs/click.jsonl -- /tmp/rt/venv-click/bin/python -m pytest -q tests
    # mine the checkout (when the store lacks it at that commit) and score it
    .venv/bin/python benchmarks/runtime_truth.py score --db /tmp/rt/rt.sqlite \\
        --repo pallets/click --repo-dir /tmp/rt/click --obs /tmp/rt/obs/click.jsonl
    # every library of the list: install, trace (unless observed already), score, one table
    .venv/bin/python benchmarks/runtime_truth.py all \\
        --config benchmarks/runtime/libraries.json --work /tmp/rt --db /tmp/rt/rt.sqlite

Site recall: of the observed raise sites whose message has a run written in a string
literal of the non-test source, how many have a record on the raise line or up to 5 lines
before it (and, second figure, anywhere in the enclosing statement). Pattern precision: of
the distinct (site, message) pairs at mined sites, how many a record's messagePattern
fullmatches (``re.fullmatch``, DOTALL). Python raises are recorded at the raising frame by
a pytest plugin (``runtime/py_tracer.py``); JavaScript errors where the library's code
constructs them (``runtime/js_tracer.cjs``: made but never thrown counts too).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import errdex

HERE = Path(__file__).resolve().parent
TRACERS = HERE / "runtime"
sys.path.insert(0, str(TRACERS))

from truth_score import (  # noqa: E402
    Mined,
    Score,
    ratio,
    read_observations,
    report,
    score,
    write_observations,
)
from truth_source import Source  # noqa: E402

DEFAULT_CONFIG = TRACERS / "libraries.json"


@dataclass
class Library:
    """One entry of the libraries list (see ``runtime/libraries.json``)."""

    name: str
    repo: str
    language: str
    url: str
    commit: str
    roots: list[str]
    setup: list[str]
    ready: str
    test: str
    timeout: int = 600


def load_config(path: Path) -> list[Library]:
    return [Library(**entry) for entry in json.loads(path.read_text(encoding="utf-8"))]


def expand(text: str, work: Path, repo_dir: Path) -> str:
    return text.replace("{work}", shlex.quote(str(work))).replace(
        "{dir}", shlex.quote(str(repo_dir)))


def tracer_env(roots: list[Path], repo_dir: Path, out_dir: Path) -> dict[str, str]:
    """The environment that loads both tracers into every Python / node process."""
    env = dict(os.environ)
    env.update(ERRDEX_RT_ROOTS=os.pathsep.join(str(r) for r in roots),
               ERRDEX_RT_REPO=str(repo_dir), ERRDEX_RT_OUT=str(out_dir))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(TRACERS), env.get("PYTHONPATH")) if p)
    env["PYTEST_ADDOPTS"] = " ".join(
        p for p in ("-p py_tracer -p no:cacheprovider", env.get("PYTEST_ADDOPTS")) if p)
    require = f"--require {shlex.quote(str(TRACERS / 'js_tracer.cjs'))}"
    env["NODE_OPTIONS"] = " ".join(p for p in (require, env.get("NODE_OPTIONS")) if p)
    return env


def run_suite(command: list[str] | str, cwd: Path, env: dict[str, str],
              timeout: int) -> tuple[int, str]:
    """Exit status and last output line of the suite. Past ``timeout`` the whole process
    group gets SIGINT (pytest then ends its session and the tracer writes), then SIGKILL."""
    with subprocess.Popen(command, cwd=cwd, env=env, shell=isinstance(command, str),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          start_new_session=True) as process:
        try:
            output, _ = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGINT)
            try:
                process.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.communicate()
            return 124, f"timed out after {timeout}s"
    lines = output.decode("utf-8", "replace").strip().splitlines()
    return process.returncode, lines[-1] if lines else ""


def trace(roots: list[Path], repo_dir: Path, out: Path, command: list[str] | str,
          timeout: int) -> int:
    """Run ``command`` in ``repo_dir`` under the tracers; merge what each process wrote."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="rt-obs-", dir=out.parent) as tmp:
        env = tracer_env(roots, repo_dir, Path(tmp))
        code, tail = run_suite(command, repo_dir, env, timeout)
        observations = read_observations(Path(tmp))
    write_observations(observations, out)
    print(f"traced: exit {code} ({tail[:120]}); {len(observations)} distinct "
          f"raises at {len({(o.file, o.line) for o in observations})} sites -> {out}")
    return code


def head(repo_dir: Path) -> str:
    return subprocess.run(["git", "-C", str(repo_dir), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()


def mined_records(db: str, repo: str, repo_dir: Path, full: bool) -> dict[str, list[Mined]]:
    """The repo's records at the checkout's commit (mined now unless stored already:
    ``mine`` re-reads only what changed since the stored commit)."""
    errdex.mine(repo_dir, db=db, repo=repo, sha=head(repo_dir), enrich="none", full=full)
    by_file: dict[str, list[Mined]] = {}
    with errdex.open_store(db) as store:
        for stored in store.records(repo):
            rec = stored.record
            by_file.setdefault(rec.file_path, []).append(
                Mined(rec.line_number, rec.message_pattern, rec.error_message))
    return by_file


def score_one(db: str, repo: str, repo_dir: Path, obs: Path, full: bool = False) -> Score:
    records = mined_records(db, repo, repo_dir, full)
    return score(read_observations(obs), records, Source(str(repo_dir), head(repo_dir)))


def lib_roots(lib: Library, repo_dir: Path) -> list[Path]:
    return [repo_dir / root for root in lib.roots]


def prepare(lib: Library, work: Path) -> Path:
    """The library's checkout under ``work`` (cloned at its commit when missing), with its
    test environment installed (the setup commands run when ``ready`` does not exist)."""
    repo_dir = work / lib.name
    if not repo_dir.exists():
        subprocess.run(["git", "clone", "-q", lib.url, str(repo_dir)], check=True)
        subprocess.run(["git", "-C", str(repo_dir), "checkout", "-q", lib.commit], check=True)
    if not Path(expand(lib.ready, work, repo_dir).strip("'")).exists():
        for step in lib.setup:
            subprocess.run(expand(step, work, repo_dir), shell=True, check=True, cwd=repo_dir)
    return repo_dir


def run_all(config: Path, work: Path, db: str, only: list[str], retrace: bool,
            full: bool) -> None:
    rows: list[tuple[Library, str, Score]] = []
    for lib in load_config(config):
        if only and lib.name not in only:
            continue
        print(f"== {lib.name}", flush=True)
        repo_dir = prepare(lib, work)
        obs = work / "obs" / f"{lib.name}.jsonl"
        if retrace or not obs.exists():
            trace(lib_roots(lib, repo_dir), repo_dir, obs,
                  expand(lib.test, work, repo_dir), lib.timeout)
        result = score_one(db, lib.repo, repo_dir, obs, full)
        print("\n".join(report(f"{lib.name} ({lib.repo} @ {head(repo_dir)[:10]})", result)))
        rows.append((lib, head(repo_dir)[:10], result))
    print()
    print(table(rows))


def table(rows: list[tuple[Library, str, Score]]) -> str:
    """One line a library and a total a language: 'raised' counts every observed raise site,
    'sites' those whose message is written in a source literal (recall's denominator),
    'messages' the distinct messages at mined sites (precision's)."""
    header = (f"{'library':<14} {'language':<11} {'commit':<11} {'raised':>6} {'sites':>6}  "
              f"{'recall (<=5 lines)':<22} {'recall (statement)':<22} {'messages':>8}  "
              "precision")
    lines = [header, "-" * len(header)]

    def row(name: str, language: str, commit: str, scores: list[Score]) -> str:
        n = sum(s.eligible for s in scores)
        raised = sum(s.sites for s in scores)
        return (f"{name:<14} {language:<11} {commit:<11} {raised:>6} {n:>6}  "
                f"{ratio(sum(s.recalled_window for s in scores), n):<22} "
                f"{ratio(sum(s.recalled_statement for s in scores), n):<22} "
                f"{sum(s.pairs for s in scores):>8}  "
                f"{ratio(sum(s.matched for s in scores), sum(s.pairs for s in scores))}")

    for lib, commit, result in rows:
        lines.append(row(lib.name, lib.language, commit, [result]))
    lines.append("-" * len(header))
    for language in sorted({lib.language for lib, _, _ in rows}):
        lines.append(row("total", language, "",
                         [s for lib, _, s in rows if lib.language == language]))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("trace", help="run a test command under the tracers")
    t.add_argument("--lib", required=True, help="a name of the libraries list, or any name "
                   "when --root is given")
    t.add_argument("--repo-dir", type=Path, required=True)
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--root", action="append", default=[],
                   help="library source folder, relative to --repo-dir (repeatable)")
    t.add_argument("--config", type=Path, default=DEFAULT_CONFIG)
    t.add_argument("--timeout", type=int, default=900)
    t.add_argument("test", nargs=argparse.REMAINDER,
                   help="-- the test command (its words, or one quoted shell line)")
    s = sub.add_parser("score", help="mine (if needed) and score against observations")
    s.add_argument("--db", required=True)
    s.add_argument("--repo", required=True, help="owner/name")
    s.add_argument("--repo-dir", type=Path, required=True)
    s.add_argument("--obs", type=Path, required=True)
    s.add_argument("--full", action="store_true", help="mine every file again")
    s.add_argument("--worst", type=int, default=30)
    a = sub.add_parser("all", help="every library of the list, then one table")
    a.add_argument("--config", type=Path, default=DEFAULT_CONFIG)
    a.add_argument("--work", type=Path, required=True)
    a.add_argument("--db", required=True)
    a.add_argument("--only", action="append", default=[], help="library name (repeatable)")
    a.add_argument("--retrace", action="store_true", help="trace again though observed")
    a.add_argument("--full", action="store_true", help="mine every file again")
    args = parser.parse_args(argv)

    if args.command == "trace":
        command = args.test[1:] if args.test[:1] == ["--"] else args.test
        if len(command) == 1 and " " in command[0]:
            command = command[0]  # one quoted command line: the shell runs it
        if not command:
            parser.error("trace needs a test command after --")
        repo_dir = args.repo_dir.resolve()
        roots = [repo_dir / r for r in args.root]
        if not roots:
            listed = {lib.name: lib for lib in load_config(args.config)}
            if args.lib not in listed:
                parser.error(f"{args.lib} is not in {args.config}: give --root")
            roots = lib_roots(listed[args.lib], repo_dir)
        sys.exit(0 if trace(roots, repo_dir, args.out.resolve(), command, args.timeout)
                 in (0, 1) else 1)
    elif args.command == "score":
        result = score_one(args.db, args.repo, args.repo_dir.resolve(), args.obs, args.full)
        print("\n".join(report(f"{args.repo} @ {head(args.repo_dir)[:10]}", result,
                               args.worst)))
    else:
        run_all(args.config, args.work.resolve(), args.db, args.only, args.retrace, args.full)


if __name__ == "__main__":
    main()
