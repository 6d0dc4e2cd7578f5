"""Where a JavaScript/TypeScript module declares what may be a producer (``compose.py``):
top-level and exported classes and functions, class members, members of module objects,
``exports.x = …`` and ``X.prototype.y = …``, string constants; and the names it imports
from packages, whose classes print as the runtime prints them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from tree_sitter import Node

from errdex.languages.base import text
from errdex.languages.javascript.messages import JsIndex, arguments, string_value, unwrap

# Errors whose constructor prints its first argument: no producer of the repository.
BUILTIN_ERRORS = frozenset({
    "Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError",
    "URIError",
})
CLASSES = frozenset({"class_declaration", "class", "abstract_class_declaration"})
FUNCTIONS = frozenset({
    "function_declaration", "generator_function_declaration", "function_expression",
    "function", "arrow_function", "generator_function", "method_definition",
})
# A body worth reading: it throws, logs, builds an error, or returns a string or a call
# with a string in it (a template of its parameters).
_HINT = re.compile(
    rb"\bthrow\b|\.(?:error|warn|fatal)\(|this\.message\b|\bnew\s+[\w.$]*(?:Error|Exception)\b"
    rb"|\breturn\b[^;{}\n]*?(?:[`'\"]|\bnew\s|[Ee]rr|[Ee]xception|[Ff]ail|[Ii]nvalid)")
# Statements that hold statements (their conditions and headers are not read).
_BLOCKS = frozenset({
    "statement_block", "if_statement", "else_clause", "try_statement", "catch_clause",
    "finally_clause", "switch_statement", "switch_body", "switch_case", "switch_default",
    "for_statement", "for_in_statement", "while_statement", "do_statement",
    "labeled_statement",
})
CONSTANT = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$")


@dataclass
class Declared:
    """A module's classes, functions (node, name, owner) and constants (name, owner, value:
    a string, or a call that makes an error class)."""

    classes: list[Node] = field(default_factory=list)
    functions: list[tuple[Node, str, str | None]] = field(default_factory=list)
    constants: list[tuple[str, str | None, Node]] = field(default_factory=list)


def declarations(root: Node, index: JsIndex, stem: str = "") -> Declared:
    """Top-level and exported declarations, class members, members of module objects
    (``const Errors = {…}``, ``module.exports = {…}``), ``exports.x = …`` and
    ``X.prototype.y = …``."""
    found = Declared()
    stack = list(reversed(root.named_children))
    while stack:
        node = stack.pop()
        kind = node.type
        if kind == "export_statement":
            stack.extend(reversed(node.named_children))
        elif kind in CLASSES and node.child_by_field_name("name") is not None:
            found.classes.append(node)
            _members(node, found)
        elif kind in ("function_declaration", "generator_function_declaration"):
            found.functions.append((node, text(node.child_by_field_name("name")), None))
        elif kind in ("lexical_declaration", "variable_declaration"):
            for declarator in node.named_children:
                if declarator.type == "variable_declarator":
                    _declarator(declarator, index, found)
        elif kind == "enum_declaration":
            owner = text(node.child_by_field_name("name"))
            body = node.child_by_field_name("body")
            for member in body.named_children if body is not None else ():
                value = member.child_by_field_name("value")
                if member.type == "enum_assignment" and value is not None:
                    found.constants.append(
                        (text(member.child_by_field_name("name")), owner, value))
        elif kind == "expression_statement" and node.named_children and (
                node.named_children[0].type == "assignment_expression"):
            _assigned(node.named_children[0], found, stem)
    return found


def _assigned(assignment: Node, found: Declared, stem: str) -> None:
    """``exports.fail = function…``, ``Store.prototype.fail = …``, ``module.exports = {…}``;
    an anonymous ``module.exports = function …`` is named after its file (``stem``)."""
    left = assignment.child_by_field_name("left")
    right = unwrap(assignment.child_by_field_name("right"))
    if left is None or left.type != "member_expression" or right is None:
        return
    if right.type == "object" and text(left) == "module.exports":
        _object(right, None, found)
    elif right.type in FUNCTIONS and text(left) == "module.exports":
        # module.exports = function createError(…): what ``require`` binds it to
        name = right.child_by_field_name("name")
        found.functions.append((right, text(name) if name is not None else stem, None))
    elif right.type in FUNCTIONS:
        holder = text(left.child_by_field_name("object"))
        owner = holder.removesuffix(".prototype") if holder.endswith(".prototype") else None
        found.functions.append((right, text(left.child_by_field_name("property")), owner))


def _declarator(declarator: Node, index: JsIndex, found: Declared) -> None:
    name_node = declarator.child_by_field_name("name")
    value = unwrap(declarator.child_by_field_name("value"))
    if name_node is None or name_node.type != "identifier" or value is None:
        return
    name = text(name_node)
    index.add(name, declarator)
    if value.type in FUNCTIONS:
        found.functions.append((value, name, None))
    elif value.type in CLASSES and value.child_by_field_name("name") is not None:
        found.classes.append(value)
        _members(value, found)
    elif value.type == "object":
        _object(value, name, found)
    elif CONSTANT.match(name) or value.type == "call_expression":
        found.constants.append((name, None, value))


def _object(value: Node, name: str | None, found: Declared) -> None:
    """A module object's functions and its other members: a namespace's (``Errors``), a
    table of messages' (``messages.notFound``, ``module.exports = {notFound: '…'}`` read
    through ``require``); ``compose.py`` keeps the texts with words."""
    for member in value.named_children:
        if member.type == "method_definition":
            found.functions.append((member, text(member.child_by_field_name("name")), name))
            continue
        key, inner = member.child_by_field_name("key"), unwrap(member.child_by_field_name("value"))
        if member.type != "pair" or key is None or inner is None:
            continue
        key_name = string_value(key) or text(key)
        if inner.type in FUNCTIONS:
            found.functions.append((inner, key_name, name))
        else:
            found.constants.append((key_name, name, inner))


def _members(node: Node, found: Declared) -> None:
    """A class's methods and static string fields."""
    owner = text(node.child_by_field_name("name"))
    body = node.child_by_field_name("body")
    for member in body.named_children if body is not None else ():
        name = text(member.child_by_field_name("name") or member.child_by_field_name("property"))
        if member.type == "method_definition" and name != "constructor":
            found.functions.append((member, name, owner))
        elif member.type in ("field_definition", "public_field_definition"):
            value = unwrap(member.child_by_field_name("value"))
            if value is not None and value.type in FUNCTIONS:  # private fail = (m) => {…}
                found.functions.append((value, name, owner))
            elif value is not None and any(c.type == "static" for c in member.children):
                found.constants.append((name, owner, value))


