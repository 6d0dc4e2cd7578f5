"""Log layouts: which framework wrote a log, read from its first lines, and each entry split
into its metadata (time, level, thread, logger, ``Class@line``, file, program, pid) and
its message.

The prefix a logging framework writes before each message is not part of the message a
statement in the source prints: read glued to it, a message that is identical matches
only approximately, or not at all. The prefix also says where the entry was written
(log4j's ``Class@line``, a logger's name, syslog's program), which ranks the statement
it names. Every line is read by one RE2 regex (linear in the line); a line no layout
reads continues the entry above it (a stack trace, a wrapped message).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, cast

import re2  # type: ignore[import-untyped]  # google-re2 ships no type information

from errdex.errors import UsageError
from errdex.lookup.layout_patterns import compile_layout
from errdex.lookup.layout_structured import (
    JOURNAL_START,
    journal_entries,
    json_fields,
    logfmt_fields,
    peel_container,
)

_LVL = (r"(?P<level>(?i:TRACE|DEBUG|FINEST|FINER|FINE|CONFIG|INFO|NOTICE|WARNING|WARN|"
        r"ERROR|ERR|SEVERE|FATAL|CRITICAL|CRIT|ALERT|EMERG|PANIC))")
_ISO = r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?"
_SYSLOG_TIME = r"[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d"
_PROGRAM = r"(?P<program>[\w./\-]+?)(?:\((?P<module>[\w\-]+)\))?(?:\[(?P<pid>\d+)\])?"

# name → line regex, most specific first: the first of those reading the most sample
# lines is the log's layout.
_FAMILIES: tuple[tuple[str, str], ...] = (
    ("log4j-location", compile_layout("%d{ISO8601} - %-5p [%t:%C{1}@%L] - %m%n")),
    ("log4j-thread", compile_layout("%d{ISO8601} %p [%t] %c: %m%n")),
    ("oslo", rf"^(?:(?P<source>\S+\.log\S*) )?(?P<time>{_ISO}) (?P<pid>\d+) {_LVL} "
             r"(?P<logger>[\w.\-]+) (?:\[(?P<context>[^\]]*)\] )?"
             # oslo's %(instance)s: "[instance: <uuid>] " before the message, metadata that
             # the program printed with it (a statement mined with that prefix holds it)
             r"(?P<printed>(?:\[instance: (?P<instance>[^\]]+)\] )?(?P<message>.*))$"),
    ("log4j", rf"^(?P<time>{_ISO}) +{_LVL} +(?P<logger>[A-Za-z_][\w$.\-]*): (?P<message>.*)$"),
    ("log4j-class-line", rf"^(?P<time>{_ISO}) +{_LVL} +(?P<class>[\w$.]+):(?P<line>\d+) - "
                         r"(?P<message>.*)$"),
    ("logback", r"^(?P<time>(?:\d{4}-\d\d-\d\d[ T])?\d\d:\d\d:\d\d[.,]\d{3}) "
                r"\[(?P<thread>[^\]]*)\] +" + _LVL
                + r" +(?P<logger>[\w$.\-]+) +- (?P<message>.*)$"),
    ("spring-boot", rf"^(?P<time>{_ISO}) +{_LVL} (?P<pid>\d+) --- (?:\[[^\]]*\] )?"
                    r"\[ *(?P<thread>[^\]]*?) *\] (?P<logger>[\w$.\-]+) *: (?P<message>.*)$"),
    ("rust", rf"^\[?(?P<time>{_ISO}) +{_LVL} +(?P<logger>\w+(?:::\w+)*)(?:\]|:) "
             r"(?P<message>.*)$"),
    ("log4j-short-date", r"^(?P<time>\d\d/\d\d/\d\d \d\d:\d\d:\d\d) +" + _LVL
                         + r" +(?P<logger>[\w$.\-]+): (?P<message>.*)$"),
    ("hdfs", r"^(?P<time>\d{6} \d{6}) (?P<thread>\d+) " + _LVL
             + r" (?P<logger>[\w$.\-]+): (?P<message>.*)$"),
    ("python-default", _LVL[:-1] + r"):(?P<logger>[\w.\-]*):(?P<message>.*)$"),
    ("python-dashes", rf"^(?P<time>{_ISO}) - (?P<logger>[\w.\-]+) - {_LVL} - (?P<message>.*)$"),
    ("bracketed-level", rf"^\[?(?P<time>{_ISO})\]? +\[{_LVL}\] +(?:(?P<logger>[\w.\-$]+): )?"
                        r"(?P<message>.*)$"),
    ("glog", r"^(?P<level>[IWEF])(?P<time>(?:\d{4})?\d{4} \d\d:\d\d:\d\d\.\d+) +(?P<thread>\d+) "
             r"(?P<file>[^:\s\]]+):(?P<line>\d+)\] (?P<message>.*)$"),
    ("android", r"^(?P<time>\d\d-\d\d \d\d:\d\d:\d\d\.\d+) +(?P<pid>\d+) +(?P<thread>\d+) "
                r"(?P<level>[VDIWEF]) (?P<logger>[^:]+?) *: (?P<message>.*)$"),
    ("nginx-error", r"^(?P<time>\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) \[(?P<level>[a-z]+)\] "
                    r"(?P<pid>\d+)#(?P<thread>\d+): (?:\*\d+ )?(?P<message>.*)$"),
    ("apache-error", r"^\[(?P<time>[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?"
                     r" \d{4})\] \[(?:(?P<module>[\w\-]+):)?(?P<level>[a-z]+\d?)\] "
                     r"(?:\[pid (?P<pid>\d+)(?::tid (?P<thread>\d+))?\] )?"
                     r"(?:\[client (?P<client>[^\]]+)\] )?(?P<message>.*)$"),
    ("go-log", r"^(?P<time>\d{4}/\d\d/\d\d \d\d:\d\d:\d\d(?:\.\d+)?) "
               r"(?:(?P<file>[\w./\-]+\.go):(?P<line>\d+): )?(?P<message>.*)$"),
    ("syslog-5424", r"^<\d{1,3}>1 (?P<time>\S+) (?P<host>\S+) (?P<program>\S+) (?P<pid>\S+) "
                    r"\S+ (?:-|\[.*?\]) ?(?P<message>.*)$"),
    ("syslog", rf"^(?:<\d{{1,3}}>)?(?P<time>{_SYSLOG_TIME}|{_ISO}) (?P<host>\S+) {_PROGRAM}: "
               r"(?P<message>.*)$"),
    ("iso-level", rf"^(?P<time>{_ISO}),? +{_LVL}:? +(?P<message>.*)$"),
)
_FAMILY_NAMES = frozenset(name for name, _ in _FAMILIES)
_FAST_CHARS = 4096  # a longer line is read by RE2 whatever the layout
_SAMPLE_LINES = 200
_MIN_SHARE = 0.3  # of the sample's lines that start at column 0: less, and it is not the layout

_LEVELS = {
    "trace": "trace", "finest": "trace", "finer": "debug", "fine": "debug", "debug": "debug",
    "d": "debug", "v": "trace", "config": "info", "info": "info", "i": "info",
    "notice": "notice", "warning": "warning", "warn": "warning", "w": "warning",
    "error": "error", "err": "error", "e": "error", "severe": "error", "fatal": "fatal",
    "f": "fatal", "critical": "fatal", "crit": "fatal", "alert": "fatal", "emerg": "fatal",
    "panic": "fatal",
}
EVENT_LEVELS = frozenset({"warning", "error", "fatal"})


@lru_cache(maxsize=256)  # a log writes a handful of levels, on every entry
def normal_level(raw: str | None) -> str | None:
    """A level as written (``WARN``, ``E``, ``crit``, ``3`` for syslog) in one vocabulary:
    trace, debug, info, notice, warning, error, fatal."""
    if not raw:
        return None
    raw = raw.strip().lower()
    if raw.isdigit() and len(raw) == 1:  # a syslog priority (journald's PRIORITY=)
        return ("fatal", "fatal", "fatal", "error", "warning", "notice", "info", "debug")[
            min(int(raw), 7)]
    return _LEVELS.get(raw.rstrip("0123456789"))


@dataclass(frozen=True)
class Layout:
    """How one log is written: a line regex with named groups, or a structured reader."""

    name: str
    regex: str = ""
    container: str | None = None  # a relay prefix peeled off each line first (docker, k8s)

    @cached_property
    def _linear(self) -> Any:
        return _re2(self.regex) if self.regex else None

    @cached_property
    def _fast(self) -> re.Pattern[str] | None:
        """A built-in family's regex on Python's ``re``, twenty times cheaper a call than
        RE2's: each of its groups is a bounded class or stops at a literal the next cannot
        hold, so it does not backtrack far. A pattern from ``--layout`` stays on RE2."""
        return _re(self.regex) if self.regex and self.name in _FAMILY_NAMES else None

    def read(self, line: str) -> dict[str, str] | None:
        """The fields of an entry's first line (``message`` always), or None: not one."""
        if self.name == "json":
            return json_fields(line)
        if self.name == "logfmt":
            return logfmt_fields(line)
        fast = self._fast
        regex = fast if fast is not None and len(line) <= _FAST_CHARS else self._linear
        try:
            match = regex.match(line)
        except UnicodeEncodeError:  # a lone surrogate: RE2 reads UTF-8 only
            match = regex.match(line.encode("utf-8", "replace").decode("utf-8"))
        return None if match is None else _fields(match.groupdict())

    def reader(self) -> Callable[[str], dict[str, str] | None]:
        """``read`` with the choices it makes per line made once (``entries`` reads every
        line of a log with it)."""
        fast, read = self._fast, self.read
        if fast is None:
            return read
        match = fast.match

        def read_fast(line: str) -> dict[str, str] | None:
            if len(line) > _FAST_CHARS:
                return read(line)
            found = match(line)
            return None if found is None else _fields(found.groupdict())
        return read_fast


