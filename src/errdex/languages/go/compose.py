"""Go producers: error types whose ``Error()`` formats their fields, and the functions that
build errors from their parameters, for ``return &NotFoundError{Key: k}`` or ``return
newErr("open", err)`` sites whose message the file alone cannot print.

* an error type: ``func (e *NotFoundError) Error() string { return fmt.Sprintf("no such
  item: %s", e.Key) }`` prints ``no such item: <Key>``; each ``return`` is an alternative,
  ``e.Key`` the ``Key`` field (``e.Err.Error()`` the ``Err`` field);
* a helper: one that panics with a message of its parameters (``func fail(msg string) {
  panic("config: " + msg) }``), for the call statements that pass it text;
* a factory: a function or method whose last returned value is ``fmt.Errorf``/``errors.New``
  (or pkg/errors) of its parameters, a composite literal of an error type (``&OpError{Op:
  op, Err: err}``) or another factory's call (``func newErr(op string, err error) error {
  return fmt.Errorf("%s: %w", op, err) }``).

Parameters are named as calls pass them (``calls.py``): a function's by index (``"0"``,
``"1"``), a type's by field name.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

from tree_sitter import Node, Query, QueryCursor
from tree_sitter_language_pack import get_language

from errdex.languages._engine.files import filled
from errdex.languages._engine.walk import keyword_nodes
from errdex.languages.base import line_of, text
from errdex.languages.facts import Call, Composer, Producer, Result, bind, unknown
from errdex.languages.go.calls import (
    MAX,
    argument_of,
    built,
    imported,
    operand,
    receiver_of,
    template_of,
)
from errdex.languages.go.messages import GoFile, call_parts, index_assigned
from errdex.templates.template import Template

_QUERY = Path(__file__).with_name("queries.scm")
_ASSIGNMENTS = "; Message constants and variables"
# What a returned value a factory builds may be (``&T{…}``, ``(…)``, a call).
_BUILT = frozenset({"call_expression", "composite_literal", "unary_expression",
                    "parenthesized_expression"})


def producers(root: Node, source: bytes, path: str) -> list[Producer]:
    """The producers of one parsed file."""
    structs = struct_fields(root)
    index: list[GoFile] = []

    def file() -> GoFile:  # the file's constants and variables, read once a function needs
        if not index:
            index.append(_index(root))
        return index[0]

    methods = {(receiver_of(n)[1], text(n.child_by_field_name("name"))): n
               for n in root.named_children if n.type == "method_declaration"}
    found: list[Producer] = []
    for node in root.named_children:
        if node.type not in ("function_declaration", "method_declaration"):
            continue
        made = _error_type(node, structs, file(), path, methods) if _is_error_method(node) else (
            _factory(node, file, structs, path))
        if made is not None:
            found.append(made)
    return found


@cache
def _assignments() -> Query:
    """The part of the site query that indexes a file's constants and variables."""
    text_ = _QUERY.read_text(encoding="utf-8")
    return Query(get_language("go"), text_[text_.index(_ASSIGNMENTS):])


def _index(root: Node) -> GoFile:
    return filled(GoFile(), QueryCursor(_assignments()).matches(root), index_assigned)


def struct_fields(root: Node) -> dict[str, tuple[str, ...]]:
    """Each struct type a file declares, and its field names in order."""
    out: dict[str, tuple[str, ...]] = {}
    for declaration in root.named_children:
        if declaration.type != "type_declaration":
            continue
        for spec in declaration.named_children:
            kind = spec.child_by_field_name("type")
            if spec.type != "type_spec" or kind is None or kind.type != "struct_type":
                continue
            body = next((c for c in kind.named_children
                         if c.type == "field_declaration_list"), None)
            names = [text(n) for f in (body.named_children if body is not None else ())
                     if f.type == "field_declaration"
                     for n in (f.children_by_field_name("name") or [
                         c for c in [f.child_by_field_name("type")] if c is not None])]
            out[text(spec.child_by_field_name("name"))] = tuple(
                n.lstrip("*").rsplit(".", 1)[-1] for n in names)
    return out


