"""Commands that write records: ``mine``, ``mine-many``, ``enrich``."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, Literal, TypeVar

import click
from rich.console import Console

import errdex
from errdex.errors import EXIT_NO_MATCH
from errdex.interfaces.cli import packages as release
from errdex.interfaces.cli.app import Settings, handle_errors, progress
from errdex.interfaces.render import Terminal, many_table
from errdex.visible import visible

F = TypeVar("F", bound=Callable[..., Any])

_LLM_OPTIONS = ("llm_base_url", "llm_model", "llm_api_key_env", "concurrency", "token_budget",
                "batch_records", "llm_max_tokens")


def llm_options(func: F) -> F:
    """The options of LLM enrichment, shared by ``mine --enrich llm`` and ``enrich``; the
    command gets them together as ``llm``."""
    options = [
        click.option("--llm-base-url", envvar="ERRDEX_LLM_BASE_URL", show_envvar=True,
                     help="OpenAI-compatible endpoint (e.g. http://localhost:8000/v1) whose "
                          "model rewrites the explanation fields, verified against evidence."),
        click.option("--llm-model", envvar="ERRDEX_LLM_MODEL", show_envvar=True,
                     help="Model name the endpoint serves."),
        click.option("--llm-api-key-env", default="ERRDEX_LLM_API_KEY", show_default=True,
                     help="Environment variable that holds the API key (if any)."),
        click.option("--concurrency", type=click.IntRange(min=1), default=4, show_default=True,
                     help="LLM requests in flight."),
        click.option("--token-budget", type=click.IntRange(min=1),
                     help="Stop sending once this many tokens (prompt + completion) are spent; "
                          "the rest stay static and are reported."),
        click.option("--batch-records", type=click.IntRange(min=1), default=60,
                     show_default=True,
                     help="Errors answered per LLM request; lower it for a model with a small "
                          "completion limit (a cut-off answer is split and sent again)."),
        click.option("--llm-max-tokens", type=click.IntRange(min=1),
                     help="Completion tokens a request may use (default: the server's)."),
    ]

    @functools.wraps(func)
    def with_llm(*args: Any, **kwargs: Any) -> Any:
        llm = {name: kwargs.pop(name) for name in _LLM_OPTIONS}
        return func(*args, llm=llm, **kwargs)

    command: Any = with_llm
    for option in reversed(options):
        command = option(command)
    return command  # type: ignore[no-any-return]


def _llm_config(llm: dict[str, Any]) -> Any:
    """The library's LLM settings from the options (a missing extra, URL or model fails here)."""
    return errdex.llm_config(llm["llm_base_url"], llm["llm_model"],
                             api_key_env=llm["llm_api_key_env"], concurrency=llm["concurrency"],
                             token_budget=llm["token_budget"],
                             batch_records=llm["batch_records"], max_tokens=llm["llm_max_tokens"])


@click.command()
@click.argument("path", type=click.Path(file_okay=True, dir_okay=True))
@click.option("--repo", help="OWNER/NAME to file the records under (default: from the git remote).")
@click.option("--sha", help="Revision to mine (default: HEAD).")
@click.option("--jobs", type=click.IntRange(min=1), help="Worker processes (default: all cores).")
@click.option("--enrich", type=click.Choice(["static", "none", "llm"]), default="static",
              show_default=True,
              help="Fill explanation fields from evidence (docs, guards, tests); 'llm' then has "
                   "a model rewrite them (see the --llm-* options); 'none' skips it.")
@click.option("--blame", is_flag=True,
              help="Add the commit that last changed each site's line (walks history: slower).")
@click.option("--full", is_flag=True,
              help="Read every file, not only those changed since the last mine.")
@click.option("--history", is_flag=True,
              help="Mine every release tag (tags that read as versions) oldest first, then "
                   "--sha (HEAD), each from the one before: older wordings of a message "
                   "resolve to its site as it is now.")
@click.option("--tags", metavar="GLOB",
              help="With --history: the tags to mine (e.g. 'v2.*'; pre-releases included).")
@click.option("--history-last", type=click.IntRange(min=1), metavar="N",
              help="With --history: only the newest N releases before the revision.")
@click.option("--history-stride", type=click.Choice(["patch", "minor", "major"]),
              help="With --history: every release (patch, the default), or only the first of "
                   "each minor or major version and the newest.")