def _fields(groups: dict[str, str | None]) -> dict[str, str]:
    """A line's fields: the groups that read text (most lines fill every group: as read)."""
    values = groups.values()
    if None in values or "" in values:
        return {k: v for k, v in groups.items() if v}
    return cast("dict[str, str]", groups)  # no None among them


@lru_cache(maxsize=64)
def _re(regex: str) -> re.Pattern[str]:
    return re.compile(regex)


@lru_cache(maxsize=64)
def _re2(regex: str) -> Any:
    return re2.compile(regex)


@dataclass
class Entry:
    """One log entry: its first line number, its text, its message and its metadata."""

    line: int
    text: str
    message: str
    fields: dict[str, str] = field(default_factory=dict)
    continuation: str = ""  # the lines after the first (a trace, a wrapped message)
    # The message as its program printed it, when the layout read metadata out of its
    # front (a ``printed`` group around ``message``: oslo's ``[instance: <uuid>] ``); empty
    # when that is the message itself. A statement whose template holds that text (its
    # runtime prefix) is matched against this.
    printed: str = ""

    @property
    def level(self) -> str | None:
        return normal_level(self.fields.get("level"))  # cached by the level as written


def layout_named(pattern: str) -> Layout:
    """The layout ``--layout`` names: a family's name, or a log4j-style pattern."""
    for name, regex in _FAMILIES:
        if name == pattern:
            return Layout(name, regex)
    if pattern in ("json", "logfmt", "journal"):
        return Layout(pattern)
    if "%" not in pattern:
        raise UsageError(f"--layout {pattern!r}: no such layout; give a log4j-style pattern "
                         f"('%d %-5p [%t] %c: %m%n') or one of: {', '.join(family_names())}")
    return Layout("pattern", compile_layout(pattern))


