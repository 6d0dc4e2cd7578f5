"""Doc comments that speak about a site: what the function's documentation says it raises.

Read from the syntax tree (the comment nodes before a function, or a Python
docstring) and split into notes:

* Python docstrings: Google ``Raises:`` entries, NumPy ``Raises`` sections,
  Sphinx ``:raises X: text``;
* Rust ``# Panics`` / ``# Errors`` sections of ``///`` comments;
* ``@throws X text`` / ``@exception X`` (Javadoc, KDoc, JSDoc ``@throws {X}``, PHPDoc,
  Doxygen ``\\throws``), YARD ``@raise [X] text``, Swift ``- Throws: text``;
* C# ``<exception cref="X">text</exception>``;
* and for every language the comment's first paragraph, as a ``summary`` note
  (Go doc comments are only that).
"""

from __future__ import annotations

import ast
import inspect
import re

from tree_sitter import Node

from errdex.languages.base import text
from errdex.records.evidence import DocKind, DocNote

_WRAPPERS = frozenset({"export_statement", "decorated_definition", "template_declaration"})
_BETWEEN = frozenset({"attribute_item", "decorator", "attribute_list", "annotation"})
MAX_NOTE = 400

_TAG = re.compile(
    r"^[@\\](?:throws|throw|exception|raise|raises)\s+(?:\{([^}]*)\}|\[([^\]]*)\]|(\S+))\s*(.*)$"
)
_SPHINX = re.compile(r"^:raises?\s+([\w.]+)\s*:\s*(.*)$")
_CSHARP = re.compile(r'<exception\s+cref="([^"]+)"\s*>(.*?)</exception>', re.S)
_HEADING = re.compile(r"^#+\s*(Panics|Errors)\s*$", re.I)


def doc_notes(function: Node | None, item: Node, language: str) -> list[DocNote]:
    """Notes from the documentation of ``function`` (else of the item holding the site)."""
    target = function if function is not None else item
    if language == "python" and function is not None:
        docstring = _python_docstring(function)
        if docstring is None:
            return []
        body, line = docstring
        return _python_notes(body, line)
    comment, line = _leading_comment(target)
    if not comment:
        return []
    return _comment_notes(comment, line, language)


def _python_docstring(function: Node) -> tuple[str, int] | None:
    body = function.child_by_field_name("body")
    first = body.named_children[0] if body is not None and body.named_children else None
    if first is not None and first.type == "expression_statement" and first.named_children:
        first = first.named_children[0]
    string = first
    if string is None or string.type != "string":
        return None
    try:
        value = ast.literal_eval(text(string))
    except (ValueError, SyntaxError):
        return None
    return (inspect.cleandoc(value), string.start_point[0] + 1) if isinstance(value, str) else None


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


def _summary(body: str, line: int) -> list[DocNote]:
    kept: list[str] = []
    for raw in body.strip().splitlines():
        if not raw.strip() or raw.strip().startswith(("@", ":param", ":raise", "\\", "# ")):
            break
        kept.append(raw)
    paragraph = "\n".join(kept).strip()
    if not paragraph or paragraph.startswith(("@", ":", "#", "<")):
        return []
    paragraph = re.sub(r"</?summary>", "", paragraph).strip()
    return [DocNote(kind="summary", text=_clip(paragraph), line=line)]


def _clip(value: str) -> str:
    one = " ".join(value.split())
    return one if len(one) <= MAX_NOTE else one[: MAX_NOTE - 1] + "…"


# --- Python -------------------------------------------------------------------------------


def _python_notes(body: str, line: int) -> list[DocNote]:
    notes = _summary(body, line)
    lines = body.splitlines()
    for index, raw in enumerate(lines):
        sphinx = _SPHINX.match(raw.strip())
        if sphinx:
            notes.append(DocNote(kind="raises", error_class=sphinx.group(1),
                                 text=_clip(sphinx.group(2)) or sphinx.group(1), line=line))
            continue
        header = raw.strip()
        underlined = index + 1 < len(lines) and set(lines[index + 1].strip()) == {"-"}
        if header == "Raises:" or (header == "Raises" and underlined):
            rest = lines[index + 1 + underlined :]
            notes.extend(_raises_section(rest, line, google=not underlined))
    return notes


def _raises_section(lines: list[str], line: int, google: bool) -> list[DocNote]:
    """``ValueError: If x…`` entries (Google) or ``ValueError`` + indented text (NumPy)."""
    notes: list[DocNote] = []
    base = None
    current: tuple[str, list[str]] | None = None
    for raw in lines:
        if not raw.strip():
            if google and current is not None:
                break
            continue
        indent = len(raw) - len(raw.lstrip())
        if base is None:
            base = indent
        if indent < base or (not google and indent == base and raw.strip().endswith(":")):
            break
        if indent == base:
            if current is not None:
                notes.append(_entry(current, line))
            name, _, rest = raw.strip().partition(":") if google else (raw.strip(), "", "")
            if not re.fullmatch(r"[\w.]+", name.strip()):
                break
            current = (name.strip(), [rest.strip()] if rest.strip() else [])
        elif current is not None:
            current[1].append(raw.strip())
    if current is not None:
        notes.append(_entry(current, line))
    return notes


def _entry(entry: tuple[str, list[str]], line: int) -> DocNote:
    name, words = entry
    return DocNote(kind="raises", error_class=name, text=_clip(" ".join(words)) or name, line=line)


# --- comment blocks ------------------------------------------------------------------------


def _comment_notes(body: str, line: int, language: str) -> list[DocNote]:
    notes = _summary(body, line)
    if language == "rust":
        notes.extend(_rust_sections(body, line))
    for match in _CSHARP.finditer(body):
        notes.append(DocNote(kind="throws", error_class=match.group(1).rpartition(":")[2],
                             text=_clip(match.group(2)) or match.group(1), line=line))
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
            notes.append(DocNote(kind="throws", text=_clip(stripped[9:]), line=line))
        elif tag is not None and stripped:
            tag.append(stripped)
    return notes


def _tag_note(tag: list[str], line: int) -> DocNote:
    name, words = tag[0], [w for w in tag[1:] if w]
    return DocNote(kind="throws", error_class=name or None,
                   text=_clip(" ".join(words)) or name, line=line)


def _rust_sections(body: str, line: int) -> list[DocNote]:
    notes: list[DocNote] = []
    kind: DocKind | None = None
    words: list[str] = []
    for raw in [*body.splitlines(), "# End"]:
        heading = _HEADING.match(raw.strip())
        if heading or raw.strip().startswith("# "):
            if kind is not None and words:
                notes.append(DocNote(kind=kind, text=_clip(" ".join(words)), line=line))
            words = []
            kind = None
            if heading:
                kind = "panics" if heading.group(1).lower() == "panics" else "errors"
        elif kind is not None and raw.strip():
            words.append(raw.strip())
    return notes
