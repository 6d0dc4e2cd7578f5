"""Commands that move datasets in and out: ``import``, ``export``."""

from __future__ import annotations

import click

import errdex
from errdex.interfaces.cli.app import Settings, handle_errors


@click.command("import")
@click.argument("file", type=click.Path(allow_dash=True))
@click.pass_obj
@handle_errors
def import_command(settings: Settings, file: str) -> None:
    """Import a dataset: JSONL, one line / record, Parquet, or a dataset folder.

    Validated first, all or nothing; importing the same records again changes nothing.
    """
    count = errdex.import_dataset(file, db=settings.db, warm_index=True)
    click.echo(f"imported {count} record(s) from {file}")


@click.command()
@click.option("--format", "fmt", type=click.Choice(["jsonl", "parquet"]), default="jsonl",
              show_default=True)
@click.option("--schema", type=click.Choice(["2", "3"]), default="2", show_default=True,
              help="2: exactly the seed's fields; 3: with errdex's optional fields.")
@click.option("--repo", help="Only records of this OWNER/NAME.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Output file (default: stdout for jsonl); written atomically.")
@click.option("--dataset", "dataset_dir", type=click.Path(file_okay=False),
              help="Write a dataset folder: JSONL + Parquet + JSON Schema + README card, "
                   "and manifest.json + shards/ for errdex sync.")
@click.option("--site", "site_dir", type=click.Path(file_okay=False),
              help="Write a static site: a page per record, repository and family, "
                   "in-browser search, and the published dataset in DIR/data; a re-export "
                   "rewrites only changed pages.")
@click.option("--base-url", help="Where the site (or --dataset folder) will be served "
                                 "(https://...): canonical URLs, sitemap.xml and robots.txt.")
@click.pass_obj
@handle_errors
def export(
    settings: Settings, fmt: str, schema: str, repo: str | None, output: str | None,
    dataset_dir: str | None, site_dir: str | None, base_url: str | None,
) -> None:
    """Export records as a versioned dataset (every line stamped with datasetVersion)."""
    if base_url and not (site_dir or dataset_dir):
        raise click.UsageError("--base-url goes with --site DIR or --dataset DIR")
    if site_dir:
        if repo or output or dataset_dir:
            raise click.UsageError("--site writes the whole store; drop --repo, -o and --dataset")
        site = errdex.export_site(site_dir, db=settings.db, base_url=base_url)
        click.echo(f"site in {site_dir}: {site.records} record(s), {site.pages} page(s) "
                   f"({site.written} written, {site.deleted} deleted, {site.noindex} noindex), "
                   f"{site.bytes / 1e6:.1f} MB", err=True)
        if not base_url:
            click.echo("no --base-url: no canonical URLs, sitemap.xml or robots.txt", err=True)
        return
    if dataset_dir:
        count = errdex.publish_dataset(dataset_dir, db=settings.db, schema=int(schema),
                                       repo=repo, base_url=base_url)
        target = dataset_dir
    else:
        count = errdex.export_dataset(output, db=settings.db,
                                      format="parquet" if fmt == "parquet" else "jsonl",
                                      schema=int(schema), repo=repo)
        target = output or "-"
    if target != "-":
        click.echo(f"exported {count} record(s) to {target}", err=True)
