"""Readable terminal output (Rich) for matches and records. Pure presentation.

Every piece of repository or user text goes to Rich as a ``Text`` built by
:func:`plain` (never as a markup string: ``[/]`` in a message or ``[link=…]`` in a
path is data), with its control characters and bidi overrides made visible.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.style import Style
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from errdex import api
from errdex.visible import https_url, visible

if TYPE_CHECKING:  # annotations only: the API loads what these live in when first used
    from errdex.api import (
        ManySummary,
        Match,
        Record,
        RecordExtras,
        ScannedEvent,
        ScanSummary,
        StoredRecord,
        TextSiteMatch,
    )

_LEXERS = {"python": "python", "rust": "rust"}
_CONTEXT_LINES = 6
MAX_LINE_CHARS = 2000


class Terminal(Console):
    """The console the CLI prints results to: a closed pipe (``errdex search … | head``)
    is raised as ``BrokenPipeError`` for the CLI to end quietly, as every command does,
    instead of Rich's own exit with status 1."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


def plain(text: object, style: str | Style = "") -> Text:
    """Untrusted text as Rich ``Text``: no markup, controls shown as escapes."""
    return Text(visible(str(text)), style=style)


def print_matches(console: Console, matches: list[Match]) -> None:
    for rank, match in enumerate(matches, 1):
        console.print(match_panel(rank, match))


def match_panel(rank: int, match: Match) -> Panel:
    record = match.record
    title = plain(f"#{rank}  {record.repo} · {record.slug}")
    subtitle = Text(f"score {match.score:.2f}" + (" · approximate" if match.approximate else ""))
    return Panel(
        record_body(record, match.extras, match=match), title=title, subtitle=subtitle,
        title_align="left", subtitle_align="right",
        border_style="yellow" if match.approximate else "green",
    )


def print_text_sites(console: Console, matches: list[TextSiteMatch]) -> None:
    """Lines holding the message's text when no record matched: a place, not a record."""
    for rank, match in enumerate(matches, 1):
        facts = Table.grid(padding=(0, 2))
        facts.add_column(style="bold")
        facts.add_column()
        site = match.site
        facts.add_row("where", plain(f"{site.file_path}:{site.line_number}"))
        facts.add_row("text", plain(repr(site.text)))
        facts.add_row("why", plain(match.reason))
        if site.github_url:
            facts.add_row("source", link_text(site.github_url))
        console.print(Panel(facts, title=plain(f"#{rank}  {match.repo} · text only"),
                            subtitle=Text(f"score {match.score:.2f} · not a record"),
                            title_align="left", subtitle_align="right", border_style="blue"))


def record_panel(record: Record, extras: RecordExtras) -> Panel:
    return Panel(record_body(record, extras), title=plain(f"{record.repo} · {record.slug}"),
                 title_align="left", border_style="cyan")


def link_text(url: str) -> Text:
    """The URL, a terminal hyperlink only when it is ``https://``; anything else is shown
    as text with a note (an imported record may carry ``javascript:`` or worse)."""
    safe = https_url(url)
    if safe is not None:
        return Text(safe, style=Style(link=safe))
    return plain(url) + Text("  (not an https link: not linked)", style="dim")


def record_body(record: Record, extras: RecordExtras, match: Match | None = None) -> Group:
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold")
    facts.add_column(overflow="fold")
    facts.add_row("message", plain(record.error_message))
    kind = record.error_type + (f" · {record.error_class}" if record.error_class else "")
    facts.add_row("kind", plain(kind))
    symbol = f"  in {extras.enclosing_symbol}" if extras.enclosing_symbol else ""
    facts.add_row("where", plain(f"{record.file_path}:{record.line_number}{symbol}"))
    if extras.package:  # mined from a registry release or an installed environment
        registry = {"pypi": "PyPI", "npm": "npm"}.get(extras.package_ecosystem or "", "")
        facts.add_row("package", plain(
            f"{extras.package} version {extras.package_version}"
            + (f" from {registry}" if registry else "") + ": these are that version's lines"))
    if extras.template_sources:  # composed: raised here, written there
        facts.add_row("written in", plain("\n".join(
            f"{s.file_path}:{s.line_number} ({s.role})" for s in extras.template_sources)))
    if record.github_url:
        facts.add_row("link", link_text(record.github_url))
    if match is not None and match.removed is not None:
        when = (match.removed.sha or "")[:12]
        facts.add_row("removed", plain(f"gone since commit {when}: this is what an older "
                                       "version said", style="yellow"))
    if match is not None and match.version is not None:  # an older wording matched
        facts.add_row("version", plain(match.version.sentence(
            record.error_message, match.removed is not None), style="yellow"))
    if match is not None:
        facts.add_row("why", plain(match.reason))
        if match.bound:
            facts.add_row("bound", plain(", ".join(f"{k} = {v!r}" for k, v in match.bound.items())))
    parts: list[RenderableType] = [facts, Text(""), source_excerpt(record, extras)]
    for label, value in _explanation(record):
        parts.append(Text(""))
        parts.append(Text(label, style="bold underline"))
        parts.append(plain(value))
    return Group(*parts)


def _capped(line: str) -> str:
    if len(line) <= MAX_LINE_CHARS:
        return line
    return line[:MAX_LINE_CHARS] + f" … ({len(line) - MAX_LINE_CHARS:,} more characters)"


