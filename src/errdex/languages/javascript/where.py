"""Where a JS/TS site is: the line of its statement and its enclosing symbol.

Symbols join the names of enclosing named functions, methods and classes,
outermost first (``Store.open``). Anonymous functions take the name they are
bound to (``const load = () => …``, ``exports.load = function …``, a ``key:``
in an object, a class field); ``Store.prototype.open = function …`` is
``Store.open``; callbacks passed as arguments add nothing.
"""

from __future__ import annotations

from tree_sitter import Node

from errdex.languages.base import ancestors, line_of, text
from errdex.languages.javascript.messages import SCOPES, string_value, unwrap


def statement_line(node: Node) -> int:
    """The line of the statement that raises (``return next(\\n createError(…))``)."""
    for candidate in (node, *ancestors(node)):
        if candidate.type in SCOPES or candidate.type == "class_body":
            break
        if candidate.type.endswith(("_statement", "_declaration")):
            return line_of(candidate)
    return line_of(node)


def last_segment(node: Node) -> str:
    """``this.logger`` → ``logger``; ``getLogger()`` → ``getLogger``."""
    node = unwrap(node) or node
    if node.type == "call_expression":
        return last_segment(node.child_by_field_name("function") or node)
    if node.type == "member_expression":
        return text(node.child_by_field_name("property"))
    return text(node)


def symbol(node: Node) -> str | None:
    """Enclosing named functions and classes, outermost first: ``Store.open``."""
    names = [n for a in ancestors(node) if (n := _name_of(a))]
    return ".".join(reversed(names)) or None


def _name_of(node: Node) -> str | None:
    if node.type in ("class_declaration", "class", "abstract_class_declaration",
                     "method_definition", "function_declaration",
                     "generator_function_declaration"):
        return text(node.child_by_field_name("name")) or None
    if node.type not in SCOPES or node.type == "program":
        return None
    own = node.child_by_field_name("name")
    if own is not None:
        return text(own)
    parent = node.parent
    if parent is None:
        return None
    if parent.type == "variable_declarator":
        return text(parent.child_by_field_name("name"))
    if parent.type in ("pair", "field_definition", "public_field_definition"):
        key = parent.child_by_field_name("key") or parent.child_by_field_name(
            "property") or parent.child_by_field_name("name")
        return string_value(key) or text(key) or None
    if parent.type == "assignment_expression":
        return _assigned_name(parent.child_by_field_name("left"))
    return None


def _assigned_name(left: Node | None) -> str | None:
    """``exports.load`` → ``load``; ``Store.prototype.open`` → ``Store.open``."""
    if left is None or left.type != "member_expression":
        return text(left) or None
    prop = text(left.child_by_field_name("property"))
    obj = left.child_by_field_name("object")
    if obj is not None and obj.type == "member_expression" and text(
        obj.child_by_field_name("property")
    ) == "prototype":
        return f"{text(obj.child_by_field_name('object'))}.{prop}"
    return prop
