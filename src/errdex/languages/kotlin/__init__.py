"""The Kotlin language: its spec (``spec.py``), message reading (``messages.py``), string
templates and their text functions (``strings.py``) and its queries."""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from errdex.languages.kotlin.spec import LANGUAGE, SPEC, extract

__all__ = ["LANGUAGE", "SPEC", "extract"]


def __getattr__(name: str) -> Any:
    """The spec's names on first use, as every language folder gives them."""
    if name in __all__:
        from errdex.languages.kotlin import spec

        return getattr(spec, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
