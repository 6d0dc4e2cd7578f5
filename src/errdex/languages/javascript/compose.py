"""JavaScript/TypeScript producers: what ``new NotFound(key)`` or ``errors.notFound(key)``
prints when the class or the factory is written in another file.

Read per file, composed across the repository (``errdex.mining.compose``):

* an error class: its constructor read as ``classes.py`` reads it, each parameter a hole
  named after it. ``this.message = …`` (or a ``message`` class field, or a TS ``message``
  parameter property) is the message; otherwise ``super(…)``'s arguments go to the base
  (its producer when the repository has one; else, like ``Error``, the first argument).
  A class without a constructor takes its base's. ``this.key = key`` makes
  ``${this.key}`` the ``key`` argument;
* a factory: a function, method, arrow function or object member that returns an error
  (``return new ParseError(`[${id}] ${what}`)``), an error-named call, or a string built
  from its parameters (``return `no such key ${k}` ``);
* a helper: one that throws, or logs (``console.warn``, ``logger.error``), a message built
  from its parameters (``function fail(msg) { throw new ConfigError("config: " + msg) }``);
* a constant: a module ``const NOT_FOUND = "…"``, a string member of a TS enum, of a
  class (static) or of a module object named like a namespace (``Errors.NOT_FOUND``), for
  ``new Error(NOT_FOUND)``.

Each return/throw/log of a function is an alternative, and so is each branch of an
argument (``alternatives``: ``c ? a : b``, a variable assigned in ``if``/``switch`` arms).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from tree_sitter import Node

from errdex.languages._engine import Message
from errdex.languages.base import ancestors, line_of, text
from errdex.languages.facts import Call, Composer, Producer, Result, bind, has_text, parameter
from errdex.languages.javascript.classes import (
    Built,
    Classes,
    constructor_of,
    last_name,
    message_index,
    own_nodes,
    super_call,
    this_assignments,
)
from errdex.languages.javascript.messages import (
    JsIndex,
    Reader,
    arguments,
    object_pairs,
    parameters,
    scope_of,
    string_value,
    unwrap,
)
from errdex.templates.template import Hole, Literal, Template

CLASSES = frozenset({"class_declaration", "class", "abstract_class_declaration"})
_FUNCTIONS = frozenset({
    "function_declaration", "generator_function_declaration", "function_expression",
    "function", "arrow_function", "generator_function", "method_definition",
})
# Errors whose constructor prints its first argument: no producer of the repository.
BUILTIN_ERRORS = frozenset({
    "Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError",
    "URIError",
})
# A body worth reading: it throws, logs, builds an error, or returns a string or a call
# with a string in it (a template of its parameters).
# Built-in errors that print another argument than their first.
_INDEXED = frozenset({"AggregateError", "SuppressedError"})
_HINT = re.compile(
    rb"\bthrow\b|\.(?:error|warn|fatal)\(|this\.message\b|\bnew\s+[\w.$]*(?:Error|Exception)\b"
    rb"|\breturn\s+(?:new\s|[`'\"]|[\w.$]*(?:[Ee]rr|[Ee]xception|[Ff]ail|[Ii]nvalid)"
    rb"|[\w.$]+\([^;{}]*?[`'\"])")
_VALUES = frozenset({
    "Map", "Set", "WeakMap", "WeakSet", "Promise", "Date", "URL", "URLSearchParams", "RegExp",
    "Array", "Object", "Proxy", "Buffer", "Uint8Array", "Response", "Request", "Headers",
    "AbortController", "TextEncoder", "TextDecoder", "Function", "String", "Number",
})
_ERRORISH = re.compile(r"err|exception|fail|invalid|panic", re.IGNORECASE)
CONSTANT = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$")
_BRANCHES = frozenset({"if_statement", "switch_statement"})
_LOGS = frozenset({"error", "warn", "fatal"})
_MAX_ALTERNATIVES = 8


def producers(root: Node, source: bytes, path: str) -> list[Producer]:
    """The producers of one parsed file (a ``.d.ts`` declares, it runs nothing)."""
    if path.endswith((".d.ts", ".d.mts", ".d.cts")):
        return []
    reading = _Reading(path)
    reading.foreign = foreign_names(root)
    declared = _declarations(root, reading.index)
    classes, functions, constants = declared.classes, declared.functions, declared.constants
    reading.classes = Classes(
        [b for c in classes if (b := c.child_by_field_name("body")) is not None], reading.reader)
    bodies: list[tuple[Node, str, str | None, list[Node]]] = []
    for function, name, owner in functions:
        nodes = _statements(function)
        if nodes:
            _index(nodes, reading.index)
            bodies.append((function, name, owner, nodes))
    for node in classes:
        body = node.child_by_field_name("body")
        for method in (constructor_of(body), _getter(body)) if body is not None else ():
            if method is not None:
                _index(own_nodes(method), reading.index)
    reading.index.sort()
    found = [_class(c, reading) for c in classes]
    found.extend(_function(*f, reading) for f in bodies)
    found.extend(_constant(name, owner, value, path) for name, owner, value in constants)
    return [p for p in found if p is not None]


COMPOSER = Composer(producers=producers, triggers=(
    b"class", b"throw", b"return", b"=>", b"const", b"enum", b"warn", b"error"))


class _Reading:
    """One file's reading state: its variables, classes and reader."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.index = JsIndex()
        self.reader = Reader(self.index)
        self.classes: Classes
        self.foreign: frozenset[str] = frozenset()

    def is_foreign(self, name: str) -> bool:
        """A class of a package: what it prints is no producer's of this repository."""
        return name.split(".", 1)[0] in self.foreign or last_name(name) in _INDEXED


