"""Release specs (``pypi:NAME==VERSION``, ``npm:NAME@VERSION``): one exact release, so a mine
of it is reproducible and two versions of a package can sit side by side in one store."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from errdex.errors import UsageError

Ecosystem = Literal["pypi", "npm"]
ECOSYSTEMS: tuple[Ecosystem, ...] = ("pypi", "npm")

# PEP 508 names (any case; ``.``, ``_``, ``-`` inside), PEP 440 versions (epoch, local part).
_PYPI_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$")
_PYPI_VERSION = re.compile(r"^(?:\d+!)?\d[0-9A-Za-z.+_-]*$")
# npm names: lowercase today, mixed case in old packages; an optional ``@scope/``.
_NPM_PART = r"[A-Za-z0-9~-][A-Za-z0-9._~-]*"
_NPM_NAME = re.compile(rf"^(?:@{_NPM_PART}/)?{_NPM_PART}$")
_NPM_VERSION = re.compile(r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")
_NPM_NAME_MAX = 214

EXAMPLES = "pypi:NAME==VERSION or npm:NAME@VERSION (e.g. pypi:requests==2.31.0, npm:axios@1.6.0)"


@dataclass(frozen=True, order=True)
class PackageSpec:
    """One release of one package of one registry."""

    ecosystem: Ecosystem
    name: str
    version: str

    def __str__(self) -> str:
        separator = "==" if self.ecosystem == "pypi" else "@"
        return f"{self.ecosystem}:{self.name}{separator}{self.version}"

    @property
    def normalized(self) -> str:
        """The name as the registry files it: PEP 503 for PyPI (``Foo_Bar`` → ``foo-bar``);
        npm names are their own."""
        if self.ecosystem == "pypi":
            return normalize_pypi_name(self.name)
        return self.name


def normalize_pypi_name(name: str) -> str:
    """PEP 503: runs of ``-``, ``_`` and ``.`` become one ``-``, lowercased."""
    return re.sub(r"[-_.]+", "-", name).lower()


def is_spec(text: str) -> bool:
    """Whether ``text`` is meant as a release spec (``pypi:`` or ``npm:`` prefix), valid or
    not: ``mine`` reads such an argument as a release, anything else as a path."""
    prefix, colon, _ = text.partition(":")
    return bool(colon) and prefix.lower() in ECOSYSTEMS


def parse_spec(text: str) -> PackageSpec:
    """The release ``text`` names; a :class:`UsageError` saying what to write instead when it
    names no exact release (no version, a range, a bad name, another registry)."""
    raw = text.strip()
    prefix, colon, rest = raw.partition(":")
    ecosystem = prefix.lower()
    if not colon or ecosystem not in ECOSYSTEMS:
        raise UsageError(f"{text!r} is not a release spec; write {EXAMPLES}")
    if ecosystem == "pypi":
        return _pypi(text, rest.strip())
    return _npm(text, rest.strip())


def _pypi(text: str, rest: str) -> PackageSpec:
    name, pinned, version = rest.partition("==")
    name, version = name.strip(), version.strip()
    if "[" in name:  # extras change what is installed, not the source: drop them
        name = name.split("[", 1)[0].strip()
    if not pinned or version.startswith("="):
        bare = re.split(r"[<>=!~;,\s]", name, maxsplit=1)[0] or "NAME"
        raise UsageError(f"{text!r} is not pinned to one version; write pypi:{bare}"
                         "==VERSION (a range such as >= or ~= names no single release)")
    if not _PYPI_NAME.match(name):
        raise UsageError(f"{text!r}: {name!r} is not a PyPI project name (letters, digits, "
                         "'.', '_' and '-'); write pypi:NAME==VERSION")
    if not _PYPI_VERSION.match(version) or "*" in version:
        raise UsageError(f"{text!r}: {version!r} is not one exact version; write "
                         f"pypi:{name}==VERSION (e.g. 2.31.0)")
    return PackageSpec("pypi", name, version)


def _npm(text: str, rest: str) -> PackageSpec:
    at = rest.rfind("@")
    if at <= 0:  # no version, or only a scope's '@'
        raise UsageError(f"{text!r} is not pinned to one version; write "
                         f"npm:{rest or 'NAME'}@VERSION (e.g. npm:axios@1.6.0)")
    name, version = rest[:at].strip(), rest[at + 1:].strip()
    if not _NPM_NAME.match(name) or len(name) > _NPM_NAME_MAX:
        raise UsageError(f"{text!r}: {name!r} is not an npm package name (NAME or "
                         "@SCOPE/NAME); write npm:NAME@VERSION")
    if not _NPM_VERSION.match(version):
        raise UsageError(f"{text!r}: {version!r} is not one exact version (a range, tag or "
                         f"URL names no single release); write npm:{name}@MAJOR.MINOR.PATCH")
    return PackageSpec("npm", name, version)


__all__ = ["ECOSYSTEMS", "Ecosystem", "PackageSpec", "is_spec", "normalize_pypi_name",
           "parse_spec"]