def statements(function: Node) -> list[Node]:
    """What a function body says, statement by statement (expressions are not walked):
    its ``return``/``throw`` statements, the calls and assignments made as statements and
    its variable declarators. None when it neither returns, throws nor logs what could be
    a message; an expression body is its own return value."""
    body = function.child_by_field_name("body")
    if body is None:
        return []
    if body.type != "statement_block":
        return [body]
    if not _HINT.search(body.text or b""):
        return []
    out: list[Node] = []
    stack = [body]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in _BLOCKS:
            stack.extend(reversed(node.named_children))
        elif kind in ("return_statement", "throw_statement"):
            out.append(node)
        elif kind == "expression_statement" and node.named_children:
            out.append(node.named_children[0])
        elif kind in ("lexical_declaration", "variable_declaration"):
            out.extend(c for c in node.named_children if c.type == "variable_declarator")
    return out


def index_variables(nodes: list[Node], index: JsIndex) -> None:
    """The variables a function assigns, for reading its messages."""
    for node in nodes:
        if node.type == "variable_declarator":
            name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        elif node.type in ("assignment_expression", "augmented_assignment_expression"):
            name, value = node.child_by_field_name("left"), node.child_by_field_name("right")
        else:
            continue
        if name is not None and value is not None and name.type == "identifier":
            index.add(text(name), node)


def foreign_names(root: Node) -> frozenset[str]:
    """The names a module imports from packages (``import { HttpError } from 'http-errors'``,
    ``const createError = require('http-errors')``), not from its own files (relative, or
    an alias such as ``@/errors``)."""
    return frozenset(n for source, names in _imports(root) if _package(source) for n in names)


def own_names(root: Node) -> frozenset[str]:
    """The names a module takes from its own files (``var createError =
    require('./core/createError')``) or declares as top-level functions: a call to one is
    the repository's, whatever package function shares its name."""
    out = {n for source, names in _imports(root) if not _package(source) for n in names}
    for node in root.named_children:
        if node.type == "export_statement":
            node = node.child_by_field_name("declaration") or node
        if node.type in ("function_declaration", "generator_function_declaration"):
            out.add(text(node.child_by_field_name("name")))
    return frozenset(out)


def imported_from(root: Node, name: str) -> str | None:
    """The module a top-level import or ``require`` binds ``name`` from, if any."""
    return next((source for source, names in _imports(root) if name in names), None)


def _imports(root: Node) -> Iterator[tuple[str, set[str]]]:
    """(source, the local names it binds) for each top-level import and ``require``."""
    for node in root.named_children:
        if node.type == "import_statement":
            source = text(node.child_by_field_name("source"))[1:-1] or None
            clause = next((c for c in node.named_children if c.type == "import_clause"), None)
            if source is not None and clause is not None:
                yield source, _bound_names(clause)
        elif node.type in ("lexical_declaration", "variable_declaration"):
            for declarator in node.named_children:
                value = unwrap(declarator.child_by_field_name("value"))
                pattern = declarator.child_by_field_name("name")
                if value is None or pattern is None or value.type != "call_expression" or text(
                        value.child_by_field_name("function")) != "require":
                    continue
                args = arguments(value)
                source = text(args[0])[1:-1] if args and args[0].type == "string" else None
                if source is not None:
                    yield source, _bound_names(pattern)


def _package(source: str) -> bool:
    return not source.startswith((".", "/", "@/", "~", "#", "src/", "lib/", "app/"))


def _bound_names(node: Node) -> set[str]:
    """The local names an import clause or a destructuring pattern binds."""
    names: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in ("import_specifier", "pair_pattern"):
            local = current.child_by_field_name("alias") or current.child_by_field_name(
                "value") or current.child_by_field_name("name")
            names.update({text(local)} if local is not None else ())
        elif current.type in ("identifier", "shorthand_property_identifier_pattern"):
            names.add(text(current))
        else:
            stack.extend(current.named_children)
    return names
