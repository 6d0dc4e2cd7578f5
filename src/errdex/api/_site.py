"""The static site through the public API: ``errdex export --site DIR``."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from errdex.api._stores import Db, using_store
from errdex.errors import UsageError
from errdex.store.protocol import Store

if TYPE_CHECKING:
    from errdex.datasets.site import SiteSummary


def export_site(folder: str | os.PathLike[str], *, db: Db = None,
                base_url: str | None = None, dataset: bool = True,
                jobs: int | None = None) -> SiteSummary:
    """Write a static site of the records into ``folder``, or bring one up to date: a
    page per record, repository and family, an index page with in-browser search, and
    (with ``base_url``) canonical URLs, ``sitemap.xml`` and ``robots.txt``. Pages whose
    inputs did not change are not rewritten; pages of removed records are deleted. With
    ``dataset``, the published dataset (``manifest.json`` and shards) goes to
    ``folder/data``. Record pages are drawn by ``jobs`` processes (default: every core this
    process may use). Needs the ``web`` extra (Jinja2, Pygments)."""
    try:
        from errdex.datasets import site
    except ImportError as exc:
        raise UsageError("--site needs Jinja2 and Pygments: pip install 'errdex[web]'"
                         ) from exc
    with using_store(db) as store:
        return site.export_site(store, Path(folder), base_url=base_url, jobs=jobs,
                                dataset=_dataset_writer(store, base_url) if dataset else None)


def _dataset_writer(store: Store, base_url: str | None) -> Callable[[Path], object]:
    """Publishes the store's dataset (manifest and shards) into the site's ``data/``."""
    from errdex.datasets.published import publish_dataset

    data_url = f"{base_url.rstrip('/')}/data" if base_url else None
    return lambda folder: publish_dataset(store, folder, base_url=data_url)
