"""Messages held in string constants defined in another file of the repository.

Rust crates keep their best-known messages in constants and print them from many
places: ``panic!("{}", crate::util::error::CONTEXT_MISSING_ERROR)`` or
``panic!("{CONTEXT_MISSING_ERROR}")`` prints the text of ``const CONTEXT_MISSING_ERROR:
&str = "there is no reactor running, …"`` from ``util/error.rs``. A file alone cannot
say what such a site prints (its pattern would be ``(.+?)``, which lookup rightly
ignores), so mining collects the string constants of every file it reads and, once
the workers are done, gives each site the text of the constants it prints; an
incremental mine, which reads only changed files, asks ``git grep`` at the analyzed
commit for the others. The other languages' extractors already read a constant of
the same file; this is the step across files, for Rust.
"""

from __future__ import annotations

import re
from pathlib import Path

from errdex.languages._engine.constants import Constants, unique_values
from errdex.languages.base import parse, text
from errdex.languages.rust.syntax import string_value
from errdex.repo.git import grep_tree
from errdex.templates.template import Hole, Literal, Part, Template, merge_literals

__all__ = [
    "CONSTANTS",
    "constant_references",
    "constant_template",
    "constant_values",
    "is_bare_reference",
    "string_constants",
    "with_constants",
]

# A path to an UPPER_SNAKE constant: ``CONTEXT_MISSING_ERROR``, ``crate::util::error::X``;
# not a const generic (``D``, ``N2``) or a short variant (``I8``): three letters at least.
_REFERENCE = re.compile(r"(?:[A-Za-z_]\w*::)*([A-Z](?=(?:[A-Z0-9_]*[A-Z]){2})[A-Z0-9_]*)")
_DEFINITIONS = ("const_item", "static_item")
# A file that may define one: ``const NAME: &str`` / ``static NAME: &'static str``.
_DEFINITION = re.compile(rb"\b(?:const|static)\s+[A-Z][A-Z0-9_]*\s*:\s*&")


def constant_template(path: str) -> Template | None:
    """A message that is a constant passed as it is (``Err(MSG)``, ``.expect(MSG)``,
    ``io::Error::new(kind, error::MSG)``): a bare reference, resolved across files or
    dropped; None when ``path`` does not name an UPPER_SNAKE constant."""
    if not _REFERENCE.fullmatch(path):
        return None
    return Template(path, (Hole.of(path, "{}"),))


def is_bare_reference(template: Template) -> bool:
    """Whether the template is a constant passed as it is (see ``constant_template``)."""
    hole = template.message[0] if len(template.message) == 1 else None
    return isinstance(hole, Hole) and hole.name == template.written


def constant_references(template: Template, language: str) -> list[str]:
    """The constants a Rust site's message prints with ``{}`` or ``{NAME}`` (Display: the
    text as is); ``{:?}`` would quote it, and other values are not constants."""
    if language != "rust":
        return []
    found = []
    for hole in template.message:
        if isinstance(hole, Hole) and hole.name and hole.spec in ("{}", "{" + hole.name + "}"):
            reference = _REFERENCE.fullmatch(hole.name)
            if reference:
                found.append(reference.group(1))
    return found


def string_constants(language: str, source: bytes) -> list[tuple[str, str]]:
    """``(name, text)`` of each UPPER_SNAKE string constant a file defines (Rust); mining
    collects them from every file it reads."""
    if language != "rust" or not _DEFINITION.search(source):
        return []
    return _definitions(source, None)


def constant_values(root: Path, sha: str, names: set[str]) -> dict[str, str]:
    """The text of each string constant in ``names`` defined in a ``.rs`` file of the tree
    at ``sha`` (for an incremental mine, which did not read every file); a name defined
    twice with different texts is left out."""
    if not names:
        return {}
    wanted = "|".join(sorted(re.escape(n) for n in names))
    found: list[tuple[str, str]] = []
    for _, source in grep_tree(root, sha, f"\\b(const|static)\\s+({wanted})\\s*:\\s*&", "*.rs"):
        found.extend(_definitions(source, names))
    return unique_values(found)


def _definitions(source: bytes, names: set[str] | None) -> list[tuple[str, str]]:
    """``(name, text)`` of each ``const``/``static`` string item of a file (of ``names``)."""
    found: list[tuple[str, str]] = []
    stack = [parse("rust", source).root_node]
    while stack:
        node = stack.pop()
        if node.type in _DEFINITIONS:
            name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
            wanted = name is not None and (
                text(name) in names if names is not None else _REFERENCE.fullmatch(text(name)))
            if wanted and name is not None and value is not None:
                literal = string_value(value)
                if literal is not None:
                    found.append((text(name), literal))
            continue
        stack.extend(node.named_children)
    return found


def with_constants(template: Template, values: dict[str, str]) -> Template | None:
    """The template with each hole that prints a known constant replaced by its text (the
    wrapper the runtime prints around the message — ``assert!``'s, ``unreachable!``'s —
    kept); None when no hole's constant is known."""
    parts: list[Part] = []
    replaced = False
    for part in template.message:
        reference = constant_references(Template(template.written, (part,)), "rust")
        if reference and reference[0] in values:
            parts.append(Literal(values[reference[0]]))
            replaced = True
        else:
            parts.append(part)
    if not replaced:
        return None
    message = tuple(merge_literals(parts))
    return Template(_written(message), message, template.prefix, template.suffix)


def _written(message: tuple[Part, ...]) -> str:
    """The message as written, the constants' text in place: each other hole keeps its
    placeholder as the source wrote it (``{}``, ``{e:?}``)."""
    return "".join(p.text if isinstance(p, Literal) else p.spec for p in message)


CONSTANTS = Constants(
    definitions=lambda source: string_constants("rust", source),
    references=lambda template: constant_references(template, "rust"),
    lookup=constant_values, apply=with_constants, is_bare=is_bare_reference,
)
