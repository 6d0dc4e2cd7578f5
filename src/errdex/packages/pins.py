"""What a lockfile pins, as the lockfile readers collect it: package specs in first-seen
order without duplicates, and one problem line per entry that cannot be mined (unpinned,
unparseable, not from a registry) so that a bad line never hides the good ones.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from errdex.errors import UsageError
from errdex.packages.specs import Ecosystem, PackageSpec, normalize_pypi_name, parse_spec


def normalize(ecosystem: Ecosystem, name: str) -> str:
    """The registry's spelling of ``name``: PEP 503 on PyPI (``Flask_SQLAlchemy`` and
    ``flask-sqlalchemy`` are one project); npm names are kept as written (its registry
    compares them exactly)."""
    return normalize_pypi_name(name.strip()) if ecosystem == "pypi" else name.strip()


@dataclass(frozen=True)
class Problem:
    """An entry of a lockfile that is not mined: where it is and why, in one line."""

    source: str
    line: int | None
    text: str
    reason: str

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line else self.source
        text = f" {self.text!r}" if self.text else ""
        return f"{where}:{text} {self.reason}"


@dataclass
class Pins:
    """The specs and problems read so far, across every lockfile of a project."""

    specs: list[PackageSpec] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    _seen: set[tuple[str, str, str]] = field(default_factory=set, repr=False)

    def add(self, ecosystem: Ecosystem, name: str, version: str,
            source: Path | str = "", line: int | None = None) -> None:
        """One pinned release (normalised name; a repeat of one already read is dropped); a
        name or version that names no exact release is a problem of ``source``."""
        name, version = normalize(ecosystem, name), version.strip()
        separator = "==" if ecosystem == "pypi" else "@"
        try:
            spec = parse_spec(f"{ecosystem}:{name}{separator}{version}")
        except UsageError:
            self.problem(source, line, f"{name}{separator}{version}",
                         "not a release errdex can fetch (name or version)")
            return
        key = (spec.ecosystem, spec.name, spec.version)
        if key not in self._seen:
            self._seen.add(key)
            self.specs.append(spec)

    def problem(self, source: Path | str, line: int | None, text: str, reason: str) -> None:
        """One entry that will not be mined, and why."""
        self.problems.append(Problem(str(source), line, text.strip()[:120], reason))


def read_json_object(path: Path, pins: Pins, not_object: str) -> dict[str, Any] | None:
    """A JSON lockfile's top object, read once for every JSON format; an unreadable, invalid
    or non-object file is one problem line (``not_object`` says which) and ``None``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        pins.problem(path, None, "", f"cannot read ({exc.strerror or exc})")
        return None
    except ValueError as exc:
        pins.problem(path, None, "", f"not valid JSON ({exc})")
        return None
    if not isinstance(data, dict):
        pins.problem(path, None, "", not_object)
        return None
    pins.files.append(path)
    return data
