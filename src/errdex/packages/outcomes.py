"""Mining many packages: each one's outcome (mined, unchanged, failed with one line), never an
exception that stops the others; ``mine_installed`` for what an environment has installed."""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from errdex.enrich import EnrichMode
from errdex.errors import ErrdexError
from errdex.packages.installed import InstalledPackage
from errdex.packages.release import ReleaseSummary, TagLister, mine_files
from errdex.packages.specs import PackageSpec
from errdex.store.protocol import Store

Status = Literal["mined", "unchanged", "failed", "skipped"]


@dataclass
class PackageOutcome:
    """What became of one package: its summary when mined, else why not (one line)."""

    spec: PackageSpec
    status: Status
    summary: ReleaseSummary | None = None
    reason: str | None = None
    seconds: float = 0.0

    @property
    def repo(self) -> str | None:
        return self.summary.repo if self.summary is not None else None

    @property
    def records(self) -> int:
        return self.summary.records if self.summary is not None else 0


@dataclass
class PackagesSummary:
    """The outcomes of a run over many packages, in order, and the totals."""

    outcomes: list[PackageOutcome] = field(default_factory=list)
    seconds: float = 0.0

    def count(self, status: Status) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def records(self) -> int:
        return sum(o.records for o in self.outcomes if o.status == "mined")

    @property
    def ok(self) -> bool:
        """No package failed (skipped ones, such as editable installs, are not failures)."""
        return all(o.status != "failed" for o in self.outcomes)


def outcome_of(spec: PackageSpec, mine: Callable[[], ReleaseSummary]) -> PackageOutcome:
    """Run ``mine`` for ``spec``: its outcome, a failure (``ErrdexError``, or anything
    unexpected) kept as one line."""
    started = time.perf_counter()
    try:
        summary = mine()
    except ErrdexError as exc:
        return PackageOutcome(spec, "failed", reason=str(exc),
                              seconds=time.perf_counter() - started)
    except Exception as exc:  # one broken package must not stop the others
        return PackageOutcome(spec, "failed", reason=f"internal error: {type(exc).__name__}: "
                              f"{exc}", seconds=time.perf_counter() - started)
    status: Status = "unchanged" if summary.already_stored else "mined"
    return PackageOutcome(spec, status, summary, seconds=time.perf_counter() - started)


def mine_installed(
    packages: list[InstalledPackage], store: Store, *, jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None, enrich: EnrichMode = "static",
    tags: TagLister | None = None, full: bool = False,
) -> PackagesSummary:
    """Mine each installed package from its installed files, one after the other (each
    mine uses ``jobs`` workers for a large package); progress counts packages."""
    started = time.perf_counter()
    summary = PackagesSummary()
    with tempfile.TemporaryDirectory(prefix="errdex-installed-") as scratch:
        for number, package in enumerate(packages, 1):
            if package.problem is not None:
                summary.outcomes.append(PackageOutcome(package.spec, "skipped",
                                                       reason=package.problem))
            else:
                folder = Path(scratch) / str(number)

                def mine(package: InstalledPackage = package, folder: Path = folder
                         ) -> ReleaseSummary:
                    return mine_files(package.spec, package.read_files(), store, folder,
                                      metadata=package.metadata, jobs=jobs, enrich=enrich,
                                      tags=tags, full=full)

                summary.outcomes.append(outcome_of(package.spec, mine))
                shutil.rmtree(folder, ignore_errors=True)
            if progress is not None:
                progress(number, len(packages))
    summary.seconds = time.perf_counter() - started
    return summary


__all__ = ["PackageOutcome", "PackagesSummary", "Status", "mine_installed", "outcome_of"]
