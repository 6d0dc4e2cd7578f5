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

Calls pass a function's arguments by name, its parameter's index (``"0"``, ``"1"``), and a
literal's fields by name; so a call no producer of the repository answers is never read as
a class's first argument (``pkg.NewThing("x")`` may print anything). Only an unkeyed
literal of a type of the package passes its fields in order: the type's ``Error()`` is
then nearly always the repository's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

from tree_sitter import Node, Query, QueryCursor
from tree_sitter_language_pack import get_language

from errdex.languages._engine.files import index_assignment
from errdex.languages.base import Site, ancestors, line_of, text
from errdex.languages.facts import (
    Argument,
    Call,
    Composer,
    Producer,
    Result,
    bind,
    has_text,
    unknown,
)
from errdex.languages.go.messages import (
    FUNCTION_TYPES,
    GoFile,
    call_parts,
    errors_package,
    hole_message,
    index_assigned,
)
from errdex.records.model import ErrorType
from errdex.templates.template import Literal, Template

_MAX = 16
_ERROR = re.compile(r"\berror\b")
# The last file's root and the package names it imports (the root held: compared by value).
_IMPORTS: list[Node | frozenset[str] | None] = [None, None]
_QUERY = Path(__file__).with_name("queries.scm")
_ASSIGNMENTS = "; Message constants and variables"
# What a returned value a factory builds may be (``&T{…}``, ``(…)``, a call).
_BUILT = frozenset({"call_expression", "composite_literal", "unary_expression",
                    "parenthesized_expression"})
# Packages whose calls the site handlers read themselves, or that build no error.
_KNOWN = frozenset({"fmt", "errors", "status", "grpc", "log", "http", "strings", "strconv",
                    "os", "io", "context", "time", "filepath", "path", "json", "bytes"})


def producers(root: Node, source: bytes, path: str) -> list[Producer]:
    """The producers of one parsed file."""
    structs = struct_fields(root)
    index: list[GoFile] = []

    def file() -> GoFile:  # the file's constants and variables, read once a function needs
        if not index:
            index.append(_index(root))
        return index[0]

    found: list[Producer] = []
    for node in root.named_children:
        if node.type not in ("function_declaration", "method_declaration"):
            continue
        made = _error_type(node, structs, file(), path) if _is_error_method(node) else (
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
    file = GoFile()
    for _, caps in QueryCursor(_assignments()).matches(root):
        if not index_assignment(caps, file):
            index_assigned(caps, file)
    file.sort()
    return file


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
                path: str) -> Producer | None:
    """``func (e *T) Error() string``: what ``T`` prints, its fields' holes renamed."""
    receiver, owner = _receiver(method)
    body = method.child_by_field_name("body")
    if not owner or body is None:
        return None
    results: list[Result] = []
    for value in _returned(body):
        for template in argument_of(value, file):
            results.append(_fields_of(template, receiver))
    if not results:
        return None
    params = structs.get(owner) or tuple(sorted({
        h.name for r in results if isinstance(r, Template) for h in r.holes if h.name}))
    if "0" in params:  # `type ConfigTypeError string`: its value is what a conversion gives
        params = ("0",)
    return Producer(owner, params, tuple(results[:_MAX]), "class message", path,
                    line_of(method), is_class=True)


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


def _receiver(method: Node) -> tuple[str, str]:
    """(``e``, ``T``) for ``(e *T)``, ``(e T)``, ``(e *T[K])``."""
    receiver = method.child_by_field_name("receiver")
    declaration = receiver.named_children[0] if receiver and receiver.named_children else None
    if declaration is None:
        return "", ""
    name = text(declaration.child_by_field_name("name"))
    kind = text(declaration.child_by_field_name("type")).lstrip("*").split("[", 1)[0]
    return name, kind


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
    renames = {name: unknown(str(i)) for i, name in enumerate(params)}
    owner = _receiver(function)[1] if function.type == "method_declaration" else None
    results: list[Result] = []
    for value in values:
        for result in built(value, file, structs, owner, factory=True):
            bound = bind(result, renames)
            if _uses(bound, len(params)):
                results.append(bound)
    if not results:
        return None
    return Producer(text(function.child_by_field_name("name")),
                    tuple(str(i) for i in range(len(params))), tuple(results[:_MAX]),
                    "factory", path, line_of(function), owner=owner)


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
    renames = {name: unknown(str(i)) for i, name in enumerate(params)}
    results: list[Result] = []
    for node in sorted(panics, key=lambda n: n.start_byte):
        _, _, args = call_parts(node)
        message = read().reader.read(args[0]) if len(args) == 1 else None
        if message is not None:
            bound = bind(_template(message.written, message.parts, message.suffix), renames)
            if _uses(bound, len(params)):
                results.append(bound)
    if not results:
        return None
    owner = _receiver(function)[1] if function.type == "method_declaration" else None
    return Producer(text(function.child_by_field_name("name")),
                    tuple(str(i) for i in range(len(params))), tuple(results[:_MAX]),
                    "helper", path, line_of(function), owner=owner)


