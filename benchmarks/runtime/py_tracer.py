"""A pytest plugin that records where a library's own code raises, to score mining against.

Loaded with ``-p py_tracer`` (this folder on ``PYTHONPATH``). It reads:

* ``ERRDEX_RT_ROOTS`` — the library's source folders (``os.pathsep`` separated); only
  frames of files under them are traced, every other frame gets no local trace function,
  so the suite runs at close to its normal speed;
* ``ERRDEX_RT_REPO`` — the repository root, to which recorded paths are relative;
* ``ERRDEX_RT_OUT`` — a folder; each process writes ``py-<pid>.jsonl`` there at exit.

An exception is recorded at its raise point: the ``exception`` event of the frame that is
the only entry of the traceback (so a propagating or re-raised exception is not counted
again in its callers). Each line: class, ``str(exc)`` (capped), file, line, the opcode that
raised (``RAISE_VARARGS`` for a ``raise`` statement; a call or subscript when the
interpreter or C code wrote the exception), whether ``str(exc)`` is the runtime's repr of
non-string arguments (``rendered``) and how often it was seen.
"""

from __future__ import annotations

import atexit
import dis
import json
import os
import sys
import threading
from types import CodeType, FrameType, TracebackType
from typing import Any

MAX_MESSAGE = 2000

_ROOTS = tuple(os.path.join(os.path.realpath(root), "")
               for root in os.environ.get("ERRDEX_RT_ROOTS", "").split(os.pathsep) if root)
_REPO = os.path.realpath(os.environ.get("ERRDEX_RT_REPO", os.getcwd()))
_OUT = os.environ.get("ERRDEX_RT_OUT", "")

_by_file: dict[str, str] = {}
_by_code: dict[CodeType, str] = {}
_seen: dict[tuple[str, int, str, str, str, str], int] = {}
_written = False


def _relative(filename: str) -> str:
    """The repo-relative path of a library file, or '' for any other file."""
    rel = _by_file.get(filename)
    if rel is None:
        real = os.path.realpath(filename)
        rel = os.path.relpath(real, _REPO) if real.startswith(_ROOTS) else ""
        _by_file[filename] = rel
    return rel


def _opname(code: CodeType, lasti: int) -> str:
    try:
        return dis.opname[code.co_code[lasti]]
    except (IndexError, TypeError):
        return "?"


def _rendered(exc: BaseException) -> str:
    """'repr' when str(exc) is the runtime's rendering of arguments that are not one string
    (a KeyError's key, a dict or tuple of arguments), else 'text'."""
    method = type(exc).__str__
    args = exc.args
    if method is KeyError.__str__ and len(args) == 1:
        return "repr"
    if method is BaseException.__str__ and (len(args) > 1 or
                                             (args and not isinstance(args[0], str))):
        return "repr"
    return "text"


def _record(frame: FrameType, exc: BaseException, tb: TracebackType) -> None:
    try:
        message = str(exc)
    except Exception:  # a broken __str__ is the library's business, not ours
        message = "<str() failed>"
    cls = type(exc)
    name = cls.__qualname__
    if cls.__module__ != "builtins":
        name = f"{cls.__module__}.{name}"
    key = (_by_code[frame.f_code], tb.tb_lineno, name, message[:MAX_MESSAGE],
           _opname(frame.f_code, tb.tb_lasti), _rendered(exc))
    _seen[key] = _seen.get(key, 0) + 1


def _local(frame: FrameType, event: str, arg: Any) -> Any:
    if event == "exception":
        tb = arg[2]
        if tb is not None and tb.tb_frame is frame and tb.tb_next is None:
            _record(frame, arg[1], tb)
    return _local


def _global(frame: FrameType, event: str, arg: Any) -> Any:
    code = frame.f_code
    rel = _by_code.get(code)
    if rel is None:
        rel = _by_code[code] = _relative(code.co_filename)
    if not rel:
        return None
    frame.f_trace_lines = False
    return _local


def write() -> None:
    """Write what was seen (once: at pytest's end or at interpreter exit)."""
    global _written
    if _written or not _OUT:
        return
    _written = True
    sys.settrace(None)
    threading.settrace(None)
    os.makedirs(_OUT, exist_ok=True)
    path = os.path.join(_OUT, f"py-{os.getpid()}.jsonl")
    with open(path, "w", encoding="utf-8") as out:
        for (file, line, cls, message, op, rendered), count in sorted(_seen.items()):
            out.write(json.dumps({"lang": "python", "file": file, "line": line, "class": cls,
                                  "message": message, "op": op, "rendered": rendered,
                                  "count": count}) + "\n")


def pytest_unconfigure(config: object) -> None:
    write()


if _ROOTS:
    atexit.register(write)
    threading.settrace(_global)
    sys.settrace(_global)
