"""The Go language: its spec (``spec.py``), message reading (``messages.py``), string
literals (``strings.py``), ``net/http`` statuses (``status.py``) and its queries."""

from errdex.languages.go.spec import LANGUAGE, SPEC, extract

__all__ = ["LANGUAGE", "SPEC", "extract"]