def parameters(function: Node) -> tuple[str, ...]:
    params = function.child_by_field_name("parameters")
    return tuple(text(n) for p in (params.named_children if params is not None else ())
                 if p.type == "parameter_declaration"
                 for n in p.children_by_field_name("name"))


def _returned(body: Node, nil: bool = False) -> list[Node]:
    """The last value of each ``return`` of a body (nested closures' left out)."""
    out: list[Node] = []
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type == "return_statement" and node.named_children:
            values = [v for v in node.named_children[0].named_children if v.type != "comment"]
            if values and (nil or values[-1].type != "nil"):
                out.append(values[-1])
        elif node.type != "func_literal":
            stack.extend(reversed(node.named_children))
    return out


def _constructs(value: Node, file: GoFile) -> bool:
    """Whether a returned value is built here: an error constructor's call, a composite
    literal, a conversion or a call of a function (not of a variable's method)."""
    while value.type in ("parenthesized_expression", "unary_expression") and (
            value.named_children):
        value = value.named_children[-1]
    if value.type == "composite_literal":
        return True
    if value.type != "call_expression":
        return False
    function = value.child_by_field_name("function")
    if function is None or function.type == "identifier":
        return function is not None
    receiver, _, _ = call_parts(value)
    return file.reader.error_value(value) is not None or _imported(receiver, value)


def _uses(result: Result, count: int) -> bool:
    """Whether a result prints one of the (renamed) parameters."""
    params = {str(i) for i in range(count)}
    templates = [result] if isinstance(result, Template) else [
        t for _, a in result.keywords for t in a]
    return any(h.name in params for t in templates for h in t.holes)


# --- what a value builds, read at a factory or at a site ------------------------------------


def built(value: Node, file: GoFile, structs: dict[str, tuple[str, ...]], owner: str | None,
          factory: bool = False) -> list[Result]:
    """An error value: a constructor's message (a factory's alone: a site reads it
    itself), a composite literal of a type, or a call to a function of the repository."""
    while value.type in ("parenthesized_expression", "unary_expression") and (
            value.named_children):
        value = value.named_children[-1]
    if value.type == "composite_literal":
        call = _literal(value, structs, file)
        return [call] if call is not None else []
    if value.type != "call_expression":
        return []
    message = file.reader.error_value(value)
    if message is not None:
        return [_template(message.written, message.parts, message.suffix)] if factory else []
    receiver, name, args = call_parts(value)
    if receiver in _KNOWN or errors_package(receiver) or not name or "(" in receiver:
        return []
    callee = text(value.child_by_field_name("function"))
    if receiver and owner is not None and receiver == _enclosing_receiver(value):
        callee = f"self.{name}"  # a method of the receiver's type
    elif receiver and not _imported(receiver, value):
        return []  # a method of some variable: which type it is, source does not say
    keywords: list[tuple[str, Argument]] = []
    for index, arg in enumerate(args):
        if arg.type == "variadic_argument":
            break
        keywords.append((str(index), argument_of(arg, file)))
    # A bare call in Go never reaches a method, whatever type it is written in.
    return [Call(callee, (), tuple(keywords), owner=owner if callee.startswith("self.") else None)]


def _literal(value: Node, structs: dict[str, tuple[str, ...]], file: GoFile) -> Call | None:
    """``&OpError{Op: op, Err: err}`` (or unkeyed, by the struct's field order)."""
    kind = value.child_by_field_name("type")
    body = value.child_by_field_name("body")
    if kind is None or body is None or kind.type not in ("type_identifier",
                                                         "qualified_type"):
        return None
    fields = structs.get(text(kind))
    keywords: list[tuple[str, Argument]] = []
    positional: list[Argument] = []
    for index, element in enumerate(c for c in body.named_children if c.type != "comment"):
        if element.type == "keyed_element":
            key, item = element.named_children[0], element.named_children[-1]
            keywords.append((text(key), _element(item, file)))
        elif fields is not None and index < len(fields):
            keywords.append((fields[index], _element(element, file)))
        elif kind.type == "qualified_type":
            return None  # unkeyed fields of another package's type (go vet says no)
        else:  # in field order, which the type's declaration elsewhere tells
            positional.append(_element(element, file))
    return Call(text(kind), tuple(positional), tuple(keywords))


