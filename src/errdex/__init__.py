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

import sys
import types
from typing import TYPE_CHECKING, Any

from errdex import api as _api
from errdex.api import __all__ as __all__
from errdex.version import __version__ as __version__

if TYPE_CHECKING:
    from errdex.api import *  # noqa: F403 (the public API: exactly errdex.api.__all__)


def __getattr__(name: str) -> Any:
    """A public name from :mod:`errdex.api` on first use (its module is imported then, so
    ``import errdex`` stays cheap); ``errdex.LlmConfig`` / ``LlmReport`` need the ``llm`` extra."""
    value = getattr(_api, name)
    if name in __all__:
        globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Every public name, loaded or not."""
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """The ``errdex`` module, whose public names win over its subpackages of the same name."""

    def __setattr__(self, name: str, value: Any) -> None:
        """Importing ``errdex.enrich`` (the stage) leaves ``errdex.enrich`` the function."""
        if name in __all__ and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