def source_excerpt(record: Record, extras: RecordExtras) -> Syntax:
    """The lines around the raising line, with real line numbers and that line highlighted."""
    lines = record.source_code.split("\n")
    offset = record.line_number - record.source_code_start
    first = max(0, offset - _CONTEXT_LINES)
    last = min(len(lines), offset + _CONTEXT_LINES + 1)
    lexer = _LEXERS.get(extras.language or "", "text")
    shown = "\n".join(_capped(visible(line)) for line in lines[first:last])
    return Syntax(
        shown, lexer, line_numbers=True,
        start_line=record.source_code_start + first, highlight_lines={record.line_number},
        theme="ansi_dark", word_wrap=True,
    )


class ScanPrinter:
    """``scan``'s annotated lines, written straight to the console's file a batch at a time.

    Rich lays out every ``print`` (measuring, wrapping, styling segments): per log event
    that cost six times the scan itself. These lines need none of it: each is one line of
    escaped text, bold, dim or green on a colour terminal (plain SGR codes), plain
    elsewhere. A long line is left to the terminal to wrap."""

    _BATCH = 256  # events per write
    _SGR: ClassVar[dict[str, str]] = {"bold": "\x1b[1m", "dim": "\x1b[2m", "green": "\x1b[32m"}

    def __init__(self, console: Console) -> None:
        self._file = console.file
        self._styled = console.is_terminal and console.color_system is not None
        self._pending: list[str] = []

    def _style(self, text: str, style: str) -> str:
        return f"{self._SGR[style]}{text}\x1b[0m" if self._styled else text

    def add(self, event: ScannedEvent) -> None:
        """One log event: where it is in the log, and the record that explains it."""
        stripped = event.text.strip()
        first = stripped.partition("\n")[0]
        out = self._pending
        out.append(self._style(f"line {event.line}: ", "bold") + visible(first[:200]))
        if not event.matches:
            out.append(self._style("  no record matches", "dim"))
        else:
            best = event.matches[0]
            record = best.record
            note = " (approximate)" if best.approximate else ""
            bound = ", ".join(f"{k}={v!r}" for k, v in best.bound.items())
            out.append(
                self._style("  → ", "green") + self._style(visible(record.slug), "bold")
                + visible(f"  {record.repo} {record.file_path}:{record.line_number}{note}")
                + (self._style(visible(f"  [{bound}]"), "dim") if bound else "")
            )
        if len(out) >= 2 * self._BATCH:
            self.flush()

    def flush(self) -> None:
        if self._pending:
            self._pending.append("")
            self._file.write("\n".join(self._pending))
            self._pending.clear()
            self._file.flush()


def print_scan_summary(console: Console, summary: ScanSummary) -> None:
    console.print(Text(
        f"\n{summary.lines:,} lines, {summary.events:,} error events, "
        f"{summary.matched:,} explained by {len(summary.by_record):,} records"
    ))
    if summary.skipped_lines:
        console.print(Text(api.skipped_note(summary)))
    if not summary.by_record:
        return
    table = Table(header_style="bold")
    table.add_column("events", justify="right")
    table.add_column("record", overflow="fold")
    table.add_column("where", overflow="fold")
    for record_id, count in summary.by_record.most_common(20):
        record = summary.examples[record_id].record
        where = f"{record.repo} {record.file_path}:{record.line_number}"
        table.add_row(Text(str(count)), plain(record.slug), plain(where))
    console.print(table)


def many_table(summary: ManySummary) -> Table:
    """One row per LIST line of ``mine-many``, then the totals in the title."""
    table = Table(title=Text(f"mine-many: {summary.mined} mined, {summary.unchanged} unchanged, "
                             f"{summary.failed} failed, {summary.records} records "
                             f"in {summary.seconds:.1f}s ({summary.backend})"))
    for column in ("line", "repository", "status", "commit", "records", "seconds", "reason"):
        table.add_column(column, justify="right" if column in ("line", "records", "seconds")
                         else "left", no_wrap=column != "reason", overflow="fold")
    style = {"mined": "green", "unchanged": "dim", "failed": "red"}
    for o in summary.outcomes:
        table.add_row(
            Text(str(o.entry.line)), plain(o.repo or o.entry.text),
            Text(o.status, style=style[o.status]), plain((o.sha or "")[:12]),
            Text(str(o.records) if o.status == "mined" else ""),
            Text(f"{o.seconds:.1f}" if o.seconds else ""), plain(o.reason or ""),
        )
    return table


def search_table(found: list[StoredRecord]) -> Table:
    table = Table(show_lines=False, header_style="bold")
    table.add_column("slug", overflow="fold")
    table.add_column("where", overflow="fold")
    table.add_column("message", overflow="fold")
    for stored in found:
        record = stored.record
        table.add_row(plain(record.slug),
                      plain(f"{record.repo} {record.file_path}:{record.line_number}"),
                      plain(record.error_message))
    return table


def _explanation(record: Record) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for label, value in (
        ("What it means", record.documentation),
        ("When it happens", record.trigger_scenarios),
        ("Common situations", record.common_situations),
    ):
        if value:
            out.append((label, value))
    if record.solutions:
        out.append(("How to fix it", "\n".join(f"• {s}" for s in record.solutions)))
    if record.example_fix:
        out.append(("Example fix", record.example_fix))
    if record.prevention_tips:
        out.append(("Prevention", "\n".join(f"• {s}" for s in record.prevention_tips)))
    return out
