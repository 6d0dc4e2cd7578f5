"""Who a release is: the source repository its metadata names, the store key it is filed
under, and where its records' links point.

Repository: the first URL of the package metadata on a known forge (github.com,
gitlab.com, bitbucket.org, codeberg.org), in this order: PyPI ``Project-URL`` labelled
Source / Source Code / Repository / Code / GitHub, then Homepage / ``Home-page``, then
any other ``Project-URL``; npm ``repository`` (``github:o/n``, ``o/n`` shorthand, git URLs,
``{"url", "directory"}``), then ``homepage``, then ``bugs``. None on a forge: ``pypi/NAME``
or ``npm/NAME``.

Store key: ``OWNER/NAME@VERSION`` (``psf/requests@2.26.0``). A store files mined state,
ids and slugs by a record's ``repo``, so two versions of a package under one ``repo``
would replace each other's records (a re-mine marks the other version's sites removed,
and ids — a hash of repo, file, class, template, symbol — would collide). With the
version in ``repo`` every version is its own repository to the store, the schema and the
import checks, unchanged, and nothing else in the store had to learn about versions; the
package itself is in the records' extras (``package``, ``packageVersion``,
``packageEcosystem``), which lookup reads to say which version matched.

One repository often publishes several packages (``psycopg`` and ``psycopg-binary``,
``mcp`` and ``mcp-types``, a monorepo's ``@babel/core`` and ``@babel/parser``), at one
version. So the short key is for the package named as its repository (names compared
PEP 503-normalized, an npm scope left aside); any other package of that repository is
``OWNER/NAME/PACKAGE@VERSION`` (``psycopg/psycopg/psycopg-binary@3.3.9``). Left open: one
repository publishing the same name and version to both PyPI and npm files both under
one key, the second mine replacing the first.

Links (``githubUrl``): at the release's tag in that repository when the tag is known —
errdex asks the forge for its tag names (``git ls-remote --tags``, the user's git network
settings) and takes the first of ``vX.Y.Z``, ``X.Y.Z``, ``NAME-X.Y.Z``, ``NAME@X.Y.Z``,
``NAME-vX.Y.Z``, ``release-X.Y.Z`` that exists; a tag is never guessed unseen. Without one
they point at the registry's view of that version's files: PyPI's inspector for files
from pypi.org, the npm site's code tab of that version. File paths are the archive's,
without its top folder (``requests-2.26.0/``, ``package/``): an sdist keeps the
repository's layout, so they are the repository's paths; npm ``repository.directory``
(a package of a monorepo) is put in front of them for the forge link.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from email.parser import BytesHeaderParser
from typing import Any

from errdex.errors import RepositoryError
from errdex.packages.specs import PackageSpec, normalize_pypi_name
from errdex.records.model import SOURCE_WINDOW_RADIUS
from errdex.repo.git import Forge, parse_remote, run_git

KNOWN_FORGES = ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org")
TAG_TIMEOUT_S = 20
_SOURCE_LABELS = ("source", "sourcecode", "repository", "repo", "code", "github", "gitlab",
                  "git")
_HOME_LABELS = ("homepage", "home")


@dataclass(frozen=True)
class ReleaseLinks(Forge):
    """Permalinks of a release's files: at ``ref`` (a tag) on the forge, else ``view``."""

    ref: str | None = None
    prefix: str = ""  # the package's folder in its repository (npm ``repository.directory``)
    view: str | None = None  # the registry's view: ``{path}``, ``{start}``/``{end}``, ``{line}``

    def permalink(self, sha: str, path: str, start: int, end: int) -> str | None:
        if self.ref is not None and self.host in KNOWN_FORGES:
            return Forge(self.host, self.repo).permalink(self.ref, self.prefix + path, start,
                                                        end)
        if self.view is None:
            return None
        # a view anchors one line: the site's, the middle of the window the miner passes
        # (exact unless the file is shorter than the window)
        line = start + SOURCE_WINDOW_RADIUS if start > 1 else max(1, end - SOURCE_WINDOW_RADIUS)
        return self.view.format(path=urllib.parse.quote(path), start=start, end=end, line=line)


