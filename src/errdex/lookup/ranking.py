"""Ranking what lookup found: candidates scored while ranking, the order (best first,
records of one template together), and the matches handed out with their hole values
bound to names.

Apart from ``index`` (which finds the candidates) so that each reads as one concern;
``scan`` uses the same ranked ids and ``materialize``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import PurePosixPath
from typing import cast

from errdex.records.lineage import WordingVersion
from errdex.records.model import Record, RecordExtras
from errdex.records.stored import CandidateRow, Removal, StoredRecord, StoredText
from errdex.store.protocol import Store
from errdex.store.rows import stored_record
from errdex.templates.analysis import placeholder_names


@dataclass
class Match:
    """One record that explains the pasted error, and why."""

    score: float
    reason: str
    bound: dict[str, str]
    record: Record
    extras: RecordExtras = field(default_factory=RecordExtras)
    approximate: bool = False
    removed: Removal | None = None
    version: WordingVersion | None = None  # an older wording of the site matched

    def to_json(self) -> dict[str, object]:
        """The explain JSON shape; ``removed`` only for sites gone from the latest mine."""
        return {**self.summary_json(), "record": self.record.model_dump(mode="json"),
                **self.notes_json()}

    def summary_json(self) -> dict[str, object]:
        """The JSON keys before ``record``: how well and why it matched."""
        return {"score": round(self.score, 4), "reason": self.reason, "bound": self.bound}

    def notes_json(self) -> dict[str, object]:
        """The JSON keys after ``record``, each only when it applies."""
        out: dict[str, object] = {}
        if self.removed is not None:
            out["removed"] = {"sha": self.removed.sha, "at": self.removed.at}
        if self.version is not None:  # the wording matched, and the releases that printed it
            out["version"] = self.version.to_json()
        if self.extras.package is not None:  # a site of a registry release
            out["package"] = {"name": self.extras.package,
                              "version": self.extras.package_version,
                              "ecosystem": self.extras.package_ecosystem}
        return out


@dataclass(frozen=True)
class Ranked:
    """A ranked record id with why it matched and the hole values, before the record is read."""

    id: str
    score: float
    reason: str
    groups: tuple[str | None, ...]
    approximate: bool


def materialize(ranked: list[Ranked], records: dict[str, StoredRecord]) -> list[Match]:
    """Matches from ranked ids and their records (names bound to the hole values)."""
    matches = []
    for item in ranked:
        stored = records.get(item.id)
        if stored is None:
            continue
        bound = bind(item.groups, stored.record, stored.extras)
        matches.append(Match(item.score, item.reason, bound, stored.record, stored.extras,
                             item.approximate, stored.removed))
    return matches


def read_records(store: Store, read: dict[str, StoredText], ids: list[str]
                 ) -> dict[str, StoredRecord]:
    """The records of these ids: those whose stored text was read already (``read``, with
    their candidate rows) from it, the others from the store."""
    found = {rid: stored_record(*read[rid]) for rid in ids if rid in read}
    if len(found) < len(ids):
        found.update(store.get_many(rid for rid in ids if rid not in found))
    return found


_CLASS_FILE_READS = 16  # records in their class's file read to see if a constructor holds them


def mark_constructors(store: Store, read: dict[str, StoredText],
                      scored: dict[str, Scored]) -> None:
    """Mark the records written in their error class's own constructor (the class file's
    ``constructor``/``__init__``/``<init>``): every raise of the class passes through it,
    so of one template's sites it comes after those raising it. Only records in a file
    named after their class are read for it (``read_records``), a few at most."""
    in_class_file = [s for s in scored.values() if defines_class(s.row)][:_CLASS_FILE_READS]
    if not in_class_file:
        return
    stored = read_records(store, read, [s.row.id for s in in_class_file])
    for item in in_class_file:
        record = stored.get(item.row.id)
        symbol = record.extras.enclosing_symbol if record is not None else None
        item.constructor = is_constructor(symbol, item.row.error_class)


@dataclass
class Scored:
    """A candidate record while ranking (before its full record is read)."""

    row: CandidateRow
    score: float
    reasons: list[str]
    groups: tuple[str | None, ...] = ()
    approximate: bool = False
    removed_noted: bool = False
    constructor: bool = False  # written in its error class's own constructor
    # The literal length of what fullmatched (one line's, for a line of a multi-line
    # template): how specific the match is. None: read from the pattern when asked.
    literal: int | None = None


def class_signal(event_class: str | None, record_class: str | None, reasons: list[str]) -> float:
    if not event_class or not record_class:
        return 0.0
    if _short(event_class) == _short(record_class):
        reasons.append(f"class {record_class} matches")
        return 0.3
    if _short(record_class) in _PYTHON_BINDINGS.get(_short(event_class), ()):
        reasons.append(f"class {record_class} matches (a Python binding raises it as "
                       f"{_short(event_class)})")
        return 0.3
    reasons.append(f"class differs ({record_class})")
    return -0.3


# The Python exception a C++ library's Python bindings raise for a standard C++ one
# (pybind11's and nanobind's documented translation): a traceback of the Python class is
# the C++ throw's. A C++ class of the library's own keeps its name (``duckdb.BinderException``).
_PYTHON_BINDINGS: dict[str, frozenset[str]] = {
    "ValueError": frozenset({"invalid_argument", "domain_error", "length_error",
                             "range_error", "value_error"}),
    "IndexError": frozenset({"out_of_range", "index_error"}),
    "OverflowError": frozenset({"overflow_error"}),
    "MemoryError": frozenset({"bad_alloc"}),
    "RuntimeError": frozenset({"runtime_error", "exception", "logic_error"}),
    "KeyError": frozenset({"key_error"}),
    "TypeError": frozenset({"type_error"}),
    "StopIteration": frozenset({"stop_iteration"}),
    "AttributeError": frozenset({"attribute_error"}),
    "ImportError": frozenset({"import_error"}),
    "BufferError": frozenset({"buffer_error"}),
}


# A C++ runtime names the thrown type with its template arguments (``terminate called after
# throwing an instance of 'YAML::TypedBadConversion<std::string>'``), as the throw wrote
# them: among sites tied otherwise, those throwing that instantiation come first.
_TYPE_ARGUMENTS = 0.1
_TIED = 0.05  # candidates this close to the best are the ones a tie-breaking rule decides
_MOST_TIED = 16  # records read for a tie, at most
_ARGUMENTS_CHARS = 400
_STD_NOISE = re.compile(r"std::|__cxx11::|\s+")
_STRING = re.compile(r"basic_string<char(?:,char_traits<char>,allocator<char>)?>")


def apply_type_arguments(store: Store, text: str, error_class: str | None,
                         scored: dict[str, Scored]) -> None:
    """Raise, among the candidates tied at the top, those whose raising line names the
    error class with the template arguments the paste prints it with."""
    if not error_class or not scored:
        return
    short = _short(error_class)
    printed = _type_arguments(text, short)
    if printed is None:
        return
    for item, stored in tied_at_top(store, scored):
        record = stored.record
        lines = record.source_code.splitlines()
        at = record.line_number - record.source_code_start
        written = _type_arguments(lines[at], short) if 0 <= at < len(lines) else None
        if written is not None and written == printed:
            item.score += _TYPE_ARGUMENTS
            item.reasons.append(f"throws {short}<{written}> as the paste names it")


def tied_at_top(store: Store, scored: dict[str, Scored]) -> list[tuple[Scored, StoredRecord]]:
    """The candidates within ``_TIED`` of the best, read from the store (at most
    ``_MOST_TIED``, by id): the ones a tie-breaking rule decides between; none when fewer
    than two are tied, for then there is nothing to break."""
    if not scored:
        return []
    best = max(item.score for item in scored.values())
    tied = sorted((item for item in scored.values() if item.score >= best - _TIED),
                  key=lambda item: item.row.id)[:_MOST_TIED]
    if len(tied) < 2:
        return []
    records = store.get_many(item.row.id for item in tied)
    return [(item, records[item.row.id]) for item in tied if item.row.id in records]


def apply_passed_on(store: Store, scored: dict[str, Scored]) -> None:
    """Of the sites tied at the top with one template, put a helper's raise printing what a
    caller passes it (``throw_ex(msg)`` holding ``"no such logger " + n`` from the call)
    after the caller's own site, where the text is written."""
    tied = tied_at_top(store, scored)
    own = {item.row.pattern_id for item, stored in tied if not _passed_on(stored)}
    for item, stored in tied:
        if _passed_on(stored) and item.row.pattern_id in own:
            item.score -= _PASSED_ON
            item.reasons.append("a helper's raise of what a caller passes: the caller first")