# --- where producers are declared --------------------------------------------------------


@dataclass
class _Declared:
    """A module's classes, functions (node, name, owner) and constants (name, owner, value)."""

    classes: list[Node] = field(default_factory=list)
    functions: list[tuple[Node, str, str | None]] = field(default_factory=list)
    constants: list[tuple[str, str | None, Node]] = field(default_factory=list)


def _declarations(root: Node, index: JsIndex) -> _Declared:
    """Top-level and exported declarations, class members, members of module objects
    (``const Errors = {…}``, ``module.exports = {…}``), ``exports.x = …`` and
    ``X.prototype.y = …``."""
    found = _Declared()
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
            _assigned(node.named_children[0], found)
    return found


def _assigned(assignment: Node, found: _Declared) -> None:
    """``exports.fail = function…``, ``Store.prototype.fail = …``, ``module.exports = {…}``."""
    left = assignment.child_by_field_name("left")
    right = unwrap(assignment.child_by_field_name("right"))
    if left is None or left.type != "member_expression" or right is None:
        return
    if right.type == "object" and text(left) == "module.exports":
        _object(right, None, found)
    elif right.type in _FUNCTIONS:
        holder = text(left.child_by_field_name("object"))
        owner = holder.removesuffix(".prototype") if holder.endswith(".prototype") else None
        found.functions.append((right, text(left.child_by_field_name("property")), owner))


def _declarator(declarator: Node, index: JsIndex, found: _Declared) -> None:
    name_node = declarator.child_by_field_name("name")
    value = unwrap(declarator.child_by_field_name("value"))
    if name_node is None or name_node.type != "identifier" or value is None:
        return
    name = text(name_node)
    index.add(name, declarator)
    if value.type in _FUNCTIONS:
        found.functions.append((value, name, None))
    elif value.type in CLASSES and value.child_by_field_name("name") is not None:
        found.classes.append(value)
        _members(value, found)
    elif value.type == "object":
        _object(value, name, found)
    elif CONSTANT.match(name):
        found.constants.append((name, None, value))


