"""A file's string macros: what ``die(MSG_NO_FILE, path)`` formats when the file says
``#define MSG_NO_FILE "cannot open %s"``.

C projects keep message formats in macros as often as in literals; read as a bare name,
the format and the arguments it consumes are lost (the site prints ``{MSG_NO_FILE}``, its
``%s`` never filled). A macro the same file defines as one or more adjacent string
literals (``#define E_X "bad " "value %d"``) is read as that format wherever a format
is read. Macros of other files stay names: composition spells out their text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from errdex.languages.base import text

_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_STRINGS = re.compile(r'\s*(?:"(?:[^"\\\n]|\\.)*"\s*)+')
_PIECE = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_ESCAPE = re.compile(r"\\(?:[0-7]{1,3}|x[0-9A-Fa-f]+|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)")
_SKIP = frozenset({"compound_statement", "field_declaration_list", "initializer_list"})
_CACHE: dict[str, object] = {}  # the last file's defines: files are read one at a time


def defined(node: Node, unescape: Callable[[str], str]) -> str | None:
    """The text of the string macro ``node`` names, when its file defines one."""
    name = text(node)
    if node.type != "identifier" or not _NAME.fullmatch(name):
        return None
    return _defines(_root(node), unescape).get(name)


def _root(node: Node) -> Node:
    while node.parent is not None:
        node = node.parent
    return node


def _defines(root: Node, unescape: Callable[[str], str]) -> dict[str, str]:
    key = (root.id, root.start_byte, root.end_byte, root.child_count)
    if _CACHE.get("key") != key:
        _CACHE["key"] = key
        _CACHE["found"] = _read(root, unescape)
    found = _CACHE["found"]
    assert isinstance(found, dict)
    return found


def _read(root: Node, unescape: Callable[[str], str]) -> dict[str, str]:
    """``#define NAME "…"`` of the file (in ``#if`` blocks too; a name defined twice with
    different texts is left out: which one a build sees is not known)."""
    out: dict[str, str] = {}
    twice: set[str] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "preproc_def":
            name = text(node.child_by_field_name("name"))
            value = node.child_by_field_name("value")
            written = text(value) if value is not None else ""
            if _NAME.fullmatch(name) and _STRINGS.fullmatch(written):
                made = "".join(_ESCAPE.sub(lambda m: unescape(m.group(0)), p)
                               for p in _PIECE.findall(written))
                if out.get(name, made) != made:
                    twice.add(name)
                out[name] = made
        elif node.type not in _SKIP:
            stack.extend(node.named_children)
    return {k: v for k, v in out.items() if k not in twice}