def _passed_on(stored: StoredRecord) -> bool:
    return any(s.role == "callers" for s in stored.extras.template_sources)


_PASSED_ON = 0.01  # under ``_TIED``: it only orders sites that tie


def _type_arguments(text: str, short: str) -> str | None:
    """The template arguments written after ``short<`` in ``text``, in one spelling
    (``std::__cxx11::basic_string<char, …>`` and ``std::string`` alike: ``string``)."""
    start = text.find(short + "<", 0, 20_000)
    if start < 0:
        return None
    depth, begin = 0, start + len(short)
    for index in range(begin, min(len(text), begin + _ARGUMENTS_CHARS)):
        depth += {"<": 1, ">": -1}.get(text[index], 0)
        if depth == 0:
            found = _STRING.sub("string", _STD_NOISE.sub("", text[begin + 1:index]))
            return found or None
    return None


# An example program's error callback (``examples/x.c``: ``fprintf(stderr, "Error: %s\n",
# description)``) re-prints what the library said: a template there that is mostly hole
# (its holes hold more text than its literal) ranks below the library's own sites.
_EXAMPLE_DIRS = frozenset({"example", "examples", "sample", "samples", "demo", "demos"})
_EXAMPLE_PENALTY = 0.2


@lru_cache(maxsize=65_536)
def in_example(path: str) -> bool:
    """Whether a repository path is in example, sample or demo code (a folder so named)."""
    return any(part.lower() in _EXAMPLE_DIRS for part in path.rstrip("/").split("/")[:-1])


