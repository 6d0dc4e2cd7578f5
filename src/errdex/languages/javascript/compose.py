"""JavaScript/TypeScript producers: what ``new NotFound(key)`` or ``errors.notFound(key)``
prints when the class or the factory is written in another file.

Read per file, composed across the repository (``errdex.mining.compose``):

* an error class: its constructor read as ``classes.py`` reads it, each parameter a hole
  named after it. ``this.message = …`` (or a ``message`` class field, or a TS ``message``
  parameter property) is the message; otherwise ``super(…)``'s arguments go to the base
  (its producer when the repository has one; else, like ``Error``, the first argument;
  a base imported from a package prints what it prints: ``super(404, msg)`` → ``msg``).
  A ``get message()`` is the message when ``super`` is given none. A class without a
  constructor takes its base's. ``this.key = key`` makes ``${this.key}`` the ``key``
  argument. A pre-class constructor (``function FetchError(m) { this.message = m }``) and a
  class made by an error factory (``E_X: createError('E_X', "… '%s'")``) are classes too;
* a factory: a function, method, arrow function or object member that returns an error
  (``return new ParseError(`[${id}] ${what}`)``), an error-named call, or a string built
  from its parameters (``return `no such key ${k}` ``);
* a helper: one that throws, or logs (``console.warn``, ``logger.error``), a message built
  from its parameters (``function fail(msg) { throw new ConfigError("config: " + msg) }``);
* a constant: a module ``const NOT_FOUND = "…"``, a string member of a TS enum, of a
  class (static) or of a module object named like a namespace (``Errors.NOT_FOUND``), for
  ``new Error(NOT_FOUND)`` and for the holes a message spells with one.

Where they are declared is ``declared.py``; what a call passes, ``calls.py``.

Each return/throw/log of a function is an alternative, and so is each branch of an
argument (``alternatives``: ``c ? a : b``, a variable assigned in ``if``/``switch`` arms).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from errdex.languages._engine import Message, constant
from errdex.languages.base import line_of, text
from errdex.languages.facts import Call, Composer, Producer, Result, bind, has_text, parameter
from errdex.languages.javascript.calls import alternatives, parameter_defaults, template
from errdex.languages.javascript.classes import (
    CODE,
    Built,
    Classes,
    constructor_of,
    last_name,
    message_index,
    own_nodes,
    super_call,
    this_assignments,
)
from errdex.languages.javascript.declared import (
    CONSTANT,
    declarations,
    foreign_names,
    index_variables,
    statements,
)
from errdex.languages.javascript.messages import (
    JsIndex,
    Reader,
    arguments,
    node_format,
    parameters,
    string_value,
    unwrap,
)
from errdex.templates.template import Hole, Literal, Template

# Built-in errors that print another argument than their first.
_INDEXED = frozenset({"AggregateError", "SuppressedError"})
_VALUES = frozenset({
    "Map", "Set", "WeakMap", "WeakSet", "Promise", "Date", "URL", "URLSearchParams", "RegExp",
    "Array", "Object", "Proxy", "Buffer", "Uint8Array", "Response", "Request", "Headers",
    "AbortController", "TextEncoder", "TextDecoder", "Function", "String", "Number",
})
_ERRORISH = re.compile(r"err|exception|fail|invalid|panic", re.IGNORECASE)
_CONVERSION = re.compile(r"%[sdifjoOc]")
_LOGS = frozenset({"error", "warn", "fatal"})


def producers(root: Node, source: bytes, path: str) -> list[Producer]:
    """The producers of one parsed file (a ``.d.ts`` declares, it runs nothing)."""
    if path.endswith((".d.ts", ".d.mts", ".d.cts")):
        return []
    reading = _Reading(path, root)
    declared = declarations(root, reading.index, path.rsplit("/", 1)[-1].split(".", 1)[0])
    classes, functions, constants = declared.classes, declared.functions, declared.constants
    reading.classes = Classes(
        [b for c in classes if (b := c.child_by_field_name("body")) is not None], reading.reader)
    bodies: list[tuple[Node, str, str | None, list[Node]]] = []
    for function, name, owner in functions:
        nodes = statements(function)
        if nodes:
            index_variables(nodes, reading.index)
            bodies.append((function, name, owner, nodes))
    for node in classes:
        body = node.child_by_field_name("body")
        for method in (constructor_of(body), _getter(body)) if body is not None else ():
            if method is not None:
                index_variables(own_nodes(method), reading.index)
    reading.index.sort()
    found = [_class(c, reading) for c in classes]
    found.extend(_function(*f, reading) for f in bodies)
    found.extend(_constant(name, owner, value, path) for name, owner, value in constants)
    return [p for p in found if p is not None]


COMPOSER = Composer(producers=producers, triggers=(
    b"class", b"throw", b"return", b"=>", b"const", b"enum", b"warn", b"error", b"exports"))


class _Reading:
    """One file's reading state: its variables, classes and reader."""

    def __init__(self, path: str, root: Node) -> None:
        self.path = path
        self.root = root
        self.index = JsIndex()
        self.reader = Reader(self.index)
        self.classes: Classes
        self.foreign: frozenset[str] | None = None

    def is_foreign(self, name: str) -> bool:
        """A class of a package: what it prints is no producer's of this repository."""
        if self.foreign is None:
            self.foreign = foreign_names(self.root)
        return name.split(".", 1)[0] in self.foreign or last_name(name) in _INDEXED


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
    results: list[Result] = [template(own)] if own is not None and own.has_text() else []
    params: tuple[str, ...] = ()
    defaults: tuple[tuple[str, Template], ...] = ()
    if constructor is not None:
        declared = parameters(constructor)
        params = tuple(p for p, _, _ in declared)
        reader = reading.reader.with_env(_env(params))
        defaults = tuple((p, template(reader.read_or_hole(d)))
                         for p, d, _ in declared if p and d is not None)
        defaults += tuple(d for d in parameter_defaults(constructor, params, reader)
                          if d[0] not in dict(defaults))
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
    if not results and not any(params):
        return _message_method(function, name, owner, nodes, reading)
    if not results or not any(_uses(r, params) or isinstance(r, Call) for r in results):
        return None
    if not returns and any(kind == "return" for kind, _ in _outcomes(nodes, body)):
        return None  # get(key) returns a value, and throws only when it has none: no helper
    error_class = next(iter(classes)) if len(classes) == 1 else None
    return Producer(name, params, tuple(results[:16]), "factory" if returns else "helper",
                    reading.path, line_of(function), owner=owner, error_class=error_class or None)


