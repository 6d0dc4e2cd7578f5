"""The Java language: its spec (``spec.py``), message reading (``messages.py``), where names
are declared (``scopes.py``), string literals (``strings.py``) and its queries."""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from errdex.languages.java.spec import LANGUAGE, SPEC, extract

__all__ = ["LANGUAGE", "SPEC", "extract"]


def __getattr__(name: str) -> Any:
    """The spec's names on first use: its paste readers (``pastes.py``) import without them."""
    if name in __all__:
        from errdex.languages.java import spec

        return getattr(spec, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
