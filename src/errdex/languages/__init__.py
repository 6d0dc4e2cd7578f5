"""The language registry: which module mines which file extensions."""

from __future__ import annotations

from pathlib import PurePosixPath

from errdex.languages.base import FileSites, Language, Site

__all__ = ["LANGUAGES", "FileSites", "Language", "Site", "language_for_path"]


def _registry() -> dict[str, Language]:
    from errdex.languages import python, rust

    return {lang.name: lang for lang in (python.LANGUAGE, rust.LANGUAGE)}


LANGUAGES: dict[str, Language] = _registry()
_BY_EXTENSION = {ext: lang for lang in LANGUAGES.values() for ext in lang.extensions}


def language_for_path(path: str) -> Language | None:
    """The language that mines this file, by extension; None when errdex does not mine it."""
    return _BY_EXTENSION.get(PurePosixPath(path).suffix.lower())
