"""Kotlin producers: the message an exception class, factory, helper or constant prints.

Read per file for composition (``errdex.languages.facts``):

* a class whose primary constructor hands its base a message (``class NotFound(key:
  String) : StoreException("no such item: $key")``), or whose secondary constructors do
  (``constructor(key: String) : super(..)`` / ``: this(..)``), merged by ``_jvm.compose``;
  an ``override val message`` (its getter too) replaces it, ``super.message`` in it being
  what the constructor handed up; ``val`` parameters are fields read by name;
* a function (top level, in an ``object`` or a companion, which answers to its class's
  name) that returns ``X(..)`` of a class, or a ``String`` built from its parameters
  (``factory``); one that throws ``X(..)`` or logs a message built from its parameters
  unconditionally (``helper``);
* a ``const val`` (or ``val`` of an object, a companion or the file) holding text
  (``constant``).

Arguments are read as their alternatives: an ``if``/``when`` expression, directly or in
the ``val`` a name reads, gives one template per branch.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from errdex.languages._engine import FileIndex
from errdex.languages._engine.extract import site_index
from errdex.languages._engine.files import filled, index_query
from errdex.languages._jvm.compose import (
    SUPER_MESSAGE,
    THIS,
    ClassFacts,
    Constructor,
    class_producers,
    formatted,
    message_method,
    passes,
    renamed,
    uses,
)
from errdex.languages._jvm.libraries import is_exception_name, simple_name
from errdex.languages.base import ancestors, line_of, matches, parser_for, text
from errdex.languages.facts import Argument, Call, Producer, Result, has_text, unknown
from errdex.languages.kotlin.headers import split_header
from errdex.languages.kotlin.messages import (
    TYPE_TYPES,
    alternatives,
    body_value,
    callee_of,
    lambda_value,
    name_of,
    split,
    values_of,
)
from errdex.templates.template import Hole, Literal, Template

MAX_BRANCHES = 16
_LOG_METHODS = frozenset({"error", "warn", "warning", "severe", "fatal"})


# The pattern of ``queries.scm`` the file's index reads (message ``val``s).
_INDEX = """
(property_declaration (variable_declaration (simple_identifier) @assign.name) "="
  (_) @assign.value) @assign
"""


def index(root: Node) -> FileIndex:
    """The file's ``val``s by name, as the site reader has them (its own index when it just
    read the file: ``_INDEX`` is its query's index pattern)."""
    held = site_index("kotlin", root, FileIndex)
    if held is not None:
        return held
    return filled(FileIndex(), matches(index_query("kotlin", _INDEX), root))


def producers(root: Node, source: bytes, path: str) -> list[Producer]:
    """Every producer the file declares (module docstring)."""
    if root.has_error and (repaired := split_header(source)) is not source:
        root = parser_for("kotlin").parse(repaired).root_node  # ``headers.py``
    file = index(root)
    out: list[Producer] = []
    for node, owner, constants in _members(root, None, True):
        if node.type in ("class_declaration", "object_declaration"):  # ``object Gone : E(..)``
            out.extend(_class(node, owner, file, path))
        elif node.type == "function_declaration":
            out.extend(_function(node, owner, file, path))
        elif node.type == "property_declaration" and constants:
            out.extend(_constant(node, owner, file, path))
    return out


def _members(node: Node, owner: str | None, constants: bool
             ) -> Iterator[tuple[Node, str | None, bool]]:
    """Declarations of the file and of class bodies, with the class they answer to (a
    companion's: its class's) and whether their ``val``s are constants."""
    for child in node.named_children:
        if child.type in ("class_declaration", "object_declaration", "function_declaration",
                          "property_declaration"):
            yield child, owner, constants
        if child.type in TYPE_TYPES:
            name = owner if child.type == "companion_object" else name_of(child)
            body = next((c for c in child.named_children
                         if c.type in ("class_body", "enum_class_body")), None)
            if body is not None:
                yield from _members(body, name, child.type != "class_declaration")


def enclosing_class(node: Node) -> str | None:
    """The class a node is written in (a companion's: its class)."""
    for a in ancestors(node):
        if a.type in ("class_declaration", "object_declaration"):
            return name_of(a)
    return None


# --- arguments ---------------------------------------------------------------------------


def argument(node: Node, file: FileIndex) -> Argument:
    """What one argument prints: its alternatives, a number as written, or a hole."""
    number = text(node).replace(" ", "")
    if node.type in ("integer_literal", "prefix_expression") and re.fullmatch(r"-?\d+", number):
        return (Template(number, (Literal(number),)),)  # ``-1`` prints as it is written
    lazy = _lazy_parameter(node)
    if lazy is not None:  # ``msg()`` of a ``msg: () -> String``: what the caller's lambda says
        return (unknown(lazy),)
    return tuple(alternatives(node, file)) or (unknown(text(node)),)