@dataclass
class Identity:
    """What the metadata says of a release, and what errdex files it under."""

    ecosystem: str
    name: str  # as the metadata spells it
    version: str
    source: str  # owner/name on a forge, else pypi/NAME | npm/NAME
    host: str | None = None  # the forge, when ``source`` is on one
    directory: str = ""  # the package's folder in its repository
    tag: str | None = None
    view: str | None = None
    urls: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # the registry's: yanked, no sdist, …

    @property
    def repo(self) -> str:
        """The store key: ``OWNER/NAME@VERSION``, or ``OWNER/NAME/PACKAGE@VERSION`` for a
        package not named as its repository (see the module docstring)."""
        own = normalize_pypi_name(self.name.rsplit("/", 1)[-1])
        if own == normalize_pypi_name(self.source.rsplit("/", 1)[-1]):
            return f"{self.source}@{self.version}"
        return f"{self.source}/{self.name}@{self.version}"

    def links(self) -> ReleaseLinks:
        prefix = self.directory.strip("/") + "/" if self.directory.strip("/") else ""
        return ReleaseLinks(self.host or "", self.source, self.tag, prefix, self.view)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Identity:
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})


def identify(spec: PackageSpec, metadata: bytes | None, *, download_url: str = "",
             top: str = "") -> Identity:
    """The identity of ``spec`` from its metadata file (PKG-INFO / METADATA, package.json)."""
    if spec.ecosystem == "npm":
        identity = _npm_identity(spec, metadata)
        identity.view = (f"https://www.npmjs.com/package/{spec.name}/v/{spec.version}"
                         "?activeTab=code")
        return identity
    identity = _pypi_identity(spec, metadata)
    identity.view = _inspector(spec, download_url, top)
    return identity


def _pypi_identity(spec: PackageSpec, metadata: bytes | None) -> Identity:
    headers = BytesHeaderParser().parsebytes(metadata or b"")
    name = (headers.get("Name") or spec.name).strip()
    version = (headers.get("Version") or spec.version).strip()
    ranked: list[tuple[int, str]] = []
    for entry in headers.get_all("Project-URL") or []:
        label, _, url = str(entry).partition(",")
        key = re.sub(r"[^a-z]", "", label.lower())
        rank = 0 if key in _SOURCE_LABELS else 1 if key in _HOME_LABELS else 2
        ranked.append((rank, url.strip()))
    home = headers.get("Home-page")
    if home:
        ranked.append((1, str(home).strip()))
    urls = [url for _, url in sorted(ranked, key=lambda r: r[0]) if url]
    identity = Identity("pypi", name, version, f"pypi/{normalize_pypi_name(name)}", urls=urls)
    _pick_forge(identity, urls)
    return identity


def _npm_identity(spec: PackageSpec, metadata: bytes | None) -> Identity:
    try:
        data = json.loads(metadata or b"{}")
    except ValueError:
        data = {}
    if not isinstance(data, dict):
        data = {}
    name = data["name"] if isinstance(data.get("name"), str) else spec.name
    version = data["version"] if isinstance(data.get("version"), str) else spec.version
    identity = Identity("npm", name, version, f"npm/{name}")
    urls, directory = [], ""
    repository = data.get("repository")
    if isinstance(repository, dict):
        if isinstance(repository.get("url"), str):
            urls.append(_npm_shorthand(repository["url"]))
        if isinstance(repository.get("directory"), str):
            directory = repository["directory"]
    elif isinstance(repository, str):
        urls.append(_npm_shorthand(repository))
    for key in ("homepage", "bugs"):
        value = data.get(key)
        if isinstance(value, dict):
            value = value.get("url")
        if isinstance(value, str):
            urls.append(value)
    identity.urls = urls
    if _pick_forge(identity, urls) == 0:  # the directory belongs to ``repository`` only
        identity.directory = directory if ".." not in directory.split("/") else ""
    return identity


def _npm_shorthand(text: str) -> str:
    """``github:o/n``, ``gitlab:o/n``, ``bitbucket:o/n``, ``o/n`` as URLs."""
    text = text.strip()
    for prefix, host in (("github:", "github.com"), ("gitlab:", "gitlab.com"),
                         ("bitbucket:", "bitbucket.org")):
        if text.startswith(prefix):
            return f"https://{host}/{text.removeprefix(prefix)}"
    if re.fullmatch(r"[\w.-]+/[\w.-]+", text):
        return f"https://github.com/{text}"
    return text


