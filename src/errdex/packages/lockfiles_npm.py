"""npm lockfiles: ``package-lock.json`` (v1 nested ``dependencies``; v2 and v3
``packages``), ``pnpm-lock.yaml`` (v5 ``/name/1.0.0``, v6 ``/name@1.0.0``, v9
``name@1.0.0`` keys) and ``yarn.lock`` (classic v1 and berry), read into :class:`Pins`.

Only registry releases are kept; ``file:``, ``link:``, git, tarball-URL and workspace
entries are not releases a registry can hand out (workspaces silently: they are the
project itself, the rest as problems).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]

from errdex.packages.pins import Pins, read_json_object
from errdex.packages.specs import Ecosystem

NPM: Ecosystem = "npm"
_SEMVER = re.compile(r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")
_NAME = re.compile(r"^(?:@[a-z0-9][\w.~-]*/)?[a-z0-9~][\w.~-]*$", re.I)


def _add(path: Path, pins: Pins, name: str, version: str, where: str | None = None) -> None:
    """One release when ``name`` and ``version`` are a registry's, else a problem line."""
    if not _NAME.match(name):
        pins.problem(path, None, where or name, "not an npm package name")
    elif not _SEMVER.match(version):
        pins.problem(path, None, f"{name}@{version}", "not a registry version")
    else:
        pins.add(NPM, name, version, path)


def _split_at(descriptor: str) -> tuple[str, str]:
    """``@scope/name@range`` → (``@scope/name``, ``range``): the ``@`` after the name."""
    at = descriptor.find("@", 1)
    return (descriptor, "") if at < 0 else (descriptor[:at], descriptor[at + 1:])


def read_package_lock(path: Path, pins: Pins) -> None:
    """``package-lock.json`` / ``npm-shrinkwrap.json``: v2 and v3 ``packages`` (keys
    ``node_modules/…``), else v1's nested ``dependencies``."""
    data = read_json_object(path, pins, "not a package-lock.json (not an object)")
    if data is None:
        return
    packages = data.get("packages")
    if isinstance(packages, dict) and packages:
        for key, entry in packages.items():
            if "node_modules/" not in key or not isinstance(entry, dict) or entry.get("link"):
                continue  # "" is the project, other keys its workspaces; links point at them
            name = entry.get("name") or key.rsplit("node_modules/", 1)[1]
            _locked(path, pins, str(name), entry)
    else:
        _v1_dependencies(path, pins, data.get("dependencies") or {})


def _locked(path: Path, pins: Pins, name: str, entry: dict[str, Any]) -> None:
    version = str(entry.get("version", ""))
    resolved = str(entry.get("resolved", ""))
    if version.startswith("npm:"):  # v1 alias: "version": "npm:real-name@1.2.3"
        name, version = _split_at(version[4:])
    if resolved.startswith(("file:", "git")) or "://" in version or ":" in version:
        pins.problem(path, None, f"{name}@{version or resolved}",
                     "a file, link or git dependency, not a registry release")
    elif not version:
        pins.problem(path, None, name, "no version")
    else:
        _add(path, pins, name, version)


def _v1_dependencies(path: Path, pins: Pins, dependencies: Any) -> None:
    if not isinstance(dependencies, dict):
        return
    for name, entry in dependencies.items():
        if isinstance(entry, dict):
            _locked(path, pins, name, entry)
            _v1_dependencies(path, pins, entry.get("dependencies") or {})


def _yaml(path: Path, pins: Pins) -> dict[str, Any] | None:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        pins.problem(path, None, "", f"cannot read ({exc.strerror or exc})")
        return None
    except yaml.YAMLError as exc:
        pins.problem(path, None, "", f"not valid YAML ({str(exc).splitlines()[0]})")
        return None
    if not isinstance(data, dict):
        pins.problem(path, None, "", "not a lockfile (not a mapping)")
        return None
    pins.files.append(path)
    return data


