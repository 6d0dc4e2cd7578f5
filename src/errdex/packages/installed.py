"""What an environment has installed: the packages of a Python environment's site-packages
or of a ``node_modules`` tree, at their installed versions, with their files read from the
installed tree (no download: what is installed is what runs).

Python: each ``*.dist-info`` (its ``METADATA`` names the package and version, ``RECORD``
lists the files it installed; paths stay as installed, ``requests/models.py``) and each
``*.egg-info`` with ``installed-files.txt``. An editable install lists no source (its
``RECORD`` holds a ``.pth``): it is reported, to be mined as the checkout it points at.
The environment is found from ``--python``: an interpreter (asked for its ``purelib`` and
``platlib`` paths, isolated: ``-I``), a virtual environment's folder, or a site-packages
folder itself.

npm: every folder under ``node_modules`` (scoped ``@scope/name`` and nested
``node_modules`` too) whose ``package.json`` has a name and a version; one package@version
once, wherever it is installed. Links (``npm link``, pnpm's store) are not followed.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.parser import BytesHeaderParser
from pathlib import Path

from errdex.errors import UsageError
from errdex.languages import language_for_path
from errdex.packages.specs import PackageSpec

MAX_FILE_BYTES = 2_000_000


@dataclass
class InstalledPackage:
    """One installed package: its release, where it is, and which files are its own."""

    spec: PackageSpec
    location: Path  # site-packages, or the package's folder in node_modules
    paths: list[str] = field(default_factory=list)  # its mineable files, relative to location
    metadata: bytes | None = None
    problem: str | None = None  # why it cannot be mined (an editable install), else None

    def read_files(self) -> dict[str, bytes]:
        """The bytes of its mineable files (regular files only; a link is not followed)."""
        files = {}
        for relative in self.paths:
            path = self.location / relative
            try:
                if path.is_symlink() or not path.is_file():
                    continue
                if path.stat().st_size > MAX_FILE_BYTES:
                    continue
                files[relative] = path.read_bytes()
            except OSError:
                continue
        return files


# --- Python ------------------------------------------------------------------------------


def site_packages(python: str | os.PathLike[str]) -> list[Path]:
    """The site-packages folders of the environment ``python`` names (see the docstring)."""
    target = Path(python).expanduser()
    if target.is_dir():
        if target.name in ("site-packages", "dist-packages"):
            return [target]
        if (target / "pyvenv.cfg").is_file():
            found = sorted(target.glob("lib/python*/site-packages")) + sorted(
                target.glob("Lib/site-packages"))
            if found:
                return found
        raise UsageError(f"{target}: not a Python environment; pass its interpreter "
                         "(bin/python), its folder (with pyvenv.cfg) or a site-packages folder")
    if not target.exists():
        raise UsageError(f"{target}: no such Python interpreter or environment")
    code = ("import json, sysconfig; "
            "print(json.dumps([sysconfig.get_path('purelib'), sysconfig.get_path('platlib')]))")
    try:
        done = subprocess.run([str(target), "-I", "-c", code], capture_output=True, text=True,
                              timeout=60, check=False)
        paths = json.loads(done.stdout)
    except (OSError, ValueError, subprocess.TimeoutExpired) as exc:
        raise UsageError(f"{target}: not a Python interpreter errdex can ask for its "
                         "site-packages; pass the environment's folder instead") from exc
    return [Path(p) for p in dict.fromkeys(paths) if p and Path(p).is_dir()]


def python_packages(python: str | os.PathLike[str]) -> list[InstalledPackage]:
    """Every package installed in the environment ``python`` names, by name."""
    found: dict[PackageSpec, InstalledPackage] = {}
    for folder in site_packages(python):
        for package in _python_packages_in(folder):
            found.setdefault(package.spec, package)
    return sorted(found.values(), key=lambda p: p.spec)


def _python_packages_in(folder: Path) -> Iterator[InstalledPackage]:
    for info in sorted(folder.glob("*.dist-info")) + sorted(folder.glob("*.egg-info")):
        metadata_file = info / ("METADATA" if info.suffix == ".dist-info" else "PKG-INFO")
        try:
            metadata = metadata_file.read_bytes()
        except OSError:
            continue
        headers = BytesHeaderParser().parsebytes(metadata)
        name, version = headers.get("Name"), headers.get("Version")
        if not name or not version:
            continue
        package = InstalledPackage(PackageSpec("pypi", str(name).strip(), str(version).strip()),
                                   folder, metadata=metadata)
        listed = _recorded_paths(info)
        package.paths = sorted(p for p in listed if _own_source(p))
        if _editable(info) or (listed and not package.paths and
                               any(p.endswith(".pth") for p in listed)):
            package.problem = "an editable install: mine the checkout it points at instead"
        yield package


def _recorded_paths(info: Path) -> list[str]:
    """The paths a package installed, relative to site-packages, from RECORD (dist-info) or
    installed-files.txt (egg-info, relative to the egg-info folder)."""
    try:
        if info.suffix == ".dist-info":
            text = (info / "RECORD").read_text(encoding="utf-8", errors="replace")
            rows = [row[0] for row in csv.reader(io.StringIO(text)) if row]
        else:
            text = (info / "installed-files.txt").read_text(encoding="utf-8", errors="replace")
            rows = [os.path.normpath(os.path.join(info.name, line.strip()))
                    for line in text.splitlines() if line.strip()]
    except OSError:
        return []
    return [row.replace("\\", "/") for row in rows]


def _own_source(path: str) -> bool:
    """A mineable file inside site-packages (not a script in ../../bin, not bytecode)."""
    parts = path.split("/")
    return (not path.startswith("/") and ".." not in parts and "__pycache__" not in parts
            and language_for_path(path) is not None)


def _editable(info: Path) -> bool:
    try:
        data = json.loads((info / "direct_url.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return bool(isinstance(data, dict) and data.get("dir_info", {}).get("editable"))


# --- npm ---------------------------------------------------------------------------------


def node_packages(node_modules: str | os.PathLike[str]) -> list[InstalledPackage]:
    """Every package of the ``node_modules`` tree, one per name@version, by name."""
    root = Path(node_modules).expanduser()
    if not root.is_dir():
        raise UsageError(f"{root}: no such node_modules folder")
    if root.name != "node_modules" and (root / "node_modules").is_dir():
        root = root / "node_modules"  # the project's folder was given
    found: dict[PackageSpec, InstalledPackage] = {}
    for folder in _package_folders(root):
        try:
            data = json.loads((folder / "package.json").read_bytes())
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict):
            continue
        name, version = data.get("name"), data.get("version")
        if not isinstance(name, str) or not isinstance(version, str) or not name or not version:
            continue
        spec = PackageSpec("npm", name, version)
        if spec in found:
            continue
        package = InstalledPackage(spec, folder,
                                   metadata=(folder / "package.json").read_bytes())
        package.paths = _node_files(folder)
        found[spec] = package
    return sorted(found.values(), key=lambda p: p.spec)


def _package_folders(node_modules: Path) -> Iterator[Path]:
    """Package folders under ``node_modules``, nested ones too; links not followed."""
    pending = [node_modules]
    while pending:
        current = pending.pop()
        try:
            entries = sorted(current.iterdir())
        except OSError:
            continue
        for entry in entries:
            if entry.is_symlink() or not entry.is_dir() or entry.name.startswith("."):
                continue
            if entry.name.startswith("@"):
                pending.append(entry)  # a scope: its packages are one level down
                continue
            if (entry / "package.json").is_file():
                yield entry
            if (entry / "node_modules").is_dir():
                pending.append(entry / "node_modules")


def _node_files(folder: Path) -> list[str]:
    """The package's own mineable files (not its nested node_modules), relative to it."""
    paths = []
    for current, folders, names in os.walk(folder):
        folders[:] = sorted(f for f in folders if f != "node_modules"
                            and not os.path.islink(os.path.join(current, f)))
        for name in sorted(names):
            relative = os.path.relpath(os.path.join(current, name), folder).replace(os.sep, "/")
            if language_for_path(relative) is not None:
                paths.append(relative)
    return paths


__all__ = ["InstalledPackage", "node_packages", "python_packages", "site_packages"]
