"""Ruby producers: what ``raise NotFound.new(key)`` or ``raise Errors.not_found(key)`` prints
when the class or the factory is written in another file.

Read per file, composed across the repository (``errdex.mining.compose``):

* an error class: ``class NotFound < StoreError; def initialize(key); super("no such item:
  #{key}"); end; end`` prints ``no such item: <key>``. A bare ``super`` passes the
  parameters on (``def initialize(msg = "timed out"); super; end``: the default when no
  message is given), ``super(msg || "text")`` makes ``text`` ``msg``'s default; a ``def
  message`` or ``def to_s`` returning a template of ``@fields`` set from parameters wins
  (``#{super}`` in it is the message passed up), and so does ``attr_reader :message`` of an
  ``@message`` set from them. ``X = Class.new(Base)`` is a class too, and one with no
  message of its own takes its base's;
* a string constant: ``NOT_FOUND = "no such item".freeze`` (UPPER_SNAKE names);
* factories, helpers and message builders: methods, read in ``helpers.py``.

What a site or a producer passes is read in ``calls.py``.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import FileIndex
from errdex.languages.base import ancestors, captures, line_of, load_query, text
from errdex.languages.facts import (
    MAX_ALTERNATIVES,
    Argument,
    Call,
    Composer,
    Producer,
    Result,
    bind,
    has_text,
    parameter,
    substitute,
)
from errdex.languages.ruby.calls import (
    CLASS_NODES,
    METHODS,
    OWNERS,
    Read,
    argument,
    is_constant,
    last,
    own,
    owner_name,
    split_arguments,
    values,
)
from errdex.languages.ruby.helpers import function, parameters
from errdex.templates.formats import parse_printf
from errdex.templates.template import Hole, Literal, Template, literal_template, merge_literals

_MESSAGE_METHODS = ("message", "to_s")
_QUERY = Path(__file__).with_name("compose.scm")


# --- producers -------------------------------------------------------------------------


def producers(root: Node, source: bytes, path: str, *, read: Read) -> list[Producer]:
    """The producers of one parsed file (a query finds the declarations and the local
    variables their messages may read)."""
    found_nodes = captures(load_query("ruby", _QUERY), root)
    classes = found_nodes.get("class", [])
    methods = [m for m in found_nodes.get("method", []) if text(
        m.child_by_field_name("name")) not in ("initialize", *_MESSAGE_METHODS)]
    file = FileIndex()
    constants: list[Node] = []
    for node in found_nodes.get("assign", []):
        left = node.child_by_field_name("left")
        if left is not None and left.type == "identifier":
            file.add(text(left), node)
        elif left is not None and left.type == "constant" and node.type == "assignment":
            constants.append(node)
    file.sort()
    found = [_class(node, path, file, read) for node in classes]
    found.extend(p for node in constants
                 if (p := _class_new(node, path) or _constant(node, path, read)) is not None)
    inner: dict[int, list[Node]] = {}
    for node in found_nodes.get("inner", []):
        method = next((a for a in ancestors(node) if a.type in (*METHODS, *OWNERS)), None)
        if method is not None and method.type in METHODS:
            inner.setdefault(method.id, []).append(node)
    found.extend(p for node in methods if (p := function(
        node, path, file, read, sorted(inner.get(node.id, []), key=lambda n: n.start_byte))
    ) is not None)
    return found


def _class(node: Node, path: str, file: FileIndex, read: Read) -> Producer:
    written = text(node.child_by_field_name("name"))
    name = last(written)
    superclass = node.child_by_field_name("superclass")
    base = next((c for c in superclass.named_children if c.type in CLASS_NODES), None
                ) if superclass is not None else None
    bases = (text(base),) if base is not None else ()
    methods = _methods(node)
    init = methods.get("initialize")
    params: tuple[str, ...] = ()
    defaults: dict[str, Template] = {}
    fields: dict[str, Template] = {}
    results: list[Result] = []
    if init is not None:
        params, defaults = parameters(init, read)
        fields = _fields(init, params, file, read)
        results = [bind(r, fields) for r in _super_calls(init, name, params, defaults, file, read)]
    shown = next((m for m in map(methods.get, _MESSAGE_METHODS) if m is not None), None)
    role = "class message"
    if shown is not None:
        passed_up = _passed_up(init, params, results)
        if passed_up is not None:
            fields = {**fields, "super": passed_up}
        message, decorates = _message_results(shown, fields, file, read)
        if message:
            results = message
            role = "class decoration" if decorates else role
            if init is None and decorates:
                params = ("message",)
    elif "@message" in fields and _reads_message(node):  # attr_reader :message
        results = [fields["@message"]]
    owner = _owner(node, written)
    return Producer(name, params, tuple(results), role, path, line_of(node), owner=owner,
                    bases=bases, is_class=True, defaults=tuple(defaults.items()))


def _reads_message(cls: Node) -> bool:
    """Whether ``attr_reader``/``attr_accessor`` makes ``@message`` the message."""
    body = cls.child_by_field_name("body")
    for call in (c for c in (body.named_children if body is not None else ()) if c.type == "call"):
        if text(call.child_by_field_name("method")) in ("attr_reader", "attr_accessor"):
            positional, _ = split_arguments(call.child_by_field_name("arguments"))
            if any(text(a) in (":message", ":to_s") for a in positional):
                return True
    return False


def _class_new(node: Node, path: str) -> Producer | None:
    """``NotFound = Class.new(StoreError)``: a class that prints what its base does."""
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None or left.type != "constant" or right.type != "call":
        return None
    if text(right.child_by_field_name("receiver")) != "Class" or text(
            right.child_by_field_name("method")) != "new":
        return None
    positional, _ = split_arguments(right.child_by_field_name("arguments"))
    bases = tuple(text(b) for b in positional[:1] if b.type in CLASS_NODES)
    return Producer(text(left), (), (), "class message", path, line_of(node),
                    owner=owner_name(node), bases=bases, is_class=True)


def _constant(node: Node, path: str, read: Read) -> Producer | None:
    """``NOT_FOUND = "no such item".freeze``: a string constant (UPPER_SNAKE names only)."""
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None or left.type != "constant" or not is_constant(text(left)):
        return None
    if right.type == "call" and text(right.child_by_field_name("method")) == "freeze":
        right = right.child_by_field_name("receiver") or right
    value = read(right, FileIndex())
    if value is None or value.literal is None:
        return None
    return Producer(text(left), (), (literal_template(value.literal),), "constant", path,
                    line_of(node), owner=owner_name(node))


def _methods(cls: Node) -> dict[str, Node]:
    body = cls.child_by_field_name("body")
    return {text(m.child_by_field_name("name")): m
            for m in (body.named_children if body is not None else ()) if m.type == "method"}


def _fields(init: Node, params: tuple[str, ...], file: FileIndex, read: Read
            ) -> dict[str, Template]:
    """What ``@fields`` print: ``@key = key`` the ``key`` argument (and so does an
    ``attr_reader`` ``key``), ``@msg = "…"`` that template."""
    mapping: dict[str, Template] = {}
    for node in own(init, ("assignment",)):
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or left.type != "instance_variable":
            continue
        field = text(left)
        if text(right) in params:
            mapping[field] = parameter(text(right))
            if field[1:] not in params:
                mapping[field[1:]] = parameter(text(right))
        else:
            values = argument(right, file, read)
            if len(values) == 1 and has_text(values[0]):
                mapping[field] = values[0]
    return mapping


def _super_calls(init: Node, name: str, params: tuple[str, ...], defaults: dict[str, Template],
                 file: FileIndex, read: Read) -> list[Result]:
    """What ``initialize`` passes up: ``super(…)``'s arguments, a bare ``super``'s all."""
    out: list[Result] = []
    for node in own(init, ("super", "call")):
        if node.type == "super":
            if node.parent is not None and node.parent.type == "call":
                continue  # ``super(…)``: the call's
            if node.parent is not None and node.parent.type == "interpolation":
                continue
            out.append(Call("super", tuple((parameter(p),) for p in params), owner=name))
            continue
        if text(node.child_by_field_name("method")) != "super":
            continue
        positional, keywords = split_arguments(node.child_by_field_name("arguments"))
        args: list[Argument] = []
        for arg in positional:
            args.append(_defaulted(arg, params, defaults, file, read) or argument(arg, file, read))
        out.append(Call("super", tuple(args), tuple((k, argument(v, file, read))
                                                    for k, v in keywords), owner=name))
    return out


def _defaulted(node: Node, params: tuple[str, ...], defaults: dict[str, Template],
               file: FileIndex, read: Read) -> Argument | None:
    """``msg || "text"`` of a parameter: the parameter, with ``text`` its default."""
    if node.type != "binary" or text(node.child_by_field_name("operator")) not in ("||", "or"):
        return None
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or text(left) not in params:
        return None
    fallback = argument(right, file, read)
    if len(fallback) != 1 or not has_text(fallback[0]):
        return None
    defaults[text(left)] = fallback[0]
    return (parameter(text(left)),)


def _passed_up(init: Node | None, params: tuple[str, ...], results: list[Result]
               ) -> Template | None:
    """What ``super`` means in ``def message``: the message given to ``new`` (no
    ``initialize``), or the one template ``initialize`` passes up."""
    if init is None:
        return parameter("message")
    if len(results) == 1 and isinstance(results[0], Call) and results[0].args and len(
            results[0].args[0]) == 1:
        return results[0].args[0][0]
    return None


def _message_results(method: Node, fields: dict[str, Template], file: FileIndex, read: Read
                     ) -> tuple[list[Result], bool]:
    """``def message`` / ``def to_s``: each value it returns, fields filled, and whether it
    decorates ``super``; none unless one says something (a lone ``@message`` leaves the
    constructor's)."""
    out: list[Result] = []
    decorates = False
    for value in values(method):
        for template in argument(value, file, read):
            if any(h.name == "super" for h in template.holes):
                if "super" not in fields:
                    return [], False
                decorates = True
            bound = bind(template, fields)
            assert isinstance(bound, Template)
            out.append(bound)
    if not any(isinstance(r, Template) and has_text(r) for r in out):
        return [], False
    return out, decorates


# --- walking ---------------------------------------------------------------------------


def _owner(node: Node, written: str) -> str | None:
    """A class's owner: ``MyLib`` for ``class MyLib::Gone`` or one inside ``module MyLib``."""
    if "::" in written:
        return last(written.rsplit("::", 1)[0])
    return owner_name(node)


def composer(read: Read) -> Composer:
    """The Ruby composer, reading messages the spec's way."""
    def read_producers(root: Node, source: bytes, path: str) -> list[Producer]:
        return producers(root, source, path, read=read)

    return Composer(producers=read_producers, format=format_text)  # every file: constants


def format_text(template: Template, args: tuple[Argument, ...],
                keywords: tuple[tuple[str, Argument], ...]) -> list[Template]:
    """``fmt % [a, b]`` once ``fmt`` is known: Ruby's ``format`` conversions filled with
    what is passed (one template per combination); nothing when the format is not text."""
    if template.holes or keywords:
        return []
    names = [f"\0{i}" for i in range(len(args))]
    parts = parse_printf("".join(p.text for p in template.parts if isinstance(p, Literal)),
                         names, dialect="c")
    spelled = "".join(p.text if isinstance(p, Literal) else p.spec for p in parts)
    formatted = Template(spelled, merge_literals(parts))
    choices = [[(names[i], t) for t in a] for i, a in enumerate(args) if a]
    out = []
    for combo in itertools.islice(itertools.product(*choices), MAX_ALTERNATIVES):
        done = substitute(formatted, dict(combo))
        out.append(Template(done.written, tuple(
            replace(p, name=p.name.lstrip("\0")) if isinstance(p, Hole) and p.name else p
            for p in done.message)))
    return out
