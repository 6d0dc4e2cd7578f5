"""Downloading one release's archive from its registry, with the user's registry settings.

npm: ``npm pack NAME@VERSION --ignore-scripts``, npm's own client, so ``.npmrc`` registries,
scopes, mirrors and tokens apply (the user's and global ones; a project's own ``.npmrc``
when ``npm_cwd`` names the project); a registry spec never runs a lifecycle script (and
``--ignore-scripts`` makes sure).

PyPI: not ``pip download``. pip downloads an sdist and then *prepares its metadata*, which
runs the sdist's build backend (its ``setup.py``) — code from the package, on this
machine, before errdex has read a line of it. ``--no-build-isolation``/``--no-deps`` do not
change that. So errdex reads pip's own settings (``$PIP_INDEX_URL``, else ``pip config``'s
``download.index-url`` / ``global.index-url``, else PyPI), asks that index's Simple API
(PEP 503 HTML or PEP 691 JSON) for the project's files, and downloads the sdist (else a
pure-Python wheel: ``py3-none-any``) over HTTPS with the credentials the index URL or
``~/.netrc`` holds, checking the sha256 the index publishes. ``extra-index-url`` is not
searched (a release is taken from one index, never from whichever answers first).

``$ERRDEX_PYPI_INDEX_URL`` and ``$ERRDEX_NPM_REGISTRY`` override both (tests serve their own
packages from a local folder or server). An index URL may be a local folder: its own
``NAME/`` subfolder (PEP 503 layout) or its files (pip's ``--find-links`` layout).
"""

from __future__ import annotations

import base64
import hashlib
import json
import netrc
import os
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from errdex.errors import RepositoryError
from errdex.packages.specs import PackageSpec, normalize_pypi_name
from errdex.repo.processes import kill_with_parent

PYPI = "https://pypi.org/simple"
MAX_DOWNLOAD_BYTES = 300 * 1024**2
TIMEOUT_S = 120
_SDIST_SUFFIXES = (".tar.gz", ".zip", ".tar.bz2", ".tgz")


@dataclass
class Download:
    """One release archive on disk, where it came from, and what the registry said of it."""

    spec: PackageSpec
    path: Path
    url: str  # where it was downloaded from ('' when npm chose)
    kind: str  # "sdist" | "wheel" | "npm"
    sha256: str
    notes: list[str] = field(default_factory=list)  # a yanked release, a wheel for want of sdist


def download(spec: PackageSpec, folder: Path, *, npm_cwd: Path | None = None) -> Download:
    """The archive of ``spec`` downloaded into ``folder`` (which exists); a RepositoryError
    of one line when the registry cannot be reached or has no such release."""
    if spec.ecosystem == "npm":
        return _npm_pack(spec, folder, npm_cwd)
    return _pypi_download(spec, folder)


# --- PyPI -------------------------------------------------------------------------------


def pypi_index_url() -> str:
    """The index pip would use: ``$ERRDEX_PYPI_INDEX_URL``, ``$PIP_INDEX_URL``, pip's config."""
    for variable in ("ERRDEX_PYPI_INDEX_URL", "PIP_INDEX_URL"):
        if os.environ.get(variable):
            return os.environ[variable]
    configured = _pip_config()
    return configured.get("download.index-url") or configured.get("global.index-url") or PYPI