def _lazy_parameter(node: Node) -> str | None:
    """``msg()`` calling a parameter of the enclosing function declared ``() -> String``."""
    if node.type != "call_expression" or node.named_child_count != 2:
        return None
    head, suffix = node.named_children
    if head.type != "simple_identifier" or suffix.type != "call_suffix" or any(
            c.named_children for c in suffix.named_children):
        return None
    function = next((a for a in ancestors(node) if a.type == "function_declaration"), None)
    params = next((c for c in function.named_children
                   if c.type == "function_value_parameters"), None) if function else None
    for param in params.named_children if params is not None else ():
        name = next((c for c in param.named_children if c.type == "simple_identifier"), None)
        kind = next((c for c in param.named_children if c.type == "function_type"), None)
        if text(name) == text(head) and kind is not None:
            return text(head)
    return None


def call_to(callee: str, args: list[Node], file: FileIndex, owner: str | None,
            path: str = "", named: list[tuple[str, Node]] | None = None) -> Call:
    """A call to a producer, each argument read as its alternatives (a format string and
    its values as they print formatted); a lowercase callee is a function, not a class."""
    read_args = formatted([argument(a, file) for a in args], [text(a) for a in args])
    return Call(callee, read_args, tuple((k, argument(v, file)) for k, v in named or []),
                owner=owner, path=path, method=callee.rsplit(".", 1)[-1][:1].islower())


def invocation(call: Node, file: FileIndex, owner: str | None, path: str = "") -> Call | None:
    """A call expression as a call to the producer it names."""
    found = callee_of(call)
    return call_to(found[0], found[2], file, owner, path, found[3]) if found else None


# --- classes -------------------------------------------------------------------------------


def _class(node: Node, outer: str | None, file: FileIndex, path: str) -> list[Producer]:
    name = name_of(node)
    specifier = next((c for c in node.named_children if c.type == "delegation_specifier"), None)
    if name is None or specifier is None or not specifier.named_children:
        return []
    invoked = specifier.named_children[0]
    base_type = invoked.named_children[0] if invoked.type == "constructor_invocation" else invoked
    base = simple_name(text(base_type))
    facts = ClassFacts(name, (base,), path, line_of(node), outer)
    primary = next((c for c in node.named_children if c.type == "primary_constructor"), None)
    if invoked.type == "constructor_invocation":
        params, fields = _class_parameters(primary)
        args, named = split(values_of(invoked))
        results: tuple[Result, ...] = (call_to(base, args, file, name, path, named),)
        facts.constructors.append(Constructor(params, results, fields, _private(primary)))
    for param in primary.named_children if primary is not None else []:
        if param.type == "class_parameter" and _overrides_message(param):
            facts.override.append(unknown("message"))  # ``(override val message: String)``
    body = next((c for c in node.named_children if c.type == "class_body"), None)
    members = body.named_children if body is not None else []
    for i, member in enumerate(members):
        if member.type == "secondary_constructor":
            facts.constructors.append(_secondary(member, base, name, file, path))
        elif member.type == "property_declaration" and _overrides_message(member):
            value = _property_value(member, members[i + 1] if i + 1 < len(members) else None)
            facts.override.extend(alternatives(value, file))
        elif member.type == "function_declaration" and not facts.override:
            facts.override.extend(_to_string(member, file))
    return class_producers(facts)


def _to_string(node: Node, file: FileIndex) -> list[Template]:
    """``override fun toString() = "${super.toString()}; job=$job"``: a paste shows
    ``pkg.Class: message; job=…``, so what follows ``super.toString()`` ends the message."""
    name = next((c for c in node.named_children if c.type == "simple_identifier"), None)
    params = next((c for c in node.named_children if c.type == "function_value_parameters"),
                  None)
    if text(name) != "toString" or (params is not None and params.named_children):
        return []
    value = body_value(next((c for c in node.named_children if c.type == "function_body"),
                            None))
    out = []
    for template in alternatives(value, file) if value is not None else []:
        first = template.message[0] if template.message else None
        if isinstance(first, Hole) and first.name == "super.toString()" and has_text(template):
            out.append(renamed(template, {"super.toString()": SUPER_MESSAGE}))
    return out


