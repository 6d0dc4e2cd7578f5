"""The ``errdex`` command line: a thin layer over the Python API.

Exit codes everywhere: 0 found / done, 1 nothing matched, 2 bad input or usage.
Errors are one line on stderr; ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import Any, TextIO, TypeVar

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

import errdex
from errdex.datasets.lines import export_dataset, import_dataset
from errdex.datasets.publish import import_path, write_dataset_folder, write_parquet
from errdex.errors import EXIT_BAD_INPUT, EXIT_NO_MATCH, ErrdexError, UsageError
from errdex.interfaces.render import (
    Terminal,
    many_table,
    print_matches,
    print_scan_summary,
    print_scanned,
    record_panel,
    search_table,
)
from errdex.lookup.parse import MAX_INPUT_CHARS
from errdex.lookup.scan import ScanSummary, skipped_note
from errdex.lookup.scan import scan as scan_log
from errdex.mining.run import MineSummary
from errdex.records.model import now_iso
from errdex.store.protocol import Store, open_store, redact
from errdex.visible import json_text, visible

F = TypeVar("F", bound=Callable[..., Any])


class _Settings:
    def __init__(self, db: str | None, debug: bool):
        self.db = db
        self.debug = debug

    def store(self) -> Store:
        return open_store(self.db)


def _handle_errors(func: F) -> F:
    """Turn ErrdexError (and any surprise) into one line and an exit code."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        settings: _Settings = click.get_current_context().obj
        try:
            return func(*args, **kwargs)
        except ErrdexError as exc:
            if settings.debug:
                raise
            click.echo(f"errdex: {visible(str(exc))}", err=True)
            sys.exit(exc.exit_code)
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except BrokenPipeError:
            _reader_went_away()
        except KeyboardInterrupt:
            click.echo("errdex: interrupted; nothing was changed by the unfinished step", err=True)
            sys.exit(130)
        except Exception as exc:
            if settings.debug:
                raise
            click.echo(
                f"errdex: internal error: {type(exc).__name__}: {visible(str(exc))} "
                "(run with --debug for the traceback and report it)", err=True,
            )
            sys.exit(EXIT_BAD_INPUT)

    return wrapper  # type: ignore[return-value]


EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: what a shell reports for `cat big | head`


def _reader_went_away() -> None:
    """The reader of our output closed it (``errdex export | head``): stop quietly.

    Output still buffered would fail again when Python flushes at exit, so stdout is
    pointed at the null device first; the exit status is the shell's for SIGPIPE.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout is not a file (tests)
        pass
    sys.exit(EXIT_BROKEN_PIPE)


class _Cli(click.Group):
    """Click group whose usage errors are one line too, like every other error."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except click.UsageError as exc:
            where = exc.ctx.command_path if exc.ctx else "errdex"
            click.echo(f"errdex: {visible(exc.format_message())} (see '{where} --help')",
                       err=True)
            sys.exit(EXIT_BAD_INPUT)
        except click.ClickException as exc:
            click.echo(f"errdex: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("errdex: interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:
            _reader_went_away()
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=_Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db", type=click.Path(dir_okay=False), envvar="ERRDEX_DB", show_envvar=True,
    help="Database file (default: errdex.sqlite in the user data directory).",
)
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
@click.version_option(errdex.__version__, prog_name="errdex")
@click.pass_context
def main(ctx: click.Context, db: str | None, debug: bool) -> None:
    """errdex: the index of every error a codebase can raise.

    Mine a repository, then paste any error to find the line that raised it.
    """
    ctx.obj = _Settings(db, debug)


