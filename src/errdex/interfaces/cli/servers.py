"""Commands that serve the index: ``serve`` (web pages and JSON API), ``mcp`` (agents)."""

from __future__ import annotations

import click

import errdex
from errdex.errors import UsageError
from errdex.interfaces.cli.app import Settings, handle_errors
from errdex.interfaces.cli.sync import warn_line

_SYNC = click.option("--sync", "sync_source", metavar="URL",
                     help="Keep the database synced with this published index (URL, file:// "
                          "or folder): once at start, then every --sync-ttl, in the "
                          "background; each sync is applied whole or not at all.")
_SYNC_TTL = click.option("--sync-ttl", type=click.IntRange(min=1), default=3600,
                         show_default=True, metavar="SECONDS",
                         help="Seconds between syncs with --sync.")


def _start_sync(source: str | None, db_path: object, ttl: int) -> errdex.Syncer | None:
    """The background syncer of ``--sync`` (its first round runs before serving)."""
    if not source:
        return None
    return errdex.Syncer(source, str(db_path), ttl=ttl, warn=warn_line).start()


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Interface to listen on (127.0.0.1: this machine only).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--allowed-host", "allowed_hosts", multiple=True, metavar="NAME",
              help="Also answer requests for this host name (repeatable; '*' for any). "
                   "Loopback names and the --host address are always allowed; other "
                   "names get 400, which stops DNS rebinding.")
@_SYNC
@_SYNC_TTL
@click.pass_obj
@handle_errors
def serve(settings: Settings, host: str, port: int, allowed_hosts: tuple[str, ...],
          sync_source: str | None, sync_ttl: int) -> None:
    """Serve the web pages and the JSON API (needs the 'web' extra)."""
    try:
        import uvicorn

        from errdex.interfaces.web.app import create_app
        from errdex.interfaces.web.security import bind_address_name
    except ImportError as exc:
        raise UsageError(f"the web server needs the 'web' extra ({exc.name} is missing): "
                         "pip install 'errdex[web]'") from exc
    with settings.store() as store:  # open (and migrate) once, so a bad --db fails here
        db_path = store.path
    names = [*allowed_hosts, *filter(None, [bind_address_name(host)])]
    _start_sync(sync_source, db_path, sync_ttl)
    click.echo(f"errdex: serving {errdex.redact_url(str(db_path))} on http://{host}:{port}/",
               err=True)
    uvicorn.run(create_app(db_path, allowed_hosts=names), host=host, port=port,
                log_level="warning")


@click.command("mcp")
@_SYNC
@_SYNC_TTL
@click.pass_obj
@handle_errors
def mcp_command(settings: Settings, sync_source: str | None, sync_ttl: int) -> None:
    """Serve the index to coding agents over MCP on stdio (needs the 'web' extra)."""
    try:
        from errdex.interfaces.mcp import run_mcp
    except ImportError as exc:
        raise UsageError(f"the MCP server needs the 'web' extra ({exc.name} is missing): "
                         "pip install 'errdex[web]'") from exc
    with settings.store() as store:
        db_path = store.path
    _start_sync(sync_source, db_path, sync_ttl)
    run_mcp(db_path)