@llm_options
@click.pass_obj
@handle_errors
def mine(
    settings: Settings, path: str, repo: str | None, sha: str | None, jobs: int | None,
    enrich: Literal["static", "none", "llm"], blame: bool, full: bool, history: bool,
    tags: str | None, history_last: int | None,
    history_stride: Literal["patch", "minor", "major"] | None, llm: dict[str, Any],
) -> None:
    """Mine the git repository holding PATH, or a registry release, into the database.

    A repository mined before is re-read only where it changed since (git diff).
    PATH may be a release: pypi:NAME==VERSION or npm:NAME@VERSION, fetched with your
    pip / npm registry settings and filed under its source repository and version.
    """
    if (history_last is not None or history_stride is not None) and not history:
        raise click.UsageError("--history-last and --history-stride go with --history")
    if errdex.is_release_spec(path):
        if repo or sha or blame:
            raise errdex.UsageError("--repo, --sha and --blame are for repositories; a release "
                                    "is filed under its source repository and version")
        release.mine_release(settings, path, jobs=jobs, enrich=enrich, full=full,
                             format_mine=format_summary)
        return
    if history or tags:
        _mine_history(settings, path, repo=repo, sha=sha, tags=tags, jobs=jobs,
                      enrich=enrich, blame=blame, full=full, last=history_last,
                      stride=history_stride or "patch")
        return
    # checked before mining: a missing --llm-model fails fast
    config = _llm_config(llm) if enrich == "llm" else None

    def mined(summary: errdex.MineSummary) -> None:  # the repo name comes from its remote
        click.echo(visible(format_summary(summary)))

    with progress(Console(stderr=True), "mining", "enriching") as (mining, enriching):
        summary = errdex.mine(path, db=settings.db, repo=repo, sha=sha, jobs=jobs,
                              progress=mining, enrich=enrich, llm=config,
                              llm_progress=enriching, on_mined=mined, blame=blame, full=full,
                              warm_index=True)
    if summary.llm is not None:
        click.echo(summary.llm.summary())


def _mine_history(
    settings: Settings, path: str, *, repo: str | None, sha: str | None, tags: str | None,
    jobs: int | None, enrich: Literal["static", "none", "llm"], blame: bool, full: bool,
    last: int | None, stride: Literal["patch", "minor", "major"],
) -> None:
    """``mine --history``: every release, then the revision; one summary at the end."""
    if enrich == "llm" or blame or full:
        raise errdex.UsageError("--history mines releases incrementally: it goes without "
                                "--enrich llm, --blame and --full (run them on HEAD after)")
    with progress(Console(stderr=True), "releases") as (bar,):
        summary = errdex.mine_history(
            path, db=settings.db, repo=repo, sha=sha, tags=tags, jobs=jobs,
            on_release=None if bar is None else lambda done, total, _name: bar(done, total),
            enrich=enrich, warm_index=True, last=last, stride=stride)
    click.echo(visible(format_history(summary)))


def format_history(summary: errdex.HistorySummary) -> str:
    """What a history run did: releases mined, sites linked, what was skipped."""
    mined = summary.mined
    seconds = sum(r.summary.seconds for r in mined if r.summary)
    names = [r.name for r in summary.releases]
    span = f"{names[0]} … {names[-1]}" if len(names) > 1 else "".join(names)
    lines = [f"mined {summary.repo}: {len(mined)} of {len(names)} release(s) ({span}) in "
             f"{seconds:.2f}s; {len(names) - len(mined)} mined before"
             + ("; all mined again: another errdex version had mined them" if summary.restarted
                else "")]
    if summary.last is not None:
        last = summary.last
        lines.append(f"  {last.records} current records at {last.sha[:12]}; "
                     f"{sum(r.summary.new for r in mined if r.summary)} new, "
                     f"{sum(r.summary.removed for r in mined if r.summary)} removed "
                     "over the releases")
    lines.append(f"  {summary.linked} reworded or moved site(s) linked to their newer wording")
    if summary.skipped_tags:
        lines.append("  tags left out: " + ", ".join(
            f"{count} {why}" for why, count in sorted(summary.skipped_tags.items())))
    if summary.missing_blobs:
        lines.append(f"  {summary.missing_blobs} file(s) skipped: blob missing from the clone")
    return "\n".join(lines)


@click.command("mine-many")
@click.argument("listing", metavar="LIST", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--jobs", type=click.IntRange(min=1),
              help="Repositories mined at once (default: all cores; each on one core).")
@click.option("--ray", "ray_address", metavar="ADDRESS|auto",
              help="Run each repository as a task on this Ray cluster (needs the 'ray' extra).")
@click.option("--cache", "cache_dir", type=click.Path(file_okay=False),
              help="Folder for shallow clones of URLs (default: the user cache directory).")
