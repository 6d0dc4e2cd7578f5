"""Python lockfiles: ``requirements*.txt`` (pinned ``==`` lines), ``uv.lock``,
``poetry.lock`` and ``Pipfile.lock``, read into :class:`Pins`.

Environment markers are not evaluated: a project that pins one version for old Pythons and
another for new ones runs both somewhere, so both are mined.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from errdex.packages.pins import Pins, read_json_object
from errdex.packages.specs import Ecosystem

PYPI: Ecosystem = "pypi"
MAX_INCLUDE_DEPTH = 8

# PEP 508: a name, optional [extras], then the version specifiers (or an ``@ URL``).
_REQUIREMENT = re.compile(
    r"^(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*"
    r"(?:\[(?P<extras>[^\]]*)\])?\s*(?P<rest>.*)$"
)
_PIN = re.compile(r"^===?\s*(?P<version>[A-Za-z0-9][A-Za-z0-9.+!_-]*)$")
_INCLUDES = {"-r", "--requirement"}
_CONSTRAINTS = {"-c", "--constraint"}
_EDITABLE = {"-e", "--editable"}


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(first line number, line) with ``\\`` continuations joined and comments removed."""
    out: list[tuple[int, str]] = []
    pending, start = "", 0
    for number, raw in enumerate(text.splitlines(), 1):
        if not pending:
            start = number
        line = raw.rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        joined = pending + line
        pending = ""
        joined = re.sub(r"(^|\s)#.*$", "", joined).strip()
        if joined:
            out.append((start, joined))
    if pending.strip():
        out.append((start, pending.strip()))
    return out


def read_requirements(path: Path, pins: Pins, depth: int = 0,
                      seen: set[Path] | None = None) -> None:
    """A pip requirements file: every ``NAME==VERSION`` line (extras, markers and ``--hash``
    options allowed), following ``-r`` includes relative to the file; ``-c`` constraint files
    pin nothing by themselves and are not read."""
    seen = set() if seen is None else seen
    resolved = path.resolve()
    if resolved in seen:
        return
    seen.add(resolved)
    try:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
    except OSError as exc:
        pins.problem(path, None, "", f"cannot read ({exc.strerror or exc})")
        return
    pins.files.append(path)
    for number, line in _logical_lines(text):
        if line.startswith("-"):
            _option_line(path, number, line, pins, depth, seen)
        else:
            _requirement_line(path, number, line, pins)


def _option_line(path: Path, number: int, line: str, pins: Pins, depth: int,
                 seen: set[Path]) -> None:
    parts = re.split(r"[\s=]+", line, maxsplit=1)
    option, value = parts[0], (parts[1].strip() if len(parts) > 1 else "")
    if option in _INCLUDES:
        if not value:
            pins.problem(path, number, line, "-r needs a file name")
        elif depth >= MAX_INCLUDE_DEPTH:
            pins.problem(path, number, line, f"includes nested deeper than {MAX_INCLUDE_DEPTH}")
        elif not (path.parent / value).is_file():
            pins.problem(path, number, line, "included file not found")
        else:
            read_requirements(path.parent / value, pins, depth + 1, seen)
    elif option in _EDITABLE:
        pins.problem(path, number, line, "editable install: not a registry release")
    # -c constraints, --index-url, --find-links, --hash, --pre …: options, not packages


def _requirement_line(path: Path, number: int, line: str, pins: Pins) -> None:
    if re.match(r"^[a-z][a-z0-9+.-]*://", line, re.I) or line.startswith(("git+", ".", "/")):
        pins.problem(path, number, line, "a URL or path, not a registry release")
        return
    requirement = re.split(r"\s+--?[A-Za-z]", line, maxsplit=1)[0]  # drop --hash=… options
    requirement = requirement.split(";", 1)[0].strip()  # markers: see the module docstring
    match = _REQUIREMENT.match(requirement)
    if match is None:
        pins.problem(path, number, line, "not a requirement errdex can read")
        return
    rest = match["rest"].strip()
    if rest and not rest.startswith(("=", "<", ">", "~", "!", "@")):
        pins.problem(path, number, line, "not a requirement errdex can read")
        return
    if rest.startswith("@"):
        pins.problem(path, number, line, "a direct URL, not a registry release")
        return
    version = _pinned_version(rest)
    if version is None:
        pins.problem(path, number, line, "not pinned (no ==VERSION)")
        return
    pins.add(PYPI, match["name"], version, path, number)


