"""Writing to a database through the public API: mining, enrichment, LLM settings."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Literal

from errdex.api._stores import Db, open_index, using_store
from errdex.batch.clones import DEFAULT_CACHE_BUDGET as DEFAULT_CACHE_BUDGET
from errdex.enrich import enrich_store as _enrich_store
from errdex.errors import UsageError
from errdex.mining import run as _run

if TYPE_CHECKING:  # the batch miner loads for mine_many, not for one mine
    from errdex.batch.entries import Entry
    from errdex.batch.many import ManySummary
    from errdex.enrich.llm import LlmConfig, LlmReport

ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(done, total)`` while work advances."""


@dataclass
class MineSummary(_run.MineSummary):
    """What one mine did (counts by language, new / changed / removed records, skipped files)
    and ``llm``: the model's rewrite when it ran (``enrich="llm"``), else ``None``."""

    llm: LlmReport | None = None


@dataclass
class EnrichSummary:
    """What :func:`enrich` did: ``records`` rewritten from their evidence (0 when only the
    model ran) and ``llm``: the model's report when one was asked for."""

    records: int = 0
    llm: LlmReport | None = None


def llm_config(
    base_url: str | None = None, model: str | None = None, *,
    api_key_env: str = "ERRDEX_LLM_API_KEY", concurrency: int = 4,
    token_budget: int | None = None, batch_records: int = 60, max_tokens: int | None = None,
) -> LlmConfig:
    """Settings for LLM enrichment; what is not given comes from ``$ERRDEX_LLM_BASE_URL`` /
    ``$ERRDEX_LLM_MODEL``. A missing ``llm`` extra, URL or model is a :class:`UsageError`,
    raised here so that a long mine never starts with settings that cannot work."""
    try:
        from errdex.enrich.llm import LlmConfig
    except ImportError as exc:
        raise UsageError(f"LLM enrichment needs the 'llm' extra ({exc.name} is missing): "
                         "pip install 'errdex[llm]'") from exc
    return LlmConfig.from_env(base_url=base_url, model=model, api_key_env=api_key_env,
                              concurrency=concurrency, token_budget=token_budget,
                              batch_records=batch_records, max_tokens=max_tokens)


def _rewrite_with_llm(db: Db, config: LlmConfig, repo: str | None,
                      progress: ProgressCallback | None) -> LlmReport:
    from errdex.enrich.llm import enrich_with_llm

    with using_store(db) as store:
        return enrich_with_llm(store, config, repo=repo, progress=progress)


def mine(
    path: str | os.PathLike[str], *, db: Db = None, repo: str | None = None,
    sha: str | None = None, jobs: int | None = None, progress: ProgressCallback | None = None,
    enrich: Literal["static", "none", "llm"] = "static", llm: LlmConfig | None = None,
    llm_progress: ProgressCallback | None = None,
    on_mined: Callable[[MineSummary], None] | None = None,
    blame: bool = False, full: bool = False, warm_index: bool = False,
) -> MineSummary:
    """Mine the git repository holding ``path`` into ``db``.

    ``enrich="static"`` fills the explanation fields from evidence; ``"none"`` skips it;
    ``"llm"`` does the static pass, then has the model ``llm`` (see :func:`llm_config`)
    rewrite them, keeping only what passes verification (report in ``summary.llm``).
    ``on_mined`` sees the summary once the records are stored, before the model starts.
    ``warm_index`` builds the lookup index right away, so the next lookup opens it in one
    read. A repository mined before is re-read only where it changed, unless ``full``.
    """
    if (enrich == "llm") != (llm is not None):
        raise UsageError("enrich='llm' and llm=errdex.llm_config(...) go together")
    with using_store(db) as store:
        mined = _run.mine(path, store, repo=repo, sha=sha, jobs=jobs, progress=progress,
                          enrich="none" if enrich == "none" else "static", blame=blame,
                          full=full)
        if warm_index:
            open_index(store)
        summary = MineSummary(**{f.name: getattr(mined, f.name) for f in fields(mined)
                                 if f.init})
        if on_mined is not None:
            on_mined(summary)
        if llm is not None:
            summary.llm = _rewrite_with_llm(store, llm, summary.repo, llm_progress)
    return summary


