"""Telling a PostgreSQL ``--db`` from a SQLite path, and showing a URL without its password.

Apart from the store protocol so that the PostgreSQL store can use it without importing
the module that opens it.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

URL_SCHEMES = ("postgresql://", "postgres://")


def redact(url: str) -> str:
    """A database URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[1]}"))


def is_postgres_url(db: object) -> bool:
    """Whether ``db`` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(db, str) and db.startswith(URL_SCHEMES)


__all__ = ["URL_SCHEMES", "is_postgres_url", "redact"]