def _class_parameters(primary: Node | None) -> tuple[tuple[str, ...], tuple[tuple[str, str],
                                                                            ...]]:
    names, fields = [], []
    for param in primary.named_children if primary is not None else []:
        if param.type != "class_parameter":
            continue
        name = text(next((c for c in param.named_children if c.type == "simple_identifier"),
                         None))
        names.append(name)
        if any(c.type == "binding_pattern_kind" for c in param.named_children):
            fields.append((name, name))
    return tuple(names), tuple(fields)


def _secondary(node: Node, base: str, owner: str, file: FileIndex, path: str) -> Constructor:
    params = next((c for c in node.named_children if c.type == "function_value_parameters"),
                  None)
    names = _parameters(params)
    delegation = next((c for c in node.named_children
                       if c.type == "constructor_delegation_call"), None)
    if delegation is None:
        return Constructor(names, (Call(base, (), owner=owner, path=path),), (), _private(node))
    args, named = split(values_of(delegation))
    callee = THIS if delegation.children and text(delegation.children[0]) == "this" else base
    return Constructor(names, (call_to(callee, args, file, owner, path, named),), (),
                       _private(node))


def _private(node: Node | None) -> bool:
    modifiers = next((c for c in node.named_children if c.type == "modifiers"), None) if (
        node is not None) else None
    return "private" in text(modifiers).split()


def _parameters(params: Node | None) -> tuple[str, ...]:
    return tuple(
        text(next((c for c in p.named_children if c.type == "simple_identifier"), None))
        for p in (params.named_children if params is not None else ()) if p.type == "parameter"
    )


def _overrides_message(node: Node) -> bool:
    """``override val message …``, in the class body or the primary constructor."""
    declared = next((c for c in node.named_children if c.type == "variable_declaration"), node)
    name = next((c for c in declared.named_children if c.type == "simple_identifier"), None)
    modifiers = next((c for c in node.named_children if c.type == "modifiers"), None)
    return text(name) == "message" and "override" in text(modifiers).split()


def _property_value(node: Node, after: Node | None) -> Node | None:
    """``override val message = …`` or its getter (a child, or the next member)."""
    getter = next((c for c in node.named_children if c.type == "getter"), None)
    if getter is None and after is not None and after.type == "getter":
        getter = after
    if getter is None:
        last = node.named_children[-1]
        return last if last.type not in ("variable_declaration", "modifiers") else None
    body = next((c for c in getter.named_children if c.type == "function_body"), None)
    return body_value(body)


# --- factories, helpers, constants -----------------------------------------------------------


def _function(node: Node, owner: str | None, file: FileIndex, path: str) -> list[Producer]:
    """A factory (returns an error or a message built from its parameters) or a helper
    (throws or logs one whatever it is given)."""
    name = text(next((c for c in node.named_children if c.type == "simple_identifier"), None))
    params = _parameters(next((c for c in node.named_children
                               if c.type == "function_value_parameters"), None))
    returns = next((simple_name(text(c)) for c in node.named_children if c.type == "user_type"),
                   "")
    body = next((c for c in node.named_children if c.type == "function_body"), None)
    if body is None or not body.named_children:
        return []
    if returns == "String" and not params:
        return _message_method(node, name, body, owner, file, path)
    results: list[Result] = []
    role = "factory"
    if _may_return_a_message(returns, params, body):
        for value in _returns(body):
            results.extend(_returned(value, returns, params, file, owner, path))
    if not results and params:
        role = "helper"
        statements = body.named_children[0]
        for statement in statements.named_children if statements.type == "statements" else [
                statements]:
            results.extend(_helper_result(statement, params, file, owner, path))
        if not results and statements.type == "statements":
            results = _guards(statements, params, file, owner, path)
    if not results:
        return []
    return [Producer(name, params, tuple(results[:MAX_BRANCHES]), role, path, line_of(node),
                     owner)]


def _message_method(node: Node, name: str, body: Node, owner: str | None, file: FileIndex,
                    path: str) -> list[Producer]:
    """``fun where(): String``: what a hole printing ``${where()}`` in a message of its class
    prints (each return an alternative)."""
    return message_method(name, [t for value in _returns(body) for t in argument(value, file)
                                 ][:MAX_BRANCHES], node, owner, path)


def _may_return_a_message(returns: str, params: tuple[str, ...], body: Node) -> bool:
    """Whether a function's returns are worth reading (an expression body always is)."""
    if body.named_children[0].type != "statements" or is_exception_name(returns):
        return True
    if returns == "String":
        return bool(params)
    return returns[:1].isupper() and (returns + "(").encode() in (body.text or b"")


