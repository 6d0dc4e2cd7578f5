"""Messages printed from string constants defined in other files of the repository.

A file alone cannot say what ``panic!("{}", error::MSG)`` prints when ``MSG`` is defined
elsewhere: mining collects the string constants of every file it reads (a language's
``Constants.definitions``) and, once the workers are done, gives each site the text of
the constants it prints. Rust declares these hooks (``rust/constants.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from errdex.templates.template import Template


@dataclass(frozen=True)
class Constants:
    """Messages a language prints from string constants defined in other files (Rust's
    ``const MSG: &str``): mining collects every file's ``definitions``, then gives each
    site whose template ``references`` some their text (``apply``; None when one is not
    known). An incremental mine asks ``lookup`` (the repository root, the commit, the
    names) for the files it did not read. ``is_bare``: the template is a constant passed
    as it is (no site unless its text is found)."""

    definitions: Callable[[bytes], list[tuple[str, str]]]
    references: Callable[[Template], list[str]]
    lookup: Callable[[Path, str, set[str]], dict[str, str]]
    apply: Callable[[Template, dict[str, str]], Template | None]
    is_bare: Callable[[Template], bool]


def unique_values(found: list[tuple[str, str]]) -> dict[str, str]:
    """Each constant's text, leaving out a name defined twice with different texts (which
    one a site prints depends on its imports)."""
    values: dict[str, set[str]] = {}
    for name, value in found:
        values.setdefault(name, set()).add(value)
    return {name: next(iter(texts)) for name, texts in values.items() if len(texts) == 1}
