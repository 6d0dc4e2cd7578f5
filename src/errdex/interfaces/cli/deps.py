"""``mine-deps``: every pinned dependency of a project, mined at its version."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

import errdex
from errdex.errors import EXIT_NO_MATCH
from errdex.interfaces.cli.app import Settings, handle_errors, progress
from errdex.interfaces.render import Terminal, plain
from errdex.visible import visible

_STYLE = {"mined": "green", "stored": "dim", "failed": "red"}


@click.command("mine-deps")
@click.argument("path", type=click.Path(exists=True, file_okay=True, dir_okay=True))
@click.option("--jobs", type=click.IntRange(min=1),
              help="Releases mined at once (default: all cores; each on one core).")
@click.option("--downloads", type=click.IntRange(min=1), default=8, show_default=True,
              help="Releases downloaded at once, while others are mined.")
@click.option("--cache", "cache_dir", type=click.Path(file_okay=False),
              help="Folder for downloaded releases (default: the user cache directory).")
@click.pass_obj
@handle_errors
def mine_deps(settings: Settings, path: str, jobs: int | None, downloads: int,
              cache_dir: str | None) -> None:
    """Mine every dependency PATH pins, each at its pinned version.

    PATH is a lockfile (requirements*.txt, uv.lock, poetry.lock, Pipfile.lock,
    package-lock.json, pnpm-lock.yaml, yarn.lock) or a project folder holding them.
    Releases already in the database are skipped. Exit 0 when every release was mined
    (lines that pin nothing are listed), 1 when some failed (the others are stored) or
    none is pinned.
    """
    pins = errdex.read_lockfiles(path)
    project = Path(path) if Path(path).is_dir() else Path(path).parent
    with settings.store() as store, progress(Console(stderr=True), "releases") as (bar,):
        summary = errdex.mine_deps(pins.specs, db=store, jobs=jobs, downloads=downloads,
                                   cache_dir=cache_dir, progress=bar, warm_index=True,
                                   npm_cwd=project)
    console = Terminal()
    if summary.outcomes:
        console.print(deps_table(summary))
    for outcome in summary.outcomes:
        if outcome.status == "failed":
            click.echo(f"failed: {visible(outcome.reason)}")
        for note in outcome.notes:
            click.echo(f"note: {outcome.spec}: {visible(note)}")
    for problem in pins.problems:
        click.echo(f"not mined: {visible(str(problem))}")
    if not summary.outcomes:
        click.echo(f"{visible(path)}: no pinned release to mine", err=True)
    if not summary.ok or not summary.outcomes:
        sys.exit(EXIT_NO_MATCH)


def deps_table(summary: errdex.DepsSummary) -> Table:
    """One row per release, totals in the title (download and mine seconds are summed over
    releases; they overlap, so the wall time is less than their sum)."""
    title = (f"mine-deps: {summary.count('mined')} mined, {summary.count('stored')} already "
             f"stored, {summary.count('failed')} failed, "
             f"{sum(o.records for o in summary.outcomes)} records in {summary.seconds:.1f}s "
             f"(download {summary.download_seconds:.1f}s, mine {summary.mine_seconds:.1f}s)")
    table = Table(title=Text(title), box=box.SIMPLE_HEAD)
    numeric = ("records", "dl s", "mine s")
    for column in ("package", "version", "status", *numeric):
        table.add_column(column, justify="right" if column in numeric else "left",
                         no_wrap=column != "package", overflow="fold")
    table.add_column("stored as", overflow="fold")
    for o in summary.outcomes:
        table.add_row(
            plain(f"{o.spec.ecosystem}:{o.spec.name}"), plain(o.spec.version),
            Text(o.status, style=_STYLE[o.status]),
            Text(str(o.records) if o.status == "mined" else ""),
            Text(f"{o.download_seconds:.1f}" if o.download_seconds else ""),
            Text(f"{o.mine_seconds:.1f}" if o.mine_seconds else ""),
            plain(o.repo or ("see below" if o.status == "failed" else "")),
        )
    return table