def _object(value: Node, name: str | None, found: _Declared) -> None:
    """A module object's functions, and its string members when it is named like a
    namespace (``Errors``) or they are named like constants (``NOT_FOUND``)."""
    namespace = name is not None and name[:1].isupper()
    for member in value.named_children:
        if member.type == "method_definition":
            found.functions.append((member, text(member.child_by_field_name("name")), name))
            continue
        key, inner = member.child_by_field_name("key"), unwrap(member.child_by_field_name("value"))
        if member.type != "pair" or key is None or inner is None:
            continue
        key_name = string_value(key) or text(key)
        if inner.type in _FUNCTIONS:
            found.functions.append((inner, key_name, name))
        elif namespace or CONSTANT.match(key_name):
            found.constants.append((key_name, name, inner))


def _members(node: Node, found: _Declared) -> None:
    """A class's methods and static string fields."""
    owner = text(node.child_by_field_name("name"))
    body = node.child_by_field_name("body")
    for member in body.named_children if body is not None else ():
        name = text(member.child_by_field_name("name") or member.child_by_field_name("property"))
        if member.type == "method_definition" and name != "constructor":
            found.functions.append((member, name, owner))
        elif member.type in ("field_definition", "public_field_definition") and any(
                c.type == "static" for c in member.children):
            value = member.child_by_field_name("value")
            if value is not None:
                found.constants.append((name, owner, value))


def _statements(function: Node) -> list[Node]:
    """The nodes of a function body worth reading (none when it neither returns, throws
    nor logs); an expression body is its own return value."""
    body = function.child_by_field_name("body")
    if body is None:
        return []
    if body.type != "statement_block":
        return [body]
    if not _HINT.search(body.text or b""):
        return []
    return own_nodes(function)


def _index(nodes: list[Node], index: JsIndex) -> None:
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


# --- classes -------------------------------------------------------------------------------


def _class(node: Node, reading: _Reading) -> Producer | None:
    name = text(node.child_by_field_name("name"))
    classes = reading.classes
    parent = classes.parent(name)
    if parent is None and not classes.is_error(name):
        return None
    bases = (last_name(parent),) if parent else ()
    body = node.child_by_field_name("body")
    constructor = constructor_of(body) if body is not None else None
    own = classes.fields(body, Built(None)).message
    results: list[Result] = [_template(own)] if own is not None and own.has_text() else []
    params: tuple[str, ...] = ()
    defaults: tuple[tuple[str, Template], ...] = ()
    if constructor is not None:
        declared = parameters(constructor)
        params = tuple(p for p, _, _ in declared)
        reader = reading.reader.with_env(_env(params))
        defaults = tuple((p, _template(reader.read_or_hole(d)))
                         for p, d, _ in declared if p and d is not None)
        fields = _fields(constructor, params)
        messages = [value for key, value in this_assignments(constructor) if key == "message"]
        call = super_call(constructor)
        getter = _getter(body) if call is None or not arguments(call) else None
        if getter is not None:  # super(msg) would set an own message that hides it
            results = [t for kind, value in _outcomes(own_nodes(getter), None)
                       if kind == "return" for t in alternatives(value, reading.reader)]
        elif messages:
            results = list(alternatives(messages[-1], reader))
        elif any(p == "message" and is_property for p, _, is_property in declared):
            results = [parameter("message")]
        elif not results and call is not None and parent:
            results = _construct("super", parent, arguments(call), reader, reading, name)
        results = [bind(r, fields) for r in results]
    if not results and not bases:
        return None
    return Producer(name, params, tuple(results), "class message", reading.path, line_of(node),
                    bases=bases, is_class=True, defaults=defaults)


def _getter(body: Node | None) -> Node | None:
    """``get message() { return `…${this.key}` }``."""
    return next((m for m in body.named_children if m.type == "method_definition"
                 and text(m.child_by_field_name("name")) == "message"
                 and any(c.type == "get" for c in m.children)), None) if body is not None else None


def _fields(constructor: Node, params: tuple[str, ...]) -> dict[str, Template]:
    """``this.key = key``: ``${this.key}`` prints the ``key`` argument."""
    out: dict[str, Template] = {}
    for key, value in this_assignments(constructor, None):
        value = unwrap(value) or value
        if value.type == "identifier" and text(value) in params:
            out["this." + key] = parameter(text(value))
    return out


