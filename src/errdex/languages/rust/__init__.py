"""Rust: panicking macros, ``.expect``, anyhow/eyre, thiserror, ``Err(...)``, logs."""

from errdex.languages.rust.spec import LANGUAGE, SPEC, extract

__all__ = ["LANGUAGE", "SPEC", "extract"]
