"""C# calls to producers: each argument read as the templates it can print.

A ternary, a ``switch`` expression, or a local initialised with one or assigned in
several branches (``if (c) msg = "a"; else msg = "b";``) gives one template per branch,
as does a ``StringBuilder`` started from such a local (``new StringBuilder(opening)``);
a composite format followed by arguments (``Errors.Create(r, "Unexpected {0}", tok)``)
is read with them; what source does not spell is a hole named after the expression.
"""

from __future__ import annotations

import re
from dataclasses import replace

from tree_sitter import Node

from errdex.languages._engine.declared import CSHARP, argument_types
from errdex.languages._engine.message import Message
from errdex.languages._jvm.compose import capped, every_alternative, unparenthesized
from errdex.languages._jvm.libraries import simple_name
from errdex.languages.base import ancestors, text
from errdex.languages.csharp.builders import composable
from errdex.languages.csharp.chosen import chosen_call
from errdex.languages.csharp.messages import (
    STRINGS,
    arguments,
    built_with_start,
    declared_value,
    hole,
    read,
)
from errdex.languages.csharp.paths import Paths, built_local, walk
from errdex.languages.csharp.strings import composite_format, string_value
from errdex.languages.facts import Argument, Call, unknown
from errdex.templates.template import Literal, Template

CLASSES = frozenset({"class_declaration", "struct_declaration", "record_declaration"})
FUNCTIONS = frozenset({
    "method_declaration", "constructor_declaration", "local_function_statement",
    "lambda_expression", "anonymous_method_expression", "accessor_declaration",
    "property_declaration",
})

def owner_of(node: Node) -> str | None:
    """The name of the class a node is written in (``this.X()`` is looked up there)."""
    owner = next((a for a in ancestors(node) if a.type in CLASSES), None)
    return text(owner.child_by_field_name("name")) if owner is not None else None


def alternatives(node: Node | None, at: Node, depth: int = 0) -> list[Template]:
    """The templates an expression prints, one per branch (a ternary, a ``switch``
    expression, a local initialised with one or assigned in several branches); empty
    when source does not say."""
    node = unparenthesized(node)
    if node is None or depth > 4:
        return []
    if node.type == "conditional_expression":
        return list(capped([
            *alternatives(node.child_by_field_name("consequence"), at, depth + 1),
            *alternatives(node.child_by_field_name("alternative"), at, depth + 1)]))
    if node.type == "switch_expression":
        return list(capped([t for arm in node.named_children
                            if arm.type == "switch_expression_arm" and arm.named_children
                            for t in alternatives(arm.named_children[-1], at, depth + 1)]))
    if node.type == "identifier":
        branches = _branches(node, at, depth)
        if branches:
            return branches
    message = read(node, at)
    if node.type == "identifier":
        appended = _written_to(function_of(at), text(node), _APPENDS)
        value = _initialiser(node, at) if appended or message is None else None
        if appended and value is not None:  # ``message += "…"`` in some branches
            built = built_local(node, at, alternatives(value, at, depth + 1),
                                Paths(alternatives, invocation))
            if built:
                return built
        if message is None and value is not None and value.type in (
                "conditional_expression", "switch_expression"):
            return alternatives(value, at, depth + 1)
    if message is None and node.type == "invocation_expression":
        made = [m for t in _builder_starts(node, at, depth)
                if (m := built_with_start(node, at, Message(t.written, t.parts))) is not None]
        return [Template(m.written, m.parts) for m in made]
    return [Template(message.written, message.parts)] if message is not None else []


def _builder_starts(call: Node, at: Node, depth: int) -> list[Template]:
    """``sb.ToString()`` of a ``new StringBuilder(opening)`` whose ``opening`` is a local
    assigned in several branches (``if (…) opening = "…"; else opening = "…";``): each
    branch's text, which the builder starts with; empty otherwise."""
    function = call.child_by_field_name("function")
    receiver = function.child_by_field_name("expression") if function is not None and (
        function.type == "member_access_expression") and text(
        function.child_by_field_name("name")) == "ToString" else None
    value = _initialiser(receiver, at) if receiver is not None and (
        receiver.type == "identifier") else None
    if value is None or value.type != "object_creation_expression" or simple_name(
            text(value.child_by_field_name("type"))) != "StringBuilder":
        return []
    first = arguments(value.child_by_field_name("arguments"))[:1]
    return _branches(first[0], at, depth + 1) if first and first[0].type == "identifier" else []


