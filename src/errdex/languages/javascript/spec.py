"""JavaScript, TypeScript and TSX sites: ``throw``, rejections, ``console.error``, HTTP errors.

What is a site (``errorType``):

* ``exception``: ``throw new X(…)``, ``throw X(…)`` for error classes (``throw Error("…")``),
  ``throw err`` where ``err`` was built earlier in the function (``const err = new X("…")``:
  the site is that statement, where Node takes the stack),
  ``throw Object.assign(new X(…), {code})``, ``Promise.reject(…)`` of those, and ``reject(…)``
  inside a ``new Promise((resolve, reject) => …)`` executor.
  ``throw makeConfigError("…")`` (a function named like an error maker) has no errorClass.
  An Error subclass whose constructor makes a message (``super(`${id} not found`)``) is a
  site of its own at that ``super`` call, for the throws in other files; it is dropped
  when a throw in the same file already says the same.
* ``error``: any other ``new XError(…)`` with a message — passed to a callback
  (``cb(new Error("…"))``, ``next(…)``, ``emit("error", …)``) or returned; and an error
  made by a function named like an error maker (``reject(createError(msg, config))``).
  ``createError`` is http-errors' only where the module does not declare it or require
  it from its own files.
* ``warning``: ``process.emitWarning(msg, type, code)`` and ``util.deprecate(fn, msg,
  code)`` (errorClass ``Warning`` / the type / ``DeprecationWarning``); Node prints
  ``(node:PID) [code] Type: msg``, the pattern is the message.
* ``http``: Express/Fastify ``res.status(404).send("…")`` / ``.json({ error: "…" })`` (status
  ≥ 400), http-errors ``createError(404, "…")`` / ``createError.NotFound("…")`` and Koa
  ``ctx.throw(404, "…")``; ``httpStatus`` is the literal status.
* ``log``: ``console.error`` / ``console.warn`` and ``logger.error|fatal|warn`` (a receiver
  named like a logger) with a known message; severity ``warning`` for ``warn``, ``fatal``
  when the next statement is ``process.exit(<non-zero>)``.

``errorClass`` is the class as written at the site (``errors.NotFound``). Error subclasses
declared in the same file are followed through their constructors (``classes.py``): the
message they pass to ``super``, ``this.code = 'ERR_X'`` (``errorCode``), ``this.status``.
``err.code = 'ERR_X'`` / ``Object.assign(err, { code })`` before the throw also set
``errorCode``.
Sites carry the call their message comes from (``compose.py``, ``calls.py``): a class
or factory of another file composes it; ``throw new NotFound(key)`` or ``fail("…")``
alone (no readable message) are candidates, kept only when a producer answers.

What is not a site: an error with no message (``throw new TypeError()``: Node prints the
bare class name), a message that is only a value (``throw new Error(err.message)``,
``${x}``), rethrowing a caught or passed-in error, and anything under an ERROR node.

Runtime: Node prints an uncaught error as ``X: message`` followed by the stack, a rejection
the same way, and ``console.error(fmt, …args)`` as ``util.format`` does (see
``messages.py``). The pattern covers the message only; nothing is added around it.
A foreign class called ``(404, "…")`` or ``("…", 404)`` takes the literal status as
``httpStatus``; a later argument shaped like a code (``'ERR_X'``, ``AxiosError.ERR_X``,
``'ENOENT'``) is ``errorCode``. ``cond ? 'a' : 'b'`` holes match only ``a`` or ``b``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import Captures, LanguageSpec, Message, Sites, language
from errdex.languages.base import Site, ancestors, text
from errdex.languages.facts import Call
from errdex.languages.javascript import calls
from errdex.languages.javascript.classes import Built, Classes, code_of, last_name
from errdex.languages.javascript.compose import COMPOSER
from errdex.languages.javascript.evidence import EVIDENCE
from errdex.languages.javascript.http import (
    http_error_site,
    http_factory,
    http_site,
    response_site,
)
from errdex.languages.javascript.logs import assert_site, log_level, log_site, warning_site
from errdex.languages.javascript.messages import (
    SCOPES,
    STRINGS,
    JsIndex,
    Reader,
    arguments,
    object_pairs,
    parameters,
    scope_of,
    string_value,
    unwrap,
)
from errdex.languages.javascript.pastes import PASTES
from errdex.languages.javascript.snippets import SNIPPETS, TYPED_SNIPPETS
from errdex.languages.javascript.where import last_segment, statement_line, symbol
from errdex.records.model import ErrorType
from errdex.templates.template import Template

_DECORATIONS = frozenset({"code", "status", "statusCode", "message"})


@dataclass(frozen=True)
class _Error:
    """An error value: the class as written, and what its construction carries."""

    error_class: str
    built: Built
    call: Call | None = None  # the class or factory call, composed across the repository
    made: Node | None = None  # where it is made, when the throw may throw something else


@dataclass
class _File(JsIndex):
    """What one file tells: variables, member assignments, classes, errors already used."""

    members: dict[str, list[Node]] = field(default_factory=dict)  # err.code = … by ``err``
    assigns: dict[str, list[Node]] = field(default_factory=dict)  # Object.assign(err, …)
    bodies: list[Node] = field(default_factory=list)  # class bodies
    consumed: set[int] = field(default_factory=set)  # constructions a site already covers
    class_sites: set[int] = field(default_factory=set)  # id() of sites of class definitions

    @cached_property
    def reader(self) -> Reader:
        return Reader(self)

    @cached_property
    def classes(self) -> Classes:
        return Classes(self.bodies, self.reader)


# --- entry point -----------------------------------------------------------------------



def _without_covered_classes(sites: list[tuple[int, Site]], file: _File) -> list[tuple[int, Site]]:
    """A class's own site only where no throw in this file already says the same."""
    said = {
        (last_name(s.error_class or ""), s.template.pattern())
        for _, s in sites if id(s) not in file.class_sites
    }
    return [
        (at, s) for at, s in sites
        if id(s) not in file.class_sites
        or (last_name(s.error_class or ""), s.template.pattern()) not in said
    ]