def _pick_forge(identity: Identity, urls: list[str]) -> int | None:
    """Set ``source`` and ``host`` from the first URL on a known forge; its position."""
    for position, url in enumerate(urls):
        found = forge_of(url)
        if found is not None:
            identity.host, identity.source = found.host, found.repo
            return position
    return None


def forge_of(url: str) -> Forge | None:
    """``owner/name`` on a known forge from a repository or page URL, else None."""
    cleaned = re.sub(r"^git\+", "", url.strip())
    cleaned = re.sub(r"^git://", "https://", cleaned)
    found = parse_remote(cleaned)
    if found is None:
        return None
    host = found.host.removeprefix("www.")
    if host not in KNOWN_FORGES:
        return None
    parts = found.repo.split("/-/", 1)[0].split("#", 1)[0].split("?", 1)[0].split("/")
    if host != "gitlab.com":  # GitLab groups nest; the others are owner/name
        parts = parts[:2]
    parts = [p.removesuffix(".git") for p in parts if p]
    if len(parts) < 2 or any(p in (".", "..") for p in parts):
        return None
    return Forge(host, "/".join(parts))


# Hosts that did not answer in this process: asked once, not once per release (a firewall
# that drops packets would otherwise cost TAG_TIMEOUT_S for each of 200 dependencies).
_UNREACHABLE: set[str] = set()
_NETWORK_FAILURES = ("could not resolve host", "failed to connect", "timed out",
                     "connection refused", "network is unreachable")


def remote_tags(url: str) -> set[str] | None:
    """The tag names of the repository at ``url`` (``git ls-remote``), None when unreachable."""
    host = urllib.parse.urlsplit(url).hostname or ""
    if host in _UNREACHABLE:
        return None
    try:
        done = run_git(["ls-remote", "--tags", "--refs", "--end-of-options", url],
                       network=True, timeout=TAG_TIMEOUT_S)
    except RepositoryError:  # timed out
        _UNREACHABLE.add(host)
        return None
    if done.returncode != 0:
        if any(s in done.stderr.decode("utf-8", "replace").lower() for s in _NETWORK_FAILURES):
            _UNREACHABLE.add(host)
        return None
    return {line.rsplit("refs/tags/", 1)[-1]
            for line in done.stdout.decode("utf-8", "replace").splitlines()}


def find_tag(identity: Identity,
             list_tags: Callable[[str], set[str] | None] = remote_tags) -> str | None:
    """The forge's tag for this release (see the module docstring); None when the forge
    cannot be asked or has none of the usual names."""
    if identity.host is None:
        return None
    tags = list_tags(f"https://{identity.host}/{identity.source}.git")
    if not tags:
        return None
    for candidate in tag_candidates(identity.name, identity.version):
        if candidate in tags:
            return candidate
    return None


def tag_candidates(name: str, version: str) -> list[str]:
    """Tag names a release is usually given, most usual first."""
    short = name.rsplit("/", 1)[-1]
    names = dict.fromkeys([name, short])
    return [f"v{version}", version, *(f"{n}-{version}" for n in names),
            *(f"{n}@{version}" for n in names), *(f"{n}-v{version}" for n in names),
            f"release-{version}"]


def _inspector(spec: PackageSpec, url: str, top: str) -> str | None:
    """PyPI's inspector page of a file of a release downloaded from pypi.org."""
    parts = urllib.parse.urlsplit(url)
    if parts.hostname != "files.pythonhosted.org" or not parts.path.startswith("/packages/"):
        return None
    inside = f"{top}/" if top else ""
    base = (f"https://inspector.pypi.io/project/{spec.normalized}/{spec.version}"
            f"{parts.path}/{urllib.parse.quote(inside)}")
    return base.replace("{", "{{").replace("}", "}}") + "{path}#line.{line}"


__all__ = ["KNOWN_FORGES", "Identity", "ReleaseLinks", "find_tag", "forge_of", "identify",
           "remote_tags", "tag_candidates"]
