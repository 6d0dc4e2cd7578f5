"""``scan --group``: one row per statement (or per template the log taught), the table an
operator wants from a log of millions of lines: what wrote it, at what level, how often,
first and last line, an example."""

from __future__ import annotations

from dataclasses import dataclass

from errdex.lookup.scan import ScannedEvent


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

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "statement": self.statement, "name": self.name,
                "level": self.level, "count": self.count, "firstLine": self.first_line,
                "lastLine": self.last_line, "example": self.example,
                "approximate": self.approximate}


class ScanGroups:
    """Rows built as events go by; memory grows with the statements, not the lines."""

    def __init__(self) -> None:
        self.rows: dict[str, GroupRow] = {}

    def add(self, event: ScannedEvent) -> None:
        key, kind, where, name, approximate = _identity(event)
        row = self.rows.get(key)
        if row is None:
            example = event.text.partition("\n")[0].rstrip()
            self.rows[key] = GroupRow(key, kind, where, name, event.level, 1, event.line,
                                      event.line, example, approximate)
            return
        row.count += 1
        row.last_line = event.line
        if kind == "template" and event.template:
            row.statement = row.name = event.template  # the template as learnt so far
        if row.level is None:
            row.level = event.level

    def ordered(self) -> list[GroupRow]:
        """Most events first; the first line breaks ties."""
        return sorted(self.rows.values(), key=lambda r: (-r.count, r.first_line))


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
