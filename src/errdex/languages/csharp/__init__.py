"""The csharp language: its spec (``spec.py``) and its tree-sitter queries (``queries.scm``)."""

from errdex.languages.csharp.spec import LANGUAGE, SPEC, extract

__all__ = ["LANGUAGE", "SPEC", "extract"]