def _initialiser(node: Node, at: Node) -> Node | None:
    """The value a local is declared with, above ``at`` in its method."""
    scope = function_of(at)
    name = text(node)
    if not _written_to(scope, name, _ASSIGNS):
        return None
    found = [d for d in walk(scope) if d.type == "variable_declarator"
             and text(d.child_by_field_name("name")) == name
             and d.end_byte <= at.start_byte] if scope is not None else []
    return declared_value(found[-1]) if found else None


def _branches(node: Node, at: Node, depth: int) -> list[Template]:
    """A local assigned in several branches above its use (``if (c) msg = "a"; else msg =
    "b";``): each assignment's text, when every one is known."""
    scope = function_of(at)
    name = text(node)
    if scope is None or not _written_to(scope, name, _ASSIGNS):
        return []
    assigned = [a for a in walk(scope) if a.type == "assignment_expression"
                and a.end_byte <= at.start_byte
                and text(a.child_by_field_name("left")) == name
                and text(a.child_by_field_name("operator")) == "="]
    if len(assigned) < 2 or any(name in _names(a.child_by_field_name("right"))
                                for a in assigned):
        return []  # ``message = message + …``: built up, not chosen
    return every_alternative(assigned, lambda a: alternatives(
        a.child_by_field_name("right"), a, depth + 1))


def _written_to(scope: Node | None, name: str, operator: bytes) -> bool:
    """Whether ``name`` is written to with ``operator`` in ``scope`` at all (before walking
    its nodes)."""
    source = scope.text or b"" if scope is not None else b""
    return re.search(rb"(?<![\w.])" + re.escape(name.encode()) + operator, source) is not None


_ASSIGNS = rb"\s*=[^=>]"  # ``name = …``
_APPENDS = rb"\s*\+="  # ``name += …``


def argument(node: Node, at: Node, after: list[Node] | None = None) -> Argument:
    """What one argument prints: its alternatives, a number as written, a composite format
    read with the arguments after it (``Create(r, "Unexpected {0}", tok)``), or a hole."""
    if node.type == "integer_literal" and text(node).isdigit():
        return (Template(text(node), (Literal(text(node)),)),)
    value = string_value(node) if node.type in STRINGS else None
    if value is not None and after and "{0" in value:
        return (Template(value, composite_format(value, [text(a) for a in after])),)
    found = alternatives(node, at)
    if found:
        return tuple(found)
    made = hole(node)
    return (unknown(made.name or text(node)),)


def arms_of(node: Node | None) -> list[Node]:
    """The values a ternary chooses among (``a ? X : b ? Y : Z``: ``X``, ``Y``, ``Z``); a
    node that is no ternary is its own one arm."""
    node = unparenthesized(node)
    if node is None:
        return []
    if node.type != "conditional_expression":
        return [node]
    return [*arms_of(node.child_by_field_name("consequence")),
            *arms_of(node.child_by_field_name("alternative"))]


def call_of(callee: str, args: list[Node], at: Node, path: str = "") -> Call:
    """A call to a producer, each argument read as its alternatives at ``at``; one that
    names a constant of a class (``BrokenException.DefaultMessage``, a bare
    ``DefaultMessage`` in its own class: C# spells constants in PascalCase) or formats a
    resource (``string.Format(culture, Resources.X, a)``) prints what composition finds it
    holds, else the hole it is."""
    owner = owner_of(at)
    nested: list[tuple[str, Call]] = []
    read = tuple(argument(a, at, args[i + 1:]) for i, a in enumerate(args))
    for a, found in zip(args, read, strict=True):
        if constant_like(a):
            nested.append((text(a), Call(text(a), owner=owner, path=path)))
        elif a.type == "invocation_expression" and (made := resource_call(a, at)) is not None:
            nested.append((text(a), replace(made, path=path)))  # string.Format(Resources.X, …)
        elif a.type == "invocation_expression" and found == (unknown(text(a)),) and (
                called := invocation(a, at, path)) is not None:
            nested.append((text(a), called))  # ``new MockError(Describe(count))``
    nested.extend(_inner_calls(read, {name for name, _ in nested}, at, path))
    return Call(callee, read, owner=owner, path=path, nested=tuple(nested),
                types=argument_types(args, at, CSHARP))


