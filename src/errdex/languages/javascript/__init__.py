"""JavaScript, TypeScript and TSX: ``throw``, rejections, ``console.error``, HTTP errors."""

from errdex.languages.javascript.spec import LANGUAGES, SPEC, SPECS, extract

__all__ = ["LANGUAGES", "SPEC", "SPECS", "extract"]
