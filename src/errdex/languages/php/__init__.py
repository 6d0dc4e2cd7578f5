"""The php language: its spec (``spec.py``), its tree-sitter queries (``queries.scm``)."""

from errdex.languages.php.spec import LANGUAGE, extract

__all__ = ["LANGUAGE", "extract"]