def _pinned_version(specifiers: str) -> str | None:
    """The version of the one exact ``==`` (or ``===``) clause; ``None`` for ranges,
    wildcards (``==1.*``) and bare names."""
    for clause in (c.strip() for c in specifiers.split(",") if c.strip()):
        found = _PIN.match(clause)
        if found is not None:
            return found["version"]
    return None


def _toml(path: Path, pins: Pins) -> dict[str, Any] | None:
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except OSError as exc:
        pins.problem(path, None, "", f"cannot read ({exc.strerror or exc})")
        return None
    except tomllib.TOMLDecodeError as exc:
        pins.problem(path, None, "", f"not valid TOML ({exc})")
        return None
    pins.files.append(path)
    return data


def _entry_problem(path: Path, pins: Pins, entry: Any, why: str) -> None:
    name = entry.get("name", "?") if isinstance(entry, dict) else "?"
    pins.problem(path, None, str(name), why)


def read_uv_lock(path: Path, pins: Pins) -> None:
    """``uv.lock``: each ``[[package]]`` from a registry; the project itself (``editable``,
    ``virtual``) is not a dependency, git and path sources are not registry releases."""
    data = _toml(path, pins)
    for entry in (data or {}).get("package", []):
        if not isinstance(entry, dict) or "name" not in entry:
            _entry_problem(path, pins, entry, "a [[package]] without a name")
            continue
        source = entry.get("source", {})
        kind = next(iter(source), "registry") if isinstance(source, dict) else "registry"
        if kind in ("editable", "virtual"):
            continue
        if kind != "registry":
            _entry_problem(path, pins, entry, f"a {kind} source, not a registry release")
        elif not isinstance(entry.get("version"), str):
            _entry_problem(path, pins, entry, "no version")
        else:
            pins.add(PYPI, entry["name"], entry["version"], path)


def read_poetry_lock(path: Path, pins: Pins) -> None:
    """``poetry.lock``: each ``[[package]]``; a ``legacy`` source is another index (still a
    registry), ``git``, ``directory``, ``file`` and ``url`` sources are not."""
    data = _toml(path, pins)
    for entry in (data or {}).get("package", []):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            _entry_problem(path, pins, entry, "a [[package]] without a name")
            continue
        source = entry.get("source") or {}
        kind = source.get("type", "legacy") if isinstance(source, dict) else "legacy"
        if kind != "legacy":
            _entry_problem(path, pins, entry, f"a {kind} source, not a registry release")
        elif not isinstance(entry.get("version"), str):
            _entry_problem(path, pins, entry, "no version")
        else:
            pins.add(PYPI, entry["name"], entry["version"], path)


def read_pipfile_lock(path: Path, pins: Pins) -> None:
    """``Pipfile.lock``: the ``default`` and ``develop`` sections (errors from test tools
    are pasted too); ``"version": "==X"`` pins, git/path/file entries are not releases."""
    data = read_json_object(path, pins, "not a Pipfile.lock (no sections)")
    if data is None:
        return
    for section in ("default", "develop"):
        entries = data.get(section) or {}
        for name, entry in entries.items() if isinstance(entries, dict) else ():
            if not isinstance(entry, dict):
                pins.problem(path, None, name, "not an entry errdex can read")
            elif any(key in entry for key in ("git", "path", "file", "editable")):
                pins.problem(path, None, name, "a git/path/file entry, not a registry release")
            elif (version := _pinned_version(str(entry.get("version", "")))) is None:
                pins.problem(path, None, name, "not pinned (no ==VERSION)")
            else:
                pins.add(PYPI, name, version, path)