def _index(caps: Captures, file: _File) -> None:
    """Variables, ``err.code = …``, imports of ``util.format``, classes, ``Object.assign``."""
    if "var" in caps:
        file.add(text(caps["var.name"][0]), caps["var"][0])
    elif "member" in caps and text(caps["member.property"][0]) in _DECORATIONS:
        file.members.setdefault(text(caps["member.object"][0]), []).append(caps["member"][0])
    elif "import" in caps:
        _index_import(caps, file)
    elif "class" in caps:
        file.bodies.append(caps["class"][0])
    elif "call" in caps and text(caps["call.function"][0]) == "Object.assign":
        args = arguments(caps["call"][0])
        if args and args[0].type == "identifier":
            file.assigns.setdefault(text(args[0]), []).append(caps["call"][0])


def _index_import(caps: dict[str, list[Node]], index: JsIndex) -> None:
    """``import { format as f } from 'util'`` makes ``f(…)`` a ``util.format``."""
    node = caps["import"][0]
    source = caps.get("import.source", [None])[0]
    if source is None:
        statement = next((a for a in ancestors(node) if a.type == "import_statement"), None)
        source = statement.child_by_field_name("source") if statement is not None else None
    if string_value(source) in ("util", "node:util"):
        local = node.child_by_field_name("alias") or caps["import.name"][0]
        index.format_names.add(text(local))


# --- thrown and rejected errors --------------------------------------------------------


def _throw_site(node: Node, file: _File) -> Site | None:
    value = next((c for c in node.named_children if c.type != "comment"), None)
    return _exception_site(node, value, file)


def _exception_site(node: Node, value: Node | None, file: _File) -> Site | None:
    error = _error_value(value, file)
    if error is None:
        return None
    return _error_site(node, error, "exception")


