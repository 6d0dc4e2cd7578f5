"""Log statements below warning: indexed so ``scan`` can name the line that wrote a log
entry, but never records (not exported, not counted, not in datasets).

Warning, error and fatal log calls are records (``errorType: log``); a trace, debug,
info or notice call is a ``LogStatement`` in its own table, written with the mine that
found it and replaced per file as records are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# The one level vocabulary every language's log calls map onto, least severe first.
LogLevel = Literal["trace", "debug", "info", "notice", "warning", "error", "fatal"]
LEVELS: tuple[LogLevel, ...] = ("trace", "debug", "info", "notice", "warning", "error",
                                "fatal")
# Levels a statement is a record at (its severity is the level); below them: the table.
RECORD_LEVELS: frozenset[LogLevel] = frozenset({"warning", "error", "fatal"})


@dataclass(frozen=True)
class LogStatement:
    """One log call below warning: where it is, its level, and what it prints.

    ``template`` is the message as written in source (a record's ``errorMessage``) and
    ``pattern`` its regex (a record's ``messagePattern``); ``logger`` is the logger's
    name when the source tells it (``LoggerFactory.getLogger(Foo.class)`` → ``Foo``).
    """

    repo: str
    file_path: str
    line_number: int
    level: LogLevel
    template: str
    pattern: str
    symbol: str | None = None
    language: str | None = None
    logger: str | None = None


def is_record_level(level: LogLevel) -> bool:
    """Whether a log call at ``level`` becomes a record (else a ``LogStatement``)."""
    return level in RECORD_LEVELS


__all__ = ["LEVELS", "RECORD_LEVELS", "LogLevel", "LogStatement", "is_record_level"]