@click.option("--cache-budget", default="10G", show_default=True, metavar="SIZE",
              help="Disk the clone cache may use (500M, 10G); least recently used go first.")
@click.option("--retries", type=click.IntRange(min=0), default=1, show_default=True,
              help="Times a failed repository is tried again.")
@click.option("--history", is_flag=True,
              help="Mine each local clone release by release, as mine --history does (URLs "
                   "are cloned shallow, without tags: mined at their commit).")
@click.option("--history-last", type=click.IntRange(min=1), metavar="N",
              help="With --history: only the newest N releases of each clone.")
@click.option("--history-stride", type=click.Choice(["patch", "minor", "major"]),
              help="With --history: every release (patch, the default), or only the first of "
                   "each minor or major version and the newest.")
@click.pass_obj
@handle_errors
def mine_many(
    settings: Settings, listing: str, jobs: int | None, ray_address: str | None,
    cache_dir: str | None, cache_budget: str, retries: int, history: bool,
    history_last: int | None, history_stride: Literal["patch", "minor", "major"] | None,
) -> None:
    """Mine every repository in LIST (one path or git URL[@ref] a line; '-' reads stdin).

    A failure is reported and retried, never stops the others; a re-run skips
    repositories already mined at the same commit. Exit 0 when all succeeded, 1 when
    some failed (the others are stored), 2 for a bad LIST or options.
    """
    if (history_last is not None or history_stride is not None) and not history:
        raise click.UsageError("--history-last and --history-stride go with --history")
    entries = errdex.read_repo_list(listing)
    with settings.store() as store, progress(Console(stderr=True), "repositories") as (bar,):
        summary = errdex.mine_many(
            entries, db=store, jobs=jobs, ray_address=ray_address, cache_dir=cache_dir,
            cache_budget=cache_budget or errdex.DEFAULT_CACHE_BUDGET, retries=retries,
            progress=bar, warm_index=True, history=history, history_last=history_last,
            history_stride=history_stride or "patch")
    Terminal().print(many_table(summary))
    if not summary.ok:
        sys.exit(EXIT_NO_MATCH)


@click.command()
@click.option("--repo", help="Only records of this OWNER/NAME.")
@click.option("--root", type=click.Path(exists=True, file_okay=False),
              help="Checkout whose tests are read again before re-enriching.")
@llm_options
@click.pass_obj
@handle_errors
def enrich(
    settings: Settings, repo: str | None, root: str | None, llm: dict[str, Any],
) -> None:
    """Rewrite the explanation fields of stored records from their evidence.

    With --llm-base-url and --llm-model (or $ERRDEX_LLM_BASE_URL / $ERRDEX_LLM_MODEL) a model
    rewrites them; only fields that pass verification against the evidence are stored.
    """
    if llm["llm_base_url"] is None and llm["llm_model"] is None:
        summary = errdex.enrich(db=settings.db, repo=repo, root=root)
        click.echo(f"enriched {summary.records} record(s)")
        return
    config = _llm_config(llm)
    with progress(Console(stderr=True), "enriching") as (bar,):
        summary = errdex.enrich(db=settings.db, repo=repo, root=root, llm=config, progress=bar)
    if summary.llm is not None:
        click.echo(summary.llm.summary())


def format_summary(summary: errdex.MineSummary) -> str:
    """One paragraph a person reads after a mine."""
    languages = ", ".join(
        f"{name} {count}" for name, count in sorted(summary.by_language.items()) if count
    )
    lines = [
        f"mined {summary.repo} at {summary.sha[:12]}: {summary.records} records from "
        f"{summary.files_mined} files" + (f" ({languages})" if languages else "")
        + f" in {summary.seconds:.2f}s",
        f"  {summary.new} new, {summary.changed} changed, {summary.removed} removed"
        + (" (only files changed since the last mine were read)" if summary.incremental else ""),
    ]
    if summary.composed:
        lines.append(
            f"  {summary.composed} composed from messages written in exception classes, "
            "factories or helpers" + (
                f"; {summary.capped} site(s) cut to the first 16 alternatives"
                if summary.capped else ""))
    if summary.log_statements:
        lines.append(f"  {summary.log_statements} log statement(s) below warning indexed for "
                     "scan (not records)")
    if summary.skipped:
        skipped = ", ".join(f"{count} {why}" for why, count in sorted(summary.skipped.items()))
        lines.append(f"  skipped files: {skipped}")
    if summary.partially_parsed:
        lines.append(
            f"  {summary.partially_parsed} file(s) had syntax errors; "
            "their readable parts were mined"
        )
    return "\n".join(lines)
