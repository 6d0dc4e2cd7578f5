"""The one log-level vocabulary: a logging method, macro or constant name → its level.

Every language reads log calls through ``level_of`` instead of its own set of names, so
``LOG.warn``, ``logger.warning``, ``log::warn!``, ``zap.S().Warnw``, ``LogWarning``,
``syslog(LOG_WARNING, …)`` and ``os_log(.fault, …)`` agree on what a warning is. The
level decides what a statement becomes (``errdex.records.log_statements``): a record
at warning and above, a scan-only statement below.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from errdex.records.log_statements import LogLevel, is_record_level
from errdex.records.model import Severity

# Level words as loggers spell them (lower case), across SLF4J/log4j/JUL, Python logging,
# Go's logrus/zap/slog/klog/glog, Rust log/tracing, .NET ILogger/Serilog, PSR-3, Ruby
# Logger, Swift Logger/os_log and syslog priorities.
_WORDS: dict[str, LogLevel] = {
    "trace": "trace", "finest": "trace", "finer": "trace", "verbose": "trace",
    "debug": "debug", "fine": "debug", "dbg": "debug",
    "info": "info", "information": "info", "informational": "info", "config": "info",
    "notice": "notice",
    "warn": "warning", "warning": "warning",
    "error": "error", "err": "error", "exception": "error", "severe": "error",
    "dpanic": "error", "fault": "error",
    "critical": "fatal", "crit": "fatal", "fatal": "fatal", "alert": "fatal",
    "emergency": "fatal", "emerg": "fatal",
}
# Decorations around the level word: Go's ``Infof``/``Infoln``/``Infow``/``InfoS``/
# ``InfoDepth``/``InfoContext``, .NET's ``LogInformation``, syslog's ``LOG_INFO``.
_GO_SUFFIX = re.compile(r"(?:f|ln|w|s|depth|context|ctx)$")
_PREFIX = re.compile(r"^(?:log_?|_)")


def level_of(name: str) -> LogLevel | None:
    """The level a logging method, macro or constant named ``name`` logs at, else None.

    ``warn``, ``Warnf``, ``LogWarning``, ``LOG_WARNING``, ``warning!`` → ``warning``;
    names that are no level word (``log``, ``print``) → None.
    """
    word = name.strip().rstrip("!").lower()
    if word in _WORDS:
        return _WORDS[word]
    bare = _PREFIX.sub("", word)
    if bare in _WORDS:
        return _WORDS[bare]
    if name[:1].isupper() or name.endswith(("f", "ln", "w", "S")):
        stem = _GO_SUFFIX.sub("", bare)
        if stem != bare and stem in _WORDS:
            return _WORDS[stem]
    return None


def severity_of(level: LogLevel) -> Severity | None:
    """A record's severity for a statement at ``level``; None below warning."""
    if not is_record_level(level):
        return None
    return "warning" if level == "warning" else "fatal" if level == "fatal" else "error"


def is_logger_name(receiver: str) -> bool:
    """Whether an expression names a logger (``LOG``, ``this.logger``, ``log``, ``_log``,
    ``LOGGER``, ``zap.L()``, ``slog``): its last part holds ``log``."""
    last = receiver.rsplit(".", 1)[-1].rsplit("->", 1)[-1].rsplit("::", 1)[-1]
    return "log" in last.lower()


# ``LOG = LoggerFactory.getLogger(Server.class)``, ``log = Logger.getLogger("app.db")``,
# ``LOG = logging.getLogger(__name__)``: a logger variable and the name it logs under.
_GET_LOGGER = re.compile(
    rb"""\b(\w+)\s*(?::\s*[\w.<>]+\s*)?=\s*(?:[\w.]+\.)?get(?:Logger|Log)\(\s*"""
    rb"""(?:([\w.]+)\.class|["']([^"'\n]+)["']|(__name__))\s*\)""")


@lru_cache(maxsize=16)
def logger_names(source: bytes) -> dict[str, str]:
    """The file's logger variables → their logger name (a class as written, a string, or
    ``__name__``: the module's dotted path, which ``module_logger`` spells)."""
    found: dict[str, str] = {}
    for match in _logger_matches(source):
        name = match.group(2) or match.group(3) or match.group(4)
        found.setdefault(match.group(1).decode(), name.decode("utf-8", "replace"))
    return found


# What ``_GET_LOGGER`` can match before ``getLog``: names, blanks, ``:``, ``.``, ``<>``, ``=``.
_BEFORE = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
                    b" \t\n\r\f\v:.<>=")


def _logger_matches(source: bytes) -> Iterator[re.Match[bytes]]:
    """``_GET_LOGGER.finditer(source)``, tried only just before each ``getLog``: every match
    holds one, after a run of ``_BEFORE`` bytes that the match starts in (a scan of the
    whole file tried the pattern at every byte of it: the most of a file's log sites' cost).
    The same matches, in the same order."""
    position = 0
    found = source.find(b"getLog")
    while found != -1:
        start = found
        while start > position and source[start - 1] in _BEFORE:
            start -= 1
        for at in range(start, found + 1):  # the leftmost match, as a scan finds it
            match = _GET_LOGGER.match(source, at)
            if match is not None:
                yield match
                position = match.end()
                break
        found = source.find(b"getLog", max(found + 1, position))


def module_logger(logger: str | None, path: str) -> str | None:
    """``__name__`` → the Python module a file is (``nova/compute/manager.py`` →
    ``nova.compute.manager``); any other name as it is."""
    if logger != "__name__":
        return logger
    module = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    return module.removeprefix("src.") or None


__all__ = ["is_logger_name", "level_of", "logger_names", "module_logger", "severity_of"]
