"""Rust syntax helpers: macro token trees, string literals, enclosing symbols, test code.

Kept apart from ``spec.py`` (which decides what is a site) because they only read
syntax: how a macro's arguments split, what a literal's value is, where a node sits.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from errdex.languages._engine.strings import C_ESCAPES, Escapes, unescape
from errdex.languages.base import ancestors, text
from errdex.templates.formats import parse_rust_format
from errdex.templates.template import Template

COMMENTS = ("line_comment", "block_comment")


# --- token trees and string literals --------------------------------------------------


def split_token_tree(tree: Node) -> list[list[Node]]:
    """The top-level comma-separated arguments of a macro's token tree."""
    groups: list[list[Node]] = [[]]
    for child in tree.children[1:-1]:  # inside the delimiters
        if child.type == ",":
            groups.append([])
        elif child.type not in COMMENTS:
            groups[-1].append(child)
    if not groups[-1]:  # trailing comma, or no arguments
        groups.pop()
    return groups


def group_text(group: list[Node]) -> str:
    """The source text of one argument, spanning its tokens as written."""
    first, last = group[0], group[-1]
    tree = first.parent
    if tree is None or tree.text is None:
        return text(first)
    start, end = first.start_byte - tree.start_byte, last.end_byte - tree.start_byte
    return tree.text[start:end].decode("utf-8", errors="replace")


_ESCAPES = Escapes(C_ESCAPES, underscores=True)


def string_value(node: Node) -> str | None:
    """The value of a ``"..."`` or ``r#"..."#`` literal; None for byte/C strings and others."""
    if node.type == "raw_string_literal":
        if not text(node).startswith("r"):
            return None
        return "".join(text(c) for c in node.named_children if c.type == "string_content")
    if node.type != "string_literal" or not node.children or text(node.children[0]) != '"':
        return None
    out: list[str] = []
    skip_whitespace = False
    for child in node.named_children:
        if child.type == "string_content":
            content = text(child).replace("\r\n", "\n")
            out.append(content.lstrip(" \t\n\r") if skip_whitespace else content)
            skip_whitespace = False
        elif child.type == "escape_sequence":
            decoded = unescape(text(child), _ESCAPES)
            skip_whitespace = decoded is None  # backslash-newline skips the next indent
            out.append(decoded or "")
    return "".join(out)


# --- where a site is: enclosing symbol, test code ---------------------------------------


def function_symbol(node: Node) -> str | None:
    """``Type::method`` for methods, ``function`` for free functions, inline modules first."""
    function = next((a for a in ancestors(node) if a.type == "function_item"), None)
    if function is None:
        return None
    names = [text(function.child_by_field_name("name"))]
    owner = next((a for a in ancestors(function) if a.type in ("impl_item", "trait_item")), None)
    if owner is not None and _is_item_of(function, owner):
        owner_name = owner.child_by_field_name("type" if owner.type == "impl_item" else "name")
        names.insert(0, _type_name(owner_name))
    return qualified(function, names)


def _is_item_of(function: Node, owner: Node) -> bool:
    """Whether ``function`` is a method of ``owner`` (not a fn nested in another fn)."""
    return function.parent is not None and function.parent.parent == owner


def _type_name(node: Node | None) -> str:
    """``Flex`` for ``Flex``, ``Flex<T>``, ``&'a Flex``, ``crate::m::Flex``."""
    while node is not None and node.type != "type_identifier":
        field = "name" if node.type == "scoped_type_identifier" else "type"
        inner = node.child_by_field_name(field)
        if inner is None:
            break
        node = inner
    return text(node)


def qualified(node: Node, names: list[str]) -> str:
    """Names prefixed with the inline ``mod`` blocks around ``node``."""
    modules = [
        text(a.child_by_field_name("name")) for a in ancestors(node) if a.type == "mod_item"
    ]
    return "::".join([*reversed(modules), *names])


def attribute_target(attribute: Node) -> Node | None:
    """The item an outer attribute applies to: the next sibling that is not an attribute."""
    sibling = attribute.next_named_sibling
    while sibling is not None and sibling.type in ("attribute_item", *COMMENTS):
        sibling = sibling.next_named_sibling
    return sibling


def thiserror_class(target: Node) -> str | None:
    """``Enum::Variant`` for a variant, ``Struct`` for a struct; None for anything else."""
    if target.type == "struct_item":
        return text(target.child_by_field_name("name"))
    if target.type != "enum_variant":
        return None
    enum = next((a for a in ancestors(target) if a.type == "enum_item"), None)
    variant = text(target.child_by_field_name("name"))
    return f"{text(enum.child_by_field_name('name'))}::{variant}" if enum else variant


