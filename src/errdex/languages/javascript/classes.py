"""Error classes declared in a JS/TS file: what ``new FooError(…)`` ends up saying.

``class NotFound extends HttpError { constructor(what) { super(404, `${what} not found`);
this.code = 'ERR_NOT_FOUND' } }`` makes ``new NotFound("user")`` an error whose
message is ``user not found``, code ``ERR_NOT_FOUND`` and status 404. The
constructor is evaluated symbolically: parameters are bound to what the caller
passed (a hole named after the argument when its value is unknown, the default
when it passes nothing), ``super(…)`` goes to the parent class when it is in the
same file and to ``Error``'s ``(message)`` otherwise, then class fields, TS
parameter properties and ``this.x = …`` assignments set ``message``, ``code``,
``status``/``statusCode``. Classes from other files take the message from their
first argument, like ``Error``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from tree_sitter import Node

from errdex.languages._engine import Message
from errdex.languages._engine.walk import nodes_from
from errdex.languages.base import text
from errdex.languages.javascript.messages import (
    SCOPES,
    Reader,
    arguments,
    parameters,
    unwrap,
)
from errdex.templates.template import Hole

_FIELDS = frozenset({"message", "code", "status", "statusCode"})
_MAX_DEPTH = 12
CODE = re.compile(r"^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|E[A-Z]{3,})$")  # ERR_X, ENOENT
# Built-in errors whose message is not their first argument.
_MESSAGE_INDEX = {"AggregateError": 1, "SuppressedError": 2}


@dataclass(frozen=True)
class Built:
    """What a constructed error carries."""

    message: Message | None
    code: str | None = None
    status: int | None = None


def last_name(name: str) -> str:
    """``errors.NotFound`` → ``NotFound``; ``Foo<T>`` → ``Foo``."""
    return name.split("<", 1)[0].rsplit(".", 1)[-1].strip()


class Classes:
    """The classes of one file, by name."""

    def __init__(self, bodies: list[Node], reader: Reader) -> None:
        self.reader = reader
        self.by_name: dict[str, Node] = {}
        for body in bodies:
            owner = body.parent
            name = owner.child_by_field_name("name") if owner is not None else None
            if owner is not None and name is not None:
                self.by_name.setdefault(text(name), owner)

    def parent(self, name: str) -> str | None:
        owner = self.by_name.get(last_name(name))
        heritage = next(
            (c for c in owner.named_children if c.type == "class_heritage"), None
        ) if owner is not None else None
        if heritage is None:
            return None
        clause = next((c for c in heritage.named_children if c.type == "extends_clause"), None)
        value = clause.child_by_field_name("value") if clause is not None else (
            heritage.named_children[0] if heritage.named_children else None
        )
        return text(value) if value is not None else None

    def is_error(self, name: str, depth: int = 0) -> bool:
        """Whether instances are errors: ``…Error``/``…Exception``, or a class extending one."""
        short = last_name(name)
        if short.endswith(("Error", "Exception")) or short == "Error":
            return True
        parent = self.parent(short)
        return parent is not None and depth < _MAX_DEPTH and self.is_error(parent, depth + 1)

    def build(self, name: str, args: list[Message], depth: int = 0) -> Built:
        """The error ``new name(...args)`` constructs."""
        owner = self.by_name.get(last_name(name))
        if owner is None or depth > _MAX_DEPTH:
            return _foreign(name, args)
        body = owner.child_by_field_name("body")
        constructor = constructor_of(body) if body is not None else None
        parent = self.parent(name)
        if constructor is None:  # the parent's constructor, with the same arguments
            built = self.build(parent, args, depth + 1) if parent else Built(None)
            return self.fields(body, built)
        env: dict[str, Message] = {}
        for index, (param, default, _) in enumerate(parameters(constructor)):
            if index < len(args):
                env[param] = args[index]
            elif default is not None:
                env[param] = self.reader.read_or_hole(default)
        built = Built(None)
        call = super_call(constructor)
        if call is not None:
            super_args = [self.reader.with_env(env).read_or_hole(a) for a in arguments(call)]
            built = self.build(parent, super_args, depth + 1) if parent else Built(None)
        built = self.fields(body, built)
        for param, _, is_property in parameters(constructor):
            if is_property and param in _FIELDS and param in env:
                built = _set(built, param, env[param])
        for field, value in this_assignments(constructor):
            message = self.reader.with_env(env).read(value) if field == "message" else (
                self.reader.with_env(env).read_or_hole(value)
            )
            built = _set(built, field, message)
        return built

    def definition(self, name: str) -> tuple[Node, Built] | None:
        """What an error class says by itself, anchored at its ``super(…)`` call: its
        constructor called with each parameter as a hole named after it. Codes and statuses
        (and the message, when the holes leave no text) come from omitting the parameters
        that have defaults (``constructor(message = 'Not found')``)."""
        owner = self.by_name.get(name)
        body = owner.child_by_field_name("body") if owner is not None else None
        constructor = constructor_of(body) if body is not None else None
        if constructor is None or not self.is_error(name):
            return None
        params = parameters(constructor)
        holes = [Message("${" + p + "}", (Hole.of(p, "${" + p + "}"),)) for p, _, _ in params]
        required = next((i for i, (_, default, _) in enumerate(params) if default), len(params))
        built = self.build(name, holes[:required])
        message = self.build(name, holes).message
        if message is not None and message.has_text():
            built = replace(built, message=message)
        return super_call(constructor) or constructor, built

    def fields(self, body: Node | None, built: Built) -> Built:
        """Class fields: ``code = 'ERR_X'``, ``readonly status = 404``."""
        for member in body.named_children if body is not None else ():
            if member.type not in ("field_definition", "public_field_definition"):
                continue
            if any(c.type == "static" for c in member.children):
                continue
            name = member.child_by_field_name("property") or member.child_by_field_name("name")
            value = member.child_by_field_name("value")
            if name is not None and value is not None and text(name) in _FIELDS:
                built = _set(built, text(name), self.reader.read_or_hole(value))
        return built


def _foreign(name: str, args: list[Message]) -> Built:
    """A class from elsewhere: ``Error``'s ``(message)``, or ``(status, message)`` /
    ``(message, status)`` when one argument is an HTTP status literal; a later argument
    shaped like a code (``'ERR_X'``, ``AxiosError.ERR_BAD_OPTION_VALUE``) is the code."""
    index = message_index(name, args)
    statuses = [_status_of(a) for a in args[:2]]
    code = next((c for a in args[index + 1 :] if (c := code_of(a, strict=True))), None)
    message = args[index] if len(args) > index else None
    status = statuses[0] if index == 1 and statuses[0] is not None else (
        statuses[1] if len(statuses) > 1 and index == 0 else None
    )
    return Built(message, code, status)


def message_index(name: str, args: list[Message]) -> int:
    """Which argument a class from elsewhere prints: ``Error``'s first, ``AggregateError``'s
    second, and the one after a leading HTTP status literal (``(404, message)``)."""
    if args and _status_of(args[0]) is not None:
        return 1
    return _MESSAGE_INDEX.get(last_name(name), 0)


def code_of(message: Message | None, strict: bool = False) -> str | None:
    """An error code: a string literal (code-shaped when ``strict``), or a constant such as
    ``AxiosError.ERR_BAD_OPTION_VALUE`` / ``codes.ENOENT``."""
    if message is None:
        return None
    if message.literal is not None:
        return message.literal if not strict or CODE.match(message.literal) else None
    if len(message.parts) == 1 and isinstance(hole := message.parts[0], Hole) and hole.name:
        last = hole.name.rsplit(".", 1)[-1]
        return last if CODE.match(last) else None
    return None


def _status_of(message: Message) -> int | None:
    literal = message.literal
    if literal is None or not literal.isdigit() or not 100 <= int(literal) <= 599:
        return None
    return int(literal)


def _set(built: Built, field: str, value: Message | None) -> Built:
    if field == "message":
        return replace(built, message=value)
    literal = value.literal if value is not None else None
    if field == "code":
        return replace(built, code=code_of(value))
    status = int(literal) if literal is not None and literal.isdigit() else None
    return replace(built, status=status)


def constructor_of(body: Node) -> Node | None:
    return next((
        m for m in body.named_children
        if m.type == "method_definition" and text(m.child_by_field_name("name")) == "constructor"
    ), None)


def own_nodes(function: Node) -> list[Node]:
    """Nodes of a function's body, not those of functions nested in it."""
    return nodes_from(function.child_by_field_name("body"), SCOPES)


def super_call(constructor: Node) -> Node | None:
    return next((
        n for n in own_nodes(constructor)
        if n.type == "call_expression" and (f := n.child_by_field_name("function")) is not None
        and f.type == "super"
    ), None)


def this_assignments(constructor: Node, names: frozenset[str] | None = _FIELDS
                     ) -> list[tuple[str, Node]]:
    """``this.code = …`` (and message/status; any field when ``names`` is None) in the
    constructor body, in order."""
    out: list[tuple[str, Node]] = []
    for node in own_nodes(constructor):
        if node.type != "assignment_expression":
            continue
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or left.type != "member_expression":
            continue
        obj = unwrap(left.child_by_field_name("object"))
        field = text(left.child_by_field_name("property"))
        if obj is not None and obj.type == "this" and (names is None or field in names):
            out.append((field, right))
    return out