def _error_site(node: Node, error: _Error, error_type: ErrorType) -> Site | None:
    """The site, or a candidate (no template of its own) when only its call can tell."""
    message = error.built.message
    template = Template(message.written, message.parts) if message is not None and (
        message.has_text()) else None
    if template is None and error.call is None:
        return None
    status = error.built.status
    return Site(
        template or Template("", ()), error_type, statement_line(error.made or node),
        error.error_class or None, error.built.code,
        http_status=status if status is not None and 100 <= status <= 599 else None,
        symbol=symbol(node), call=error.call,
    )


def _error_value(node: Node | None, file: _File, depth: int = 0) -> _Error | None:
    """The error an expression evaluates to, when it is built in this function."""
    node = unwrap(node)
    if node is None or depth > 12:
        return None
    if node.type == "new_expression":
        return _construction(node, file)
    if node.type == "call_expression":
        function = text(node.child_by_field_name("function"))
        if function == "Object.assign":
            args = arguments(node)
            inner = _error_value(args[0], file, depth + 1) if args else None
            return _decorated(inner, args[1:], file) if inner else None
        if http_factory(node) is None and file.classes.is_error(function) and (
            last_name(function)[:1].isupper()
        ):
            return _construction(node, file)
        file.consumed.add(node.start_byte)
        call = calls.called(node, file.reader)  # throw Errors.create(r, "…", tok)
        return _factory(node, file) or (_Error("", Built(None), call) if call else None)
    if node.type == "identifier":
        return _error_variable(node, file, depth)
    return None


def _factory(node: Node, file: _File) -> _Error | None:
    """``throw makeConfigError(`bad ${key}`, 'ERR_CONFIG')``: a function named like an error
    maker; its first argument with text is the message, a code-shaped literal the code."""
    name = last_name(text(node.child_by_field_name("function")))
    if "error" not in name.lower() or not name[:1].islower() or http_factory(node) is not None:
        return None
    read = [file.reader.read_or_hole(a) for a in arguments(node)]
    message = next((m for m in read if m.has_text() and m.literal is None), None) or next(
        (m for m in read if m.has_text() and code_of(m, strict=True) is None), None
    )
    code = next((c for m in read if m is not message and (c := code_of(m, strict=True))), None)
    call = calls.call_of(text(node.child_by_field_name("function")), node, file.reader)
    return _Error("", Built(message, code), call) if message is not None else None


def _construction(node: Node, file: _File) -> _Error | None:
    """``new X(…)`` or ``X(…)``: the class, and what its constructor makes of the arguments."""
    constructor = node.child_by_field_name("constructor") or node.child_by_field_name("function")
    if constructor is None or http_factory(node) is not None:
        return None
    file.consumed.add(node.start_byte)
    name = text(constructor)
    args = [_argument(a, file) for a in arguments(node)]
    built = file.classes.build(name, args)
    if built.code is None:  # new HTTPException(401, { message, code: 'ERR_X' })
        codes = [object_pairs(a).get("code") for a in arguments(node)]
        code = next((c for c in codes if c is not None), None)
        built = replace(built, code=code_of(file.reader.read_or_hole(code)) if code else None)
    said = built.message is not None and built.message.has_text()
    return _Error(name, built, calls.construction(name, node, file.reader, said))


def _argument(node: Node, file: _File) -> Message:
    """A constructor argument; an options object stands for its ``message``."""
    message = object_pairs(node).get("message")
    return file.reader.read_or_hole(message if message is not None else node)


def _error_variable(node: Node, file: _File, depth: int) -> _Error | None:
    """``throw err`` where ``const err = new X(…)`` (then ``err.code = …``) came earlier."""
    name = text(node)
    assignment = file.sees(name, node)
    if assignment is None:
        return None
    value = assignment.child_by_field_name(
        "value" if assignment.type == "variable_declarator" else "right"
    )
    error = _error_value(value, file, depth + 1)
    if error is None:
        return None
    # Node takes the stack where the error is made (``const err = new X(…)``), and there
    # its message is written: the line of the site, not the ``throw err`` after it
    error = replace(error, made=error.made or assignment)
    return _decorations(error, name, assignment, node.start_byte, file)


