"""Which ``Snippets`` a language has: the ones its spec declares (``languages/<lang>/``)."""

from __future__ import annotations

from errdex.languages import language_for_path, spec_for
from errdex.languages._engine.snippets import Snippets


def snippets_for_path(path: str) -> Snippets:
    """How the language of the file at ``path`` writes code."""
    language = language_for_path(path)
    return snippets_for(language.name) if language is not None else Snippets()


def snippets_for(language: str) -> Snippets:
    """How a language writes its code fields (none for a language errdex does not know)."""
    spec = spec_for(language)
    if spec is not None and spec.snippets.validation is not None:
        return spec.snippets
    return Snippets()