def apply_examples(scored: dict[str, Scored], literal: Callable[[Scored], int]) -> None:
    """Lower the matches of example code (pattern matches: their holes read) whose holes
    hold more of the text than the template's literal (``literal``: its length) does."""
    for item in scored.values():
        if not item.groups or not in_example(item.row.file_path):  # matched, holes read
            continue
        held = sum(len(group) for group in item.groups if group)
        if held > literal(item):
            item.score -= _EXAMPLE_PENALTY
            item.reasons.append("a generic print of example code: what it prints was "
                                "said elsewhere")


def rank(scored: dict[str, Scored]) -> list[Scored]:
    """Best first; records of one template stay together, frames ordering them."""
    groups: dict[int, list[Scored]] = defaultdict(list)
    for item in scored.values():
        if item.row.removed_sha and not item.removed_noted:
            # Still resolvable (users run old releases), but the current site wins a tie.
            item.score -= 0.05
            item.reasons.append(f"removed in {item.row.removed_sha[:12]}: the message changed "
                                "or the site was deleted since")
            item.removed_noted = True
        groups[item.row.pattern_id].append(item)
    for members in groups.values():
        members.sort(key=lambda s: (-s.score, s.constructor, s.row.repo,
                                    s.row.file_path, s.row.line_number))
    ordered = sorted(groups.values(), key=lambda members: -members[0].score)
    return [item for members in ordered for item in members]


def defines_class(row: CandidateRow) -> bool:
    """Whether a record sits in the file named after its error class (``DataTypeError.ts``),
    where the class's constructor may write the message a raise site elsewhere ``new``s."""
    return bool(row.error_class) and _stem(row.file_path) == _short(row.error_class or "")


@lru_cache(maxsize=65_536)
def _stem(path: str) -> str:
    """A path's file name without its last suffix (``PurePosixPath.stem``), cached: the
    candidates of many lookups share their files. Plain string steps: building a path
    object cost more than the rest of the check."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    if name == ".":  # not a file name: the path object's reading
        return PurePosixPath(path).stem
    dot = name.rfind(".")
    return name[:dot] if 0 < dot < len(name) - 1 else name


_CONSTRUCTORS = frozenset({"constructor", "__init__", "__construct", "<init>", "init", "new"})


def is_constructor(symbol: str | None, error_class: str | None) -> bool:
    """Whether an enclosing symbol (``DataTypeError.constructor``, ``E.<init>``, ``E.E``) is
    its error class's constructor, not a factory method of the class (``E.forKey``)."""
    if not symbol:
        return False
    last = re.split(r"\.|::|#", symbol)[-1]
    return last in _CONSTRUCTORS or (error_class is not None and last == _short(error_class))


def bind(
    groups: tuple[str | None, ...], record: Record, extras: RecordExtras
) -> dict[str, str]:
    if not groups:
        return {}
    names: list[str] | tuple[str, ...] = extras.hole_names
    if len(names) != len(groups):
        names = _hole_names(record.error_message, len(groups))
    if None not in groups:  # most bindings: every hole valued, each name once (in C)
        plain = dict(zip(names, cast("tuple[str, ...]", groups), strict=False))
        if len(plain) == len(groups):
            return plain
    bound: dict[str, str] = {}
    for name, value in zip(names, groups, strict=False):
        if value is None:
            continue
        key, n = name, 1
        while key in bound:
            n += 1
            key = f"{name}#{n}"
        bound[key] = value
    return bound


@lru_cache(maxsize=16_384)
def _hole_names(error_message: str, groups: int) -> tuple[str, ...]:
    """``placeholder_names``, read once per message (a scan binds one record's holes often)."""
    return tuple(placeholder_names(error_message, groups))


@lru_cache(maxsize=16_384)
def _short(error_class: str) -> str:
    """The last component of a class name: ``pkg.mod.Error`` / ``io::Error`` → ``Error``; a
    JVM binary name's nested class too (``pkg.Outer$Inner`` → ``Inner``)."""
    return re.split(r"\.|::|\\|\$", error_class)[-1]


def short_class(error_class: str) -> str:
    """The last component of a class name (``pkg.Outer$Inner`` → ``Inner``)."""
    return _short(error_class)


def same_file(frame_path: str, record_path: str) -> bool:
    """Whether a frame's path (absolute, or relative to a crate) names the record's file."""
    frame_parts = PurePosixPath(frame_path).parts
    record_parts = PurePosixPath(record_path).parts
    if len(frame_parts) == 1:  # a JVM or .NET frame names the file alone (``Store.kt:90``)
        return bool(record_parts) and frame_parts[0] == record_parts[-1]
    common = 0
    for a, b in zip(reversed(frame_parts), reversed(record_parts), strict=False):
        if a != b:
            break
        common += 1
    return common == len(record_parts) or common >= 2


__all__ = [
    "Match",
    "Ranked",
    "Scored",
    "apply_examples",
    "apply_passed_on",
    "apply_type_arguments",
    "bind",
    "class_signal",
    "defines_class",
    "in_example",
    "is_constructor",
    "mark_constructors",
    "materialize",
    "rank",
    "read_records",
    "same_file",
    "short_class",
]
