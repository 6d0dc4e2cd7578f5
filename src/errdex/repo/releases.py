"""Release tags of a repository, in version order: what ``mine --history`` walks.

A tag is a release when it reads as a version (``v1.2.3``, ``1.2``, ``release-1.2``,
``NAME-1.2.3``, ``V_6_6_P1``); they are ordered by that version, not by tag date, because
maintenance releases are often tagged after newer ones. Pre-releases (``rc``, ``beta``,
``dev``) are left out unless a glob asks for them. A tag whose commit is not in this
clone (a shallow clone) is skipped and counted, never fatal.
"""

from __future__ import annotations

import fnmatch
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from errdex.repo.git import run_git

_VERSION = re.compile(
    r"^(?P<prefix>(?:[A-Za-z][A-Za-z0-9_.-]*?[-_/])?)[vV]?(?P<numbers>\d+(?:[._]\d+)*)"
    r"(?P<suffix>(?:[-._+]?[A-Za-z]+[-._]?\d*)*)$"
)
_PRE = {"dev": -4, "snapshot": -4, "a": -3, "alpha": -3, "m": -3, "milestone": -3, "b": -2,
        "beta": -2, "pre": -1, "preview": -1, "c": -1, "rc": -1, "cr": -1}
_POST = {"p", "patch", "post", "pl", "final", "ga", "release", "r"}
_SUFFIX_PART = re.compile(r"([A-Za-z]+)[-._]?(\d*)")
_VERSIONED = re.compile(r"\d[._]\d")  # a version inside what would be the tag's name part


@dataclass(frozen=True)
class Release:
    """One release tag: its name, the commit it points at, and its version key."""

    name: str
    sha: str
    key: tuple[object, ...]
    prerelease: bool


@dataclass
class Releases:
    """The releases to mine, oldest first, and the tags left out (by reason)."""

    tags: list[Release] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)


def version_key(tag: str) -> tuple[tuple[object, ...], bool] | None:
    """The order key of a tag that reads as a version, and whether it is a pre-release;
    None for any other tag."""
    match = _VERSION.match(tag)
    if match is None or _VERSIONED.search(match["prefix"]):
        return None  # ``v0.7.3-eap-13``: a build of 0.7.3, not a version 13
    numbers = tuple(int(n) for n in re.split(r"[._]", match["numbers"]))
    words = [word.lower() for word, _ in _SUFFIX_PART.findall(match["suffix"])]
    if any(word not in _PRE and word not in _POST for word in words):
        return None  # ``2fa-fix``, ``1.0-old-api``: a name, not a version
    stage, stage_number, pre = 0, 0, False
    for word, number in _SUFFIX_PART.findall(match["suffix"]):
        rank = _PRE.get(word.lower())
        if rank is not None:
            stage, pre = rank, True
        else:  # a patch level or build name after the release (``_P1``, ``.Final``)
            stage = max(stage, 1 if number else 0)
        stage_number = int(number) if number else 0
        break
    return (numbers, stage, stage_number, match["prefix"], tag), pre


# Tag name parts that say "a release", not which product: ``release-1.2`` is ``1.2``.
_GENERIC = frozenset({"", "release", "releases", "rel", "version", "ver", "stable", "tag"})


def family(release: Release) -> str:
    """The product a tag numbers: ``ktor-3.3.0`` → ``ktor``, ``v1.2`` and ``release-1.2``
    → ``""``. One repository may version several products, each with its own numbers."""
    prefix = str(release.key[3]).lower().strip("-_./")
    return "" if prefix in _GENERIC else prefix


def main_family(releases: list[Release]) -> list[Release]:
    """The releases of the family most tags belong to (ties: the plain one, then by name):
    ``ktor-3.3.0`` ordered among plain ``3.3.x`` would be mined years out of place, removing
    and reviving every site it lacks."""
    counts = Counter(family(r) for r in releases)
    if len(counts) < 2:
        return releases
    chosen = min(counts, key=lambda name: (-counts[name], name != "", name))
    return [r for r in releases if family(r) == chosen]


def release_tags(root: Path, pattern: str | None = None, *,
                 within: str | None = None) -> Releases:
    """The release tags of the repository at ``root``, oldest version first.

    ``pattern`` (a glob on the tag name) chooses the tags, pre-releases included; without
    it every final release is taken. ``within`` (a full sha) keeps only the tags in its
    history. Only the tags of the family most of them belong to are taken (``main_family``).
    Several tags on one commit are one release (the first by version).
    """
    listing = run_git(["for-each-ref", "--format=%(refname:strip=2)%00%(objectname)%00"
                       "%(*objectname)", "refs/tags"], root)
    found = Releases()
    candidates: list[Release] = []
    for line in listing.stdout.decode("utf-8", "replace").splitlines():
        name, _, rest = line.partition("\0")
        target, _, peeled = rest.partition("\0")
        if pattern is not None and not fnmatch.fnmatchcase(name, pattern):
            continue
        read = version_key(name)
        if read is None:
            found.skipped["not a version"] += 1
            continue
        key, pre = read
        if pre and pattern is None:
            found.skipped["pre-release"] += 1
            continue
        candidates.append(Release(name, peeled or target, key, pre))
    same = main_family(candidates)
    found.skipped["another tag family"] += len(candidates) - len(same)
    candidates = same
    present = _commits_present(root, [r.sha for r in candidates])
    history = _history(root, within) if within else None
    seen: set[str] = set()
    for release in sorted(candidates, key=lambda r: r.key):
        if release.sha not in present:
            found.skipped["commit missing (shallow clone)"] += 1
        elif history is not None and release.sha not in history:
            found.skipped["not in the mined revision's history"] += 1
        elif release.sha in seen:
            found.skipped["same commit as another tag"] += 1
        else:
            seen.add(release.sha)
            found.tags.append(release)
    return found


def tag_at(root: Path, sha: str) -> str | None:
    """A tag pointing at ``sha`` (the first by version, else by name), or None."""
    listing = run_git(["tag", "--points-at", sha], root).stdout.decode("utf-8", "replace")
    names = [n for n in listing.splitlines() if n]
    if not names:
        return None

    def order(name: str) -> tuple[int, tuple[object, ...]]:
        read = version_key(name)
        return (0, read[0]) if read is not None else (1, (name,))

    return min(names, key=order)


def _commits_present(root: Path, shas: list[str]) -> set[str]:
    """Those of ``shas`` whose commit object this clone holds."""
    if not shas:
        return set()
    done = run_git(["cat-file", "--batch-check"], root,
                   input_bytes="".join(f"{s}\n" for s in shas).encode())
    present = set()
    for line in done.stdout.decode("utf-8", "replace").splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1] in ("commit", "tag"):
            present.add(parts[0])
    return present


def _history(root: Path, sha: str) -> set[str]:
    """Every commit reachable from ``sha`` (shallow boundaries respected)."""
    done = run_git(["rev-list", sha], root)
    return set(done.stdout.decode().split())


__all__ = ["Release", "Releases", "family", "main_family", "release_tags", "tag_at",
           "version_key"]
