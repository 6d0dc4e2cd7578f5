"""errdex: the index of every error a codebase can raise.

The Python API is the product; the CLI, web app and MCP server are thin layers
over it (they import nothing else)::

    import errdex

    summary = errdex.mine("path/to/checkout", db="errdex.sqlite")
    for match in errdex.explain("ValueError: unsupported dtype I8", db="errdex.sqlite"):
        print(match.score, match.reason, match.bound, match.record.file_path)

Every public name is in ``__all__`` and documented in :mod:`errdex.api`; the stage
packages below (``errdex.mining``, ``errdex.lookup``, ...) are internal.
"""

from __future__ import annotations

from typing import Any

from errdex import api as _api
from errdex.api import *  # noqa: F403 (the public API: exactly errdex.api.__all__)
from errdex.api import __all__ as __all__
from errdex.version import __version__ as __version__


def __getattr__(name: str) -> Any:
    """``errdex.LlmConfig`` / ``errdex.LlmReport`` on first use (they need the ``llm`` extra)."""
    return _api.__getattr__(name)
