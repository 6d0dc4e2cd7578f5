"""``scan --group``: one row per statement (or per template the log taught), the table an
operator wants from a log of millions of lines: what wrote it, at what level, how often,
first and last line, an example; under a statement, its variants (``variants_log``: the
entries told apart by the values in its holes, as a log parser would tell them apart)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from errdex.lookup.scan import ScannedEvent
from errdex.lookup.variants_log import Shape, Variant, Variants, shape_of_values


@dataclass
class GroupRow:
    """Every event one statement (or one learnt template) explains."""

    key: str
    kind: str  # "record" | "statement" | "template" (the log's own: no statement found)
    statement: str  # ``repo path:line`` of the statement, or the learnt template
    name: str  # the record's slug, the statement's template, or the learnt template
    level: str | None
    count: int
    first_line: int
    last_line: int
    example: str
    approximate: bool = False
    variants: Variants | None = field(default=None, repr=False)  # a statement's, by values

    def ordered_variants(self) -> list[Variant]:
        """The row's variants, most entries first (none for a learnt template)."""
        return self.variants.ordered() if self.variants is not None else []

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "kind": self.kind, "statement": self.statement, "name": self.name,
            "level": self.level, "count": self.count, "firstLine": self.first_line,
            "lastLine": self.last_line, "example": self.example,
            "approximate": self.approximate}
        if self.variants is not None:
            out["variants"] = [v.to_json() for v in self.ordered_variants()]
        return out


class ScanGroups:
    """Rows built as events go by; memory grows with the statements, not the lines."""

    def __init__(self) -> None:
        self.rows: dict[str, GroupRow] = {}

    def add(self, event: ScannedEvent) -> None:
        key, kind, where, name, approximate = _identity(event)
        row = self.rows.get(key)
        example = event.text.partition("\n")[0].rstrip()
        bound = _bound(event, kind, approximate)
        if row is None:
            variants = Variants(_pattern(event, kind)) if bound is not None else None
            row = self.rows[key] = GroupRow(key, kind, where, name, _level(event, kind), 1,
                                            event.line, event.line, example, approximate,
                                            variants)
            if variants is not None and bound is not None:
                variants.add(shape_of_values(bound), event.line, example)
            return
        if row.variants is not None:  # an approximate match of the same record: no values
            row.variants.add(shape_of_values(bound or {}), event.line, example)
        row.count += 1
        row.last_line = event.line
        if kind == "template" and event.template:
            row.statement = row.name = event.template  # the template as learnt so far
        if row.level is None:
            row.level = _level(event, kind)

    def group_of(self, event: ScannedEvent) -> tuple[Hashable, Shape | None] | None:
        """The (row, variant) an event added before belongs to, over every event added
        (None: a line of its own); what the logs benchmark scores."""
        key, kind, _, _, approximate = _identity(event)
        row = self.rows.get(key)
        if row is None or kind == "line":
            return None
        if row.variants is None:
            return key, None
        bound = _bound(event, kind, approximate)
        return key, row.variants.variant_of(shape_of_values(bound or {}))

    def ordered(self) -> list[GroupRow]:
        """Most events first; the first line breaks ties."""
        return sorted(self.rows.values(), key=lambda r: (-r.count, r.first_line))


def _level(event: ScannedEvent, kind: str) -> str | None:
    """The level the log gives the entry, else (a syslog line says none) the level of the
    statement that wrote it."""
    if event.level is None and kind == "statement" and event.statement is not None:
        return event.statement.statement.level
    return event.level


def _bound(event: ScannedEvent, kind: str, approximate: bool) -> dict[str, str] | None:
    """The hole values of the statement an event's row names (None: no statement, or an
    approximate match, whose values mean nothing)."""
    if kind == "record" and not approximate and event.matches:
        full = [m for m in event.matches if not m.approximate]
        return (full or event.matches)[0].bound
    if kind == "statement" and event.statement is not None:
        return event.statement.bound
    return None


def _pattern(event: ScannedEvent, kind: str) -> str | None:
    """The regex of the statement an event's row names."""
    if kind == "record":
        full = [m for m in event.matches if not m.approximate]
        return (full or event.matches)[0].record.message_pattern
    return event.statement.statement.pattern if event.statement is not None else None


def _identity(event: ScannedEvent) -> tuple[str, str, str, str, bool]:
    """(key, kind, where, name, approximate) of the group an event belongs to."""
    full = [m for m in event.matches if not m.approximate]
    if full or (event.matches and event.statement is None and event.group is None):
        match = (full or event.matches)[0]
        record = match.record
        where = f"{record.repo} {record.file_path}:{record.line_number}"
        return f"record {record.id}", "record", where, record.slug, match.approximate
    if event.statement is not None:
        s = event.statement.statement
        where = f"{s.repo} {s.file_path}:{s.line_number}"
        return f"statement {where}", "statement", where, s.template, False
    if event.group is not None:
        template = event.template or ""
        return f"template {event.group}", "template", template, template, False
    text = event.text.partition("\n")[0]
    return f"line {event.line}", "line", text, text, False


__all__ = ["GroupRow", "ScanGroups"]