def _pip_config() -> dict[str, str]:
    """``pip config list`` as a dict; empty when pip is missing or fails."""
    try:
        done = subprocess.run([sys.executable, "-m", "pip", "config", "list"],
                              capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    found = {}
    for line in done.stdout.splitlines():
        key, _, value = line.partition("=")
        found[key.strip()] = value.strip().strip("'\"")
    return found


@dataclass(frozen=True)
class IndexFile:
    """One file the index lists for a project."""

    filename: str
    url: str
    sha256: str | None
    yanked: str | None  # the reason ('' when none was given), or None when not yanked


def _pypi_download(spec: PackageSpec, folder: Path) -> Download:
    index = pypi_index_url()
    files = index_files(index, spec.normalized)
    sdists = [f for f in files if _is_release_file(f.filename, spec, _SDIST_SUFFIXES)]
    wheels = [f for f in files if _is_release_file(f.filename, spec, (".whl",))
              and _pure_wheel(f.filename)]
    chosen = sdists[0] if sdists else wheels[0] if wheels else None
    shown = redact(index)
    if chosen is None:
        if any(_is_release_file(f.filename, spec, (".whl",)) for f in files):
            raise RepositoryError(f"{spec}: no source distribution and no pure-Python wheel "
                                  f"on {shown} (only built wheels); nothing to mine")
        versions = sorted({v for f in files if (v := _version_of(f.filename, spec))},
                          key=_version_key)
        seen = f" (versions there: {', '.join(versions[-5:])})" if versions else ""
        raise RepositoryError(f"{spec}: no release {spec.version} on {shown}{seen}")
    notes = []
    if not sdists:
        notes.append("no source distribution: mined the pure-Python wheel")
    if chosen.yanked is not None:
        notes.append("yanked" + (f": {chosen.yanked}" if chosen.yanked else ""))
    target = folder / _safe_filename(chosen.filename)
    digest = _fetch(chosen.url, target, index)
    if chosen.sha256 and chosen.sha256.lower() != digest:
        target.unlink(missing_ok=True)
        raise RepositoryError(f"{spec}: {chosen.filename} does not match the sha256 the index "
                              "gives; refused (a broken mirror or a changed file)")
    return Download(spec, target, chosen.url, "sdist" if sdists else "wheel", digest, notes)


def index_files(index: str, project: str) -> list[IndexFile]:
    """The files the index lists for ``project`` (PEP 503 normalized name)."""
    local = _local_folder(index)
    if local is not None:
        folder = local / project if (local / project).is_dir() else local
        return [IndexFile(p.name, p.as_uri(), None, None) for p in sorted(folder.iterdir())
                if p.is_file()]
    url = index.rstrip("/") + f"/{project}/"
    request = _request(url, index, accept="application/vnd.pypi.simple.v1+json, "
                                          "text/html;q=0.1")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            body = response.read(20 * 1024**2)
            kind = response.headers.get("Content-Type", "")
            final = response.geturl()
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            raise RepositoryError(f"pypi:{project}: no such project on {redact(index)}") from exc
        raise RepositoryError(f"pypi:{project}: {redact(index)} answered HTTP {exc.code}; "
                              "check the index URL and its credentials") from exc
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise RepositoryError(f"pypi:{project}: the index {redact(index)} is unreachable "
                              f"({reason}); check the network or pip's index-url") from exc
    if "json" in kind:
        data = json.loads(body)
        return [IndexFile(f["filename"], urllib.parse.urljoin(final, f["url"]),
                          f.get("hashes", {}).get("sha256"), _yanked(f.get("yanked")))
                for f in data.get("files", [])]
    links = _Links()
    links.feed(body.decode("utf-8", "replace"))
    found = []
    for href, yanked in links.found:
        absolute = urllib.parse.urljoin(final, href)
        address, _, fragment = absolute.partition("#")
        sha = fragment.removeprefix("sha256=") if fragment.startswith("sha256=") else None
        name = urllib.parse.unquote(address.rsplit("/", 1)[-1])
        found.append(IndexFile(name, address, sha, yanked))
    return found


def _yanked(value: object) -> str | None:
    if value is True:
        return ""
    return value if isinstance(value, str) and value else None


class _Links(HTMLParser):
    """The ``<a href>`` of a PEP 503 page, with ``data-yanked``."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "a":
            return
        values = dict(attrs)
        if values.get("href"):
            yanked = (values.get("data-yanked") or "") if "data-yanked" in values else None
            self.found.append((values["href"] or "", yanked))


def _split_release(filename: str, suffixes: tuple[str, ...]) -> tuple[str, str] | None:
    lowered = filename.lower()
    suffix = next((s for s in suffixes if lowered.endswith(s)), None)
    if suffix is None:
        return None
    stem = filename[: -len(suffix)]
    if suffix == ".whl":
        parts = stem.split("-")
        return (parts[0], parts[1]) if len(parts) >= 5 else None
    name, dash, version = stem.rpartition("-")
    return (name, version) if dash else None


def _is_release_file(filename: str, spec: PackageSpec, suffixes: tuple[str, ...]) -> bool:
    split = _split_release(filename, suffixes)
    return (split is not None and normalize_pypi_name(split[0]) == spec.normalized
            and _same_version(split[1], spec.version))


def _version_of(filename: str, spec: PackageSpec) -> str | None:
    split = _split_release(filename, (*_SDIST_SUFFIXES, ".whl"))
    if split is None or normalize_pypi_name(split[0]) != spec.normalized:
        return None
    return split[1]


def _same_version(found: str, wanted: str) -> bool:
    """Equal as written, or after the spelling PEP 440 allows (case, ``_``, a leading v)."""
    def plain(v: str) -> str:
        return v.lower().removeprefix("v").replace("_", ".").replace("-", ".")

    return found == wanted or plain(found) == plain(wanted)


def _version_key(version: str) -> list[tuple[int, str]]:
    """Numbers compared as numbers (2.10 after 2.9), for showing versions in order."""
    return [(int(part), "") if part.isdigit() else (-1, part)
            for part in re.split(r"[.+-]", version)]


def _pure_wheel(filename: str) -> bool:
    tags = filename[:-4].split("-")[-3:]
    return len(tags) == 3 and tags[1] == "none" and tags[2] == "any"


def _safe_filename(name: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9._+-]", "_", name).lstrip(".")
    return cleaned or "release"


def _local_folder(index: str) -> Path | None:
    if index.startswith("file://"):
        return Path(urllib.request.url2pathname(urllib.parse.urlparse(index).path))
    if "://" not in index:
        return Path(index).expanduser()
    return None


def _request(url: str, index: str, accept: str = "*/*") -> urllib.request.Request:
    """A request carrying the credentials of the index URL (or ``~/.netrc``) for its host."""
    parts = urllib.parse.urlsplit(url)
    headers = {"Accept": accept, "User-Agent": "errdex"}
    index_parts = urllib.parse.urlsplit(index)
    user, password = index_parts.username, index_parts.password
    if parts.hostname != index_parts.hostname:
        user = password = None
    if user is None and parts.hostname:
        try:
            auth = netrc.netrc().authenticators(parts.hostname)
        except (OSError, netrc.NetrcParseError):
            auth = None
        if auth:
            user, password = auth[0], auth[2]
    if user is not None:
        token = base64.b64encode(f"{urllib.parse.unquote(user)}:"
                                 f"{urllib.parse.unquote(password or '')}".encode()).decode()
        headers["Authorization"] = f"Basic {token}"
    clean = parts._replace(netloc=parts.hostname + (f":{parts.port}" if parts.port else "")
                           if parts.hostname else parts.netloc)
    return urllib.request.Request(urllib.parse.urlunsplit(clean), headers=headers)


def _fetch(url: str, target: Path, index: str) -> str:
    """Download ``url`` to ``target`` (bounded); its sha256."""
    digest = hashlib.sha256()
    try:
        with urllib.request.urlopen(_request(url, index), timeout=TIMEOUT_S) as response, \
                open(target, "wb") as out:
            total = 0
            while chunk := response.read(1024 * 1024):
                total += len(chunk)
                if total > MAX_DOWNLOAD_BYTES:
                    raise RepositoryError(f"{target.name}: over {MAX_DOWNLOAD_BYTES // 1024**2}"
                                          " MB; refused")
                digest.update(chunk)
                out.write(chunk)
    except (urllib.error.URLError, OSError) as exc:
        target.unlink(missing_ok=True)
        raise RepositoryError(f"{target.name}: download failed ({getattr(exc, 'reason', exc)})"
                              ) from exc
    return digest.hexdigest()


def redact(url: str) -> str:
    """A URL without its password, to show."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    host = (parts.hostname or "") + (f":{parts.port}" if parts.port else "")
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


# --- npm --------------------------------------------------------------------------------


def npm_registry() -> str | None:
    """``$ERRDEX_NPM_REGISTRY`` when set (tests); else npm's own configuration decides."""
    return os.environ.get("ERRDEX_NPM_REGISTRY") or None


def _npm_pack(spec: PackageSpec, folder: Path, cwd: Path | None) -> Download:
    npm = shutil.which("npm")
    if npm is None:
        raise RepositoryError(f"{spec}: npm is not installed; install Node.js (with npm) to "
                              "mine npm releases")
    argv = [npm, "pack", f"{spec.name}@{spec.version}", "--json", "--ignore-scripts",
            "--pack-destination", str(folder), "--loglevel", "error"]
    registry = npm_registry()
    if registry:
        argv += ["--registry", registry]
    env = {**os.environ, "npm_config_update_notifier": "false", "npm_config_fund": "false",
           "npm_config_audit": "false"}
    try:
        done = subprocess.run(argv, cwd=cwd or folder, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT_S * 3, check=False,
                              preexec_fn=kill_with_parent())
    except subprocess.TimeoutExpired as exc:
        raise RepositoryError(f"{spec}: npm pack timed out; try again later") from exc
    if done.returncode != 0:
        raise RepositoryError(f"{spec}: {_npm_error(done.stderr + done.stdout)}")
    try:
        packed = json.loads(done.stdout)[0]
        target = folder / Path(packed["filename"]).name
    except (ValueError, LookupError, TypeError) as exc:
        raise RepositoryError(f"{spec}: npm pack said something errdex cannot read") from exc
    if not target.is_file():
        raise RepositoryError(f"{spec}: npm pack wrote no {target.name}")
    digest = hashlib.sha256(target.read_bytes()).hexdigest()
    return Download(spec, target, "", "npm", digest)


def _npm_error(output: str) -> str:
    """npm's reason in one line (``npm error code E404`` …)."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    for line in lines:
        if "E404" in line or "No match found for version" in line or "ETARGET" in line:
            return "no such package or version on the npm registry"
        if any(code in line for code in ("ENOTFOUND", "ECONNREFUSED", "ETIMEDOUT", "EAI_AGAIN")):
            return "the npm registry is unreachable; check the network or npm's registry setting"
    errors = [ln.removeprefix("npm error").removeprefix("npm ERR!").strip() for ln in lines
              if ln.startswith(("npm error", "npm ERR!"))]
    message = next((e for e in errors if e and not e.startswith(("code", "A complete log"))),
                   lines[-1] if lines else "npm pack failed")
    return f"npm pack failed: {message}"


__all__ = ["Download", "IndexFile", "download", "index_files", "npm_registry",
           "pypi_index_url", "redact"]
