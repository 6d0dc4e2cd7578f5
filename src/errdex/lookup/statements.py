"""Info, debug and trace log entries mapped to the statement that wrote them (the store's
log statements table: never records), for ``scan --all-levels``.

Like the record index, a statement is filed under the rarest word of its literal text and
verified only when every other word of it is in the message; a statement that is all
holes is never a candidate (it would explain any line). Loaded once per process.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from errdex.records.log_statements import LogStatement
from errdex.templates.analysis import placeholder_names, shape_of
from errdex.templates.matching import verify

_WORD = re.compile(r"[A-Za-z0-9_]+")
_MIN_LITERAL = 8  # less literal text than this: too little to name a statement by


@dataclass(frozen=True)
class StatementMatch:
    """The log statement below warning that wrote an entry, and the hole values."""

    statement: LogStatement
    score: float
    reason: str
    bound: dict[str, str]

    def to_json(self) -> dict[str, object]:
        s = self.statement
        return {"score": round(self.score, 4), "reason": self.reason, "bound": self.bound,
                "statement": {"repo": s.repo, "filePath": s.file_path,
                              "lineNumber": s.line_number, "level": s.level,
                              "template": s.template, "logger": s.logger,
                              "symbol": s.symbol}}


class Statements:
    """The log statements of a store, by key word."""

    def __init__(self, statements: list[LogStatement]):
        self._all = statements
        words = [(i, _words(s.pattern)) for i, s in enumerate(statements)]
        frequency = Counter(w for _, ws in words for w in ws)
        self._by_key: dict[str, list[tuple[int, frozenset[str], int]]] = {}
        for i, ws in words:
            literal = sum(len(f) for f in shape_of(statements[i].pattern).fragments)
            if not ws or literal < _MIN_LITERAL:
                continue
            key = min(ws, key=lambda w: (frequency[w], -len(w)))
            self._by_key.setdefault(key, []).append((i, frozenset(ws), literal))

    @classmethod
    def of(cls, store: Any, repo: str | None = None) -> Statements:
        """The statements of ``store`` (none for a store without the table)."""
        read = getattr(store, "log_statements", None)
        return cls(list(read(repo)) if read is not None else [])

    def __len__(self) -> int:
        return len(self._all)

    def match(self, message: str, names: list[str], level: str | None
              ) -> StatementMatch | None:
        """The statement whose pattern fullmatches ``message``: the most literal text, then
        the one in a file the entry's logger names, then the entry's level."""
        words = set(_WORD.findall(message))
        best: tuple[tuple[int, bool, bool], LogStatement, tuple[str | None, ...]] | None = None
        for word in words:
            for i, needed, literal in self._by_key.get(word, ()):
                if not needed <= words:
                    continue
                statement = self._all[i]
                groups = verify(statement.pattern, message)
                if groups is None:
                    continue
                rank = (literal, _names(statement, names), statement.level == level)
                if best is None or rank > best[0]:
                    best = (rank, statement, groups)
        if best is None:
            return None
        (literal, named, _), statement, groups = best
        reason = f"full pattern match of the {statement.level} statement"
        if named:
            reason += "; the log names its file"
        names_of = placeholder_names(statement.template, len(groups))
        bound = {name: value for name, value in zip(names_of, groups, strict=False)
                 if value is not None}
        return StatementMatch(statement, 1.0 + 0.3 * min(1.0, literal / 80) + 0.2 * named,
                              reason, bound)


def _words(pattern: str) -> list[str]:
    """The whole words of a pattern's literal text: a word glued to a hole (``0x`` of
    ``0x(.+?)``) is only part of a word of the message, so it cannot be required."""
    fragments = shape_of(pattern).fragments
    last = len(fragments) - 1
    return sorted({m.group() for k, fragment in enumerate(fragments)
                   for m in _WORD.finditer(fragment)
                   if not (k > 0 and m.start() == 0)
                   and not (k < last and m.end() == len(fragment))})


def _names(statement: LogStatement, names: list[str]) -> bool:
    path = PurePosixPath(statement.file_path)
    stem = str(path.with_suffix(""))
    return any(path.stem == name or stem.endswith("/" + name) or statement.logger == name
               for name in names)


__all__ = ["StatementMatch", "Statements"]