def _decorations(error: _Error, name: str, assignment: Node, until: int, file: _File) -> _Error:
    """``err.code = 'X'`` and ``Object.assign(err, {...})`` between the assignment and ``until``."""
    scope = scope_of(assignment)
    nodes = [
        n for n in [*file.members.get(name, []), *file.assigns.get(name, [])]
        if assignment.end_byte <= n.start_byte < until and scope_of(n) == scope
    ]
    for node in sorted(nodes, key=lambda n: n.start_byte):
        if node.type == "call_expression":
            error = _decorated(error, arguments(node)[1:], file)
            continue
        prop = node.child_by_field_name("left").child_by_field_name("property")  # type: ignore[union-attr]
        error = _with_field(error, text(prop), node.child_by_field_name("right"), file)
    return error


def _decorated(error: _Error, objects: list[Node], file: _File) -> _Error:
    """``Object.assign(err, { code: 'X', status: 404 })``."""
    for obj in objects:
        for key, value in object_pairs(obj).items():
            if key in _DECORATIONS:
                error = _with_field(error, key, value, file)
    return error


def _with_field(error: _Error, key: str, value: Node | None, file: _File) -> _Error:
    built = error.built
    if key == "message":
        return replace(error, built=replace(built, message=file.reader.read(value)), call=None)
    read = file.reader.read_or_hole(value) if value is not None else None
    literal = read.literal if read is not None else None
    if key == "code":
        return replace(error, built=replace(built, code=code_of(read)))
    status = int(literal) if literal is not None and literal.isdigit() else None
    return replace(error, built=replace(built, status=status))


# --- calls -------------------------------------------------------------------------------


def _call_site(node: Node, file: _File) -> Site | None:
    function = node.child_by_field_name("function")
    name = text(function)
    if name == "Promise.reject":
        args = arguments(node)
        return _exception_site(node, args[0], file) if args else None
    if function is not None and function.type == "identifier" and _is_executor_reject(function):
        args = arguments(node)
        return _exception_site(node, args[0], file) if args else None
    if http_factory(node) is not None:
        return http_error_site(node, file.reader)
    if name.split(".", 1)[0] in ("assert", "strict"):
        return assert_site(node, file.reader)
    if name in ("process.emitWarning", "util.deprecate"):
        return warning_site(node, name == "util.deprecate", file.reader)
    if function is None or function.type != "member_expression":
        return None
    receiver = unwrap(function.child_by_field_name("object"))
    method = text(function.child_by_field_name("property"))
    if receiver is None:
        return None
    if log_level(method, text(receiver) == "console") is not None and (
        text(receiver) == "console" or "log" in last_segment(receiver).lower()
    ):
        return log_site(node, method, text(receiver) == "console", file.reader)
    if method in ("send", "json", "end"):
        return response_site(node, receiver, file.reader)
    if method == "throw" and last_segment(receiver).lower().endswith("ctx"):
        return http_site(node, arguments(node), None, file.reader)
    return None


# A function that makes an error (``createError``, ``makeError``, ``badRequestError``), not
# one that shows, logs or tests one (``setError``, ``handleError``, ``isError``).
_MAKER = re.compile(
    r"(?!(?:set|show|handle|report|log|is|on|add|emit|print|throw|render|display|push)[A-Z])"
    r"[a-z]\w*Error$")
# Where a made error is a value passed on (an argument, returned, assigned), not a statement.
_VALUE_PLACES = frozenset({
    "arguments", "return_statement", "variable_declarator", "assignment_expression",
    "arrow_function", "parenthesized_expression", "await_expression",
})


def _made_site(node: Node, file: _File) -> Site | None:
    """``reject(createError(message, config, 'E_X'))``, ``cb(makeError(…))``: an error made
    by a function named like an error maker that no throw covers (passed on, returned)."""
    function = node.child_by_field_name("function")
    name = last_name(text(function))
    if node.start_byte in file.consumed or function is None or function.type not in (
            "identifier", "member_expression") or not _MAKER.match(name) or (
            node.parent is None or node.parent.type not in _VALUE_PLACES):
        return None
    error = _factory(node, file)
    if error is None:
        call = calls.called(node, file.reader)
        error = _Error("", Built(None), call) if call is not None else None
    return _error_site(node, error, "error") if error is not None else None


