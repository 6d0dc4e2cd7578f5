"""Lookup that knows which versions a project runs: matches from the releases its lockfiles
pin rank first, and a note says when the best match is another version than the pinned one.

A re-rank over what lookup found, never a filter: a site of another version (or of no
package at all) still answers when the pinned release does not hold the message — the
note then says so. Full matches keep their lead over approximate ones; only among equals
does the pinned version win.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

from errdex.errors import UsageError
from errdex.lookup.index import Match
from errdex.packages.pins import Pins
from errdex.packages.specs import parse_spec

DEPS_ENV = "ERRDEX_DEPS"
WIDEN = 4
"""Lookup asks for this many times ``top`` matches, so a pinned release beyond the first
``top`` still comes up."""


@dataclass(frozen=True)
class Pinned:
    """The versions a project pins, by package: (ecosystem, normalised name) → versions."""

    versions: dict[tuple[str, str], set[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, deps: str | os.PathLike[str] | Pins | Sequence[str]) -> Pinned:
        """From a lockfile or project folder, pins read already, or release specs
        (``pypi:NAME==VERSION``, ``npm:NAME@VERSION``: what a web or MCP client sends)."""
        from errdex.packages.deps import release_key  # the release miner: only with pins
        from errdex.packages.lockfiles import read_lockfiles

        if isinstance(deps, Pins):
            specs = deps.specs
        elif isinstance(deps, (str, os.PathLike)):
            specs = read_lockfiles(deps).specs
        else:
            specs = [parse_spec(text) for text in deps]
        versions: dict[tuple[str, str], set[str]] = {}
        for spec in specs:
            ecosystem, name, version = release_key(spec.ecosystem, spec.name, spec.version)
            versions.setdefault((ecosystem, name), set()).add(version)
        return cls(versions)

    def package(self, match: Match) -> tuple[str, str, str] | None:
        """(ecosystem, name, version) of a match from a registry release, else None."""
        extras = match.extras
        if not extras.package or not extras.package_version:
            return None
        from errdex.packages.deps import release_key

        return release_key(extras.package_ecosystem, extras.package, extras.package_version)

    def pins(self, match: Match) -> bool:
        """Whether the project pins the release this match comes from."""
        found = self.package(match)
        return found is not None and found[2] in self.versions.get(found[:2], set())

    def wanted(self, match: Match) -> set[str]:
        """The versions the project pins of the match's package (empty: not pinned at all)."""
        found = self.package(match)
        return set() if found is None else self.versions.get(found[:2], set())


DepsSource = str | os.PathLike[str] | Pins | Pinned | Sequence[str]
"""A project's lockfile or folder, the pins read from it (:func:`read_lockfiles`), these pins
by package, or a list of release specs (``pypi:NAME==VERSION``, ``npm:NAME@VERSION``)."""


def pinned_from(deps: DepsSource | None) -> Pinned | None:
    """The pins of ``deps``, else of ``$ERRDEX_DEPS`` when it is set, else None."""
    if isinstance(deps, Pinned):
        return deps
    if deps is None:
        deps = os.environ.get(DEPS_ENV) or None
        if deps is None:
            return None
    try:
        return Pinned.of(deps)
    except UsageError as exc:
        raise UsageError(f"deps: {exc}") from exc


def prefer_pinned(matches: list[Match], pinned: Pinned, top: int) -> tuple[list[Match], str | None]:
    """``matches`` with the pinned releases' first among matches as good (full before
    approximate), cut to ``top``; and the note when the best is another version."""
    order = sorted(range(len(matches)),
                   key=lambda i: (matches[i].approximate, not pinned.pins(matches[i]), i))
    ranked = [matches[i] for i in order][:top]
    return ranked, version_note(ranked, pinned)


def version_note(matches: list[Match], pinned: Pinned) -> str | None:
    """One line when the best match is a release of a package the project pins at another
    version: that version's wording or line may differ from what the project runs."""
    if not matches or pinned.pins(matches[0]):
        return None
    best = pinned.package(matches[0])
    wanted = pinned.wanted(matches[0])
    if best is None or not wanted:
        return None
    ecosystem, name, version = best
    pins = ", ".join(sorted(wanted))
    separator = "==" if ecosystem == "pypi" else "@"
    return (f"the best match is from {name} {version}, but the project pins {name} {pins}, "
            f"which has no match as good (is it mined? errdex mine "
            f"{ecosystem}:{name}{separator}{sorted(wanted)[0]})")