@contextmanager
def _progress(console: Console, label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A Rich progress bar on a terminal; nothing when output is piped."""
    if not console.is_terminal:
        yield None
        return
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=console, transient=True,
    ) as bar:
        task = bar.add_task(label, total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance


_LLM_OPTIONS = ("llm_base_url", "llm_model", "llm_api_key_env", "concurrency", "token_budget",
                "batch_records", "llm_max_tokens")


def _llm_options(func: F) -> F:
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
    try:
        from errdex.enrich.llm import LlmConfig
    except ImportError as exc:
        raise UsageError(f"LLM enrichment needs the 'llm' extra ({exc.name} is missing): "
                         "pip install 'errdex[llm]'") from exc

    return LlmConfig.from_env(base_url=llm["llm_base_url"], model=llm["llm_model"],
                              api_key_env=llm["llm_api_key_env"],
                              concurrency=llm["concurrency"], token_budget=llm["token_budget"],
                              batch_records=llm["batch_records"],
                              max_tokens=llm["llm_max_tokens"])



def _llm_enrich(settings: _Settings, config: Any, repo: str | None) -> None:
    from errdex.enrich.llm import enrich_with_llm

    with settings.store() as store, _progress(Console(stderr=True), "enriching") as progress:
        report = enrich_with_llm(store, config, repo=repo, progress=progress)
    click.echo(report.summary())


@main.command()
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
@_llm_options
@click.pass_obj
@_handle_errors
def mine(
    settings: _Settings, path: str, repo: str | None, sha: str | None, jobs: int | None,
    enrich: str, blame: bool, full: bool, llm: dict[str, Any],
) -> None:
    """Mine the git repository holding PATH into the database.

    A repository mined before is re-read only where it changed since (git diff).
    """
    console = Console(stderr=True)
    config = None
    if enrich == "llm":  # checked before mining: a missing --llm-model fails fast
        config = _llm_config(llm)
    with settings.store() as store, _progress(console, "mining") as progress:
        summary = errdex.mine(path, db=store, repo=repo, sha=sha, jobs=jobs, progress=progress,
                              enrich="static" if enrich == "llm" else enrich,  # type: ignore[arg-type]
                              blame=blame, full=full)
        _warm_index(store)
    click.echo(visible(format_summary(summary)))  # the repo name comes from its remote
    if config is not None:
        _llm_enrich(settings, config, summary.repo)


@main.command("mine-many")
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
@click.pass_obj
@_handle_errors
def mine_many_command(
    settings: _Settings, listing: str, jobs: int | None, ray_address: str | None,
    cache_dir: str | None, cache_budget: str, retries: int,
) -> None:
    """Mine every repository in LIST (one path or git URL[@ref] a line; '-' reads stdin).

    A failure is reported and retried, never stops the others; a re-run skips
    repositories already mined at the same commit. Exit 0 when all succeeded, 1 when
    some failed (the others are stored), 2 for a bad LIST or options.
    """
    from errdex.batch.many import DEFAULT_CACHE_BUDGET, mine_many, parse_size, read_list

    entries = read_list(listing)
    budget = parse_size(cache_budget) if cache_budget else DEFAULT_CACHE_BUDGET
    console = Console(stderr=True)
    with settings.store() as store, _progress(console, "repositories") as progress:
        summary = mine_many(entries, store, jobs=jobs, ray_address=ray_address,
                            cache_dir=cache_dir, disk_budget_bytes=budget, retries=retries,
                            progress=progress)
        _warm_index(store)
    Terminal().print(many_table(summary))
    if not summary.ok:
        sys.exit(EXIT_NO_MATCH)


@main.command()
@click.option("--repo", help="Only records of this OWNER/NAME.")
@click.option("--root", type=click.Path(exists=True, file_okay=False),
              help="Checkout whose tests are read again before re-enriching.")
@_llm_options
@click.pass_obj
@_handle_errors
def enrich(
    settings: _Settings, repo: str | None, root: str | None, llm: dict[str, Any],
) -> None:
    """Rewrite the explanation fields of stored records from their evidence.

    With --llm-base-url and --llm-model (or $ERRDEX_LLM_BASE_URL / $ERRDEX_LLM_MODEL) a model
    rewrites them; only fields that pass verification against the evidence are stored.
    """
    from errdex.enrich import enrich_store

    if llm["llm_base_url"] is None and llm["llm_model"] is None:
        with settings.store() as store:
            count = enrich_store(store, repo=repo, root=root)
        click.echo(f"enriched {count} record(s)")
        return
    config = _llm_config(llm)
    if root is not None:
        with settings.store() as store:
            enrich_store(store, repo=repo, root=root)
    _llm_enrich(settings, config, repo)


def _warm_index(store: Store) -> None:
    """Build and save the lookup index after a write, so the next reader opens it in one read
    instead of rebuilding it (seconds at a million records)."""
    errdex.open_index(store)


def format_summary(summary: MineSummary) -> str:
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
    if summary.skipped:
        skipped = ", ".join(f"{count} {why}" for why, count in sorted(summary.skipped.items()))
        lines.append(f"  skipped files: {skipped}")
    if summary.partially_parsed:
        lines.append(
            f"  {summary.partially_parsed} file(s) had syntax errors; "
            "their readable parts were mined"
        )
    return "\n".join(lines)


def _read_text(text: str | None) -> str:
    if text is None or text == "-":
        if text is None and sys.stdin.isatty():
            raise UsageError(
                "nothing to explain: pass the error text as an argument, or '-' to read stdin"
            )
        data = sys.stdin.read(MAX_INPUT_CHARS + 1)
        return data
    return text


@main.command()
@click.argument("text", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {\"matches\": [...]}.")
@click.option("--top", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--repo", help="Only records of this OWNER/NAME.")
@click.pass_obj
@_handle_errors
def explain(
    settings: _Settings, text: str | None, as_json: bool, top: int, repo: str | None
) -> None:
    """Find the source of an error: TEXT is a message, traceback or panic ('-' reads stdin)."""
    pasted = _read_text(text)
    with settings.store() as store:
        matches = errdex.open_index(store).explain(pasted, top=top, repo=repo)
    if as_json:
        click.echo(json_text({"matches": [m.to_json() for m in matches]}))
    elif matches:
        print_matches(Terminal(), matches)
    else:
        click.echo("no record matches this error; mine the repository that raised it first",
                   err=True)
    if not matches:
        sys.exit(EXIT_NO_MATCH)


@main.command()
@click.argument("logfile", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True,
              help="Print JSON Lines: {\"line\", \"text\", \"matches\"} per error event.")
@click.option("--top", type=click.IntRange(min=1), default=1, show_default=True,
              help="Records per event (the summary counts the best one).")
@click.option("--repo", help="Only records of this OWNER/NAME.")
@click.option("--jobs", type=click.IntRange(min=1),
              help="Worker processes for logs over 256 KB (default: all cores).")
@click.pass_obj
@_handle_errors
def scan(
    settings: _Settings, logfile: str, as_json: bool, top: int, repo: str | None,
    jobs: int | None,
) -> None:
    """Annotate every error event in LOGFILE ('-' reads stdin) with its record."""
    summary = ScanSummary()
    console = Terminal()
    with settings.store() as store, _open_log(logfile) as stream:
        index = errdex.open_index(store)
        for event in scan_log(index, stream, top=top, repo=repo, summary=summary,
                              jobs=jobs or os.cpu_count() or 1):
            if as_json:
                click.echo(json_text(event.to_json()))
            else:
                print_scanned(console, event)
    if not as_json:
        print_scan_summary(console, summary)
    elif summary.skipped_lines:
        click.echo(skipped_note(summary), err=True)
    if not summary.matched:
        sys.exit(EXIT_NO_MATCH)


@contextmanager
def _open_log(path: str) -> Iterator[TextIO]:
    if path == "-":
        yield sys.stdin
        return
    try:
        handle = open(path, encoding="utf-8", errors="replace")  # noqa: SIM115
    except FileNotFoundError as exc:
        raise UsageError(f"{path}: no such log file") from exc
    except IsADirectoryError as exc:
        raise UsageError(f"{path}: is a folder; give a log file") from exc
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from exc
    with handle:
        yield handle


@main.command()
@click.argument("query")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {\"records\": [...]}.")
@click.option("--limit", type=click.IntRange(min=1), default=20, show_default=True)
@click.option("--repo", help="Only records of this OWNER/NAME.")
@click.pass_obj
@_handle_errors
def search(
    settings: _Settings, query: str, as_json: bool, limit: int, repo: str | None
) -> None:
    """Full-text search over messages, explanations and tags (any text is safe)."""
    with settings.store() as store:
        found = store.search(query, limit=limit, repo=repo)
    if as_json:
        click.echo(json_text({"records": [s.record.model_dump(mode="json") for s in found]}))
    elif found:
        Terminal().print(search_table(found))
    else:
        click.echo(f"no record mentions {visible(repr(query))}", err=True)
    if not found:
        sys.exit(EXIT_NO_MATCH)


@main.command()
@click.argument("id_or_slug")
@click.option("--json", "as_json", is_flag=True, help="Print the record as JSON.")
@click.option("--repo", help="OWNER/NAME when the slug is in several repositories.")
@click.pass_obj
@_handle_errors
def show(settings: _Settings, id_or_slug: str, as_json: bool, repo: str | None) -> None:
    """Show one record by id or slug."""
    with settings.store() as store:
        stored = store.show(id_or_slug, repo=repo)
    if as_json:
        click.echo(json_text(stored.record.model_dump(mode="json")))
    else:
        Terminal().print(record_panel(stored.record, stored.extras))


@main.command("import")
@click.argument("file", type=click.Path(allow_dash=True))
@click.pass_obj
@_handle_errors
def import_command(settings: _Settings, file: str) -> None:
    """Import a dataset: JSONL, one line / record, Parquet, or a dataset folder.

    Validated first, all or nothing; importing the same records again changes nothing.
    """
    with settings.store() as store:
        count = import_dataset(store, file) if file == "-" else import_path(store, file)
        _warm_index(store)
    click.echo(f"imported {count} record(s) from {file}")


@main.command()
@click.option("--format", "fmt", type=click.Choice(["jsonl", "parquet"]), default="jsonl",
              show_default=True)
@click.option("--schema", type=click.Choice(["2", "3"]), default="2", show_default=True,
              help="2: exactly the seed's fields; 3: with errdex's optional fields.")
@click.option("--repo", help="Only records of this OWNER/NAME.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Output file (default: stdout for jsonl); written atomically.")
@click.option("--dataset", "dataset_dir", type=click.Path(file_okay=False),
              help="Write a dataset folder: JSONL + Parquet + JSON Schema + README card.")
@click.pass_obj
@_handle_errors
def export(
    settings: _Settings, fmt: str, schema: str, repo: str | None, output: str | None,
    dataset_dir: str | None,
) -> None:
    """Export records as a versioned dataset (every line stamped with datasetVersion)."""
    with settings.store() as store:
        if dataset_dir:
            count = write_dataset_folder(store, Path(dataset_dir), schema=int(schema), repo=repo)
            target = dataset_dir
        elif fmt == "parquet":
            if not output or output == "-":
                raise UsageError("--format parquet needs -o FILE.parquet (it is not text)")
            count = write_parquet(store.records(repo), Path(output), schema=int(schema),
                                  version=now_iso())
            target = output
        else:
            count = export_dataset(store, output, schema=int(schema), repo=repo)
            target = output or "-"
    if target != "-":
        click.echo(f"exported {count} record(s) to {target}", err=True)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Interface to listen on (127.0.0.1: this machine only).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--allowed-host", "allowed_hosts", multiple=True, metavar="NAME",
              help="Also answer requests for this host name (repeatable; '*' for any). "
                   "Loopback names and the --host address are always allowed; other "
                   "names get 400, which stops DNS rebinding.")
@click.pass_obj
@_handle_errors
def serve(settings: _Settings, host: str, port: int, allowed_hosts: tuple[str, ...]) -> None:
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
    click.echo(f"errdex: serving {redact(str(db_path))} on http://{host}:{port}/", err=True)
    uvicorn.run(create_app(db_path, allowed_hosts=names), host=host, port=port,
                log_level="warning")


@main.command("mcp")
@click.pass_obj
@_handle_errors
def mcp_command(settings: _Settings) -> None:
    """Serve the index to coding agents over MCP on stdio (needs the 'web' extra)."""
    try:
        from errdex.interfaces.mcp import run_mcp
    except ImportError as exc:
        raise UsageError(f"the MCP server needs the 'web' extra ({exc.name} is missing): "
                         "pip install 'errdex[web]'") from exc
    with settings.store() as store:
        db_path = store.path
    run_mcp(db_path)


if __name__ == "__main__":
    main()