def _message_method(function: Node, name: str, owner: str | None, nodes: list[Node],
                    reading: _Reading) -> Producer | None:
    """``describe() { return `store ${this.path}` }``, ``get label()``: what a hole
    ``${this.describe()}`` prints (each return an alternative)."""
    texts = [t for kind, value in _outcomes(nodes, function.child_by_field_name("body"))
             if kind == "return" for t in alternatives(value, reading.reader) if has_text(t)]
    if not texts:
        return None
    return Producer(name, (), tuple(texts[:16]), "message", reading.path, line_of(function),
                    owner=owner)


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
        if callee == "this" and node.type == "new_expression" and owner:
            callee = owner  # ``static missing(k) { return new this(`missing ${k}`) }``
        short = last_name(callee)
        args = tuple(alternatives(a, reader) for a in arguments(node))
        if short[:1].isupper() and (node.type == "new_expression" or reading.classes.is_error(
                callee)):
            if not (thrown or _may_be_error(callee, reading.classes)):
                return None
            return _construct(callee, callee, arguments(node), reader, reading, owner), short
        decorated = _decorated(node, reader, reading, owner, thrown, depth)
        if decorated is not None:
            return decorated
        head = callee.split(".", 1)[0]
        if node.type == "call_expression" and (thrown or _ERRORISH.search(short) or (
                head in ("this", owner) and any(has_text(t) for a in args for t in a))):
            return [Call(callee, args, owner=owner, path=reading.path, method=True)], None
    if node.type == "identifier" and text(node) not in (reader.env or {}):
        assignment = reading.index.sees(text(node), node)
        if assignment is not None and assignment.type == "variable_declarator":
            inner = assignment.child_by_field_name("value")
            made = _value(inner, reader, reading, owner, thrown, depth + 1) if inner else None
            if made is not None and made[1] is not None:
                return made
    found = [t for t in alternatives(node, reader) if has_text(t)]
    return (list(found), None) if found else None


def _decorated(call: Node, reader: Reader, reading: _Reading, owner: str | None, thrown: bool,
               depth: int) -> tuple[list[Result], str | None] | None:
    """``return decorate(error, config, code)`` / ``Object.assign(err, {code})``, where
    ``const error = new Error(message)`` came earlier: a call handed the error this function
    built gives that error back (it sets fields on it), so it prints what the error does."""
    if call.type != "call_expression":
        return None
    for given in arguments(call)[:1]:
        arg = unwrap(given)
        if arg is not None and arg.type == "identifier" and text(arg) not in (reader.env or {}):
            made = _value(arg, reader, reading, owner, thrown, depth + 1)
            if made is not None and made[1] is not None:
                return made
    return None


def _construct(callee: str, name: str, args: list[Node], reader: Reader, reading: _Reading,
               owner: str | None) -> list[Result]:
    """``super(…)`` / ``new X(…)``: a call to the class's producer, or for a class of a
    package the argument it prints (``new HttpError(404, msg)`` prints ``msg``)."""
    if reading.is_foreign(name):
        index = message_index(name, [reader.read_or_hole(a) for a in args])
        if index >= len(args):
            return [Template("", ())]  # no message: nothing that could be composed
        return list(alternatives(args[index], reader))
    return [Call(callee, tuple(alternatives(a, reader) for a in args), owner=owner,
                 path=reading.path)]


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
    """A string constant: any text when named like one (``NOT_FOUND``), else words."""
    if value.type == "call_expression":
        return _made_class(name, owner, value, path)
    literal = string_value(value)
    if literal is None or not any(c.isalpha() for c in literal) or (
            " " not in literal.strip() and not CONSTANT.match(name)):
        return None
    return Producer(name, (), (Template(literal, (Literal(literal),)),), "constant", path,
                    line_of(value), owner=owner)


def _made_class(name: str, owner: str | None, call: Node, path: str) -> Producer | None:
    """``FST_ERR_NOT_FN: createError('FST_ERR_NOT_FN', "expected a function, got '%s'")``:
    a class made by an error factory from a code and a ``util.format`` message, which
    ``new FST_ERR_NOT_FN(x)`` formats with its arguments."""
    args = arguments(call)
    if len(args) < 2 or "error" not in last_name(text(call.child_by_field_name(
            "function"))).lower() or not CODE.match(string_value(args[0]) or ""):
        return None
    message = string_value(args[1])
    if message is None or not any(c.isalpha() for c in message):
        return None
    params = tuple(f"arg{i}" for i in range(len(_CONVERSION.findall(message))))
    formatted = node_format(constant(message), [_env(params)[p] for p in params], append=False)
    return Producer(name, params, (template(formatted),), "class message", path,
                    line_of(call), owner=owner, is_class=True)


def _env(params: tuple[str, ...]) -> dict[str, Message]:
    return {p: Message("${" + p + "}", (Hole.of(p, "${" + p + "}"),)) for p in params if p}