def _is_executor_reject(function: Node) -> bool:
    """``reject`` is the second parameter of a ``new Promise(…)`` executor around the call."""
    name = text(function)
    for scope in (a for a in ancestors(function) if a.type in SCOPES):
        params = [p for p, _, _ in parameters(scope)] if scope.type != "program" else []
        if name not in params:
            continue
        holder = scope.parent.parent if scope.parent is not None else None
        return params.index(name) == 1 and holder is not None and (
            holder.type == "new_expression"
            and text(holder.child_by_field_name("constructor")) == "Promise"
        )
    return False


# --- other constructed errors ------------------------------------------------------------


def _new_site(node: Node, file: _File) -> Site | None:
    """``new XError("…")`` no throw covers: passed to a callback, returned, emitted."""
    if node.start_byte in file.consumed:
        return None
    if http_factory(node) is not None:
        return http_error_site(node, file.reader)
    name = text(node.child_by_field_name("constructor"))
    if not file.classes.is_error(name):
        return None
    error = _construction(node, file)
    parent = node.parent
    if error is None or parent is None:
        return None
    if parent.type == "variable_declarator":
        error = _decorations(error, text(parent.child_by_field_name("name")), parent,
                             _scope_end(parent), file)
    elif parent.type == "arguments" and parent.parent is not None and text(
        parent.parent.child_by_field_name("function")
    ) == "Object.assign":
        error = _decorated(error, arguments(parent.parent)[1:], file)
    return _error_site(node, error, "error")


def _class_site(body: Node, file: _File) -> Site | None:
    """``class NotFound extends Error { constructor(id) { super(`${id} not found`) } }``:
    the message every ``new NotFound(…)`` prints, for throws in other files."""
    owner = body.parent
    name = text(owner.child_by_field_name("name")) if owner is not None else ""
    found = file.classes.definition(name) if name else None
    if found is None:
        return None
    anchor, built = found
    site = _error_site(anchor, _Error(name, built), "exception")
    if site is not None:
        file.class_sites.add(id(site))
    return site


def _on(key: str, handler: Callable[[Node, _File], Site | None]) -> tuple[str, Callable[
        [Captures, _File], Sites]]:
    """A handler of the outer node alone, as the engine calls it."""
    return key, lambda caps, file: handler(caps[key][0], file)


_HANDLERS = (
    _on("throw", _throw_site),
    _on("call", lambda node, file: _call_site(node, file) or calls.helper(node, file.reader)
        or _made_site(node, file)),
    _on("new", _new_site), _on("class", _class_site),
)


def _scope_end(node: Node) -> int:
    scope = scope_of(node)
    return scope.end_byte if scope is not None else node.end_byte


_SPEC: LanguageSpec[_File] = LanguageSpec(
    strings=STRINGS,
    name="javascript", grammar="javascript", extensions=(".js", ".mjs", ".cjs", ".jsx"),
    query=Path(__file__).with_name("queries.scm"),
    handlers=_HANDLERS, new_index=_File, index=_index, finish=_without_covered_classes,
    function_types=frozenset(SCOPES - {"program", "class_static_block"}),
    scope_types=SCOPES, evidence=EVIDENCE, snippets=SNIPPETS,
    pastes=PASTES, compose=COMPOSER,
)
SPECS = [
    _SPEC,
    replace(_SPEC, name="typescript", grammar="typescript", extensions=(".ts", ".mts", ".cts"),
            snippets=TYPED_SNIPPETS),
    replace(_SPEC, name="tsx", grammar="tsx", extensions=(".tsx",), snippets=TYPED_SNIPPETS),
]
SPEC = _SPEC
LANGUAGES = [language(spec) for spec in SPECS]
extract = LANGUAGES[0].extract  # JavaScript's: all sites of one file, in source order
