"""The Java language: its spec (``spec.py``), message reading (``messages.py``), where names
are declared (``scopes.py``), string literals (``strings.py``) and its queries."""

from typing import TYPE_CHECKING

from errdex.lazy import lazy_names

if TYPE_CHECKING:
    from errdex.languages.java.spec import LANGUAGE, SPEC, extract

__all__ = ["LANGUAGE", "SPEC", "extract"]


# the spec's names on first use: the folder's other modules (paste readers) load without it
__getattr__ = lazy_names(__name__, {".spec": __all__})
