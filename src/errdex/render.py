"""Readable terminal output (Rich) for matches and records. Pure presentation."""

from __future__ import annotations

from rich.console import Console, Group
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from errdex.lookup.index import Match
from errdex.many import ManySummary
from errdex.record import Record, RecordExtras
from errdex.scan import ScannedEvent, ScanSummary
from errdex.store import StoredRecord

_LEXERS = {"python": "python", "rust": "rust"}
_CONTEXT_LINES = 6


def print_matches(console: Console, matches: list[Match]) -> None:
    for rank, match in enumerate(matches, 1):
        console.print(match_panel(rank, match))


def match_panel(rank: int, match: Match) -> Panel:
    record = match.record
    title = f"#{rank}  {record.repo} · {record.slug}"
    subtitle = f"score {match.score:.2f}" + (" · approximate" if match.approximate else "")
    return Panel(
        record_body(record, match.extras, match=match), title=title, subtitle=subtitle,
        title_align="left", subtitle_align="right",
        border_style="yellow" if match.approximate else "green",
    )


def record_panel(record: Record, extras: RecordExtras) -> Panel:
    return Panel(record_body(record, extras), title=f"{record.repo} · {record.slug}",
                 title_align="left", border_style="cyan")


def record_body(record: Record, extras: RecordExtras, match: Match | None = None) -> Group:
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold")
    facts.add_column(overflow="fold")
    facts.add_row("message", Text(record.errorMessage))
    kind = record.errorType + (f" · {record.errorClass}" if record.errorClass else "")
    facts.add_row("kind", kind)
    symbol = f"  in {extras.enclosingSymbol}" if extras.enclosingSymbol else ""
    facts.add_row("where", f"{record.filePath}:{record.lineNumber}{symbol}")
    if record.githubUrl:
        facts.add_row("link", Text(record.githubUrl, style=f"link {record.githubUrl}"))
    if match is not None and match.removed is not None:
        when = (match.removed.sha or "")[:12]
        facts.add_row("removed", Text(f"gone since commit {when}: this is what an older "
                                      "version said", style="yellow"))
    if match is not None:
        facts.add_row("why", match.reason)
        if match.bound:
            facts.add_row("bound", ", ".join(f"{k} = {v!r}" for k, v in match.bound.items()))
    parts: list[object] = [facts, Text(""), source_excerpt(record, extras)]
    for label, value in _explanation(record):
        parts.append(Text(""))
        parts.append(Text(label, style="bold underline"))
        parts.append(Text(value))
    return Group(*parts)  # type: ignore[arg-type]


def source_excerpt(record: Record, extras: RecordExtras) -> Syntax:
    """The lines around the raising line, with real line numbers and that line highlighted."""
    lines = record.sourceCode.split("\n")
    offset = record.lineNumber - record.sourceCodeStart
    first = max(0, offset - _CONTEXT_LINES)
    last = min(len(lines), offset + _CONTEXT_LINES + 1)
    lexer = _LEXERS.get(extras.language or "", "text")
    return Syntax(
        "\n".join(lines[first:last]), lexer, line_numbers=True,
        start_line=record.sourceCodeStart + first, highlight_lines={record.lineNumber},
        theme="ansi_dark", word_wrap=True,
    )


def print_scanned(console: Console, event: ScannedEvent) -> None:
    """One log event: where it is in the log, and the record that explains it."""
    first = event.text.strip().splitlines()[0] if event.text.strip() else ""
    console.print(Text(f"line {event.line}: ", style="bold") + Text(first[:200]))
    if not event.matches:
        console.print(Text("  no record matches", style="dim"))
        return
    best = event.matches[0]
    record = best.record
    note = " (approximate)" if best.approximate else ""
    bound = ", ".join(f"{k}={v!r}" for k, v in best.bound.items())
    console.print(
        Text("  → ", style="green") + Text(record.slug, style="bold")
        + Text(f"  {record.repo} {record.filePath}:{record.lineNumber}{note}")
        + (Text(f"  [{bound}]", style="dim") if bound else Text(""))
    )


def print_scan_summary(console: Console, summary: ScanSummary) -> None:
    console.print(
        f"\n{summary.lines:,} lines, {summary.events:,} error events, "
        f"{summary.matched:,} explained by {len(summary.by_record):,} records"
    )
    if not summary.by_record:
        return
    table = Table(header_style="bold")
    table.add_column("events", justify="right")
    table.add_column("record", overflow="fold")
    table.add_column("where", overflow="fold")
    for record_id, count in summary.by_record.most_common(20):
        record = summary.examples[record_id].record
        where = f"{record.repo} {record.filePath}:{record.lineNumber}"
        table.add_row(str(count), record.slug, where)
    console.print(table)


def many_table(summary: ManySummary) -> Table:
    """One row per LIST line of ``mine-many``, then the totals in the title."""
    table = Table(title=f"mine-many: {summary.mined} mined, {summary.unchanged} unchanged, "
                        f"{summary.failed} failed, {summary.records} records "
                        f"in {summary.seconds:.1f}s ({summary.backend})")
    for column in ("line", "repository", "status", "commit", "records", "seconds", "reason"):
        table.add_column(column, justify="right" if column in ("line", "records", "seconds")
                         else "left", no_wrap=column != "reason", overflow="fold")
    style = {"mined": "green", "unchanged": "dim", "failed": "red"}
    for o in summary.outcomes:
        table.add_row(
            str(o.entry.line), o.repo or o.entry.text, f"[{style[o.status]}]{o.status}",
            (o.sha or "")[:12], str(o.records) if o.status == "mined" else "",
            f"{o.seconds:.1f}" if o.seconds else "", o.reason or "",
        )
    return table


def search_table(found: list[StoredRecord]) -> Table:
    table = Table(show_lines=False, header_style="bold")
    table.add_column("slug", overflow="fold")
    table.add_column("where", overflow="fold")
    table.add_column("message", overflow="fold")
    for stored in found:
        record = stored.record
        table.add_row(record.slug, f"{record.repo} {record.filePath}:{record.lineNumber}",
                      record.errorMessage)
    return table


def _explanation(record: Record) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for label, value in (
        ("What it means", record.documentation),
        ("When it happens", record.triggerScenarios),
        ("Common situations", record.commonSituations),
    ):
        if value:
            out.append((label, value))
    if record.solutions:
        out.append(("How to fix it", "\n".join(f"• {s}" for s in record.solutions)))
    if record.exampleFix:
        out.append(("Example fix", record.exampleFix))
    if record.preventionTips:
        out.append(("Prevention", "\n".join(f"• {s}" for s in record.preventionTips)))
    return out
