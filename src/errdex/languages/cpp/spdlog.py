"""spdlog's logging calls as log sites: ``spdlog::error("cannot open {}", path)``,
``SPDLOG_WARN("…", …)``, ``SPDLOG_LOGGER_ERROR(logger, "…", …)`` and a logger's own
``logger->error("…", …)`` (a receiver named for logging: ``log``, ``m_logger``).

The format is fmt's (``{}`` holes, one per argument after it); the default pattern prints
``[2024-05-01 12:00:00.123] [error] `` before it, a log prefix the paste's reader strips.
``critical`` is logged as ``fatal``; ``trace``/``debug``/``info`` are scan-only statements.
"""

from __future__ import annotations

import re

from errdex.languages._engine import Captures
from errdex.languages._engine.pieces import has_words
from errdex.languages.base import Site, line_of, text
from errdex.languages.c.family import STRING_TYPES, arguments, message_string
from errdex.languages.cpp.calls import cpp_symbol
from errdex.languages.cpp.messages import format_given
from errdex.records.log_statements import LogLevel
from errdex.templates.template import Template

_LEVELS: dict[str, LogLevel] = {"trace": "trace", "debug": "debug", "info": "info",
                                "warn": "warning", "error": "error", "critical": "fatal"}
_NAME = re.compile(r"(?:::)?spdlog::(?P<free>\w+)|SPDLOG_(?P<logger>LOGGER_)?(?P<macro>[A-Z]+)|"
                   r"(?P<receiver>[\w.\->()\[\]]+)(?:->|\.)(?P<method>\w+)")
_LOGGERISH = re.compile(r"(?i)log")


def spdlog_site(captured: Captures, file: object) -> Site | None:
    """The log site of one spdlog call (module docstring); None for any other call."""
    call = captured["spd"][0]
    found = _NAME.fullmatch(text(captured["spd.name"][0]))
    if found is None:
        return None
    word = found.group("free") or found.group("method") or (found.group("macro") or "").lower()
    level = _LEVELS.get(word)
    receiver = found.group("receiver")
    if level is None or (receiver is not None and not _LOGGERISH.search(receiver)):
        return None
    args = arguments(captured["spd.args"][0])
    at = 1 if found.group("logger") else 0
    if len(args) <= at or args[at].type not in STRING_TYPES:
        return None
    template = format_given(args[at], args[at + 1:])
    if template is None:
        plain = message_string(args[at])
        if plain is None or len(args) > at + 1:
            return None
        template = Template(plain.written, plain.parts())
    if not has_words(template.parts):
        return None
    return Site(template, "log", line_of(call), symbol=cpp_symbol(call), level=level)