def read_pnpm_lock(path: Path, pins: Pins) -> None:
    """``pnpm-lock.yaml``: the keys of ``packages`` name each release; peer-dependency
    suffixes (``(react@18.2.0)`` in v6/v9, ``_react@18.2.0`` in v5) are dropped."""
    data = _yaml(path, pins)
    if data is None:
        return
    version5 = str(data.get("lockfileVersion", "")).startswith("5")
    for key, entry in (data.get("packages") or {}).items():
        entry = entry if isinstance(entry, dict) else {}
        resolution = entry.get("resolution") or {}
        if isinstance(resolution, dict) and ("directory" in resolution or "repo" in resolution
                                             or str(resolution.get("tarball", "")).startswith(
                                                 "file:")):
            pins.problem(path, None, str(key), "a directory, git or file release, not a registry's")
            continue
        name, version = _pnpm_key(str(key), version5)
        if "name" in entry and "version" in entry and not _SEMVER.match(version):
            name, version = str(entry["name"]), str(entry["version"])  # key is a URL or path
        _add(path, pins, name, version, where=str(key))


def _pnpm_key(key: str, version5: bool) -> tuple[str, str]:
    key = key.removeprefix("/")
    key = re.sub(r"\(.*$", "", key)  # v6/v9 peer suffix: name@1.0.0(peer@2.0.0)
    if version5:
        parts = key.split("/")
        count = 2 if key.startswith("@") else 1
        name, version = "/".join(parts[:count]), "/".join(parts[count:])
        return name, version.split("_", 1)[0]
    return _split_at(key)


def read_yarn_lock(path: Path, pins: Pins) -> None:
    """``yarn.lock``: berry (a YAML file with ``__metadata``) or classic v1 (its own format:
    descriptor lines, then indented ``version "X"`` fields)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        pins.problem(path, None, "", f"cannot read ({exc.strerror or exc})")
        return
    if re.search(r"^__metadata:", text, re.M):
        data = _yaml(path, pins)
        if data is not None:
            _yarn_berry(path, pins, data)
    else:
        pins.files.append(path)
        _yarn_classic(path, pins, text)


def _yarn_berry(path: Path, pins: Pins, data: dict[str, Any]) -> None:
    for key, entry in data.items():
        if key == "__metadata" or not isinstance(entry, dict):
            continue
        name, protocol = _split_at(str(entry.get("resolution") or key.split(",")[0].strip()))
        if protocol.startswith(("workspace:", "patch:")):
            continue  # the project itself; a patched release is also listed unpatched
        if not protocol.startswith("npm:"):
            pins.problem(path, None, str(key), f"a {protocol.split(':')[0]}: release, "
                         "not a registry's")
            continue
        _add(path, pins, name, str(entry.get("version", "")), where=str(key))


_CLASSIC_REMOTE = ("file:", "link:", "portal:", "git", "http", "github:", "workspace:")


def _yarn_classic(path: Path, pins: Pins, text: str) -> None:
    descriptor: str | None = None
    start = 0
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            if not line.rstrip().endswith(":"):
                pins.problem(path, number, line, "not a yarn.lock entry")
                descriptor = None
                continue
            descriptor = line.rstrip()[:-1].split(",")[0].strip().strip('"')
            start = number
            continue
        field = re.match(r'^\s+version:?\s+"?([^"\s]+)"?\s*$', line)
        if descriptor is None or field is None:
            continue
        name, wanted = _split_at(descriptor)
        if wanted.startswith("npm:"):  # alias: "alias@npm:real@^1.0.0"
            name = _split_at(wanted[4:])[0]
        elif wanted.startswith(_CLASSIC_REMOTE) or "/" in wanted:
            pins.problem(path, start, descriptor, "a file, link or git dependency, "
                         "not a registry release")
            descriptor = None
            continue
        _add(path, pins, name, field.group(1), where=descriptor)
        descriptor = None
