"""Python: ``raise``, logging, ``warnings.warn``, ``sys.exit`` and web framework errors."""

from errdex.languages.python.spec import LANGUAGE, SPEC, extract

__all__ = ["LANGUAGE", "SPEC", "extract"]