def _element(node: Node, file: GoFile) -> Argument:
    inner = node.named_children[0] if node.type == "literal_element" and (
        node.named_children) else node
    return argument_of(inner, file)


def argument_of(node: Node, file: GoFile) -> Argument:
    """The templates an argument can print: its message, each value a variable is
    assigned in the function (branches), or a hole named after it."""
    if node.type == "int_literal" and text(node).isdigit():
        return (Template(text(node), (Literal(text(node)),)),)
    message = file.reader.read(node)
    if message is not None:
        return (_template(message.written, message.parts, message.suffix),)
    if node.type == "identifier":
        found = [_template(m.written, m.parts, m.suffix) for value in _assigned(node, file)
                 for m in [file.reader.read(value)] if m is not None]
        if found and any(has_text(t) for t in found):
            return tuple(found[:_MAX])
    hole = hole_message(node)
    return (Template(hole.written, hole.parts),)


def _assigned(use: Node, file: GoFile) -> list[Node]:
    """The values ``name = …``/``name := …`` give a variable in the function of ``use``,
    above it."""
    function = next((a for a in ancestors(use) if a.type in FUNCTION_TYPES), None)
    if function is None:
        return []
    out = []
    for assignment in file.assignments.get(text(use), []):
        if function.start_byte <= assignment.start_byte and assignment.end_byte <= (
                use.start_byte):
            value = assignment.child_by_field_name("right" if assignment.type in (
                "assignment_statement", "short_var_declaration") else "value")
            values = [v for v in value.named_children if v.type != "comment"] if value else []
            if len(values) == 1:
                out.append(values[0])
    return out


def _template(written: str, parts: tuple[object, ...], suffix: tuple[object, ...]) -> Template:
    return Template(written, tuple(parts), (), tuple(suffix))  # type: ignore[arg-type]


def _enclosing_receiver(node: Node) -> str | None:
    method = next((a for a in ancestors(node) if a.type == "method_declaration"), None)
    return _receiver(method)[0] if method is not None else None


def _imported(name: str, node: Node) -> bool:
    """Whether ``name`` is a package the file imports (its last path element or alias)."""
    root = _root(node)
    if _IMPORTS[0] is None or _IMPORTS[0] != root:  # the last file's, kept while it is read
        names = set()
        for declaration in root.named_children:
            for spec in _import_specs(declaration) if (
                    declaration.type == "import_declaration") else ():
                alias = spec.child_by_field_name("name")
                path = text(spec.child_by_field_name("path")).strip('"`')
                names.add(text(alias) if alias is not None else path.rsplit("/", 1)[-1])
        _IMPORTS[:] = [root, frozenset(names)]
    names_ = _IMPORTS[1]
    return isinstance(names_, frozenset) and name in names_


def _import_specs(declaration: Node) -> list[Node]:
    out = []
    for child in declaration.named_children:
        if child.type == "import_spec":
            out.append(child)
        elif child.type == "import_spec_list":
            out.extend(c for c in child.named_children if c.type == "import_spec")
    return out


def returned_error(node: Node) -> Node | None:
    """The last value of a ``return`` in a function whose results hold an ``error``."""
    values = [v for v in node.named_children[0].named_children if v.type != "comment"] if (
        node.named_children) else []
    function = next((a for a in ancestors(node) if a.type in FUNCTION_TYPES), None)
    result = function.child_by_field_name("result") if function is not None else None
    if not values or result is None or not _ERROR.search(text(result)):
        return None
    return values[-1]


def candidate(at: Node, value: Node, file: GoFile, symbol: str | None,
              error_type: ErrorType = "error") -> Site | None:
    """``return …, &NotFoundError{Key: k}``, ``panic(newErr("open", err))``: a site whose
    message only a producer of the repository tells (kept only if one does)."""
    method = next((a for a in ancestors(at) if a.type in FUNCTION_TYPES), None)
    owner = _receiver(method)[1] if method is not None and (
        method.type == "method_declaration") else None
    made = built(value, file, {}, owner)
    if not made or not isinstance(made[0], Call):
        return None
    return Site(Template("", ()), error_type, line_of(at), symbol=symbol, call=made[0])


def _root(node: Node) -> Node:
    while node.parent is not None:
        node = node.parent
    return node


COMPOSER = Composer(producers=producers, triggers=(b"func ",))
