"""Rust: panicking macros, ``.expect``, anyhow/eyre, thiserror, ``Err(...)``, logs."""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from errdex.languages.rust.spec import LANGUAGE, SPEC, extract

__all__ = ["LANGUAGE", "SPEC", "extract"]


def __getattr__(name: str) -> Any:
    """The spec's names on first use: its paste readers (``pastes.py``) import without them."""
    if name in __all__:
        from errdex.languages.rust import spec

        return getattr(spec, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
