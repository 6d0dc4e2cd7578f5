"""Reading a release archive (sdist ``.tar.gz``/``.zip``, wheel, npm ``.tgz``) without ever
writing its names to disk: a stranger's archive is data, never a set of paths to trust.

Members are read into memory and handed on as (path, bytes); nothing is extracted, so a
hostile name cannot land a file anywhere. Still, an archive that *would* unpack outside
its folder (an absolute name, a ``..`` part, a link pointing out of it) is refused as a
whole, as pip and npm refuse it: it is damaged or an attack, and its other files cannot be
trusted either. Links inside the archive, devices and fifos are left out (the miner skips
links too). Sizes are bounded (``MAX_RELEASE_BYTES`` in all, ``MAX_MEMBERS`` files), so a
decompression bomb stops early.
"""

from __future__ import annotations

import posixpath
import tarfile
import zipfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from errdex.errors import RepositoryError

MAX_RELEASE_BYTES = 512 * 1024**2  # uncompressed, of the files kept
MAX_MEMBERS = 100_000
MAX_FILE_BYTES = 2_000_000  # as the miner's own limit: larger files are never mined


@dataclass
class Unpacked:
    """The kept files of an archive, their paths relative to its top folder."""

    files: dict[str, bytes] = field(default_factory=dict)
    top: str = ""  # the folder every member was under (``requests-2.26.0``, ``package``)
    skipped: Counter[str] = field(default_factory=Counter)


def read_archive(path: Path, keep: Callable[[str], bool]) -> Unpacked:
    """The files of the archive at ``path`` for which ``keep(relative path)`` holds.

    A traversal (absolute name, ``..``, a link out of the archive) is a RepositoryError
    naming the member; so is an archive that is not a tar or zip file.
    """
    name = path.name.lower()
    try:
        if name.endswith((".zip", ".whl")):
            with zipfile.ZipFile(path) as archive:
                members = _zip_members(archive)
                return _select(path, members, keep)
        with tarfile.open(path, "r:*") as tar:
            return _select(path, _tar_members(path, tar), keep)
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError) as exc:
        raise RepositoryError(f"{path.name}: not a readable archive ({exc})") from exc


# (name, reader or None for a member left out, why it was left out)
_Member = tuple[str, Callable[[], bytes] | None, str, int]


def _tar_members(path: Path, tar: tarfile.TarFile) -> list[_Member]:
    found: list[_Member] = []
    for count, member in enumerate(tar, 1):
        if count > MAX_MEMBERS:
            raise RepositoryError(f"{path.name}: more than {MAX_MEMBERS} members; refused")
        name = _checked(path, member.name)
        if member.issym() or member.islnk():
            target = member.linkname
            base = posixpath.dirname(name) if member.issym() else ""
            if target.startswith("/") or _escapes(posixpath.join(base, target)):
                raise RepositoryError(f"{path.name}: link {name!r} points outside the "
                                      f"archive ({target!r}); refused")
            found.append((name, None, "link", 0))
        elif member.isfile():
            found.append((name, _tar_reader(tar, member), "", member.size))
        elif not member.isdir():
            found.append((name, None, "not a regular file", 0))
    return found


def _tar_reader(tar: tarfile.TarFile, member: tarfile.TarInfo) -> Callable[[], bytes]:
    def read() -> bytes:
        handle = tar.extractfile(member)
        return handle.read() if handle is not None else b""

    return read


def _zip_members(archive: zipfile.ZipFile) -> list[_Member]:
    path = Path(archive.filename or "archive.zip")
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise RepositoryError(f"{path.name}: more than {MAX_MEMBERS} members; refused")
    found: list[_Member] = []
    for info in infos:
        name = _checked(path, info.filename)
        if info.is_dir():
            continue
        if (info.external_attr >> 16) & 0o170000 == 0o120000:  # a symlink's mode
            found.append((name, None, "link", 0))
            continue
        found.append((name, _zip_reader(archive, info), "", info.file_size))
    return found


def _zip_reader(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> Callable[[], bytes]:
    return lambda: archive.read(info)


def _checked(path: Path, name: str) -> str:
    """A member's name, normalized; a RepositoryError when it would leave the folder."""
    if "\\" in name or name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise RepositoryError(f"{path.name}: member {name!r} has an absolute or Windows "
                              "path; refused")
    if _escapes(name):
        raise RepositoryError(f"{path.name}: member {name!r} unpacks outside its folder "
                              "(path traversal); refused")
    normal = posixpath.normpath(name)
    return "" if normal == "." else normal


def _escapes(name: str) -> bool:
    normal = posixpath.normpath(name)
    return normal == ".." or normal.startswith("../") or normal.startswith("/")


def _select(path: Path, members: list[_Member], keep: Callable[[str], bool]) -> Unpacked:
    names = [name for name, *_ in members if name]
    top = _common_top(names)
    unpacked = Unpacked(top=top)
    total = 0
    for name, reader, why, size in members:
        relative = name[len(top) + 1:] if top else name
        if not relative:
            continue
        if reader is None:
            unpacked.skipped[why] += 1
            continue
        if any(ord(c) < 32 for c in relative) or relative.startswith('"'):
            unpacked.skipped["odd file name"] += 1
            continue
        if not keep(relative):
            continue
        if size > MAX_FILE_BYTES:
            unpacked.skipped["huge"] += 1
            continue
        data = reader()
        total += len(data)
        if total > MAX_RELEASE_BYTES:
            raise RepositoryError(f"{path.name}: over {MAX_RELEASE_BYTES // 1024**2} MB of "
                                  "source once unpacked; refused")
        unpacked.files[relative] = data
    return unpacked


def _common_top(names: list[str]) -> str:
    """The one folder every name is under (sdists: ``NAME-VERSION``; npm: ``package``)."""
    tops = {name.split("/", 1)[0] for name in names}
    if len(tops) != 1 or not all("/" in name for name in names):
        return ""
    return tops.pop()


__all__ = ["MAX_FILE_BYTES", "MAX_RELEASE_BYTES", "Unpacked", "read_archive"]
