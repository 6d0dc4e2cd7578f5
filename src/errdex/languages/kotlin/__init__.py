"""The Kotlin language: its spec (``spec.py``), message reading (``messages.py``), string
templates and their text functions (``strings.py``) and its queries."""

from errdex.languages.kotlin.spec import LANGUAGE, SPEC, extract

__all__ = ["LANGUAGE", "SPEC", "extract"]
