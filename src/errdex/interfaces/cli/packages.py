"""Registry releases on the command line: ``mine pypi:NAME==VERSION`` / ``npm:NAME@VERSION``
(called by ``mine``) and ``mine-env``, an environment's installed packages."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Literal

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

import errdex
from errdex.errors import EXIT_NO_MATCH, UsageError
from errdex.interfaces.cli.app import Settings, handle_errors, progress
from errdex.interfaces.render import Terminal, plain
from errdex.visible import visible

_STYLE = {"mined": "green", "unchanged": "dim", "skipped": "yellow", "failed": "red"}


def mine_release(settings: Settings, spec: str, *, jobs: int | None, enrich: str,
                 full: bool, format_mine: Callable[[Any], str]) -> None:
    """``errdex mine SPEC``: one registry release, then what was done, in a few lines
    (``format_mine``: the summary of a mine, as ``mine PATH`` prints it)."""
    if enrich not in ("static", "none"):
        raise UsageError("a release is mined with --enrich static or none; for a model's "
                         "rewrite run 'errdex enrich --repo OWNER/NAME@VERSION' after it")
    with progress(Console(stderr=True), "mining") as (bar,):
        summary = errdex.mine_package(spec, db=settings.db, jobs=jobs, progress=bar,
                                      enrich=enrich, full=full, warm_index=True)
    if summary.mine is not None:
        click.echo(visible(format_mine(summary.mine)))
    else:
        click.echo(visible(f"{summary.repo} is already stored ({summary.records} records, "
                           "same release, same errdex); --full mines it again"))
    click.echo(visible(release_line(summary)))
    for note in summary.notes:
        click.echo(visible(f"  note: {note}"))


def release_line(summary: errdex.ReleaseSummary) -> str:
    """What the release is filed under and where its links point, in words."""
    identity = summary.identity
    registry = "PyPI" if identity.ecosystem == "pypi" else "npm"
    if identity.tag and identity.host:
        links = f"tag {identity.tag} of {identity.host}/{identity.source}"
    elif identity.view:
        links = f"the {registry} view of that version (no release tag found on its forge)"
    else:
        links = "nowhere (no forge tag, no registry view for this index)"
    return (f"  package {identity.name} version {identity.version} from {registry}, filed as "
            f"{summary.repo}; links go to {links}")


@click.command("mine-env")
@click.option("--python", "python", type=click.Path(exists=True),
              help="A Python interpreter, virtual environment or site-packages folder "
                   "(default: $VIRTUAL_ENV).")
@click.option("--node-modules", "node_modules", type=click.Path(exists=True, file_okay=False),
              help="A node_modules folder (or the project holding one).")
@click.option("--jobs", type=click.IntRange(min=1),
              help="Worker processes for a large package (default: all cores).")
@click.option("--enrich", type=click.Choice(["static", "none"]), default="static",
              show_default=True, help="Fill explanation fields from evidence, or not.")
@click.option("--full", is_flag=True, help="Mine again packages already stored unchanged.")
@click.pass_obj
@handle_errors
def mine_env(settings: Settings, python: str | None, node_modules: str | None,
             jobs: int | None, enrich: Literal["static", "none"], full: bool) -> None:
    """Mine every package an environment has installed, at its installed version.

    Files are read from the installed tree (no download). Each package is filed under
    its source repository and version (OWNER/NAME@VERSION). Exit 0 when every package
    was mined or unchanged, 1 when some failed (the others are stored).
    """
    packages = errdex.installed_packages(python, node_modules)
    if not packages:
        click.echo("no installed package found", err=True)
        sys.exit(EXIT_NO_MATCH)
    with settings.store() as store, progress(Console(stderr=True), "packages") as (bar,):
        summary = errdex.mine_env(python, node_modules, db=store, jobs=jobs, progress=bar,
                                  enrich=enrich, full=full, warm_index=True)
    Terminal().print(packages_table("mine-env", summary))
    for o in summary.outcomes:  # whole, whatever width the table had
        if o.status == "failed":
            click.echo(visible(f"failed: {o.spec}: {o.reason}"), err=True)
    if not summary.ok:
        sys.exit(EXIT_NO_MATCH)


def packages_table(title: str, summary: errdex.PackagesSummary) -> Table:
    """One row per package, the totals in the title."""
    table = Table(title=Text(
        f"{title}: {summary.count('mined')} mined, {summary.count('unchanged')} unchanged, "
        f"{summary.count('skipped')} skipped, {summary.count('failed')} failed, "
        f"{summary.records} records in {summary.seconds:.1f}s"))
    for column in ("package", "version", "status", "records", "seconds", "stored as / why"):
        table.add_column(column, justify="right" if column in ("records", "seconds") else "left",
                         no_wrap=column != "stored as / why", overflow="fold")
    for o in summary.outcomes:
        table.add_row(
            plain(f"{o.spec.ecosystem}:{o.spec.name}"), plain(o.spec.version),
            Text(o.status, style=_STYLE[o.status]),
            Text(str(o.records) if o.status == "mined" else ""),
            Text(f"{o.seconds:.1f}" if o.seconds else ""),
            plain(o.reason if o.status in ("failed", "skipped") else (o.repo or "")),
        )
    return table