# ``in_test_code``'s answers for the nodes of one tree (the last one asked about): every
# site of a file asks again about the same modules and items, and a node's previous
# sibling costs tree-sitter a walk along its parent's children. A node held here keeps
# its tree alive, so no node of another tree can compare equal to it.
_TEST_MEMO: dict[Node, bool] = {}
_MEMO_ROOT: list[Node] = []


def in_test_code(node: Node) -> bool:
    """Whether the node is inside a ``#[cfg(test)]`` item or a ``#[test]`` function."""
    path: list[Node] = []
    current: Node | None = node
    answer = False
    while current is not None:
        known = _TEST_MEMO.get(current)
        if known is not None:
            answer = known
            break
        path.append(current)
        current = current.parent
    else:  # reached the root: a tree not asked about before starts the memo afresh
        if not _MEMO_ROOT or _MEMO_ROOT[0] != path[-1]:
            _TEST_MEMO.clear()
            _MEMO_ROOT[:] = [path[-1]]
    for item in reversed(path):  # from the outermost down: inside test code stays there
        answer = answer or _own_test_attribute(item)
        _TEST_MEMO[item] = answer
    return answer


def tree_has_errors() -> bool:
    """Whether the tree ``in_test_code`` last answered for holds a syntax error anywhere:
    where it holds none, no node of it is inside an ``ERROR`` (no walk up to find one)."""
    return not _MEMO_ROOT or _MEMO_ROOT[0].has_error


def _own_test_attribute(item: Node) -> bool:
    """Whether ``item`` itself carries a test attribute (a module: an inner one too)."""
    if any(_is_test_attribute(a) for a in _outer_attributes(item)):
        return True
    return item.type in ("source_file", "declaration_list") and any(
        _is_test_attribute(c) for c in _inner_attributes(item))


def _inner_attributes(item: Node) -> Iterator[Node]:
    """A module's ``#![…]`` attributes: Rust allows them only before its first item, so
    reading stops there (a long file's items were read again for every site in it)."""
    child = item.named_child(0) if item.named_child_count else None
    while child is not None:
        if child.type == "inner_attribute_item":
            yield child
        elif child.type not in COMMENTS:
            return
        child = child.next_named_sibling


def _outer_attributes(item: Node) -> Iterator[Node]:
    sibling = item.prev_named_sibling
    while sibling is not None and sibling.type in ("attribute_item", *COMMENTS):
        if sibling.type == "attribute_item":
            yield sibling
        sibling = sibling.prev_named_sibling


_TEST_ATTRIBUTES = ("test", "rstest", "test_case")


def _is_test_attribute(attribute_item: Node) -> bool:
    attribute = next((c for c in attribute_item.named_children if c.type == "attribute"), None)
    if attribute is None or not attribute.named_children:
        return False
    path = attribute.named_children[0]
    name = text(path.child_by_field_name("name") if path.type == "scoped_identifier" else path)
    if name in _TEST_ATTRIBUTES:
        return True
    arguments = attribute.child_by_field_name("arguments")
    return name == "cfg" and arguments is not None and _cfg_requires_test(arguments)


def _cfg_requires_test(tree: Node) -> bool:
    """Whether a ``cfg(...)`` predicate holds only under test: ``test``, ``all(test, ..)``."""
    children = tree.named_children
    for index, child in enumerate(children):
        if child.type != "identifier":
            continue
        following = children[index + 1] if index + 1 < len(children) else None
        if text(child) == "test" and (following is None or following.type != "token_tree"):
            return True
        if (
            text(child) == "all"
            and following is not None
            and following.type == "token_tree"
            and _cfg_requires_test(following)
        ):
            return True
    return False


def format_string_template(args: list[list[Node]], index: int) -> Template | None:
    """The template of the format string at argument ``index`` of a macro's token groups
    (``format!``, ``panic!``, ``#[error(…)]``), holes named after the arguments they print."""
    if len(args) <= index or len(args[index]) != 1:
        return None
    written = string_value(args[index][0])
    if written is None:
        return None
    positional: list[str] = []
    named: dict[str, str] = {}
    for group in args[index + 1 :]:
        if len(group) > 2 and group[0].type == "identifier" and group[1].type == "=":
            named[text(group[0])] = group_text(group[2:])
        else:
            positional.append(group_text(group))
    return Template(written, parse_rust_format(written, positional, named))