# --- error types -------------------------------------------------------------------------


def _is_error_method(node: Node) -> bool:
    params = node.child_by_field_name("parameters")
    return (node.type == "method_declaration"
            and text(node.child_by_field_name("name")) == "Error"
            and params is not None and params.named_child_count == 0
            and text(node.child_by_field_name("result")) == "string")


def _error_type(method: Node, structs: dict[str, tuple[str, ...]], file: GoFile,
                path: str, methods: dict[tuple[str, str], Node] | None = None,
                ) -> Producer | None:
    """``func (e *T) Error() string``: what ``T`` prints, its fields' holes renamed."""
    receiver, owner = receiver_of(method)
    body = method.child_by_field_name("body")
    if not owner or body is None:
        return None
    results: list[Result] = []
    for value in _returned(body):
        delegate = _delegate(value, receiver, owner, methods or {})
        if delegate is not None:  # `return e.Unwrap().Error()`: another type's message
            results.append(Call(delegate, keywords=tuple(
                (f, (unknown(f),)) for f in structs.get(owner, ())), path=path))
            continue
        for template in argument_of(value, file):
            results.append(_fields_of(template, receiver))
    if not results:
        return None
    params = structs.get(owner) or tuple(sorted({
        h.name for r in results if isinstance(r, Template) for h in r.holes if h.name}))
    if "0" in params:  # `type ConfigTypeError string`: its value is what a conversion gives
        params = ("0",)
    return Producer(owner, params, tuple(results[:MAX]), "class message", path,
                    line_of(method), is_class=True)


def _delegate(value: Node, receiver: str, owner: str,
              methods: dict[tuple[str, str], Node]) -> str | None:
    """The type whose ``Error()`` an ``Error()`` returns: ``T(e).Error()``, or
    ``e.Unwrap().Error()`` where that method of the type returns ``T(e)`` (a conversion
    between struct types with the same fields: the fields carry over by name)."""
    if value.type != "call_expression" or text(value.child_by_field_name("function")) == "":
        return None
    function = value.child_by_field_name("function")
    if function is None or function.type != "selector_expression" or text(
            function.child_by_field_name("field")) != "Error":
        return None
    inner = operand(function.child_by_field_name("operand") or function)
    if inner.type != "call_expression":
        return None
    converted = _conversion(inner, receiver)
    if converted is not None:
        return converted
    called = inner.child_by_field_name("function")
    if called is None or called.type != "selector_expression" or text(
            called.child_by_field_name("operand")) != receiver:
        return None
    other = methods.get((owner, text(called.child_by_field_name("field"))))
    body = other.child_by_field_name("body") if other is not None else None
    found = [t for v in _returned(body) if (t := _conversion(operand(v), receiver))] if (
        body is not None) else []
    return found[0] if len(found) == 1 else None


def _conversion(node: Node, receiver: str) -> str | None:
    """``T(e)`` of the receiver: ``T``."""
    function = node.child_by_field_name("function")
    arguments = node.child_by_field_name("arguments")
    given = [a for a in arguments.named_children if a.type != "comment"] if arguments else []
    if node.type != "call_expression" or function is None or function.type != "identifier" or (
            len(given) != 1 or text(given[0]) != receiver):
        return None
    name = text(function)
    return name if name[:1].isupper() else None


def _fields_of(template: Template, receiver: str) -> Template:
    """``{e.Key}`` → ``{Key}``: a field of the receiver is the field a literal sets."""
    renames = {h.name: unknown(h.name.removeprefix(receiver + ".")) for h in template.holes
               if receiver and h.name and h.name.startswith(receiver + ".")
               and h.name.removeprefix(receiver + ".").isidentifier()}
    renames.update({h.name: unknown("0") for h in template.holes if receiver and h.name and (
        h.name == receiver or re.fullmatch(rf"\w+\({re.escape(receiver)}\)", h.name))})
    bound = bind(template, renames) if renames else template
    assert isinstance(bound, Template)
    return bound


# --- factories ---------------------------------------------------------------------------