def family_names() -> list[str]:
    return [name for name, _ in _FAMILIES] + ["json", "logfmt", "journal"]


def detect(lines: Iterable[str]) -> Layout | None:
    """The layout of a log from its first lines, or None when no known layout reads enough
    of them (the log is then read as today, as pastes)."""
    sample = [_plain(line.rstrip("\r\n")) for line in lines if line.strip()][:_SAMPLE_LINES]
    if not sample:
        return None
    if sample[0].startswith(JOURNAL_START):
        return Layout("journal")
    container, sample = peel_sample(sample)
    starts = [line for line in sample if line and not line[0].isspace()]
    if not starts:
        return None
    best: tuple[int, Layout] | None = None
    candidates = [Layout(name, regex, container) for name, regex in _FAMILIES]
    if starts[0].startswith("{"):
        candidates.insert(0, Layout("json", "", container))
    elif "=" in starts[0]:
        candidates.append(Layout("logfmt", "", container))
    for layout in candidates:
        count = sum(1 for line in starts if layout.read(line) is not None)
        if count and (best is None or count > best[0]):
            best = (count, layout)
    if best is None or best[0] < max(1, _MIN_SHARE * len(starts)):
        return None
    return best[1]


def peel_sample(sample: list[str]) -> tuple[str | None, list[str]]:
    """The container prefix most sample lines carry (its name), and the lines without it."""
    peeled = [peel_container(line) for line in sample]
    kinds = [kind for kind, _ in peeled if kind]
    if not kinds or len(kinds) < 0.6 * len(sample):
        return None, sample
    kind = max(set(kinds), key=kinds.count)
    return kind, [rest if found == kind else line
                  for (found, rest), line in zip(peeled, sample, strict=True)]


