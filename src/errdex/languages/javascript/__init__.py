"""JavaScript, TypeScript and TSX: ``throw``, rejections, ``console.error``, HTTP errors."""

from typing import TYPE_CHECKING

from errdex.lazy import lazy_names

if TYPE_CHECKING:
    from errdex.languages.javascript.spec import LANGUAGES, SPEC, SPECS, extract

__all__ = ["LANGUAGES", "SPEC", "SPECS", "extract"]


# the spec's names on first use: the folder's other modules (paste readers) load without it
__getattr__ = lazy_names(__name__, {".spec": __all__})
