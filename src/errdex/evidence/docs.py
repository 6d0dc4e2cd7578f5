"""Doc comments that speak about a site: what the function's documentation says it raises.

Read from the syntax tree (the comment nodes before a function, or the function's
own docstring where the language reads one: its ``EvidenceRules.docstring``) and
split into notes:

* a language's own sections (``EvidenceRules.doc_sections``: Rust's ``# Panics`` /
  ``# Errors``);
* ``@throws X text`` / ``@exception X`` (Javadoc, KDoc, JSDoc ``@throws {X}``, PHPDoc,
  Doxygen ``\\throws``), YARD ``@raise [X] text``, Swift ``- Throws: text``;
* C# ``<exception cref="X">text</exception>``;
* and for every language the comment's first paragraph, as a ``summary`` note
  (Go doc comments are only that).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable

from tree_sitter import Node

from errdex.evidence.rules import rules_for
from errdex.languages._engine.evidence import clip, summary
from errdex.languages.base import text
from errdex.records.evidence import DocNote

_WRAPPERS = frozenset({"export_statement", "decorated_definition", "template_declaration"})
_BETWEEN = frozenset({"attribute_item", "decorator", "attribute_list", "annotation"})
_TAG = re.compile(
    r"^[@\\](?:throws|throw|exception|raise|raises)\s+(?:\{([^}]*)\}|\[([^\]]*)\]|(\S+))\s*(.*)$"
)
_CSHARP = re.compile(r'<exception\s+cref="([^"]+)"\s*>(.*?)</exception>', re.S)


def doc_notes(function: Node | None, item: Node, language: str) -> list[DocNote]:
    """Notes from the documentation of ``function`` (else of the item holding the site)."""
    rules = rules_for(language)
    if rules.docstring is not None and function is not None:
        return rules.docstring(function)
    comment, line = _leading_comment(function if function is not None else item)
    if not comment:
        return []
    return _comment_notes(comment, line, rules.doc_sections)


def _leading_comment(node: Node) -> tuple[str, int]:
    """The comment block right above ``node`` (attributes and decorators may sit between)."""
    while node.parent is not None and node.parent.type in _WRAPPERS:
        node = node.parent
    chunks: list[str] = []
    line = node.start_point[0]
    sibling = node.prev_sibling
    first_line = line
    while sibling is not None:
        if sibling.type in _BETWEEN:
            first_line = sibling.start_point[0]
            sibling = sibling.prev_sibling
            continue
        if "comment" not in sibling.type or sibling.end_point[0] < first_line - 1:
            break
        chunks.append(text(sibling))
        first_line = sibling.start_point[0]
        sibling = sibling.prev_sibling
    if not chunks:
        return "", 0
    return _strip_comment("\n".join(reversed(chunks))), first_line + 1


def _strip_comment(raw: str) -> str:
    lines = []
    for line in raw.splitlines():
        stripped = line.strip()
        for prefix in ("/**", "/*!", "/*", "///", "//!", "//", "*/", "#"):
            if stripped.startswith(prefix):
                stripped = stripped[len(prefix):]
                break
        stripped = stripped.removesuffix("*/")
        if stripped.startswith("*") and not stripped.startswith("**"):
            stripped = stripped[1:]
        lines.append(stripped.rstrip())
    return inspect.cleandoc("\n".join(lines))


# --- comment blocks ------------------------------------------------------------------------


def _comment_notes(
    body: str, line: int, sections: Callable[[str, int], list[DocNote]] | None
) -> list[DocNote]:
    notes = summary(body, line)
    if sections is not None:
        notes.extend(sections(body, line))
    for match in _CSHARP.finditer(body):
        notes.append(DocNote(kind="throws", error_class=match.group(1).rpartition(":")[2],
                             text=clip(match.group(2)) or match.group(1), line=line))
    tag: list[str] | None = None
    for raw in [*body.splitlines(), "@end"]:
        stripped = raw.strip()
        found = _TAG.match(stripped)
        if stripped.startswith("@") or stripped.startswith("\\") or found:
            if tag is not None:
                notes.append(_tag_note(tag, line))
                tag = None
            if found:
                name = (found.group(1) or found.group(2) or found.group(3) or "").strip()
                tag = [name, found.group(4)]
        elif stripped.lower().startswith("- throws:"):
            notes.append(DocNote(kind="throws", text=clip(stripped[9:]), line=line))
        elif tag is not None and stripped:
            tag.append(stripped)
    return notes


def _tag_note(tag: list[str], line: int) -> DocNote:
    name, words = tag[0], [w for w in tag[1:] if w]
    return DocNote(kind="throws", error_class=name or None,
                   text=clip(" ".join(words)) or name, line=line)