def entries(layout: Layout, lines: Iterable[tuple[int, str]]) -> Iterator[Entry]:
    """The entries of numbered lines: each starts at a line the layout reads; the lines
    below it that it does not read are its continuation."""
    if layout.name == "journal":
        yield from (Entry(n, text, msg, fields) for n, text, msg, fields in
                    journal_entries(lines))
        return
    current: Entry | None = None
    rest: list[str] = []
    read, peel = layout.reader(), layout.container
    for number, raw in lines:
        line = raw.rstrip("\r\n")
        if "\x1b" in line:
            line = _ANSI.sub("", line)
        container = None
        if peel:
            container, line = _peeled(peel, line)
        fields = read(line) if line and not line[0].isspace() else None
        if fields is None:
            if current is None:
                current = Entry(number, raw, "", {})
            else:
                current.text += raw
            rest.append(line)
            continue
        if current is not None:
            yield _closed(current, rest)
        rest = []
        if container:
            fields["container"] = container
        message = fields.pop("message", "").rstrip()
        printed = fields.pop("printed", "").rstrip()
        if "level" not in fields:
            said = _SAID_LEVEL.match(message)
            if said:  # syslog's ``sshd[1]: error: …``: the program wrote its level in front
                fields["level"] = said.group(1)
        current = Entry(number, raw, message, fields,
                        printed=printed if printed != message else "")
    if current is not None:
        yield _closed(current, rest)


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")  # a terminal's colours (``\x1b[31mERROR\x1b[0m``)


def _plain(line: str) -> str:
    return _ANSI.sub("", line) if "\x1b" in line else line


_SAID_LEVEL = re.compile(r"(error|fatal|warning|warn|crit|critical|alert|emerg|notice|info|"
                         r"debug\d?): ")


def _peeled(kind: str, line: str) -> tuple[str | None, str]:
    found, rest = peel_container(line)
    return (found, rest) if found == kind else (None, line)


def _closed(entry: Entry, rest: list[str]) -> Entry:
    if rest:
        entry.continuation = "\n".join(rest).rstrip() + "\n"
        if not entry.message:
            entry.message = rest[0].strip()
    return entry


# ``FastLeaderElection`` / ``QuorumCnxManager$Listener`` → the file a JVM class is in.
_JVM_SOURCES = (".java", ".scala")
_FILE_LINE = re.compile(r"\(?([\w$.\-/]+\.\w+):(\d+)\)?$")


def locations(fields: dict[str, str]) -> list[tuple[str, int]]:
    """(file, line) pairs the metadata names: ``Class@line``, ``file:line``, a location."""
    line = fields.get("line")
    number = int(line) if line and line.isdigit() else None
    if fields.get("file") and number is not None:
        return [(fields["file"], number)]
    if fields.get("class") and number is not None:
        outer = fields["class"].split("$")[0].rsplit(".", 1)[-1]
        return [(outer + suffix, number) for suffix in _JVM_SOURCES]
    location = fields.get("location") or fields.get("caller")
    if not location:  # most layouts write none: no regex call per entry
        return []
    found = _FILE_LINE.search(location)
    if found:
        return [(found.group(1), int(found.group(2)))]
    return []


def named_sources(fields: Mapping[str, object]) -> list[str]:
    """The source file stems a logger, class or program names (``MRAppMaster``, ``sshd``,
    ``nova/compute/manager``): a record in such a file is likelier the one."""
    return list(named_sources_of(fields))


def named_sources_of(fields: Mapping[str, object]) -> tuple[str, ...]:
    """``named_sources`` as the tuple it is cached as (a scan asks for each entry)."""
    logger, klass, program = fields.get("logger"), fields.get("class"), fields.get("program")
    return _named(logger if isinstance(logger, str) else None,
                  klass if isinstance(klass, str) else None,
                  program if isinstance(program, str) else None)


@lru_cache(maxsize=4096)
def _named(logger: str | None, klass: str | None, program: str | None) -> tuple[str, ...]:
    fields = {"logger": logger, "class": klass, "program": program}
    names: list[str] = []
    for key in ("logger", "class"):
        value = fields.get(key)
        if value and "::" in value:  # a Rust module path: my_crate::store → src/store.rs
            parts = value.split("::")
            names.append(parts[-1])
            if len(parts) > 2:
                names.append("/".join(parts[1:]))
            continue
        if value:
            dotted = value.split("$")[0]
            names.append(dotted.rsplit(".", 1)[-1])
            if "." in dotted and dotted[0].islower() and dotted.split(".")[-1][:1].islower():
                names.append(dotted.replace(".", "/"))  # a Python logger: its module
    if program:
        names.append(program.rsplit("/", 1)[-1])
    return tuple(name for name in names if name)


def layout_json(entry: Entry, layout: Layout) -> dict[str, object]:
    """The ``layout`` object of a scanned entry's JSON line."""
    return {"name": layout.name, "level": entry.level, **entry.fields}


__all__ = ["EVENT_LEVELS", "Entry", "Layout", "detect", "entries", "family_names",
           "layout_json", "layout_named", "locations", "named_sources", "named_sources_of",
           "normal_level"]
