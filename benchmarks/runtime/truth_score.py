"""Score mined records against observed raises: site recall and pattern precision.

An observed site is a (file, line) where the library's code raised while its tests ran.
It is *eligible* when one of its messages has a run written in a string literal of the
repository's non-test source (``truth_source.candidates``) and the message is not one
the runtime wrote (Python: raised by the interpreter or C code rather than a ``raise``
statement, or a text that is the repr of the exception's arguments: a ``KeyError``'s key,
a dict of messages).
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from truth_source import Source, SourceFile

WINDOW = 5  # a record on the raise line or up to this many lines before it
RAISE_OPS = {"RAISE_VARARGS", "new"}
MESSAGE_NAME = re.compile(r"\b\w*(message|msg|text|reason|error|err|description|detail)\w*\b",
                          re.I)
REPR_MESSAGE = re.compile(r"""^(['"]).*\1$|^\d+$""", re.S)


@dataclass(frozen=True)
class Observation:
    """One distinct raise seen: where, what, how often."""

    file: str
    line: int
    cls: str
    message: str
    op: str
    rendered: str
    count: int


@dataclass(frozen=True)
class Mined:
    """What the scorer needs of one stored record."""

    line: int
    pattern: str
    message: str


def read_observations(path: Path) -> list[Observation]:
    """Merge JSONL lines (one file, or every ``*.jsonl`` in a folder), summing counts."""
    files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    merged: Counter[tuple[str, int, str, str, str, str]] = Counter()
    for file in files:
        for line in file.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                key = (row["file"], int(row["line"]), row["class"], row["message"],
                       row.get("op", "?"), row.get("rendered", "text"))
                merged[key] += int(row.get("count", 1))
    return [Observation(*key, count=count) for key, count in sorted(merged.items())]


def write_observations(observations: Iterable[Observation], path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        for o in observations:
            out.write(json.dumps({"file": o.file, "line": o.line, "class": o.cls,
                                  "message": o.message, "op": o.op, "rendered": o.rendered,
                                  "count": o.count}) + "\n")


def runtime_wrote(o: Observation) -> bool:
    """The message is the runtime's, not the library's (so no site of the library's is
    expected to say it)."""
    if o.op not in RAISE_OPS or o.rendered == "repr":
        return True
    return o.cls.rsplit(".", 1)[-1] == "KeyError" and bool(REPR_MESSAGE.match(o.message))


def miss_kind(line: str) -> str:
    """Why a site may be missed, guessed from its raise statement: a string literal in it
    (given to the class, or to a factory call that builds the exception), a message passed
    in by name (the raise is inside a helper: the literal is at its callers), a factory
    call without literal, or none of these (the class writes the message, in ``__init__``)."""
    text = line.strip()
    if re.fullmatch(r"(raise|throw)(\s+[\w.\[\]]+)?\s*;?", text):
        return "re-raise"
    has_literal = bool(re.search(r"""["'`]""", text))
    call = re.search(r"\b(?:raise|throw)\s+(?:new\s+)?([\w.]+)\s*\(|\bnew\s+([\w.]+)\s*\(", text)
    if call is None:
        return "literal, no raise on line" if has_literal else "no raise on line"
    callee = (call.group(1) or call.group(2)).rsplit(".", 1)[-1]
    factory = not callee[:1].isupper()
    if has_literal:
        return "literal, factory call" if factory else "literal, class call"
    if factory:
        return "factory call"
    if MESSAGE_NAME.search(text[call.end():]):
        return "message passed in"
    return "class-message"


@dataclass
class SiteResult:
    """One eligible observed site and what mining made of it."""

    file: str
    line: int
    text: str
    kind: str
    messages: list[Observation]
    in_window: list[Mined]
    in_statement: list[Mined]
    matched: set[str] = field(default_factory=set)

    @property
    def records(self) -> list[Mined]:
        return list({id(m): m for m in self.in_window + self.in_statement}.values())

    @property
    def count(self) -> int:
        return sum(o.count for o in self.messages)


@dataclass
class Score:
    """Recall and precision with the sites behind them."""

    observed: int = 0  # distinct raises recorded
    sites: int = 0  # distinct (file, line) observed
    runtime: int = 0  # raises whose message the runtime wrote
    results: list[SiteResult] = field(default_factory=list)

    @property
    def eligible(self) -> int:
        return len(self.results)

    @property
    def recalled_window(self) -> int:
        return sum(1 for r in self.results if r.in_window)

    @property
    def recalled_statement(self) -> int:
        return sum(1 for r in self.results if r.in_statement)

    @property
    def pairs(self) -> int:
        return sum(len(r.messages) for r in self.results if r.records)

    @property
    def matched(self) -> int:
        return sum(len(r.matched) for r in self.results if r.records)


def fullmatches(pattern: str, message: str) -> bool:
    try:
        return re.fullmatch(pattern, message, re.DOTALL) is not None
    except re.error:
        return False


def statement_text(file: SourceFile | None, line: int, first: int, last: int) -> str:
    """The raise statement on one line (from the raise line, at most 8 lines of it)."""
    if file is None:
        return ""
    return " ".join(file.line(n).strip() for n in range(line, min(last, line + 7) + 1))


def score(observations: list[Observation], records: dict[str, list[Mined]],
          source: Source) -> Score:
    """Match eligible observed sites against the records mined in the same files."""
    result = Score(observed=len(observations),
                   sites=len({(o.file, o.line) for o in observations}))
    library = [o for o in observations if not runtime_wrote(o)]
    result.runtime = len(observations) - len(library)
    written = source.written({o.message for o in library})
    by_site: dict[tuple[str, int], list[Observation]] = defaultdict(list)
    for o in library:
        if o.message in written:
            by_site[(o.file, o.line)].append(o)
    for (path, line), seen in sorted(by_site.items()):
        file = source.file(path)
        first, last = file.statement(line) if file is not None else (line, line)
        mined = records.get(path, [])
        site = SiteResult(
            file=path, line=line, text=statement_text(file, line, first, last),
            kind="", messages=seen,
            in_window=[m for m in mined if line - WINDOW <= m.line <= line],
            in_statement=[m for m in mined if first <= m.line <= last])
        site.kind = miss_kind(site.text)
        site.matched = {o.message for o in seen
                        if any(fullmatches(m.pattern, o.message) for m in site.records)}
        result.results.append(site)
    return result


def ratio(k: int, n: int) -> str:
    return f"{k}/{n} = {100 * k / n:.1f}%" if n else f"{k}/{n} = n/a"


def report(name: str, result: Score, worst: int = 30) -> list[str]:
    """The printed report of one library: counts, recall, precision, misses, worst sites."""
    lines = [
        f"{name}: {result.observed} distinct raises at {result.sites} sites; "
        f"{result.runtime} written by the runtime; {result.eligible} sites with a message "
        "written in a source literal",
        f"  site recall (raise line or <= {WINDOW} before): "
        f"{ratio(result.recalled_window, result.eligible)}",
        f"  site recall (anywhere in the enclosing statement): "
        f"{ratio(result.recalled_statement, result.eligible)}",
        f"  pattern precision (messages fullmatched at mined sites): "
        f"{ratio(result.matched, result.pairs)}",
    ]
    missed = [r for r in result.results if not r.records]
    kinds = Counter(r.kind for r in missed)
    lines.append("  unmined sites by kind: " + (", ".join(
        f"{kind} {n}" for kind, n in kinds.most_common()) or "none"))
    unmatched = [r for r in result.results if r.records and len(r.matched) < len(r.messages)]
    kinds = Counter(r.kind for r in unmatched)
    lines.append("  mined sites with an unmatched message, by kind: " + (", ".join(
        f"{kind} {n}" for kind, n in kinds.most_common()) or "none"))
    bad = sorted(missed + unmatched, key=lambda r: (-len(r.messages), -r.count, r.file, r.line))
    if bad:
        lines.append(f"  worst {min(worst, len(bad))} sites (unmined or unmatched):")
    for r in bad[:worst]:
        state = "unmined" if not r.records else f"{len(r.matched)}/{len(r.messages)} matched"
        lines.append(f"    {r.file}:{r.line} [{state}; {r.kind}] x{r.count}  | {r.text[:100]}")
        example = next((o for o in r.messages if o.message not in r.matched), r.messages[0])
        lines.append(f"      e.g. {example.cls}: {example.message[:160]!r}")
        for m in r.records[:2]:
            lines.append(f"      record line {m.line}: pattern {m.pattern[:120]!r}")
    return lines
