"""Names a package exports, each imported from its module the first time it is used.

A package's ``__getattr__`` (PEP 562) made here lets ``import errdex.languages.go`` or a
log scan's paste readers skip the grammars and mining code behind a folder's names: a
process pays only for what it runs. Type checkers read the names from the package's
``if TYPE_CHECKING:`` imports.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any


def lazy_names(package: str, homes: Mapping[str, Iterable[str]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: each name listed under a module of
    ``homes`` (``".spec"``: relative to the package) is read from that module on first use
    and then kept in the package, as an import would have put it there."""
    where = {name: module for module, names in homes.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


__all__ = ["lazy_names"]