def _factory(function: Node, read: Callable[[], GoFile], structs: dict[str, tuple[str, ...]],
             path: str) -> Producer | None:
    """A function whose last returned value is an error built from its parameters."""
    params = parameters(function)
    body = function.child_by_field_name("body")
    returns = function.child_by_field_name("result")
    if params and body is not None and returns is None:
        return _helper(function, body, params, read, path)
    if not params or body is None or returns is None or returns.type == "parameter_list":
        return None  # `(T, error)`: the error is the function's own site, not a product
    values = _returned(body, nil=True)
    if not values or any(v.type not in _BUILT for v in values):
        return None  # it returns nil, a variable: it reports, it builds nothing
    file = read()
    if not all(_constructs(v, file) for v in values):
        return None  # it returns what another call gave
    owner = _owner(function)
    return _producer(function, params, [r for value in values for r in built(
        value, file, structs, owner, factory=True)], "factory", path)


def _helper(function: Node, body: Node, params: tuple[str, ...], read: Callable[[], GoFile],
            path: str) -> Producer | None:
    """``func fail(msg string) { panic("config: " + msg) }``: it panics with a message of its
    parameters (each ``panic`` an alternative)."""
    panics: list[Node] = []
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type == "call_expression" and text(node.child_by_field_name("function")) == (
                "panic"):
            panics.append(node)
        elif node.type != "func_literal":
            stack.extend(node.named_children)
    results: list[Result] = []
    for node in sorted(panics, key=lambda n: n.start_byte):
        _, _, args = call_parts(node)
        message = read().reader.read(args[0]) if len(args) == 1 else None
        if message is not None:
            results.append(template_of(message.written, message.parts, message.suffix))
    return _producer(function, params, results, "helper", path)


def _owner(function: Node) -> str | None:
    """The receiver type of a method; None for a function."""
    return receiver_of(function)[1] if function.type == "method_declaration" else None


def _producer(function: Node, params: tuple[str, ...], results: list[Result], role: str,
              path: str) -> Producer | None:
    """A function's producer: its parameters by position (``{0}``) in what it builds, each
    result kept only where it uses one; None when none does."""
    renames = {name: unknown(str(i)) for i, name in enumerate(params)}
    kept = [bound for result in results
            if _uses(bound := bind(result, renames), len(params))]
    if not kept:
        return None
    return Producer(text(function.child_by_field_name("name")),
                    tuple(str(i) for i in range(len(params))), tuple(kept[:MAX]),
                    role, path, line_of(function), owner=_owner(function))


def parameters(function: Node) -> tuple[str, ...]:
    params = function.child_by_field_name("parameters")
    return tuple(text(n) for p in (params.named_children if params is not None else ())
                 if p.type == "parameter_declaration"
                 for n in p.children_by_field_name("name"))


def _returned(body: Node, nil: bool = False) -> list[Node]:
    """The last value of each ``return`` of a body (nested closures' left out)."""
    out: list[Node] = []
    for node in keyword_nodes(body, b"return", "return_statement", _CLOSURES):
        if node.named_children:
            values = [v for v in node.named_children[0].named_children if v.type != "comment"]
            if values and (nil or values[-1].type != "nil"):
                out.append(values[-1])
    return out


_CLOSURES = ("func_literal",)


def _constructs(value: Node, file: GoFile) -> bool:
    """Whether a returned value is built here: an error constructor's call, a composite
    literal, a conversion or a call of a function (not of a variable's method)."""
    value = operand(value)
    if value.type == "composite_literal":
        return True
    if value.type != "call_expression":
        return False
    function = value.child_by_field_name("function")
    if function is None or function.type == "identifier":
        return function is not None
    receiver, _, _ = call_parts(value)
    return file.reader.error_value(value) is not None or imported(receiver, value)


def _uses(result: Result, count: int) -> bool:
    """Whether a result prints one of the (renamed) parameters."""
    params = {str(i) for i in range(count)}
    templates = [result] if isinstance(result, Template) else [
        t for _, a in result.keywords for t in a]
    return any(h.name in params for t in templates for h in t.holes)


COMPOSER = Composer(producers=producers, triggers=(b"func ",))
