"""Mining package releases through the public API: one release from its registry
(``mine_package``), what an environment has installed (``installed_packages``, ``mine_env``).

Tags for links are looked up on the release's forge (``git ls-remote``) unless
``$ERRDEX_TAG_LOOKUP`` is ``0`` (offline use, tests): then links go to the registry's view.
"""

from __future__ import annotations

import os
from pathlib import Path

from errdex.api._mining import ProgressCallback
from errdex.api._stores import Db, open_index, using_store
from errdex.errors import UsageError
from errdex.packages import installed as _installed
from errdex.packages import outcomes as _outcomes
from errdex.packages import release as _release
from errdex.packages import specs as _specs
from errdex.packages.cache import DEFAULT_RELEASE_BUDGET, ReleaseCache
from errdex.packages.identity import find_tag

PackageSpec = _specs.PackageSpec
ReleaseSummary = _release.ReleaseSummary
InstalledPackage = _installed.InstalledPackage
PackageOutcome = _outcomes.PackageOutcome
PackagesSummary = _outcomes.PackagesSummary
is_release_spec = _specs.is_spec
parse_release = _specs.parse_spec


def _tags() -> _release.TagLister | None:
    return None if os.environ.get("ERRDEX_TAG_LOOKUP", "1") == "0" else find_tag


def release_cache(cache_dir: str | os.PathLike[str] | None = None,
                  cache_budget: int = DEFAULT_RELEASE_BUDGET) -> ReleaseCache:
    """The folder releases are kept in (default: the user cache directory), within
    ``cache_budget`` bytes; least recently used releases go first."""
    return ReleaseCache(cache_dir, cache_budget)


def mine_package(
    spec: str | PackageSpec, *, db: Db = None, cache_dir: str | os.PathLike[str] | None = None,
    cache_budget: int = DEFAULT_RELEASE_BUDGET, jobs: int | None = None,
    progress: ProgressCallback | None = None, enrich: str = "static", full: bool = False,
    warm_index: bool = False,
) -> ReleaseSummary:
    """Mine one registry release (``"pypi:requests==2.31.0"``, ``"npm:axios@1.6.0"``, or a
    :class:`PackageSpec`) into ``db``.

    The release is fetched with the user's pip / npm registry settings, kept in the release
    cache, and filed under ``OWNER/NAME@VERSION`` of the source repository its metadata
    names (else ``pypi/NAME@VERSION`` / ``npm/NAME@VERSION``); each record's extras say
    ``package`` and ``packageVersion``. A release already stored is not mined again
    unless ``full``. An unreachable registry or a missing release is a RepositoryError.
    """
    parsed = spec if isinstance(spec, PackageSpec) else parse_release(spec)
    with using_store(db) as store:
        summary = _release.mine_release(
            parsed, store, cache=release_cache(cache_dir, cache_budget), jobs=jobs,
            progress=progress, enrich=_enrich_mode(enrich), tags=_tags(), full=full)
        if warm_index:
            open_index(store)
    return summary


def installed_packages(python: str | os.PathLike[str] | None = None,
                       node_modules: str | os.PathLike[str] | None = None
                       ) -> list[InstalledPackage]:
    """The packages an environment has installed: a Python environment (its interpreter,
    folder or site-packages) or a ``node_modules`` tree. With neither: the active virtual
    environment (``$VIRTUAL_ENV``), else ``./node_modules`` when there is one."""
    if python is not None and node_modules is not None:
        raise UsageError("give --python or --node-modules, not both")
    if node_modules is not None:
        return _installed.node_packages(node_modules)
    if python is None:
        if os.environ.get("VIRTUAL_ENV"):
            python = os.environ["VIRTUAL_ENV"]
        elif Path("node_modules").is_dir():
            return _installed.node_packages("node_modules")
        else:
            raise UsageError("no environment given and none active: pass --python PATH "
                             "(an interpreter or a virtual environment) or --node-modules DIR")
    return _installed.python_packages(python)


def mine_env(
    python: str | os.PathLike[str] | None = None,
    node_modules: str | os.PathLike[str] | None = None, *, db: Db = None,
    jobs: int | None = None, progress: ProgressCallback | None = None, enrich: str = "static",
    full: bool = False, warm_index: bool = False,
) -> PackagesSummary:
    """Mine every package an environment has installed (:func:`installed_packages`) from
    its installed files, at its installed version; each failure is an outcome, never an
    exception that stops the others; editable installs are skipped with the reason."""
    packages = installed_packages(python, node_modules)
    with using_store(db) as store:
        summary = _outcomes.mine_installed(packages, store, jobs=jobs, progress=progress,
                                           enrich=_enrich_mode(enrich), tags=_tags(),
                                           full=full)
        if warm_index:
            open_index(store)
    return summary


def _enrich_mode(enrich: str) -> _release.EnrichMode:
    if enrich == "static":
        return "static"
    if enrich == "none":
        return "none"
    raise UsageError(f"enrich={enrich!r}: package mines take 'static' or 'none'")
