"""Rust error sites: panicking macros, ``.expect``, anyhow/eyre macros, thiserror, ``Err(...)``.

What is a site (``errorType``):

* ``panic``: ``panic!`` ``unreachable!`` ``unimplemented!`` ``todo!`` (also path-qualified,
  ``std::panic!``), ``assert!``/``assert_eq!``/``assert_ne!`` and their ``debug_`` forms
  when they carry a message, and ``.expect("literal")``.
* ``error``: ``bail!`` ``anyhow!`` ``eyre!`` ``format_err!`` ``ensure!(cond, "...")``,
  thiserror ``#[error("...")]`` on an enum variant or a struct, and ``Err`` of a string
  literal, ``format!`` or a literal converted to ``String`` (``.to_string()``, ``.into()``,
  ``.to_owned()``, ``String::from``). ``Err(anyhow!(..))`` is one site: the macro's.

What is not a site, and why:

* Messageless ``panic!()`` ``todo!()`` ``unreachable!()`` ``unimplemented!()`` and
  ``assert!(x)``: the message is the runtime's fixed text (or the stringified condition),
  nothing written in this repository explains it.
* ``#[error(transparent)]``: it forwards another error's message.
* Code in ``#[cfg(test)]`` items and ``#[test]`` functions: tests, not product errors.
* Anything tree-sitter recovered around (under an ERROR node): its meaning is unsure.
* Sites inside another macro's arguments (``tokio::select! { .. }``): tree-sitter keeps
  macro arguments as unparsed token trees.

The message ``written`` is the decoded string literal with its placeholders as written;
the runtime text Rust adds around it (``not yet implemented: ``, the ``assert_eq!``
left/right lines, ``.expect``'s ``: <error>``) goes into the template's wrapper, so the
pattern matches what a user actually sees.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tree_sitter import Node

from errdex.formats import parse_rust_format
from errdex.languages.base import (
    FileSites,
    Language,
    Site,
    ancestors,
    inside_error,
    line_of,
    load_query,
    matches,
    parse,
    text,
)
from errdex.record import ErrorType
from errdex.template import Hole, Literal, Part, Template, literal_template

_QUERY_PATH = Path(__file__).with_name("rust.scm")
_COMMENTS = ("line_comment", "block_comment")


@dataclass(frozen=True)
class _Macro:
    """How one macro turns its arguments into a message."""

    error_type: ErrorType
    format_index: int  # which comma-separated argument is the format string
    prefix: str = ""  # runtime text printed before the message
    compare: str | None = None  # ``==``/``!=`` for assert_eq!/assert_ne!


_MACROS: dict[str, _Macro] = {
    "panic": _Macro("panic", 0),
    "unreachable": _Macro("panic", 0, "internal error: entered unreachable code: "),
    "todo": _Macro("panic", 0, "not yet implemented: "),
    "unimplemented": _Macro("panic", 0, "not implemented: "),
    "assert": _Macro("panic", 1),
    "debug_assert": _Macro("panic", 1),
    "assert_eq": _Macro("panic", 2, compare="=="),
    "debug_assert_eq": _Macro("panic", 2, compare="=="),
    "assert_ne": _Macro("panic", 2, compare="!="),
    "debug_assert_ne": _Macro("panic", 2, compare="!="),
    "bail": _Macro("error", 0),
    "anyhow": _Macro("error", 0),
    "eyre": _Macro("error", 0),
    "format_err": _Macro("error", 0),
    "ensure": _Macro("error", 1),
}

# `.expect` prints `msg: <error Debug>` for a Result and just `msg` for an Option.
_EXPECT_SUFFIX: tuple[Part, ...] = (Hole("error", ": {:?}", optional_lead=": "),)
# Conversions that turn a literal or `format!` into the `Err` payload without changing it.
_CONVERSIONS = ("to_string", "into", "to_owned")


def extract(source: bytes) -> FileSites:
    """All error sites of one Rust file, in source order."""
    tree = parse("rust", source)
    query = load_query("rust", _QUERY_PATH)
    sites: list[tuple[int, Site]] = []
    for _, captured in matches(query, tree.root_node):
        found = _site(captured)
        if found is not None:
            node, site = found
            sites.append((node.start_byte, site))
    sites.sort(key=lambda item: item[0])
    return FileSites([site for _, site in sites], parse_errors=tree.root_node.has_error)


def _site(captured: dict[str, list[Node]]) -> tuple[Node, Site] | None:
    """The site of one query match, with the node that positions it; None if it is not one."""
    for kind, handler in _HANDLERS.items():
        if kind in captured:
            node = captured[kind][0]
            site = handler(captured)
            if site is None or inside_error(node) or _in_test_code(node):
                return None
            return node, site
    return None


# --- handlers, one per query pattern ----------------------------------------------------


def _macro_site(captured: dict[str, list[Node]]) -> Site | None:
    macro = _MACROS.get(text(captured["macro.name"][0]))
    if macro is None:
        return None
    node = captured["macro"][0]
    args = _split_token_tree(captured["macro.args"][0])
    template = _format_template(args, macro.format_index)
    if template is None:
        return None
    return Site(
        template=_macro_wrapper(template, macro, args),
        error_type=macro.error_type,
        line=line_of(node),
        symbol=_function_symbol(node),
    )


def _expect_site(captured: dict[str, list[Node]]) -> Site | None:
    message = _string_value(captured["expect.message"][0])
    if message is None:
        return None
    return Site(
        template=literal_template(message).with_wrapper(suffix=_EXPECT_SUFFIX),
        error_type="panic",
        line=line_of(captured["expect.method"][0]),
        symbol=_function_symbol(captured["expect"][0]),
    )


def _err_site(captured: dict[str, list[Node]]) -> Site | None:
    template = _err_payload(_strip_conversion(captured["err.value"][0]))
    if template is None:
        return None
    node = captured["err"][0]
    return Site(template, "error", line_of(node), symbol=_function_symbol(node))


def _thiserror_site(captured: dict[str, list[Node]]) -> Site | None:
    node = captured["thiserror"][0]
    target = _attribute_target(node)
    if target is None:
        return None
    error_class = _thiserror_class(target)
    if error_class is None:
        return None
    args = _split_token_tree(captured["thiserror.args"][0])
    template = _format_template(args, 0)
    if template is None:  # `#[error(transparent)]`, `#[error(fmt = ..)]`
        return None
    type_name = error_class.partition("::")[0]
    return Site(
        template=_fields_by_index(template),
        error_type="error",
        line=line_of(node),
        error_class=error_class,
        symbol=_qualified(node, [type_name]),
    )


_HANDLERS = {
    "macro": _macro_site,
    "expect": _expect_site,
    "err": _err_site,
    "thiserror": _thiserror_site,
}


# --- messages -------------------------------------------------------------------------


def _macro_wrapper(template: Template, macro: _Macro, args: list[list[Node]]) -> Template:
    """The template with the text Rust's panic machinery prints around the message."""
    if macro.compare is None:
        return template.with_wrapper(prefix=(Literal(macro.prefix),) if macro.prefix else ())
    left, right = (_group_text(args[0]), _group_text(args[1]))
    return template.with_wrapper(
        prefix=(Literal(f"assertion `left {macro.compare} right` failed: "),),
        suffix=(
            Literal("\n  left: "),
            Hole.of(left, "{:?}"),
            Literal("\n right: "),
            Hole.of(right, "{:?}"),
        ),
    )


