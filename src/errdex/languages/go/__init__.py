"""The Go language: its spec (``spec.py``), message reading (``messages.py``), string
literals (``strings.py``), ``net/http`` statuses (``status.py``) and its queries."""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from errdex.languages.go.spec import LANGUAGE, SPEC, extract

__all__ = ["LANGUAGE", "SPEC", "extract"]


def __getattr__(name: str) -> Any:
    """The spec's names on first use: its paste readers (``pastes.py``) import without them."""
    if name in __all__:
        from errdex.languages.go import spec

        return getattr(spec, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