# --- factories and helpers -------------------------------------------------------------------


def _function(function: Node, name: str, owner: str | None, nodes: list[Node],
              reading: _Reading) -> Producer | None:
    params = tuple(p for p, _, _ in parameters(function))
    reader = reading.reader.with_env(_env(params))
    if name[:1].isupper() and function.type != "method_definition":
        constructed = _constructor_function(function, name, params, reader, reading.path)
        if constructed is not None:
            return constructed
    body = function.child_by_field_name("body")
    results: list[Result] = []
    classes: set[str] = set()
    returns = False
    for kind, value in _outcomes(nodes, body):
        made = _value(value, reader, reading, owner, kind != "return")
        if made is None:
            continue
        found, error_class = made
        if kind != "return" or error_class is None:
            found = [r for r in found if _uses(r, params)]
        # ``missing(k) { throw http.missing(k) }``: a same-named callee is another's
        found = [r for r in found if not isinstance(r, Call) or r.named() != name]
        if found:
            results.extend(found)
            returns = returns or kind == "return"
            classes.add(error_class or "")
    if not results or not any(_uses(r, params) or isinstance(r, Call) for r in results):
        return None
    error_class = next(iter(classes)) if len(classes) == 1 else None
    return Producer(name, params, tuple(results[:16]), "factory" if returns else "helper",
                    reading.path, line_of(function), owner=owner, error_class=error_class or None)


def _constructor_function(function: Node, name: str, params: tuple[str, ...], reader: Reader,
                          path: str) -> Producer | None:
    """``function FetchError(message, type) { Error.call(this, message); this.message =
    message; … }``: an error class written as a function, its message ``this.message``."""
    if "error" not in name.lower() and "exception" not in name.lower():
        return None
    messages = [value for key, value in this_assignments(function) if key == "message"]
    if not messages:
        return None
    results = [bind(r, _fields(function, params)) for r in alternatives(messages[-1], reader)]
    return Producer(name, params, tuple(results), "class message", path, line_of(function),
                    is_class=True)


def _outcomes(nodes: list[Node], body: Node | None) -> Iterator[tuple[str, Node]]:
    """(return | throw | log, the value) for each way a function hands out a message."""
    if body is not None and body.type != "statement_block":
        yield "return", body
        return
    for node in nodes:
        if node.type in ("return_statement", "throw_statement"):
            value = next((c for c in node.named_children if c.type != "comment"), None)
            if value is not None:
                yield node.type.split("_", 1)[0], value
        elif node.type == "call_expression" and _is_log(node):
            args = arguments(node)
            if args:
                yield "log", args[0]


def _is_log(call: Node) -> bool:
    function = call.child_by_field_name("function")
    if function is None or function.type != "member_expression":
        return False
    receiver = text(function.child_by_field_name("object"))
    return text(function.child_by_field_name("property")) in _LOGS and (
        receiver == "console" or "log" in receiver.rsplit(".", 1)[-1].lower())


def _value(value: Node, reader: Reader, reading: _Reading, owner: str | None, thrown: bool,
           depth: int = 0) -> tuple[list[Result], str | None] | None:
    """What a returned/thrown/logged value prints: a call to an error class or factory,
    or the message templates it spells; and the error class it constructs."""
    node = unwrap(value)
    if node is None or depth > 3:
        return None
    if node.type in ("new_expression", "call_expression"):
        callee = text(node.child_by_field_name("constructor") or node.child_by_field_name(
            "function"))
        short = last_name(callee)
        args = tuple(alternatives(a, reader) for a in arguments(node))
        if short[:1].isupper() and (node.type == "new_expression" or reading.classes.is_error(
                callee)):
            if not (thrown or _may_be_error(callee, reading.classes)):
                return None
            return _construct(callee, callee, arguments(node), reader, reading, owner), short
        head = callee.split(".", 1)[0]
        if node.type == "call_expression" and (thrown or _ERRORISH.search(short) or (
                head in ("this", owner) and any(has_text(t) for a in args for t in a))):
            return [Call(callee, args, owner=owner, path=reading.path)], None
    if node.type == "identifier" and text(node) not in (reader.env or {}):
        assignment = reading.index.sees(text(node), node)
        if assignment is not None and assignment.type == "variable_declarator":
            inner = assignment.child_by_field_name("value")
            made = _value(inner, reader, reading, owner, thrown, depth + 1) if inner else None
            if made is not None and made[1] is not None:
                return made
    found = [t for t in alternatives(node, reader) if has_text(t)]
    return (list(found), None) if found else None


