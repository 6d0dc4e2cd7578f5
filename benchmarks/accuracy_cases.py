"""The accuracy benchmark's cases: reading ``cases/<language>.jsonl`` and checking them.

A bad case file is reported one problem a line (``go.jsonl:12: …``), never as a
traceback, so that whoever writes cases can fix them from the report alone.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from errdex.errors import RepositoryError
from errdex.repo.git import BlobReader, run_git

LANGUAGES = (
    "python", "javascript", "typescript", "go", "rust", "java", "kotlin", "csharp", "php",
    "ruby", "swift", "c", "cpp",
)
SPLITS = ("tune", "heldout")
_COMMIT = re.compile(r"^[0-9a-f]{40}$")
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_REQUIRED: dict[str, type] = {
    "language": str, "repo": str, "commit": str, "split": str, "url": str, "text": str,
    "expected_file": str, "expected_line": int, "template": str, "form": str,
    "wording_changed": bool,
}
_OPTIONAL: dict[str, type] = {"also_accept": list, "note": str}
_KIND_NAMES = {str: "a string", int: "an integer", bool: "true or false", list: "a list"}


@dataclass(frozen=True)
class Site:
    """A file and line where a case's message is raised."""

    file: str
    line: int


@dataclass
class Case:
    """One pasted error from a public issue, and where its repository raises it."""

    language: str
    repo: str
    commit: str
    split: str
    url: str
    text: str
    expected_file: str
    expected_line: int
    template: str
    form: str
    wording_changed: bool
    where: str  # "file:line" of the case in its case file
    also_accept: list[Site] = field(default_factory=list)
    note: str = ""

    @property
    def sites(self) -> list[Site]:
        return [Site(self.expected_file, self.expected_line), *self.also_accept]


def case_files(cases: Path) -> list[Path]:
    """The case files under ``cases`` (a folder of ``*.jsonl``, or one file)."""
    return sorted(cases.glob("*.jsonl")) if cases.is_dir() else [cases]


def load(cases: Path) -> tuple[list[Case], list[str]]:
    """Every well-formed case, and one line per problem in the case files."""
    found: list[Case] = []
    problems: list[str] = []
    if not cases.exists():
        return [], [f"{cases}: no such case file or folder"]
    if not case_files(cases):
        return [], [f"{cases}: no *.jsonl case file in this folder"]
    for path in case_files(cases):
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(f"{path}: cannot read ({exc})")
            continue
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            case, wrong = _parse(line, where, path.stem)
            problems += [f"{where}: {w}" for w in wrong]
            if case is not None:
                found.append(case)
    return found, problems


def _parse(line: str, where: str, stem: str) -> tuple[Case | None, list[str]]:
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as exc:
        return None, [f"not JSON ({exc.msg}, column {exc.colno})"]
    if not isinstance(raw, dict):
        return None, ["not a JSON object"]
    missing = ", ".join(repr(key) for key in _REQUIRED if key not in raw)
    unknown = ", ".join(repr(key) for key in raw if key not in _REQUIRED | _OPTIONAL)
    wrong = [f"missing {missing}"] if missing else []
    wrong += [f"unknown {unknown}"] if unknown else []
    for key, kind in (_REQUIRED | _OPTIONAL).items():
        if key in raw and type(raw[key]) is not kind:  # bool is not an int here
            wrong.append(f"{key} should be {_KIND_NAMES[kind]}, not {type(raw[key]).__name__}")
    if wrong:
        return None, wrong
    wrong += _values(raw, stem)
    accept = [Site(a["file"], a["line"]) for a in raw.get("also_accept", [])
              if isinstance(a, dict) and isinstance(a.get("file"), str)
              and type(a.get("line")) is int]
    if len(accept) != len(raw.get("also_accept", [])):
        wrong.append('also_accept should be a list of {"file": str, "line": int}')
    if wrong:
        return None, wrong
    return Case(where=where, also_accept=accept, **{k: raw[k] for k in _REQUIRED},
                note=raw.get("note", "")), []


