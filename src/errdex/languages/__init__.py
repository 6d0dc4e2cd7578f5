"""The language registry: which module mines which file extensions.

Every module in this package that defines ``LANGUAGE`` (or ``LANGUAGES``, for a
module serving several grammars) is registered; adding a language is adding a
module with its ``.scm`` queries beside it.
"""

from __future__ import annotations

import importlib
import pkgutil

from errdex.languages.base import FileSites, Language, Site

__all__ = ["LANGUAGES", "FileSites", "Language", "Site", "language_for_path"]


def _registry() -> dict[str, Language]:
    found: dict[str, Language] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name == "base" or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        languages = getattr(module, "LANGUAGES", None) or [getattr(module, "LANGUAGE", None)]
        for language in languages:
            if language is not None:
                found[language.name] = language
    return found


LANGUAGES: dict[str, Language] = _registry()
_BY_EXTENSION = {ext: lang for lang in LANGUAGES.values() for ext in lang.extensions}


def language_for_path(path: str) -> Language | None:
    """The language that mines this file, by extension; None when errdex does not mine it."""
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return _BY_EXTENSION.get(name[dot:].lower()) if dot > 0 else None