def _construct(callee: str, name: str, args: list[Node], reader: Reader, reading: _Reading,
               owner: str | None) -> list[Result]:
    """``super(…)`` / ``new X(…)``: a call to the class's producer, or for a class of a
    package the argument it prints (``new HttpError(404, msg)`` prints ``msg``)."""
    if reading.is_foreign(name):
        index = message_index(name, [reader.read_or_hole(a) for a in args])
        return list(alternatives(args[index], reader)) if index < len(args) else []
    return [Call(callee, tuple(alternatives(a, reader) for a in args), owner=owner,
                 path=reading.path)]


def foreign_names(root: Node) -> frozenset[str]:
    """The names a module imports from packages (``import { HttpError } from 'http-errors'``,
    ``const createError = require('http-errors')``), not from its own files (relative, or
    an alias such as ``@/errors``)."""
    out: set[str] = set()
    for node in root.named_children:
        if node.type == "import_statement":
            source = string_value(node.child_by_field_name("source"))
            clause = next((c for c in node.named_children if c.type == "import_clause"), None)
            if source is not None and clause is not None and _package(source):
                out.update(_bound_names(clause))
        elif node.type in ("lexical_declaration", "variable_declaration"):
            for declarator in node.named_children:
                value = unwrap(declarator.child_by_field_name("value"))
                pattern = declarator.child_by_field_name("name")
                if value is None or pattern is None or value.type != "call_expression" or text(
                        value.child_by_field_name("function")) != "require":
                    continue
                args = arguments(value)
                source = string_value(args[0]) if args else None
                if source is not None and _package(source):
                    out.update(_bound_names(pattern))
    return frozenset(out)


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


def _may_be_error(name: str, classes: Classes) -> bool:
    """An error class, or one this file does not declare (it may be one elsewhere) and no
    built-in value (``new Map()``, ``new URL(…)``)."""
    short = last_name(name)
    return classes.is_error(name) or (short not in classes.by_name and short not in _VALUES)


def _uses(result: Result, params: tuple[str, ...]) -> bool:
    """Whether a result prints one of the parameters (the caller's words)."""
    templates = [result] if isinstance(result, Template) else [
        t for arg in result.args for t in arg]
    return any(isinstance(p, Hole) and p.name in params for t in templates for p in t.parts)


# --- constants -----------------------------------------------------------------------------


def _constant(name: str, owner: str | None, value: Node, path: str) -> Producer | None:
    literal = string_value(value)
    if literal is None or " " not in literal.strip() or not any(c.isalpha() for c in literal):
        return None
    return Producer(name, (), (Template(literal, (Literal(literal),)),), "constant", path,
                    line_of(value), owner=owner)


# --- arguments -------------------------------------------------------------------------------


