"""HTTP error sites of JS/TS web frameworks.

* Express / Fastify: ``res.status(404).send("…")``, ``.json({ error: "…" })``,
  ``reply.code(503).send({ message: "…" })`` — a literal status ≥ 400; the message is the
  body text, or its ``error``/``message``/``msg``/``detail`` field (one level nested).
* http-errors: ``createError([status], [message], [props])`` in any order,
  ``createError.NotFound("…")`` (status from the class name, which is the errorClass).
* Koa: ``ctx.throw(404, "…")``.

A response or error without a known message is no site.
"""

from __future__ import annotations

from http import HTTPStatus

from tree_sitter import Node

from errdex.languages._engine import Message
from errdex.languages.base import Site, text
from errdex.languages.javascript.classes import code_of
from errdex.languages.javascript.declared import own_names
from errdex.languages.javascript.messages import Reader, arguments, object_pairs, unwrap
from errdex.languages.javascript.where import statement_line, symbol
from errdex.templates.template import Template

HTTP_ERROR_FACTORIES = frozenset({"createError", "createHttpError", "httpErrors", "HttpErrors"})
_BODY_KEYS = ("error", "message", "msg", "detail", "error_description", "reason")
_STATUS_BY_NAME = {p.phrase.replace(" ", "").replace("-", ""): p.value for p in HTTPStatus}


def response_site(node: Node, receiver: Node, reader: Reader) -> Site | None:
    """``res.status(404).send("…")`` / ``.json({ error: "…" })``; Fastify ``reply.code(…)``."""
    if receiver.type != "call_expression":
        return None
    status_function = receiver.child_by_field_name("function")
    if status_function is None or status_function.type != "member_expression" or text(
        status_function.child_by_field_name("property")
    ) not in ("status", "code"):
        return None
    status_args = arguments(receiver)
    status = status_of(status_args[0]) if len(status_args) == 1 else None
    args = arguments(node)
    if status is None or status < 400 or not args:
        return None
    message = _body_message(args[0], reader)
    if message is None or not message.has_text():
        return None
    return Site(
        Template(message.written, message.parts), "http", statement_line(node),
        http_status=status, symbol=symbol(node),
    )


def _body_message(node: Node, reader: Reader, depth: int = 0) -> Message | None:
    """The message of a response body: the text, or its ``error``/``message`` field."""
    pairs = object_pairs(node)
    if not pairs:
        return reader.read(node)
    for key in _BODY_KEYS:
        if key in pairs and depth < 2:
            found = _body_message(pairs[key], reader, depth + 1)
            if found is not None:
                return found
    return None


def http_factory(node: Node) -> tuple[str, int | None] | None:
    """``createError(…)`` → (name, None); ``createError.NotFound(…)`` → (name, 404)."""
    function = node.child_by_field_name("function") or node.child_by_field_name("constructor")
    function = unwrap(function)
    if function is None:
        return None
    if function.type == "identifier" and text(function) in HTTP_ERROR_FACTORIES:
        return None if _own(node, text(function)) else (text(function), None)
    head = text(function.child_by_field_name("object"))
    if function.type == "member_expression" and head in HTTP_ERROR_FACTORIES and not _own(
            node, head):
        name = text(function.child_by_field_name("property"))
        return name, _STATUS_BY_NAME.get(name.removesuffix("Error"))
    return None


def _own(node: Node, name: str) -> bool:
    """A ``createError`` the module declares or requires from its own files
    (``require('./core/createError')``): the repository's helper, not http-errors."""
    root = node
    while root.parent is not None:
        root = root.parent
    return name in own_names(root)


def http_error_site(node: Node, reader: Reader) -> Site | None:
    """http-errors: ``createError([status], [message], [props])`` in any order."""
    factory = http_factory(node)
    if factory is None:
        return None
    name, status = factory
    error_class = name if status is not None else None
    return http_site(node, arguments(node), status, reader, error_class)


def http_site(
    node: Node, args: list[Node], status: int | None, reader: Reader, error_class: str | None = None
) -> Site | None:
    message: Message | None = None
    code: str | None = None
    for arg in args:
        if status is None and status_of(arg) is not None:
            status = status_of(arg)
        elif arg.type == "object":
            code_node = object_pairs(arg).get("code")
            code = code_of(reader.read_or_hole(code_node)) if code_node else code
        elif message is None:
            message = reader.read(arg)
    if message is None or not message.has_text():
        return None
    return Site(
        Template(message.written, message.parts), "http", statement_line(node), error_class,
        code, status, symbol=symbol(node),
    )


def status_of(node: Node) -> int | None:
    value = text(unwrap(node))
    return int(value) if value.isdigit() and 100 <= int(value) <= 599 else None
