"""Reading a published dataset's files from where it is published: an http(s) URL, a
file:// URL or a folder, with the standard library only (sync works on the base install).

Every read is bounded (a manifest or shard larger than it says is cut off and then fails
its size check); the manifest is asked for conditionally, so an unchanged dataset costs
one request answered ``304 Not Modified`` and no body.
"""

from __future__ import annotations

import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Protocol

from errdex.version import __version__

TIMEOUT_S = 30.0
STRONG_AFTER_S = 60
_CHUNK = 1 << 16


class Unreachable(Exception):
    """The source could not be read (network down, DNS, refused, HTTP error status)."""


@dataclass(frozen=True)
class Fetched:
    """A file's bytes (None when the server said it has not changed) and its validators."""

    data: bytes | None
    etag: str | None = None
    last_modified: str | None = None
    date: str | None = None


def source_key(source: str) -> str:
    """The one spelling of a source: a URL as given, a folder or file:// URL as an absolute
    path, so the same dataset has one cache and one provenance."""
    if source.startswith(("http://", "https://")):
        return source.rstrip("/")
    return str(local_folder(source))


def local_folder(source: str) -> Path:
    """The folder a path or file:// URL names (a manifest.json file means its folder)."""
    if source.startswith("file://"):
        path = Path(urllib.parse.unquote(urllib.parse.urlsplit(source).path))
    else:
        path = Path(source).expanduser()
    path = path.resolve()
    return path.parent if path.name == "manifest.json" else path


class Source:
    """Where a dataset is published; ``get`` reads one file of it, relative to its root."""

    def __init__(self, source: str, *, timeout: float = TIMEOUT_S):
        self.key = source_key(source)
        self.remote = self.key.startswith(("http://", "https://"))
        self.timeout = timeout
        self.requests = 0
        self.bytes = 0

    def get(self, relative: str, limit: int, *, etag: str | None = None,
            last_modified: str | None = None) -> Fetched:
        """At most ``limit`` + 1 bytes of ``relative`` (a checked, relative path)."""
        self.requests += 1
        fetched = self._http(relative, limit, etag, last_modified) if self.remote else (
            self._file(relative, limit))
        self.bytes += len(fetched.data or b"")
        return fetched

    def _file(self, relative: str, limit: int) -> Fetched:
        try:
            with open(Path(self.key) / relative, "rb") as handle:
                return Fetched(handle.read(limit + 1))
        except OSError as exc:
            raise Unreachable(f"{Path(self.key) / relative}: {exc.strerror}") from exc

    def _http(self, relative: str, limit: int, etag: str | None,
              last_modified: str | None) -> Fetched:
        url = f"{self.key}/{relative}"
        headers = {"User-Agent": f"errdex/{__version__}"}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        request = urllib.request.Request(url, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                data = _read(response, limit)
                return Fetched(data, response.headers.get("ETag"),
                               response.headers.get("Last-Modified"),
                               response.headers.get("Date"))
        except urllib.error.HTTPError as exc:
            if exc.code == 304:
                return Fetched(None, etag, last_modified)
            raise Unreachable(f"{url}: HTTP {exc.code} {exc.reason}") from exc
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", None) or exc
            raise Unreachable(f"{url}: {reason}") from exc


class _Readable(Protocol):
    def read(self, size: int, /) -> bytes: ...


def strong_last_modified(last_modified: str | None, date: str | None) -> str | None:
    """``last_modified`` when it can validate a cached copy: at least a minute before the
    response's Date (RFC 9110 8.8.2.2). A file rewritten within the same second keeps its
    one-second Last-Modified, so a younger one could answer 304 for changed content."""
    try:
        modified, sent = parsedate_to_datetime(last_modified or ""), parsedate_to_datetime(
            date or "")
    except (TypeError, ValueError):
        return None
    return last_modified if (sent - modified).total_seconds() >= STRONG_AFTER_S else None


def _read(response: _Readable, limit: int) -> bytes:
    """At most ``limit`` + 1 bytes of a response, read in chunks."""
    parts: list[bytes] = []
    total = 0
    while total <= limit:
        chunk = response.read(min(_CHUNK, limit + 1 - total))
        if not chunk:
            break
        parts.append(chunk)
        total += len(chunk)
    return b"".join(parts)


__all__ = ["Fetched", "Source", "Unreachable", "local_folder", "source_key",
           "strong_last_modified"]