def alternatives(node: Node, reader: Reader, depth: int = 0) -> tuple[Template, ...]:
    """What an argument can print, one template per branch (``c ? a : b``, a variable
    assigned in ``if``/``else`` or ``switch`` arms); an options object stands for its
    ``message``; a value source does not spell is a hole named after it."""
    node = unwrap(node) or node
    out: list[Template] = []
    if depth < 4 and node.type == "ternary_expression":
        for side in ("consequence", "alternative"):
            branch = node.child_by_field_name(side)
            out.extend(alternatives(branch, reader, depth + 1) if branch is not None else ())
    elif node.type == "object" and "message" in (pairs := object_pairs(node)):
        return alternatives(pairs["message"], reader, depth + 1)
    elif depth < 4 and node.type == "identifier" and text(node) not in (reader.env or {}):
        for value in _branch_values(node, reader.index):
            out.extend(alternatives(value, reader, depth + 1))
        bound = reader.env or {}
        if not any(has_text(t) or any(h.name in bound for h in t.holes) for t in out):
            out = []  # nothing known: a hole named after the variable
    if not out:
        out = [_template(reader.read_or_hole(node))]
    unique = {t.normalized(): t for t in out}
    return tuple(unique.values())[:_MAX_ALTERNATIVES]


def _branch_values(use: Node, index: JsIndex) -> list[Node]:
    """The values a variable may hold at ``use``: its last assignment above, and when that
    is in a branch, the ones before it back to one outside any branch (or to a branch
    that covers every way: ``else``, ``default``). None after ``+=`` (the reader reads it)."""
    last = index.sees(text(use), use)
    if last is None:
        return []
    scope = scope_of(last)
    above = [a for a in index.assignments.get(text(use), [])
             if a.end_byte <= use.start_byte and scope_of(a) == scope]
    values: list[Node] = []
    covered = False
    for assignment in reversed(above):
        if assignment.type == "augmented_assignment_expression":
            return []
        branch = _branch(assignment, use, scope)
        if branch is None and covered:
            break
        value = assignment.child_by_field_name(
            "value" if assignment.type == "variable_declarator" else "right")
        if value is not None:
            values.append(value)
        if branch is None:
            break
        covered = covered or _covers(branch)
    return list(reversed(values))


def _branch(node: Node, use: Node, scope: Node | None) -> Node | None:
    """The outermost ``if``/``switch`` around ``node`` (below ``scope``) that ``use`` is not in."""
    found = None
    for ancestor in ancestors(node):
        if ancestor == scope:
            break
        if ancestor.type in _BRANCHES and not (
                ancestor.start_byte <= use.start_byte < ancestor.end_byte):
            found = ancestor
    return found


def _covers(branch: Node) -> bool:
    """An ``if`` chain that ends in ``else``, or a ``switch`` with ``default``."""
    if branch.type == "switch_statement":
        body = branch.child_by_field_name("body")
        return body is not None and any(c.type == "switch_default" for c in body.named_children)
    alternative = branch.child_by_field_name("alternative")
    if alternative is None:
        return False
    inner = next((c for c in alternative.named_children if c.type != "comment"), None)
    return inner is None or inner.type != "if_statement" or _covers(inner)


def call_of(callee: str, call: Node, reader: Reader) -> Call:
    """The ``Call`` a site makes (``throw new NotFound(key)``, ``fail("…")``)."""
    return Call(callee, tuple(alternatives(a, reader) for a in arguments(call)),
                owner=owner_of(call))


def owner_of(node: Node) -> str | None:
    """The class (or module object) a node is written in: where ``this.x`` is looked up."""
    for ancestor in ancestors(node):
        if ancestor.type in CLASSES:
            name = ancestor.child_by_field_name("name")
            return text(name) if name is not None else None
        if ancestor.type == "object" and ancestor.parent is not None and (
                ancestor.parent.type == "variable_declarator"):
            return text(ancestor.parent.child_by_field_name("name")) or None
        if ancestor.type == "assignment_expression":  # Store.prototype.get = function …
            holder = text(ancestor.child_by_field_name("left")).rpartition(".")[0]
            if holder.endswith(".prototype"):
                return holder.removesuffix(".prototype")
    return None


def _env(params: tuple[str, ...]) -> dict[str, Message]:
    return {p: Message("${" + p + "}", (Hole.of(p, "${" + p + "}"),)) for p in params if p}


def _template(message: Message) -> Template:
    return Template(message.written, message.parts)
