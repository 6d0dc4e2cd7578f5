"""Lookup: pasted text → candidate records → verified matches → ranked, with bound values.

Candidates come from a word index: each pattern is filed under the rarest
whole word its literal text requires, so a query costs one dictionary probe per
word of the message, not one regex per record. Regexes are compiled lazily,
only for candidates. Stack frames that point at a record's file and line are a
second signal, and can surface a record on their own when its message was
reworded (flagged as location-only).
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import PurePosixPath

from errdex.lookup.parse import ErrorEvent, Frame, main_event
from errdex.lookup.patterns import placeholder_names, shape_of
from errdex.record import Record, RecordExtras
from errdex.store import Store
from errdex.template import compile_pattern

_WORD = re.compile(r"[A-Za-z0-9_]+")
FRAME_LINE_TOLERANCE = 5


@dataclass
class Match:
    """One record that explains the pasted error, and why."""

    score: float
    reason: str
    bound: dict[str, str]
    record: Record
    extras: RecordExtras = field(default_factory=RecordExtras)
    approximate: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "score": round(self.score, 4), "reason": self.reason, "bound": self.bound,
            "record": self.record.model_dump(mode="json"),
        }


@dataclass
class _Entry:
    id: str
    pattern: str
    error_class: str | None
    repo: str
    hole_names: list[str]
    literal_length: int


@lru_cache(maxsize=65536)
def _compiled(pattern: str) -> re.Pattern[str] | None:
    try:
        return compile_pattern(pattern)
    except re.error:
        return None


class Index:
    """An in-memory lookup index over every record of a store."""

    def __init__(self, store: Store):
        self.store = store
        self.entries: list[_Entry] = []
        self.by_word: dict[str, list[int]] = defaultdict(list)
        self.unfiltered: list[int] = []
        self.by_basename: dict[str, list[tuple[str, str, int, str]]] = defaultdict(list)
        self._build()

    def _build(self) -> None:
        required: list[list[str]] = []
        for rid, pattern, error_class, repo, extras_json in self.store.index_rows():
            shape = shape_of(pattern)
            names: list[str] = []
            if extras_json:
                names = json.loads(extras_json).get("holeNames") or []
            if len(names) != shape.groups:
                names = []
            self.entries.append(
                _Entry(rid, pattern, error_class, repo, names, shape.literal_length)
            )
            required.append(shape.required_words())
        frequency = Counter(word for words in required for word in set(words))
        for position, words in enumerate(required):
            if words:
                rarest = min(words, key=lambda w: (frequency[w], -len(w)))
                self.by_word[rarest].append(position)
            else:
                self.unfiltered.append(position)
        for location in self.store.locations():
            self.by_basename[PurePosixPath(location[1]).name].append(location)

    def __len__(self) -> int:
        return len(self.entries)

    # --- public ---------------------------------------------------------------------

    def explain(self, text: str, *, top: int = 5, repo: str | None = None) -> list[Match]:
        """The best records for the main error in ``text``, best first."""
        return self.explain_event(main_event(text), top=top, repo=repo)

    def explain_event(
        self, event: ErrorEvent, *, top: int = 5, repo: str | None = None
    ) -> list[Match]:
        scored: dict[str, tuple[float, str, dict[str, str], bool]] = {}
        found_matches = [
            (position, bound) for position, bound in self._pattern_matches(event.message)
            if not repo or self.entries[position].repo == repo
        ]
        # A template that is nothing but holes ("{}") matches any text: it only counts
        # when no template with literal text does (or a frame points at it, below).
        if any(self.entries[p].literal_length for p, _ in found_matches):
            found_matches = [(p, b) for p, b in found_matches if self.entries[p].literal_length]
        for position, bound in found_matches:
            entry = self.entries[position]
            score, reasons = 1.0, ["full pattern match"]
            if event.error_class and entry.error_class:
                if _short(event.error_class) == _short(entry.error_class):
                    score += 0.3
                    reasons.append(f"class {entry.error_class} matches")
                else:
                    score -= 0.3
                    reasons.append(f"class differs ({entry.error_class})")
            # More literal text explains more of the message: prefer specific templates.
            score += 0.2 * min(1.0, entry.literal_length / max(1, len(event.message)))
            scored[entry.id] = (score, "; ".join(reasons), bound, False)
        self._add_frame_signal(event.frames, scored, repo)
        ranked = sorted(scored.items(), key=lambda item: -item[1][0])[:top]
        found = self.store.get_many(rid for rid, _ in ranked)
        matches = []
        for rid, (score, reason, bound, approximate) in ranked:
            stored = found.get(rid)
            if stored is not None:
                matches.append(
                    Match(score, reason, bound, stored.record, stored.extras, approximate)
                )
        matches.sort(key=lambda m: (-m.score, m.record.repo, m.record.filePath,
                                    m.record.lineNumber))
        return matches

    # --- candidates -----------------------------------------------------------------

    def candidates(self, message: str) -> list[int]:
        """Positions of entries whose required words all could appear in ``message``."""
        seen: set[int] = set(self.unfiltered)
        for word in set(_WORD.findall(message)):
            bucket = self.by_word.get(word)
            if bucket:
                seen.update(bucket)
        return sorted(seen)

    def _pattern_matches(self, message: str) -> list[tuple[int, dict[str, str]]]:
        out = []
        for position in self.candidates(message):
            entry = self.entries[position]
            regex = _compiled(entry.pattern)
            if regex is None:
                continue
            match = regex.fullmatch(message)
            if match is None:
                continue
            out.append((position, self._bind(position, match)))
        return out

    def _bind(self, position: int, match: re.Match[str]) -> dict[str, str]:
        entry = self.entries[position]
        names = entry.hole_names or self._names_from_record(position, len(match.groups()))
        bound: dict[str, str] = {}
        for name, value in zip(names, match.groups(), strict=False):
            if value is None:
                continue
            key, n = name, 1
            while key in bound:
                n += 1
                key = f"{name}#{n}"
            bound[key] = value
        return bound

    def _names_from_record(self, position: int, groups: int) -> list[str]:
        entry = self.entries[position]
        stored = self.store.get_many([entry.id]).get(entry.id)
        message = stored.record.errorMessage if stored else ""
        entry.hole_names = placeholder_names(message, groups)
        return entry.hole_names

    # --- frames ---------------------------------------------------------------------

    def _add_frame_signal(
        self, frames: tuple[Frame, ...], scored: dict[str, tuple[float, str, dict[str, str], bool]],
        repo: str | None,
    ) -> None:
        """Raise records whose site a frame points at; add location-only candidates."""
        for depth, frame in enumerate(frames[:10]):
            if frame.line is None:
                continue
            path = frame.file.replace("\\", "/")
            for rid, record_path, line, record_repo in self.by_basename.get(
                PurePosixPath(path).name, ()
            ):
                if (repo and record_repo != repo) or not _same_file(path, record_path):
                    continue
                distance = abs(line - frame.line)
                if distance > FRAME_LINE_TOLERANCE:
                    continue
                weight = (0.5 if distance == 0 else 0.35) / (1 + depth)
                where = f"frame {record_path}:{frame.line}" + (
                    "" if distance == 0 else f" (record at line {line})"
                )
                if rid in scored:
                    score, reason, bound, approximate = scored[rid]
                    scored[rid] = (score + weight, f"{reason}; {where}", bound, approximate)
                elif depth == 0 and distance <= 2:
                    scored[rid] = (
                        0.4 + weight, f"location only: {where}; the message differs", {}, True
                    )


def _short(error_class: str) -> str:
    """The last component of a class name: ``pkg.mod.Error`` / ``io::Error`` → ``Error``."""
    return re.split(r"\.|::", error_class)[-1]


def _same_file(frame_path: str, record_path: str) -> bool:
    """Whether a frame's path (absolute, or relative to a crate) names the record's file."""
    frame_parts = PurePosixPath(frame_path).parts
    record_parts = PurePosixPath(record_path).parts
    common = 0
    for a, b in zip(reversed(frame_parts), reversed(record_parts), strict=False):
        if a != b:
            break
        common += 1
    return common == len(record_parts) or common >= 2
