"""Mining one release (``mine_release``) or one installed package (``mine_files``) into a
store: its files become a cached git repository (``errdex.packages.cache``), mined as any
repository is, filed under ``OWNER/NAME@VERSION`` (``errdex.packages.identity``), each
record marked with its package, version and ecosystem.

What a registry ships is what runs, so the archive's files are mined as shipped (npm's
built ``lib/``), with the miner's usual skips: vendored folders and bundles (``dist/``,
``*.min.js``), test code (read for evidence only), files over 2 MB.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from errdex.enrich import EnrichMode
from errdex.languages import language_for_path
from errdex.mining.extract import MineSummary, ProgressCallback, extract, miner_version
from errdex.packages.archives import read_archive
from errdex.packages.cache import ReleaseCache, build_repository
from errdex.packages.fetch import Download, download
from errdex.packages.identity import Identity, find_tag, identify
from errdex.packages.specs import PackageSpec
from errdex.repo.git import load_tree
from errdex.store.protocol import Store

TagLister = Callable[[Identity], str | None]


@dataclass
class ReleaseSummary:
    """What mining one release did: its identity, the mine (None when it was already stored
    at the same content by the same miner), and times for download and mining apart."""

    spec: PackageSpec
    identity: Identity
    mine: MineSummary | None = None
    already_stored: bool = False
    notes: list[str] = field(default_factory=list)  # yanked, wheel instead of sdist, …
    download_seconds: float = 0.0  # fetching and unpacking (0 when the cache had it)
    mine_seconds: float = 0.0
    stored_records: int = 0  # the release's current records in the store once done

    @property
    def repo(self) -> str:
        """The store key the records are filed under (``OWNER/NAME@VERSION``)."""
        return self.identity.repo

    @property
    def records(self) -> int:
        return self.stored_records


def mineable(path: str) -> bool:
    """A file errdex mines (by extension), or a metadata file identity reads."""
    return language_for_path(path) is not None or is_metadata(path)


def is_metadata(path: str) -> bool:
    return path in ("PKG-INFO", "package.json") or (
        path.count("/") == 1 and path.endswith((".dist-info/METADATA", ".egg-info/PKG-INFO")))


def metadata_of(files: dict[str, bytes]) -> bytes | None:
    """The package's metadata file among ``files`` (PKG-INFO, a wheel's METADATA,
    package.json), taken out of them."""
    for path in sorted(files, key=lambda p: (p.count("/"), p)):
        if is_metadata(path):
            data = files.pop(path)
            for other in [p for p in files if is_metadata(p)]:
                files.pop(other)
            return data
    return None


def mine_release(
    spec: PackageSpec, store: Store, *, cache: ReleaseCache | None = None,
    jobs: int | None = None, progress: ProgressCallback | None = None,
    enrich: EnrichMode = "static", tags: TagLister | None = find_tag,
    npm_cwd: Path | None = None, full: bool = False,
) -> ReleaseSummary:
    """Mine the release ``spec`` names into ``store`` and return what was done.

    The release comes from the cache, else from its registry (``errdex.packages.fetch``:
    the user's pip / npm registry settings apply). A release already stored at the same
    content by the same miner is not mined again (``already_stored``) unless ``full``.
    ``tags`` finds the release's tag on its forge for the links (None: no network call,
    links go to the registry's view). ``npm_cwd``: the folder npm runs in (its
    ``.npmrc``). Failures are ``ErrdexError``s of one line (RepositoryError for a
    registry that cannot be reached, a missing release, a refused archive).
    """
    cache = cache or ReleaseCache()
    cache.clean_stale()
    started = time.perf_counter()

    def build(target: Path) -> Identity:
        return build_release(spec, target, cache, tags=tags, npm_cwd=npm_cwd)

    with cache.release(spec, build) as (root, identity):
        fetched = time.perf_counter() - started
        summary = _mine(root, identity, store, jobs=jobs, progress=progress, enrich=enrich,
                        full=full)
    summary.spec, summary.notes, summary.download_seconds = spec, identity.notes, fetched
    summary.mine_seconds = time.perf_counter() - started - fetched
    cache.enforce_budget()
    return summary


def build_release(spec: PackageSpec, target: Path, cache: ReleaseCache, *,
                  tags: TagLister | None = find_tag, npm_cwd: Path | None = None) -> Identity:
    """Download ``spec``, read its archive and make its repository at ``target``; its
    identity (with the registry's notes: yanked, a wheel for want of an sdist). The
    download is removed once read. ``ReleaseCache.release`` calls this when the cache
    does not hold the release yet."""
    folder = cache.scratch("download")
    try:
        got: Download = download(spec, folder, npm_cwd=npm_cwd)
        unpacked = read_archive(got.path, mineable)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    identity = identify(spec, metadata_of(unpacked.files), download_url=got.url,
                        top=unpacked.top)
    identity.notes = list(got.notes)
    if tags is not None:
        identity.tag = tags(identity)
    build_repository(target, unpacked.files,
                     f"{spec} from {got.path.name}\n\nsha256 {got.sha256}\n")
    return identity


def mine_files(
    spec: PackageSpec, files: dict[str, bytes], store: Store, folder: Path, *,
    metadata: bytes | None = None, jobs: int | None = None,
    progress: ProgressCallback | None = None, enrich: EnrichMode = "static",
    tags: TagLister | None = None, full: bool = False,
) -> ReleaseSummary:
    """Mine a package whose files are at hand (an installed one: ``errdex.packages.installed``)
    into ``store``, through a repository made in ``folder`` (which must not exist)."""
    started = time.perf_counter()
    identity = identify(spec, metadata)
    if tags is not None:
        identity.tag = tags(identity)
    kept = {path: data for path, data in files.items() if language_for_path(path) is not None}
    build_repository(folder, kept, f"{spec} as installed\n")
    prepared = time.perf_counter() - started
    summary = _mine(folder, identity, store, jobs=jobs, progress=progress, enrich=enrich,
                    full=full)
    summary.spec, summary.download_seconds = spec, prepared
    summary.mine_seconds = time.perf_counter() - started - prepared
    return summary


def _mine(root: Path, identity: Identity, store: Store, *, jobs: int | None,
          progress: ProgressCallback | None, enrich: EnrichMode, full: bool) -> ReleaseSummary:
    """Mine the release repository at ``root`` as ``identity.repo``, stamping the package."""
    spec = PackageSpec("npm" if identity.ecosystem == "npm" else "pypi", identity.name,
                       identity.version)
    tree = load_tree(root, repo=identity.repo, classify=language_for_path)
    tree.forge = identity.links()
    version = miner_version(enrich)
    state = store.repo_state(identity.repo)
    if (not full and state is not None and state.analyzed_sha == tree.sha
            and state.miner_version == version):
        return ReleaseSummary(spec, identity, already_stored=True,
                              stored_records=store.count(identity.repo))
    started = time.perf_counter()
    extraction = extract(tree, store.previous_records(identity.repo), jobs=jobs,
                         progress=progress, enrich=enrich)
    for _, extras, _ in extraction.rows:
        extras.package = identity.name
        extras.package_version = identity.version
        extras.package_ecosystem = identity.ecosystem
    summary = extraction.summary
    summary.records = store.write(extraction)
    summary.seconds = time.perf_counter() - started
    return ReleaseSummary(spec, identity, mine=summary, stored_records=summary.records)


__all__ = ["EnrichMode", "ReleaseSummary", "TagLister", "build_release", "is_metadata",
           "metadata_of", "mine_files", "mine_release", "mineable"]