def _inner_calls(read: tuple[Argument, ...], known: set[str], at: Node,
                 path: str) -> list[tuple[str, Call]]:
    """Holes of the arguments' texts that are calls written above ``at`` in its method
    (``sb.Append(times.Describe(count))`` read as ``{times.Describe(count)}``) or
    constants: each prints what composition finds."""
    wanted = {h.name for arg in read for t in arg for h in t.holes
              if h.name and composable(h.name) and h.name not in known}
    if not wanted:
        return []
    out = [(name, Call(name, owner=owner_of(at), path=path)) for name in sorted(wanted)
           if not name.endswith(")")]  # ``sb.AppendLine(Resources.NotFound)``
    wanted = {name for name in wanted if name.endswith(")")}
    for node in walk(function_of(at)):
        name = text(node) if node.type == "invocation_expression" else ""
        if name not in wanted or node.start_byte >= at.end_byte:
            continue
        formatted = resource_call(node, node)  # ``string.Format(culture, Resources.X, a)``
        called = replace(formatted, path=path) if formatted is not None else invocation(
            node, node, path)
        if called is not None:
            out.append((name, called))
            wanted.discard(name)
    return out


def constant_like(node: Node) -> bool:
    """``Errors.NotFound`` / ``NotFound``: a PascalCase member of a PascalCase class, or a
    PascalCase name alone, which only a constant (or a property) of the repository tells."""
    if node.type == "member_access_expression":
        return _resource(node)
    return node.type == "identifier" and text(node)[:1].isupper() and not text(node).isupper()


def invocation(node: Node, at: Node, path: str = "") -> Call | None:
    """``Errors.Create(r, "…", t)`` / ``this.Fail(x)`` / ``Fail<T>(x)`` as a ``Call``."""
    function = node.child_by_field_name("function")
    if function is None or function.type not in (
            "identifier", "member_access_expression", "generic_name"):
        return None
    callee = text(function).split("<", 1)[0] if function.type == "generic_name" else text(
        function)
    receiver = function.child_by_field_name("expression")
    if receiver is not None and "(" in text(receiver):  # ``Times.AtMost(n).Describe(c)``:
        head = text(receiver).split("(", 1)[0].split("<", 1)[0]  # ``Times.Describe``
        callee = ".".join((head.rsplit(".", 1)[0] or "_", text(
            function.child_by_field_name("name")).split("<", 1)[0]))
    made = call_of(callee, arguments(node.child_by_field_name("arguments")), at, path)
    return replace(made, method=True)  # PascalCase, yet no class: unresolved, says nothing


def function_of(node: Node) -> Node | None:
    return next((a for a in ancestors(node) if a.type in FUNCTIONS), None)


def _names(node: Node | None) -> set[str]:
    return {text(n) for n in walk(node) if n.type == "identifier"}


_FORMATS = frozenset({"string.Format", "String.Format", "System.String.Format"})


def resource_call(node: Node | None, at: Node) -> Call | None:
    """``string.Format([culture,] Resources.NotFound, a, …)`` (or ``SR.Format(SR.NotFound,
    a)``): a call to the resource text ``Resources.NotFound``, its ``{0}`` filled from the
    arguments after it; one that is such a format itself is composed first (``nested``).
    A lone ``Resources.NotFound`` (no format) is a call with no arguments."""
    node = unparenthesized(node)
    if node is not None and node.type == "member_access_expression" and _resource(node):
        return Call(text(node), owner=owner_of(at))
    if node is None or node.type != "invocation_expression":
        return None
    function = node.child_by_field_name("function")
    name = text(function)
    if function is None or (name not in _FORMATS and not (
            function.type == "member_access_expression" and name.endswith(".Format")
            and name[:1].isupper())):
        return None
    args = arguments(node.child_by_field_name("arguments"))
    if args and any(word in text(args[0]) for word in ("Culture", "Provider")):
        args = args[1:]
    chosen = bool(args) and args[0].type == "identifier"  # a local chosen in a switch
    if not args or (not chosen and (
            args[0].type != "member_access_expression" or not _resource(args[0]))):
        return None
    passed: list[Argument] = []
    nested: list[tuple[str, Call]] = []
    for value in args[1:]:
        inner = resource_call(value, at) if value.type == "invocation_expression" else None
        if inner is not None:
            nested.append((text(value), inner))
            passed.append((unknown(text(value)),))
        else:
            passed.append(argument(value, at))
    if chosen:
        made = chosen_call(args[0], at, tuple(passed))
        if made is None and constant_like(args[0]):  # ``string.Format(NotFound, a)``
            made = Call(text(args[0]), tuple(passed), owner=owner_of(at))
        return replace(made, nested=tuple(nested)) if made is not None else None
    return Call(text(args[0]), tuple(passed), owner=owner_of(at), nested=tuple(nested))


def _resource(node: Node) -> bool:
    """``Resources.NotFound`` / ``SR.NotFound``: a capitalized member of a capitalized
    class (a resource property or a string constant)."""
    head = text(node.child_by_field_name("expression")).rsplit(".", 1)[-1]
    name = text(node.child_by_field_name("name"))
    return head[:1].isupper() and name[:1].isupper()
