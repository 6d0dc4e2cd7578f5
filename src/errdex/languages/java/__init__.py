"""The Java language: its spec (``spec.py``), message reading (``messages.py``), where names
are declared (``scopes.py``), string literals (``strings.py``) and its queries."""

from errdex.languages.java.spec import LANGUAGE, SPEC, extract

__all__ = ["LANGUAGE", "SPEC", "extract"]