def _format_template(args: list[list[Node]], index: int) -> Template | None:
    """The template of a format string at argument ``index``, holes named after the args."""
    if len(args) <= index or len(args[index]) != 1:
        return None
    written = _string_value(args[index][0])
    if written is None:
        return None
    positional: list[str] = []
    named: dict[str, str] = {}
    for group in args[index + 1 :]:
        if len(group) > 2 and group[0].type == "identifier" and group[1].type == "=":
            named[text(group[0])] = _group_text(group[2:])
        else:
            positional.append(_group_text(group))
    return Template(written, parse_rust_format(written, positional, named))


def _fields_by_index(template: Template) -> Template:
    """thiserror's ``{0}`` names tuple field 0, not the first extra argument."""
    message = tuple(
        dataclasses.replace(part, name=_explicit_index(part.spec) or part.name)
        if isinstance(part, Hole)
        else part
        for part in template.message
    )
    return Template(template.written, message, template.prefix, template.suffix)


def _explicit_index(spec: str) -> str | None:
    argument = spec[1:-1].partition(":")[0].strip()
    return argument if argument.isdigit() else None


def _err_payload(value: Node) -> Template | None:
    """The message of an ``Err`` payload that is a string or ``format!``; None otherwise."""
    if value.type == "macro_invocation":
        name = value.child_by_field_name("macro")
        if name is not None and name.type == "scoped_identifier":
            name = name.child_by_field_name("name")
        tree = next((c for c in value.named_children if c.type == "token_tree"), None)
        if text(name) != "format" or tree is None:
            return None  # anyhow!/eyre! are sites of their own
        return _format_template(_split_token_tree(tree), 0)
    message = _string_value(value)
    return literal_template(message) if message is not None else None


