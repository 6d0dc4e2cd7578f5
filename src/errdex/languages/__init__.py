"""The language registry: which language mines which file extensions.

A language is one folder, ``languages/<lang>/``: a spec module declaring its
``LanguageSpec`` (see ``_engine/__init__.py`` for how one plugs in), its ``.scm``
queries, and only what is particular to it. The folder's ``__init__`` exports ``SPEC``
(or ``SPECS``, one per grammar it serves) and may export the ``LANGUAGE``/``LANGUAGES``
built from them; the registry builds the others with the engine. Folders and modules
whose name starts with ``_`` hold code several languages share and are not registered.

A folder is imported the first time one of its languages is asked for (``LANGUAGES``,
``SPECS``, :func:`language_for_path`): its grammar and mining code cost a process that
never meets the language nothing. :data:`KNOWN` lists every language's name, folder,
extensions and paste readers' module, so what needs only those (a paste's parser, a
path's family) reads them without the folders; a test checks it against the folders.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, MutableMapping
from functools import cache
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from errdex.languages._engine.pastes import Pastes
from errdex.lazy import lazy_names

if TYPE_CHECKING:
    from errdex.languages._engine import LanguageSpec
    from errdex.languages._engine.files import FileIndex
    from errdex.languages.base import FileSites, Language, Site

__all__ = [
    "KNOWN", "LANGUAGES", "SPECS", "FileSites", "Known", "Language", "Site", "extensions",
    "language_for_path", "paste_readers", "spec_for",
]

# ``base``'s names on first use: a process that only reads pastes (a log scan) imports
# neither the engine nor the mining code (tree-sitter, the log frameworks) behind them.
__getattr__ = lazy_names(__name__, {".base": ("FileSites", "Language", "Site")})


class Known(NamedTuple):
    """A registered language as the registry knows it before importing its folder."""

    name: str
    folder: str
    extensions: tuple[str, ...]
    pastes: str | None  # the module whose ``PASTES`` its spec reads pastes with; None: none


KNOWN: tuple[Known, ...] = (
    Known("c", "c", (".c",), None),
    Known("cpp", "cpp", (".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h", ".ipp"),
          "cpp.pastes"),
    Known("csharp", "csharp", (".cs", ".resx"), "csharp.pastes"),
    Known("go", "go", (".go",), "go.pastes"),
    Known("java", "java", (".java",), "java.pastes"),
    Known("javascript", "javascript", (".js", ".mjs", ".cjs", ".jsx"), "javascript.pastes"),
    Known("typescript", "javascript", (".ts", ".mts", ".cts"), "javascript.pastes"),
    Known("tsx", "javascript", (".tsx",), "javascript.pastes"),
    Known("kotlin", "kotlin", (".kt", ".kts"), "java.pastes"),
    Known("php", "php", (".php",), "php.pastes"),
    Known("python", "python", (".py", ".pyi"), "python.pastes"),
    Known("ruby", "ruby", (".rb", ".rake", ".gemspec"), "ruby.pastes"),
    Known("rust", "rust", (".rs",), "rust.pastes"),
    Known("swift", "swift", (".swift",), None),
)
"""Every registered language, in registry order (folders by name, then as each declares)."""

_languages: dict[str, Language] = {}
_specs: dict[str, LanguageSpec[FileIndex]] = {}


@cache
def _registered() -> tuple[tuple[Known, Pastes | None], ...]:
    """Every language of every folder here, in registry order: a folder :data:`KNOWN` lists
    from the table, any other (a language just added) by importing it; with the paste
    readers of those imported."""
    listed: dict[str, list[Known]] = {}
    for known in KNOWN:
        listed.setdefault(known.folder, []).append(known)
    found: list[tuple[Known, Pastes | None]] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if not info.ispkg or info.name.startswith("_"):
            continue
        if info.name in listed:
            found += [(known, None) for known in listed[info.name]]
            continue
        _load(info.name)
        module = importlib.import_module(f"{__name__}.{info.name}")
        for spec in getattr(module, "SPECS", None) or [getattr(module, "SPEC", None)]:
            if spec is not None:
                found.append((Known(spec.name, info.name, spec.extensions, None), spec.pastes))
    return tuple(found)


@cache
def _folders() -> dict[str, str]:
    return {known.name: known.folder for known, _ in _registered()}


@cache
def _by_extension() -> dict[str, str]:
    return {ext: known.name for known, _ in _registered() for ext in known.extensions}


def _load(folder: str) -> None:
    """Import one language folder and register what it declares."""
    from errdex.languages._engine import language

    module = importlib.import_module(f"{__name__}.{folder}")
    declared = getattr(module, "SPECS", None) or [getattr(module, "SPEC", None)]
    built = getattr(module, "LANGUAGES", None) or [getattr(module, "LANGUAGE", None)]
    for lang in built:
        if lang is not None:
            _languages[lang.name] = lang
    for spec in declared:
        if spec is not None:
            _specs[spec.name] = spec
            if spec.name not in _languages:
                _languages[spec.name] = language(spec)


V = TypeVar("V")


class _Registry(MutableMapping[str, V]):
    """Language name → what its folder declares, the folder imported on first use (a test
    may replace an entry, as in a dict)."""

    def __init__(self, loaded: dict[str, V]) -> None:
        self._loaded = loaded

    def __getitem__(self, name: str) -> V:
        found = self._loaded.get(name)
        if found is None:
            folder = _folders().get(name)
            if folder is None:
                raise KeyError(name)
            _load(folder)
            found = self._loaded[name]
        return found

    def __setitem__(self, name: str, value: V) -> None:
        if name in self:
            self[name]  # loaded first, so that loading later does not undo the replacement
        self._loaded[name] = value

    def __delitem__(self, name: str) -> None:
        del self._loaded[name]  # what the folder declares comes back on the next use

    def __iter__(self) -> Iterator[str]:
        return iter(_folders())

    def __len__(self) -> int:
        return len(_folders())

    def __contains__(self, name: object) -> bool:
        return name in _folders()


LANGUAGES: MutableMapping[str, Language] = _Registry(_languages)
SPECS: MutableMapping[str, LanguageSpec[FileIndex]] = _Registry(_specs)


def language_for_path(path: str) -> Language | None:
    """The language that mines this file, by extension; None when errdex does not mine it."""
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    found = _by_extension().get(name[dot:].lower()) if dot > 0 else None
    return LANGUAGES[found] if found is not None else None


def spec_for(language_name: str) -> LanguageSpec[FileIndex] | None:
    """The spec of a registered language (by ``Language.name``); None for one not ported."""
    return SPECS.get(language_name)


def extensions() -> dict[str, tuple[str, ...]]:
    """Each language's file extensions, by name (no folder :data:`KNOWN` lists imported)."""
    return {known.name: known.extensions for known, _ in _registered()}


@cache
def paste_readers() -> tuple[Pastes, ...]:
    """Each language's paste readers (its spec's ``pastes``), in registry order: only the
    readers' modules are imported, not the languages' grammars and mining code."""
    found: list[Pastes] = []
    for known, pastes in _registered():
        if pastes is not None:
            found.append(pastes)
        elif known.pastes is None:
            found.append(Pastes())
        else:
            found.append(importlib.import_module(f"{__name__}.{known.pastes}").PASTES)
    return tuple(found)