def _returns(body: Node) -> Iterator[Node]:
    """An expression body, or the values of a block's own ``return``s."""
    inner = body.named_children[0]
    if inner.type != "statements":
        if not (inner.type == "jump_expression" and text(inner).startswith("throw")):
            yield inner
        return
    stack = [inner]
    while stack:
        node = stack.pop()
        if node.type == "jump_expression" and text(node).startswith("return") and (
                node.named_children):
            yield node.named_children[0]
            continue
        stack.extend(c for c in reversed(node.named_children)
                     if c.type not in ("lambda_literal", "class_body", "function_declaration"))


def _returned(value: Node, returns: str, params: tuple[str, ...], file: FileIndex,
              owner: str | None, path: str) -> list[Result]:
    found = callee_of(value)
    if found is not None:
        callee = found[0].rsplit(".", 1)[-1]
        if callee[:1].isupper() and (is_exception_name(callee) or callee == returns
                                     or is_exception_name(returns)):
            return [call_to(callee, found[2], file, owner, path, found[3])]
        if is_exception_name(returns):
            return [call_to(found[0], found[2], file, owner, path, found[3])]
    if returns in ("String", ""):
        return [t for t in alternatives(value, file) if has_text(t) and uses(t, params)]
    return []


def _helper_result(statement: Node, params: tuple[str, ...], file: FileIndex,
                   owner: str | None, path: str) -> list[Result]:
    """A statement of a helper's body that throws or logs what the helper is given."""
    if statement.type == "jump_expression" and text(statement).startswith("throw") and (
            statement.named_children):
        called = invocation(statement.named_children[0], file, owner, path)
        return [called] if called is not None and passes(called, params) else []
    found = callee_of(statement)
    if found is None or not found[2]:
        return []
    if found[0] == "error":  # ``error(msg)`` throws an IllegalStateException of it
        made = call_to("IllegalStateException", found[2], file, owner, path)
        return [made] if passes(made, params) else []
    chained = call_to(found[0], found[2], file, owner, path, found[3])  # another helper
    if (found[1] is None or found[1].type == "this_expression" or text(found[1])[:1].isupper()
            ) and chained.method and passes(chained, params):
        return [chained]
    if found[1] is None:
        return []
    receiver, method = text(found[1]), found[0].rsplit(".", 1)[-1]
    logged = (method in _LOG_METHODS and "log" in receiver.rsplit(".", 1)[-1].lower()) or (
        receiver == "System.err" and method in ("println", "print"))
    if not logged:
        return []
    return [t for t in alternatives(found[2][0], file) if has_text(t) and uses(t, params)]


_CHECKS = {"require": "IllegalArgumentException", "check": "IllegalStateException"}


def _guards(statements: Node, params: tuple[str, ...], file: FileIndex, owner: str | None,
            path: str) -> list[Result]:
    """A checker's throws: a body of nothing but ``if (id < 0) throw X(..)`` and
    ``require(c) { "…" }`` raises what each guard says, given the caller's arguments."""
    results: list[Result] = []
    for guard in statements.named_children:
        found = callee_of(guard)
        if guard.type == "if_expression" and guard.child_by_field_name("alternative") is None:
            body = guard.child_by_field_name("consequence")
            inner = body.named_children[-1] if body is not None and body.named_children else None
            if inner is not None and inner.type == "statements" and inner.named_children:
                inner = inner.named_children[-1]
            made = _helper_result(inner, params, file, owner, path) if inner else []
        elif found is not None and found[0] in _CHECKS and found[1] is None:
            message = lambda_value(guard)
            made = [Call(_CHECKS[found[0]], (tuple(alternatives(message, file)),), owner=owner,
                         path=path)] if message is not None else []
            made = [m for m in made if isinstance(m, Call) and passes(m, params)]
        else:
            return []
        if not made:
            return []
        results.extend(made)
    return results


def _constant(node: Node, owner: str | None, file: FileIndex, path: str) -> list[Producer]:
    """``const val NOT_FOUND = "…"`` (or a ``val``) of an object, a companion or the file."""
    declared = next((c for c in node.named_children if c.type == "variable_declaration"), None)
    kind = next((c for c in node.named_children if c.type == "binding_pattern_kind"), None)
    if declared is None or not declared.named_children or text(kind) != "val":
        return []
    name = text(declared.named_children[0])
    value = node.named_children[-1]
    if name.upper() != name or value is declared:
        return []
    found = [t for t in alternatives(value, file) if has_text(t)]
    return [Producer(name, (), tuple(found), "constant", path, line_of(node), owner)] if (
        found) else []