def _values(raw: dict[str, Any], stem: str) -> list[str]:
    wrong = []
    if raw["language"] not in LANGUAGES:
        wrong.append(f"language {raw['language']!r} is not one of {', '.join(LANGUAGES)}")
    elif stem in LANGUAGES and raw["language"] != stem:
        wrong.append(f"language {raw['language']!r} in {stem}.jsonl")
    if not _REPO.match(raw["repo"]):
        wrong.append(f"repo {raw['repo']!r} is not owner/name")
    if not _COMMIT.match(raw["commit"]):
        wrong.append(f"commit {raw['commit']!r} is not 40 lowercase hex digits")
    if raw["split"] not in SPLITS:
        wrong.append(f"split {raw['split']!r} is not tune or heldout")
    if raw["expected_line"] < 1:
        wrong.append(f"expected_line {raw['expected_line']} is not a line number")
    if not raw["text"].strip():
        wrong.append("text is empty")
    for name in [raw["expected_file"], *(a.get("file") for a in raw.get("also_accept", [])
                                         if isinstance(a, dict))]:
        if isinstance(name, str) and (not name or "\n" in name or name.startswith("/")):
            wrong.append(f"file {name!r} is not a path inside the repository")
    return wrong


def locate(repos: Path, repo: str) -> Path | None:
    """The git data of ``repo`` under ``repos``: ``owner+name/repo``, ``owner+name`` or
    ``owner/name``, the first that exists."""
    flat = repos / repo.replace("/", "+")
    return next((p for p in (flat / "repo", flat, repos / repo) if p.is_dir()), None)


def consistency(cases: list[Case]) -> list[str]:
    """Cases of one repository must share one commit and one split."""
    problems = []
    first: dict[str, Case] = {}
    for case in cases:
        seen = first.setdefault(case.repo, case)
        if case.commit != seen.commit:
            problems.append(f"{case.where}: {case.repo} pinned at {case.commit} here but at "
                            f"{seen.commit} in {seen.where} (cases of one repo must share a "
                            "commit)")
        if case.split != seen.split:
            problems.append(f"{case.where}: {case.repo} is {case.split} here but {seen.split} in "
                            f"{seen.where} (a repository is in one split)")
    return problems


def check(cases: list[Case], repos: Path) -> list[str]:
    """Problems a case's repository shows: not found, commit missing, expected file or line
    not in the commit's tree."""
    problems = consistency(cases)
    by_repo: dict[str, list[Case]] = defaultdict(list)
    for case in cases:
        by_repo[case.repo].append(case)
    for repo, group in by_repo.items():
        git_dir = locate(repos, repo)
        if git_dir is None:
            problems.append(f"{group[0].where}: repository {repo} not found under {repos}")
            continue
        problems += _check_repo(git_dir, group)
    return problems


def _check_repo(git_dir: Path, group: list[Case]) -> list[str]:
    problems = []
    for commit in dict.fromkeys(c.commit for c in group):
        done = run_git(["cat-file", "-e", "--end-of-options", f"{commit}^{{commit}}"], git_dir)
        if done.returncode != 0:
            where = next(c.where for c in group if c.commit == commit)
            problems.append(f"{where}: commit {commit} is not in {git_dir}")
            group = [c for c in group if c.commit != commit]
    reader = BlobReader(git_dir)
    lengths: dict[tuple[str, str], int | None] = {}
    try:
        for case in group:
            for site in case.sites:
                key = (case.commit, site.file)
                if key not in lengths:
                    lengths[key] = _line_count(reader, *key)
                size = lengths[key]
                if size is None:
                    problems.append(f"{case.where}: {site.file} is not a file at "
                                    f"{case.commit[:12]}")
                elif site.line > size:
                    what = "expected_line" if site == case.sites[0] else "also_accept line"
                    problems.append(f"{case.where}: {what} {site.line} past the end of a "
                                    f"{size}-line file ({site.file})")
    finally:
        reader.close()
    return problems


def _line_count(reader: BlobReader, commit: str, path: str) -> int | None:
    try:
        data = reader.read(f"{commit}:{path}", path)
    except RepositoryError:
        return None
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def counts(cases: list[Case]) -> list[str]:
    """Per language: cases, repositories, held-out repositories."""
    rows = [f"{'language':12} {'cases':>6} {'repos':>6} {'heldout repos':>14}"]
    for language in LANGUAGES:
        mine = [c for c in cases if c.language == language]
        repos = {c.repo for c in mine}
        heldout = {c.repo for c in mine if c.split == "heldout"}
        rows.append(f"{language:12} {len(mine):>6} {len(repos):>6} {len(heldout):>14}")
    all_repos = {c.repo for c in cases}
    heldout_all = {c.repo for c in cases if c.split == "heldout"}
    rows.append(f"{'total':12} {len(cases):>6} {len(all_repos):>6} {len(heldout_all):>14}")
    return rows