def _strip_conversion(value: Node) -> Node:
    """``"m".to_string()``, ``"m".into()``, ``String::from("m")`` → the ``"m"`` node."""
    while value.type == "call_expression":
        function = value.child_by_field_name("function")
        arguments = value.child_by_field_name("arguments")
        if function is None or arguments is None:
            break
        inner = [c for c in arguments.named_children if c.type not in _COMMENTS]
        if function.type == "field_expression" and not inner:
            field = function.child_by_field_name("field")
            receiver = function.child_by_field_name("value")
            if text(field) not in _CONVERSIONS or receiver is None:
                break
            value = receiver
        elif text(function) == "String::from" and len(inner) == 1:
            value = inner[0]
        else:
            break
    return value


# --- token trees and string literals --------------------------------------------------


def _split_token_tree(tree: Node) -> list[list[Node]]:
    """The top-level comma-separated arguments of a macro's token tree."""
    groups: list[list[Node]] = [[]]
    for child in tree.children[1:-1]:  # inside the delimiters
        if child.type == ",":
            groups.append([])
        elif child.type not in _COMMENTS:
            groups[-1].append(child)
    if not groups[-1]:  # trailing comma, or no arguments
        groups.pop()
    return groups


def _group_text(group: list[Node]) -> str:
    """The source text of one argument, spanning its tokens as written."""
    first, last = group[0], group[-1]
    tree = first.parent
    if tree is None or tree.text is None:
        return text(first)
    start, end = first.start_byte - tree.start_byte, last.end_byte - tree.start_byte
    return tree.text[start:end].decode("utf-8", errors="replace")


_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "0": "\0"}


def _string_value(node: Node) -> str | None:
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
            decoded = _unescape(text(child))
            skip_whitespace = decoded is None  # backslash-newline skips the next indent
            out.append(decoded or "")
    return "".join(out)


def _unescape(sequence: str) -> str | None:
    """One escape sequence's character; None for a backslash-newline continuation."""
    body = sequence[1:]
    if not body or body[0] in "\r\n":
        return None
    if body in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[body]
    try:
        if body.startswith("x"):
            return chr(int(body[1:3], 16))
        if body.startswith("u{"):
            return chr(int(body[2:-1].replace("_", ""), 16))
    except ValueError:
        pass
    return sequence  # not valid Rust; keep as written


# --- where a site is: enclosing symbol, test code ---------------------------------------


def _function_symbol(node: Node) -> str | None:
    """``Type::method`` for methods, ``function`` for free functions, inline modules first."""
    function = next((a for a in ancestors(node) if a.type == "function_item"), None)
    if function is None:
        return None
    names = [text(function.child_by_field_name("name"))]
    owner = next((a for a in ancestors(function) if a.type in ("impl_item", "trait_item")), None)
    if owner is not None and _is_item_of(function, owner):
        owner_name = owner.child_by_field_name("type" if owner.type == "impl_item" else "name")
        names.insert(0, _type_name(owner_name))
    return _qualified(function, names)


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


def _qualified(node: Node, names: list[str]) -> str:
    """Names prefixed with the inline ``mod`` blocks around ``node``."""
    modules = [
        text(a.child_by_field_name("name")) for a in ancestors(node) if a.type == "mod_item"
    ]
    return "::".join([*reversed(modules), *names])


def _attribute_target(attribute: Node) -> Node | None:
    """The item an outer attribute applies to: the next sibling that is not an attribute."""
    sibling = attribute.next_named_sibling
    while sibling is not None and sibling.type in ("attribute_item", *_COMMENTS):
        sibling = sibling.next_named_sibling
    return sibling


def _thiserror_class(target: Node) -> str | None:
    """``Enum::Variant`` for a variant, ``Struct`` for a struct; None for anything else."""
    if target.type == "struct_item":
        return text(target.child_by_field_name("name"))
    if target.type != "enum_variant":
        return None
    enum = next((a for a in ancestors(target) if a.type == "enum_item"), None)
    variant = text(target.child_by_field_name("name"))
    return f"{text(enum.child_by_field_name('name'))}::{variant}" if enum else variant


def _in_test_code(node: Node) -> bool:
    """Whether the node is inside a ``#[cfg(test)]`` item or a ``#[test]`` function."""
    for item in (node, *ancestors(node)):
        if any(_is_test_attribute(a) for a in _outer_attributes(item)):
            return True
        if item.type in ("source_file", "declaration_list") and any(
            _is_test_attribute(c) for c in item.named_children if c.type == "inner_attribute_item"
        ):
            return True
    return False


def _outer_attributes(item: Node) -> Iterator[Node]:
    sibling = item.prev_named_sibling
    while sibling is not None and sibling.type in ("attribute_item", *_COMMENTS):
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


LANGUAGE = Language(name="rust", grammar="rust", extensions=(".rs",), extract=extract)
