"""The one exception tree of errdex, and its mapping to exit codes and HTTP statuses.

Every error meant for a user is an ``ErrdexError`` whose message is one line
saying what went wrong, where, and what to do. Interfaces (CLI, web, MCP) map
them here and nowhere else::

    ErrdexError                      exit 2 / HTTP 400
    ├── UsageError                   bad arguments or pasted input
    │   └── InputTooLargeError       HTTP 413
    ├── RepositoryError              path missing, not a git repo, bad revision
    ├── StoreError                   database unreadable / newer than this errdex
    │   ├── StoreBusyError           HTTP 503: another writer holds the database
    │   └── RecordNotFoundError      exit 1 / HTTP 404
    ├── DatasetError                 malformed import file (names file and line)
    └── NoMatchError                 exit 1 / HTTP 404: nothing matched
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_NO_MATCH = 1
EXIT_BAD_INPUT = 2


class ErrdexError(Exception):
    """Base of every error errdex reports to a user."""

    exit_code: int = EXIT_BAD_INPUT
    http_status: int = 400


class UsageError(ErrdexError):
    """Arguments or pasted input that errdex cannot work with."""


class InputTooLargeError(UsageError):
    http_status = 413


class RepositoryError(ErrdexError):
    """The path to mine is missing, not inside a git repository, or unreadable."""


class StoreError(ErrdexError):
    """The database cannot be opened, migrated or written."""

    http_status = 500


class StoreBusyError(StoreError):
    """Another process held the database longer than errdex waits: try again later."""

    http_status = 503


class RecordNotFoundError(StoreError):
    exit_code = EXIT_NO_MATCH
    http_status = 404


class DatasetError(ErrdexError):
    """An import file that is not a dataset line, a JSONL of them, or a record."""


class NoMatchError(ErrdexError):
    exit_code = EXIT_NO_MATCH
    http_status = 404


def exit_code_for(error: BaseException) -> int:
    """The process exit code for an error reaching the CLI."""
    if isinstance(error, ErrdexError):
        return error.exit_code
    return EXIT_BAD_INPUT


def http_status_for(error: BaseException) -> int:
    """The HTTP status for an error reaching the web API."""
    if isinstance(error, ErrdexError):
        return error.http_status
    return 500
