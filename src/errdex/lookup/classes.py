"""An error known by its class alone (a bare ``System.Data.DataException``, a Go ``%#v``
dump ``pkg.ConfigFileNotFoundError{…}``): the records raising that class, when the class is
specific enough that only a few records raise it. A place to look, flagged approximate."""

from __future__ import annotations

import re

from errdex.languages._engine.pastes.common import BUILTIN_CLASSES, ErrorEvent
from errdex.lookup.ranking import Scored, short_class
from errdex.lookup.retrieval import normalize
from errdex.lookup.similarity import (
    APPROXIMATE_MIN_RATIO,
    FUZZY_CHARS,
    literal_text,
    similarity,
)
from errdex.records.stored import CandidateRow
from errdex.store.protocol import Store

CLASS_ONLY = "only: the message was not matched"  # in the reason of such a match
FEW_RECORDS = 4  # more records of the class than this: the class alone does not say which
_SEARCHED = 24  # full-text hits read for the class's name
# One of a class's many raises, in a file a stack frame names: the frame says where, but
# nothing says what. Just above a class alone (0.5) and another class's loosely similar
# text; below text about 78% similar or more (0.65 x ratio with the class differing), which
# says what was written (a wrapper class re-raises words written elsewhere).
_FRAMED = 0.505
# A Go ``%#v`` (or ``%+v``) dump of an error struct: ``&pkg.NameError{field:…}``.
_DUMP = re.compile(r"&?(?:[A-Za-z_]\w*\.)+([A-Z]\w*(?:Error|Exception|Err))\{")
_GENERIC = frozenset({"Error", "Exception", "RuntimeError", "RuntimeException", "Throwable",
                      "StandardError", "SystemException", "ApplicationException", "Panic",
                      "Failure", "Err", "BaseError", "CustomError", "AppError"})
_SUFFIXES = ("Exception", "Error", "Err")


def event_class(event: ErrorEvent) -> str | None:
    """The class the event names: its own, or the struct a dumped error message shows."""
    if event.error_class:
        return event.error_class
    for segment in event.segments:  # ``op: &pkg.E{…}``: the dump may be wrapped
        dumped = _DUMP.match(segment.lstrip())
        if dumped:
            return dumped.group(1)
    return None


def specific(name: str) -> bool:
    """Whether a class name says more than "an error" (not ``RuntimeError``, ``IOException``)."""
    short = short_class(name)
    if short in _GENERIC or short in BUILTIN_CLASSES or name in BUILTIN_CLASSES:
        return False
    stem = short
    for suffix in _SUFFIXES:
        stem = stem.removesuffix(suffix)
    return len(stem) >= 3


def class_matches(store: Store, event: ErrorEvent, repo: str | None) -> dict[str, Scored]:
    """The few records raising the event's (specific) class, approximate; none when the
    class is generic or raised at more than ``FEW_RECORDS`` sites."""
    name = event_class(event)
    if not name or not specific(name):
        return {}
    short = short_class(name)
    searched = _SEARCHED * (4 if event.frames else 1)  # the stack may say which of many
    found = [s.record for s in store.search(short, limit=searched, repo=repo)
             if s.record.error_class and short_class(s.record.error_class) == short]
    framed = len(found) > FEW_RECORDS
    if framed:  # a class raised in many places: those in a file the stack names
        found = [r for r in found if _stem(r.file_path) in {_stem(f.file) for f in event.frames}]
    if not found or len(found) > FEW_RECORDS:
        return {}
    scored: dict[str, Scored] = {}
    message = normalize(event.message[:FUZZY_CHARS])
    for number, record in enumerate(found):
        row = CandidateRow(record.id, -1 - number, record.error_class, record.repo,
                           record.file_path, record.line_number)
        # Its text close to the message (an older wording of it, say): scored as any
        # approximate match of the class the paste names, so it beats another class's
        # generic template the message fullmatches (``error at line {}: {msg}``).
        ratio = similarity(normalize(literal_text(record.message_pattern))[:FUZZY_CHARS],
                           message) if message else 0.0
        if ratio >= APPROXIMATE_MIN_RATIO:
            reasons = [f"approximate: {ratio:.0%} similar text, the message was probably "
                       f"reworded; class {record.error_class} matches"]
            scored[record.id] = Scored(row, 0.6 + 0.65 * ratio, reasons, approximate=True)
            continue
        reason = f"class {record.error_class} {CLASS_ONLY}" + (
            "; a frame names its file" if framed else "")
        scored[record.id] = Scored(row, _FRAMED if framed else 0.5, [reason], approximate=True)
    return scored


def _stem(path: str) -> str:
    """``/app/node_modules/x/driver/Runner.js`` → ``Runner``: a compiled file names its
    source's stem."""
    return path.replace("\\", "/").rsplit("/", 1)[-1].split(".", 1)[0]
