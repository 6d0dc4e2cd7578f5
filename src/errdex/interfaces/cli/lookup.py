"""Commands that read records: ``explain``, ``scan``, ``search``, ``show``."""

from __future__ import annotations

import sys

import click

import errdex
from errdex.errors import EXIT_NO_MATCH, UsageError
from errdex.interfaces.cli.app import Settings, handle_errors
from errdex.interfaces.render import (
    ScanPrinter,
    Terminal,
    print_matches,
    print_scan_summary,
    print_text_sites,
    record_panel,
    search_table,
)
from errdex.visible import json_text, visible


def _read_text(text: str | None) -> str:
    if text is None or text == "-":
        if text is None and sys.stdin.isatty():
            raise UsageError(
                "nothing to explain: pass the error text as an argument, or '-' to read stdin"
            )
        data = sys.stdin.read(errdex.MAX_INPUT_CHARS + 1)
        return data
    return text


@click.command()
@click.argument("text", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {\"matches\": [...]}.")
@click.option("--top", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--repo", help="Only records of this OWNER/NAME.")
@click.option("--deps", type=click.Path(exists=True), envvar="ERRDEX_DEPS", show_envvar=True,
              help="A project's lockfile or folder: matches from the versions it pins rank "
                   "first, and a note says when the best is another version.")
@click.pass_obj
@handle_errors
def explain(
    settings: Settings, text: str | None, as_json: bool, top: int, repo: str | None,
    deps: str | None,
) -> None:
    """Find the source of an error: TEXT is a message, traceback or panic ('-' reads stdin)."""
    pasted = _read_text(text)
    # No record: the lines holding the message's text, flagged (exit 0: the line is found).
    found = errdex.resolve(pasted, db=settings.db, top=top, repo=repo, deps=deps)
    matches, texts = found.matches, found.text_sites
    origins = errdex.dataset_origins([m.record.repo for m in matches] + [t.repo for t in texts],
                                     db=settings.db)  # synced, not mined here: say so
    if as_json:
        click.echo(json_text(errdex.with_origins(found.to_json(), origins)))
    elif matches:
        print_matches(Terminal(), matches)
        if found.note:
            click.echo(f"note: {visible(found.note)}")
    elif texts:
        print_text_sites(Terminal(), texts)
    else:
        click.echo("no record matches this error; mine the repository that raised it first",
                   err=True)
    if origins and not as_json:
        click.echo(visible(errdex.origin_note(origins) or ""))
    if not matches and not texts:
        sys.exit(EXIT_NO_MATCH)


@click.command()
@click.argument("logfile", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True,
              help="Print JSON Lines: {\"line\", \"text\", \"matches\"} per error event.")
@click.option("--top", type=click.IntRange(min=1), default=1, show_default=True,
              help="Records per event (the summary counts the best one).")
@click.option("--repo", help="Only records of this OWNER/NAME.")
@click.option("--jobs", type=click.IntRange(min=1),
              help="Worker processes for logs over 256 KB (default: all cores).")
@click.option("--group", "grouped", is_flag=True,
              help="One row per statement: level, count, first and last line, an example.")
@click.option("--all-levels", is_flag=True,
              help="Map every entry, info and debug ones too (to the log statements mined).")
@click.option("--layout", metavar="PATTERN",
              help="The log's layout: a log4j-style pattern ('%d %-5p [%t] %c: %m%n') or a "
                   "layout's name (default: recognised from the first lines).")
@click.pass_obj
@handle_errors
def scan(
    settings: Settings, logfile: str, as_json: bool, top: int, repo: str | None,
    jobs: int | None, grouped: bool, all_levels: bool, layout: str | None,
) -> None:
    """Annotate every warning and error entry in LOGFILE ('-' reads stdin) with the
    statement that wrote it."""
    summary = errdex.ScanSummary()
    console = Terminal()
    groups = errdex.ScanGroups() if grouped else None
    statements = 0  # entries below warning mapped to their statement (--all-levels)
    lines: list[str] = []  # JSON Lines written a batch at a time
    printer = ScanPrinter(console)
    for event in errdex.scan(logfile, db=settings.db, top=top, repo=repo, jobs=jobs,
                             summary=summary, layout=layout, all_levels=all_levels,
                             group=grouped):
        statements += event.statement is not None
        if groups is not None:
            groups.add(event)
        elif as_json:
            lines.append(event.json_line())
            if len(lines) >= _JSON_BATCH:
                click.echo("\n".join(lines))
                lines.clear()
        elif event.statement is not None and not event.matches:
            printer.flush()
            _print_statement(event)
        else:
            printer.add(event)
    printer.flush()
    if lines:
        click.echo("\n".join(lines))
    if groups is not None:
        _print_groups(groups, as_json)
    if not as_json:
        print_scan_summary(console, summary)
    elif summary.skipped_lines:
        click.echo(errdex.skipped_note(summary), err=True)
    if not summary.matched and not statements:
        sys.exit(EXIT_NO_MATCH)


_JSON_BATCH = 256  # lines of ``scan --json`` per write (a chunk of the log holds more)


def _print_statement(event: errdex.ScannedEvent) -> None:
    """An entry below warning and the log statement that wrote it."""
    assert event.statement is not None
    s = event.statement.statement
    first = event.text.strip().partition("\n")[0]
    click.echo(visible(f"line {event.line}: {first[:200]}"))
    click.echo(visible(f"  → {s.level} statement  {s.repo} {s.file_path}:{s.line_number}"))


def _print_groups(groups: errdex.ScanGroups, as_json: bool) -> None:
    """``scan --group``: a row per statement, most events first (JSON Lines with --json)."""
    for row in groups.ordered():
        if as_json:
            click.echo(json_text(row.to_json()))
            continue
        what = {"record": row.name,
                "statement": f"{row.level} statement" if row.level else "statement",
                "template": "log template, no statement found", "line": "not grouped"}
        flag = " (approximate)" if row.approximate else ""
        where = "" if row.kind in ("template", "line") else f"{row.statement}  "
        click.echo(visible(f"{row.count:>7}  {row.level or '-':<7}  lines {row.first_line}-"
                           f"{row.last_line}  {where}{what[row.kind]}{flag}"))
        if row.kind == "template":
            click.echo(visible(f"         template: {row.name[:200]}"))
        click.echo(visible(f"         e.g. {row.example[:200]}"))
        _print_variants(row)


_SHOWN_VARIANTS = 10


def _print_variants(row: errdex.GroupRow) -> None:
    """A statement's variants (its entries told apart by their hole values), when several."""
    variants = row.ordered_variants()
    if len(variants) < 2:
        return
    click.echo(f"         {len(variants)} variants:")
    for variant in variants[:_SHOWN_VARIANTS]:
        click.echo(visible(f"         {variant.count:>7}  lines {variant.first_line}-"
                           f"{variant.last_line}  {(variant.text or variant.label)[:200]}"))
    if len(variants) > _SHOWN_VARIANTS:
        click.echo(f"         … {len(variants) - _SHOWN_VARIANTS} more (--json lists them)")


@click.command()
@click.argument("query")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {\"records\": [...]}.")
@click.option("--limit", type=click.IntRange(min=1), default=20, show_default=True)
@click.option("--repo", help="Only records of this OWNER/NAME.")
@click.pass_obj
@handle_errors
def search(
    settings: Settings, query: str, as_json: bool, limit: int, repo: str | None
) -> None:
    """Full-text search over messages, explanations and tags (any text is safe)."""
    found = errdex.search(query, db=settings.db, limit=limit, repo=repo)
    if as_json:
        click.echo(json_text({"records": [s.record.model_dump(mode="json") for s in found]}))
    elif found:
        Terminal().print(search_table(found))
    else:
        click.echo(f"no record mentions {visible(repr(query))}", err=True)
    if not found:
        sys.exit(EXIT_NO_MATCH)


@click.command()
@click.argument("id_or_slug")
@click.option("--json", "as_json", is_flag=True, help="Print the record as JSON.")
@click.option("--repo", help="OWNER/NAME when the slug is in several repositories.")
@click.pass_obj
@handle_errors
def show(settings: Settings, id_or_slug: str, as_json: bool, repo: str | None) -> None:
    """Show one record by id or slug."""
    stored = errdex.show(id_or_slug, db=settings.db, repo=repo)
    if as_json:
        click.echo(json_text(stored.record.model_dump(mode="json")))
    else:
        Terminal().print(record_panel(stored.record, stored.extras))
