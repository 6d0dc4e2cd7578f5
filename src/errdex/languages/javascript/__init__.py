"""JavaScript, TypeScript and TSX: ``throw``, rejections, ``console.error``, HTTP errors."""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from errdex.languages.javascript.spec import LANGUAGES, SPEC, SPECS, extract

__all__ = ["LANGUAGES", "SPEC", "SPECS", "extract"]


def __getattr__(name: str) -> Any:
    """The spec's names on first use: its paste readers (``pastes.py``) import without them."""
    if name in __all__:
        from errdex.languages.javascript import spec

        return getattr(spec, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
