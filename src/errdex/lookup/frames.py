"""Stack frames in ranking: a frame at a record's line raises it, or names it alone; a
frame naming the method a record is written in decides between records tied otherwise.

Apart from ``index`` (which finds records by their message) as its own concern: which
file a frame names. A JVM frame names the file alone (``Store.kt:90``); a Node frame of
a TypeScript package names the compiled file (``node_modules/pkg/dist/x.js:120``) whose
lines are not the source's, so it only says which of a template's sites is meant.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import PurePosixPath

from errdex.languages._engine.pastes.common import Frame
from errdex.lookup.ranking import Scored, same_file, tied_at_top
from errdex.records.stored import CandidateRow
from errdex.store.protocol import Store

FRAME_LINE_TOLERANCE = 5


def apply_frames(
    store: Store, frames: tuple[Frame, ...], scored: dict[str, Scored], repo: str | None
) -> None:
    """Raise records a stack frame points at; the innermost frame in a mined file may add
    a record alone. A frame naming a record's file away from its line (a compiled
    ``dist/x.js`` of ``src/x.ts``, a file edited since) only breaks ties, as does a frame
    naming a record's method (``apply_methods``)."""
    apply_methods(store, frames, scored)
    usable = [f for f in frames[:10] if f.line is not None]
    if not usable:
        return
    names = {name for f in usable for name in _file_names(_posix(f.file))}
    rows_by_name: dict[str, list[CandidateRow]] = defaultdict(list)
    for row in store.rows_in_files(sorted(names), repo):
        rows_by_name[PurePosixPath(row.file_path).name].append(row)
    innermost = True  # no frame before this one named a file holding records
    for depth, frame in enumerate(usable):
        path = _posix(frame.file)
        assert frame.line is not None
        in_repo = False
        for name in _file_names(path):
            for row in rows_by_name.get(name, ()):
                if name != PurePosixPath(path).name:
                    if compiled_from(path, row.file_path):
                        _names_file(scored, row, depth, f"frame {name_of(path)} is built from")
                    continue
                if not same_file(path, row.file_path):
                    continue
                in_repo = True
                distance = abs(row.line_number - frame.line)
                if distance > FRAME_LINE_TOLERANCE:
                    _names_file(scored, row, depth, f"frame {name_of(path)}:{frame.line} names")
                    continue
                weight = (0.5 if distance == 0 else 0.35) / (1 + depth)
                where = f"frame {row.file_path}:{frame.line}" + (
                    "" if distance == 0 else f" (record at line {row.line_number})"
                )
                current = scored.get(row.id)
                if current is not None:
                    current.score += weight
                    current.reasons.append(where)
                elif innermost and distance <= 2:
                    scored[row.id] = Scored(
                        row, 0.3 + weight, [f"location only: {where}; the message differs"],
                        approximate=True,
                    )
        innermost = innermost and not in_repo


# A frame naming the method a record is written in (its line not printed, or moved since):
# more than a file named, less than any line pointed at.
_NAMES_METHOD = 0.1
# A frame without a file naming a method of the record's type, not its own: what a file
# named says, for a stack that prints no files.
_NAMES_TYPE = 0.04
# A public method's worker, named after it (``GetReader`` → ``GetReaderImpl``): a frame of
# the one may stand for the other (inlined, or the work moved there since).
_WORKERS = ("", "Impl", "Core", "Internal")


def apply_methods(store: Store, frames: tuple[Frame, ...], scored: dict[str, Scored]) -> None:
    """Raise, among the candidates tied at the top, those written in a method the stack's
    frames name (``Ns.Type.Method`` against a record's ``Type.Method``; in the frame's file
    when it names one): a release build prints no line, and a line moves with every edit."""
    named = [(depth, f) for depth, f in enumerate(frames[:10]) if f.function]
    if not named or not scored:
        return
    for item, stored in tied_at_top(store, scored):
        symbol = stored.extras.enclosing_symbol
        if not symbol:
            continue
        method = next(((d, f) for d, f in named if _same_method(f, symbol, item.row.file_path)),
                      None)
        if method is not None:
            item.score += _NAMES_METHOD / (1 + method[0])
            item.reasons.append(f"frame names its method {method[1].function}")
            continue
        owner = next(((d, f) for d, f in named if _same_type(f, symbol)), None)
        if owner is not None:
            item.score += _NAMES_TYPE / (1 + owner[0])
            item.reasons.append(f"frame {owner[1].function} names its type")


