"""Structured log layouts (JSON lines, logfmt, journald's export format) and the prefixes
container runtimes put before each line (Docker's json-file, Kubernetes' CRI, ``kubectl
logs --prefix``, Docker Compose), read into the same fields as a line layout's groups.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator

JOURNAL_START = ("__CURSOR=", "__REALTIME_TIMESTAMP=")

# field name as written by common loggers → the layout's field
_KEYS: dict[str, str] = {}
for _names, _field in (
    (("msg", "message", "MESSAGE", "@message", "event"), "message"),
    (("level", "lvl", "severity", "levelname", "loglevel", "@level", "log.level", "PRIORITY"),
     "level"),
    (("logger", "logger_name", "name", "loggerName", "log.logger", "component"), "logger"),
    (("time", "ts", "timestamp", "@timestamp", "asctime", "t"), "time"),
    (("caller", "source", "log.origin.file.name"), "caller"),
    (("thread", "thread_name", "threadName"), "thread"),
    (("file", "filename", "CODE_FILE"), "file"),
    (("line", "lineno", "CODE_LINE"), "line"),
    (("SYSLOG_IDENTIFIER", "program", "app"), "program"),
    (("pid", "_PID", "process"), "pid"),
):
    for _name in _names:
        _KEYS[_name] = _field


def _fields(pairs: Iterable[tuple[str, object]]) -> dict[str, str] | None:
    out: dict[str, str] = {}
    for key, value in pairs:
        name = _KEYS.get(key)
        if name and name not in out and isinstance(value, (str, int, float)):
            out[name] = str(value)
    if "message" not in out:
        return None
    if "caller" in out and "file" not in out:  # zap's "caller": "pkg/file.go:42"
        file, _, line = out["caller"].rpartition(":")
        if file and line.isdigit():
            out["file"], out["line"] = file, line
    return out


def json_fields(line: str) -> dict[str, str] | None:
    """A JSON log line's fields (its message always), or None."""
    if not line.startswith("{"):
        return None
    try:
        value = json.loads(line)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    return _fields(value.items())


_LOGFMT = re.compile(r'([\w.@\-]+)=("(?:[^"\\]|\\.)*"|\S*)')


def logfmt_fields(line: str) -> dict[str, str] | None:
    """A logfmt line's fields (``level=warn msg="disk full" logger=store``), or None."""
    if "=" not in line:
        return None
    pairs = []
    for key, value in _LOGFMT.findall(line):
        if value.startswith('"'):
            value = value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        pairs.append((key, value))
    return _fields(pairs) if len(pairs) >= 2 else None


def journal_entries(lines: Iterable[tuple[int, str]]
                    ) -> Iterator[tuple[int, str, str, dict[str, str]]]:
    """(first line, text, message, fields) of each entry of ``journalctl -o export``: fields
    one ``KEY=value`` a line, entries separated by a blank line."""
    first, text = 0, ""
    pairs: list[tuple[str, object]] = []
    for number, raw in lines:
        line = raw.rstrip("\r\n")
        if not line:
            if pairs:
                fields = _fields(pairs)
                if fields is not None:
                    message = fields.pop("message")
                    yield first, text, message, fields
            first, text = 0, ""
            pairs = []
            continue
        if not first:
            first = number
        text += raw
        key, equals, value = line.partition("=")
        if equals:
            pairs.append((key, value))
    if pairs:
        fields = _fields(pairs)
        if fields is not None:
            message = fields.pop("message")
            yield first, text, message, fields


_CRI = re.compile(r"^\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d) (?:stdout|stderr) [FP] ")
_KUBECTL = re.compile(r"^\[pod/[^\]\s]+\] ")
_COMPOSE = re.compile(r"^[\w.\-]{1,40} +\| ")


def peel_container(line: str) -> tuple[str | None, str]:
    """(the container prefix's kind, the line without it), or (None, the line)."""
    if line.startswith('{"log":'):
        try:
            value = json.loads(line)
        except ValueError:
            return None, line
        if isinstance(value, dict) and isinstance(value.get("log"), str):
            return "docker", value["log"].rstrip("\n")
        return None, line
    for kind, prefix in (("cri", _CRI), ("kubectl", _KUBECTL), ("compose", _COMPOSE)):
        found = prefix.match(line)
        if found:
            return kind, line[found.end():]
    return None, line


__all__ = ["JOURNAL_START", "journal_entries", "json_fields", "logfmt_fields",
           "peel_container"]