def read_repo_list(path: str | os.PathLike[str]) -> list[Entry]:
    """The repositories a LIST file names (one path or git URL[@ref] a line, ``#`` comments;
    ``-`` reads stdin); a missing, unreadable or empty list is a :class:`UsageError`."""
    from errdex.batch import entries as _entries

    return _entries.read_list(path)


def mine_many(
    entries: Iterable[Entry | str], *, db: Db = None, jobs: int | None = None,
    ray_address: str | None = None, cache_dir: str | os.PathLike[str] | None = None,
    cache_budget: int | str = DEFAULT_CACHE_BUDGET, retries: int = 1,
    progress: ProgressCallback | None = None, enrich: Literal["static", "none"] = "static",
    warm_index: bool = False, history: bool = False, history_last: int | None = None,
    history_stride: Literal["patch", "minor", "major"] = "patch",
) -> ManySummary:
    """Mine many repositories (local paths or git URLs[@ref]) into one database.

    Each failure is an outcome in the summary (retried ``retries`` times), never an
    exception that stops the others; a repository already stored at the same commit is
    skipped. URLs are cloned shallow into ``cache_dir`` within ``cache_budget`` bytes (or a
    size such as ``"10G"``). ``ray_address`` runs each repository as a Ray task.
    ``history``: each local clone is mined release by release (:func:`mine_history`) first;
    URLs (cloned shallow, without tags) are mined at their commit. ``history_last`` and
    ``history_stride`` choose the releases, as ``last`` and ``stride`` of :func:`mine_history`.
    """
    from errdex.batch import entries as _entries
    from errdex.batch import history as _batch_history
    from errdex.batch import many as _many

    listed = [item if isinstance(item, _entries.Entry) else _entries.parse_entry(item, number)
              for number, item in enumerate(entries, 1)]
    budget = _entries.parse_size(cache_budget) if isinstance(cache_budget, str) else cache_budget
    with using_store(db) as store:
        started = time.perf_counter()
        paths = [e for e in listed if e.kind == "path"] if history else []
        released = _batch_history.mine_paths_history(paths, store, jobs=jobs, enrich=enrich,
                                                      last=history_last, stride=history_stride)
        rest = [e for e in listed if e not in paths]
        summary = _many.mine_many(rest, store, jobs=jobs, ray_address=ray_address,
                                  cache_dir=cache_dir, disk_budget_bytes=budget,
                                  retries=retries, progress=progress, enrich=enrich
                                  ) if rest or not paths else _many.ManySummary()
        if released:
            by_line = {o.entry.line: o for o in [*released, *summary.outcomes]}
            summary.outcomes = [by_line[e.line] for e in listed]
            summary.seconds = time.perf_counter() - started
        if warm_index:
            open_index(store)
    return summary


def enrich(
    *, db: Db = None, repo: str | None = None, root: str | os.PathLike[str] | None = None,
    llm: LlmConfig | None = None, progress: ProgressCallback | None = None,
) -> EnrichSummary:
    """Rewrite the explanation fields of stored records (of ``repo``, or all).

    Without ``llm`` they are written again from their evidence; ``root`` (a checkout) has
    its tests read again first. With ``llm`` the model rewrites them (after the evidence
    pass when ``root`` is given) and only fields that pass verification are stored.
    """
    summary = EnrichSummary()
    with using_store(db) as store:
        if llm is None or root is not None:
            summary.records = _enrich_store(store, repo=repo,
                                            root=None if root is None else str(root))
        if llm is not None:
            summary.llm = _rewrite_with_llm(store, llm, repo, progress)
    return summary
