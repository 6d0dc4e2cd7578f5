"""Python: ``raise``, logging, ``warnings.warn``, ``sys.exit`` and web framework errors."""

from typing import TYPE_CHECKING

from errdex.lazy import lazy_names

if TYPE_CHECKING:
    from errdex.languages.python.spec import LANGUAGE, SPEC, extract

__all__ = ["LANGUAGE", "SPEC", "extract"]


# the spec's names on first use: the folder's other modules (paste readers) load without it
__getattr__ = lazy_names(__name__, {".spec": __all__})
