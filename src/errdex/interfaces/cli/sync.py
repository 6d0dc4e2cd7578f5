"""``errdex sync``: a published index into the local database, without mining."""

from __future__ import annotations

import click

import errdex
from errdex.interfaces.cli.app import Settings, handle_errors
from errdex.visible import visible


def warn_line(line: str) -> None:
    """A sync warning (unreachable source, cached copy used): one line on stderr."""
    click.echo(f"errdex: {visible(line)}", err=True)


@click.command("sync")
@click.argument("source")
@click.option("--offline", is_flag=True,
              help="Use only the cached last good copy; no network.")
@click.option("--cache", "cache_dir", type=click.Path(file_okay=False),
              help="Folder of cached copies (default: $ERRDEX_SYNC_CACHE, else the user "
                   "cache folder).")
@click.pass_obj
@handle_errors
def sync_command(settings: Settings, source: str, offline: bool, cache_dir: str | None) -> None:
    """Sync a published index (URL, file:// URL or folder with manifest.json).

    Every shard is checked (sha256, size, and every record as import checks it) before
    anything is written; only what changed is fetched; all or nothing. When the source
    cannot be reached, the last good copy is used with a warning.
    """
    report = errdex.sync_dataset(source, db=settings.db, cache_dir=cache_dir,
                                 offline=offline, warn=warn_line)
    where = " (from the cached copy)" if report.offline else ""
    click.echo(
        f"synced {visible(report.source)} version {visible(report.dataset_version)}{where}: "
        f"{len(report.applied)} repositories written ({report.records} records), "
        f"{report.unchanged} unchanged, {report.shards_downloaded} shards downloaded "
        f"({report.bytes_downloaded:,} bytes)"
    )
    if report.kept_local:
        click.echo(f"kept the local mine of {len(report.kept_local)} repositories: "
                   + ", ".join(visible(r) for r in report.kept_local[:5])
                   + (" …" if len(report.kept_local) > 5 else ""))
    if report.dropped:
        click.echo(f"removed {len(report.dropped)} repositories the dataset no longer has")
