"""The language registry: which language mines which file extensions.

A language is one folder, ``languages/<lang>/``: a spec module declaring its
``LanguageSpec`` (see ``_engine/__init__.py`` for how one plugs in), its ``.scm``
queries, and only what is particular to it. The folder's ``__init__`` exports ``SPEC``
(or ``SPECS``, one per grammar it serves) and may export the ``LANGUAGE``/``LANGUAGES``
built from them; the registry builds the others with the engine. Folders and modules
whose name starts with ``_`` hold code several languages share and are not registered.
"""

from __future__ import annotations

import importlib
import pkgutil

from errdex.languages._engine import LanguageSpec, language
from errdex.languages._engine.files import FileIndex
from errdex.languages.base import FileSites, Language, Site

__all__ = [
    "LANGUAGES", "SPECS", "FileSites", "Language", "Site", "language_for_path", "spec_for",
]

_NOT_LANGUAGES = frozenset({"base", "facts"})


def _registry() -> tuple[dict[str, Language], dict[str, LanguageSpec[FileIndex]]]:
    found: dict[str, Language] = {}
    specs: dict[str, LanguageSpec[FileIndex]] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name in _NOT_LANGUAGES or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        declared = getattr(module, "SPECS", None) or [getattr(module, "SPEC", None)]
        for spec in declared:
            if spec is not None:
                specs[spec.name] = spec
        built = getattr(module, "LANGUAGES", None) or [getattr(module, "LANGUAGE", None)]
        for lang in built:
            if lang is not None:
                found[lang.name] = lang
    for name, spec in specs.items():
        if name not in found:
            found[name] = language(spec)
    return found, specs


LANGUAGES, SPECS = _registry()
_BY_EXTENSION = {ext: lang for lang in LANGUAGES.values() for ext in lang.extensions}


def language_for_path(path: str) -> Language | None:
    """The language that mines this file, by extension; None when errdex does not mine it."""
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return _BY_EXTENSION.get(name[dot:].lower()) if dot > 0 else None


def spec_for(language_name: str) -> LanguageSpec[FileIndex] | None:
    """The spec of a registered language (by ``Language.name``); None for one not ported."""
    return SPECS.get(language_name)