def _same_method(frame: Frame, symbol: str, file_path: str) -> bool:
    """Whether a frame's method is a record's enclosing one (or its worker), in the file the
    frame names, if any."""
    if frame.file and not _same_source(_posix(frame.file), file_path):
        return False
    called = _parts(frame.function or "")
    written = _parts(symbol)
    if len(called) < 1 or len(written) < 1:
        return False
    if len(called) > 1 and len(written) > 1 and called[-2] != written[-2]:
        return False  # another type's method of that name
    return any(written[-1] == called[-1] + worker for worker in _WORKERS)


def _same_type(frame: Frame, symbol: str) -> bool:
    """Whether a frame without a file (a release build's ``Ns.Type.Caller``) is a method of
    the type a record is written in (``Type.Helper``): the raise is the frame's callee, so
    of a template's sites the ones in that type come first, as a file named would."""
    if frame.file:
        return False  # a frame's file says more, and ``apply_frames`` reads it
    called, written = _parts(frame.function or ""), _parts(symbol)
    return len(called) > 1 and len(written) > 1 and called[-2] == written[-2]


def _same_source(frame_path: str, record_path: str) -> bool:
    """Whether a frame's file is the record's, or compiled from it: ``x.js`` of ``x.ts``, or
    of ``x/index.ts`` (a module moved into a folder of its name keeps its import path)."""
    frame, record = PurePosixPath(frame_path), PurePosixPath(record_path)
    if frame.name == record.name:
        return True
    if frame.suffix not in _COMPILED or record.suffix not in _SOURCES:
        return False
    return frame.stem == record.stem or (record.stem == "index"
                                         and frame.stem == record.parent.name)


def _parts(name: str) -> list[str]:
    """A qualified method's names, without generic arguments or a compiler's state machine
    (``Ns.Type+<Run>d__1.MoveNext`` → ``Ns``, ``Type``, ``Run``)."""
    name = re.sub(r"`\d+|\[[^\]]*\]", "", name)
    machine = re.search(r"\+<(\w+)>d__\d+\.MoveNext$", name)
    if machine:
        name = name[:machine.start()] + "." + machine.group(1)
    return [part for part in re.split(r"\.|::|#|\+", name) if part]


# A frame naming a record's file but not its line: less than any line a frame points at, and
# than the literal text one more word gives a template, so it orders one template's sites.
_NAMES_FILE = 0.05
_COMPILED = (".js", ".mjs", ".cjs")
_SOURCES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


def _posix(path: str) -> str:
    return path.replace("\\", "/")


def name_of(path: str) -> str:
    return PurePosixPath(path).name


def _file_names(path: str) -> tuple[str, ...]:
    """The base names a frame's file may have in the repository: its own, and for compiled
    JavaScript (``dist/x.js``) the sources it is built from (``x.ts``, ``x.tsx``, …)."""
    name = PurePosixPath(path).name
    stem, dot, extension = name.rpartition(".")
    if not dot or f".{extension}" not in _COMPILED:
        return (name,)
    return (name, *(stem + source for source in _SOURCES if stem + source != name))


def compiled_from(frame_path: str, record_path: str) -> bool:
    """Whether a frame's compiled file (``node_modules/pkg/built/redis/x.js``) is built from a
    record's source (``lib/redis/x.ts``): the same name but the extension, in a folder of the
    same name (the build keeps the layout below its root), or both at a root."""
    frame, record = PurePosixPath(frame_path), PurePosixPath(record_path)
    if frame.suffix not in _COMPILED or record.suffix not in _SOURCES or frame.stem != record.stem:
        return False
    frame_dirs, record_dirs = frame.parent.parts, record.parent.parts
    if len(record_dirs) <= 1 or len(frame_dirs) <= 1:
        return True  # ``index.ts`` or ``src/index.ts``: the build's root
    return frame_dirs[-1] == record_dirs[-1]


def _names_file(scored: dict[str, Scored], row: CandidateRow, depth: int, how: str) -> None:
    """Order a matched record first among its template's sites when a frame names its file;
    not the error class's own constructor, which every raise of it passes through."""
    current = scored.get(row.id)
    if current is not None and current.constructor:
        return
    note = f"{how} {row.file_path}"
    if current is None or any(reason.endswith(row.file_path) for reason in current.reasons):
        return
    current.score += _NAMES_FILE / (1 + depth)
    current.reasons.append(note)


__all__ = ["FRAME_LINE_TOLERANCE", "apply_frames", "apply_methods", "compiled_from"]
