"""The swift language: its spec (``spec.py``) and its tree-sitter queries (``queries.scm``)."""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from errdex.languages.swift.spec import LANGUAGE, SPEC, extract

__all__ = ["LANGUAGE", "SPEC", "extract"]


def __getattr__(name: str) -> Any:
    """The spec's names on first use, as every language folder gives them."""
    if name in __all__:
        from errdex.languages.swift import spec

        return getattr(spec, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
