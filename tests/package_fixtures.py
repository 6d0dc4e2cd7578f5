"""Small registry releases the package tests build themselves: an sdist and a wheel made with
the standard library, an npm tarball made by ``npm pack`` of a fixture folder, and local
servers that hand them out as a PyPI Simple index and an npm registry would."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import shutil
import subprocess
import tarfile
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

NEEDS_NPM = pytest.mark.skipif(
    shutil.which("npm") is None,
    reason="npm is not installed (scripts/install-toolchains.sh installs Node.js and npm)")


def pkg_info(name: str, version: str, source: str | None = None,
             home: str | None = None) -> str:
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    if home:
        lines.append(f"Home-page: {home}")
    lines.append("Project-URL: Documentation, https://docs.example.org/")
    if source:
        lines.append(f"Project-URL: Source, {source}")
    return "\n".join(lines) + "\n\nA package for tests.\n"


def widget_module(version: str) -> str:
    """The one module of the test package: its message is worded differently in 2.0."""
    wording = "bad size" if version.startswith("1.") else "invalid size"
    return (
        "class SizeError(ValueError):\n"
        "    pass\n\n\n"
        "def check(size):\n"
        "    if size < 0:\n"
        f"        raise SizeError(f\"{wording} {{size}}: must be positive\")\n"
        "    return size\n"
    )


def build_sdist(folder: Path, name: str, version: str, files: dict[str, str | bytes],
                top: str | None = None, source: str | None = None) -> Path:
    """``NAME-VERSION.tar.gz`` with ``PKG-INFO`` and ``files`` under one top folder."""
    top = top if top is not None else f"{name}-{version}"
    target = folder / f"{name}-{version}.tar.gz"
    members = {"PKG-INFO": pkg_info(name, version, source), **files}
    with tarfile.open(target, "w:gz") as tar:
        for path, text in members.items():
            data = text.encode() if isinstance(text, str) else text
            info = tarfile.TarInfo(f"{top}/{path}" if top else path)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return target


def add_tar_member(archive: Path, info: tarfile.TarInfo, data: bytes = b"") -> None:
    """Write ``archive`` again with one more member (a hostile name, a link)."""
    with tarfile.open(archive, "r:gz") as tar:
        members = [(m, tar.extractfile(m).read() if m.isfile() else b"")  # type: ignore[union-attr]
                   for m in tar.getmembers()]
    with tarfile.open(archive, "w:gz") as tar:
        for member, content in [*members, (info, data)]:
            member.size = len(content) if member.isfile() else 0
            tar.addfile(member, io.BytesIO(content) if member.isfile() else None)


def build_wheel(folder: Path, name: str, version: str, files: dict[str, str],
                tag: str = "py3-none-any") -> Path:
    target = folder / f"{name}-{version}-{tag}.whl"
    with zipfile.ZipFile(target, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
        archive.writestr(f"{name}-{version}.dist-info/METADATA", pkg_info(name, version))
    return target


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def simple_index(root: Path, project: str, files: list[Path], yanked: dict[str, str] | None = None,
                 wrong_hash: bool = False) -> None:
    """A PEP 503 page ``root/project/index.html`` linking ``files`` (copied beside it)."""
    page = root / project
    page.mkdir(parents=True, exist_ok=True)
    links = []
    for file in files:
        shutil.copy(file, page / file.name)
        digest = "0" * 64 if wrong_hash else sha256(file)
        flag = ""
        if yanked and file.name in yanked:
            flag = f' data-yanked="{yanked[file.name]}"'
        links.append(f'<a href="{file.name}#sha256={digest}"{flag}>{file.name}</a>')
    (page / "index.html").write_text("<html><body>\n" + "\n".join(links) + "\n</body></html>")


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """An HTTP server on 127.0.0.1 serving ``folder``; its base URL."""
    handler = partial(_Quiet, directory=str(folder))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return


def npm_tarball(workdir: Path, name: str, version: str, files: dict[str, str],
                repository: object = None) -> Path:
    """``npm pack`` of a fixture folder holding ``package.json`` and ``files``."""
    source = workdir / f"src-{name.replace('/', '-')}-{version}"
    source.mkdir(parents=True)
    manifest: dict[str, object] = {"name": name, "version": version, "main": "lib/index.js"}
    if repository is not None:
        manifest["repository"] = repository
    (source / "package.json").write_text(json.dumps(manifest))
    for path, text in files.items():
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        (source / path).write_text(text)
    out = workdir / "packed"
    out.mkdir(exist_ok=True)
    done = subprocess.run(["npm", "pack", "--json", "--ignore-scripts", "--pack-destination",
                           str(out)], cwd=source, capture_output=True, text=True, check=True,
                          env=npm_env(workdir))
    return out / json.loads(done.stdout)[0]["filename"]


def npm_env(workdir: Path) -> dict[str, str]:
    import os

    return {**os.environ, "npm_config_cache": str(workdir / "npm-cache"),
            "npm_config_update_notifier": "false", "npm_config_audit": "false",
            "npm_config_fund": "false"}


def npm_registry(root: Path, base_url: str, name: str, tarballs: dict[str, Path]) -> None:
    """The packument ``root/NAME`` (scoped names escaped as npm asks) for ``tarballs``
    (version → file), the files copied beside it."""
    versions = {}
    for version, tarball in tarballs.items():
        data = tarball.read_bytes()
        shutil.copy(tarball, root / tarball.name)
        versions[version] = {
            "name": name, "version": version,
            "dist": {"tarball": f"{base_url}/{tarball.name}",
                     "shasum": hashlib.sha1(data).hexdigest(),
                     "integrity": "sha512-" + base64.b64encode(
                         hashlib.sha512(data).digest()).decode()},
        }
    latest = sorted(versions)[-1]
    packument = {"name": name, "dist-tags": {"latest": latest}, "versions": versions}
    path = root / name  # npm asks for @scope%2fname: the server decodes it to a path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(packument))
