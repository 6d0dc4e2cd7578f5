"""What a Ruby call passes to a producer: its arguments as template alternatives, and the
producer call a ``raise`` makes.

An argument is a template per branch (``c ? a : b``, an ``if`` expression, ``a || b``, a
variable assigned per branch of an ``if``/``case``, a ``+`` chain with such an operand,
an interpolated ``c ? a : b``), a hole named after what source does not spell (a variable
assigned text above is that text). ``raise X, msg`` / ``raise X.new(…)`` / ``raise X`` /
``raise factory(…)`` call ``X`` or the factory (``SystemCallError``/``Errno::X`` print
``strerror - `` first); a message a method builds (``raise X, not_found(key)``) calls that
method. Also the walking of a method's own nodes and values. Kept apart from
``compose.py``, which reads the producers.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable

from tree_sitter import Node

from errdex.languages._engine import FileIndex, Message
from errdex.languages._engine.walk import nodes_below
from errdex.languages.base import ancestors, text
from errdex.languages.facts import Argument, Call, constant_name, substitute, unknown
from errdex.languages.ruby.appended import appended
from errdex.templates.template import Hole, Literal, Part, Template, merge_literals

# How the language reads an expression's message (the spec's reader, given by the spec).
Read = Callable[[Node | None, FileIndex], Message | None]

CLASS_NODES = ("constant", "scope_resolution")
METHODS = ("method", "singleton_method")
OWNERS = ("class", "module")
_SCOPES = frozenset({"method", "singleton_method", "class", "module", "program"})
_BRANCHES = ("if", "unless", "case", "if_modifier", "unless_modifier")
_MAX_ALTERNATIVES = 8


def argument(node: Node | None, file: FileIndex, read: Read) -> Argument:
    """What an argument can print: a template per branch, a hole for what source hides."""
    if node is not None:
        built = appended(node, file, lambda value: argument(value, file, read))
        if built is not None:  # a text built with ``<<``: each way, or unknown
            return tuple(built) if built else (unknown(_name(node)),)
    joined = _joined(node, file, read) if node is not None else None
    if joined is not None:
        return joined
    out: list[Template] = []
    for branch in _alternatives(node, file, 0) if node is not None else []:
        message = read(branch, file)
        if message is None and branch.type in ("integer", "float"):
            message = Message(text(branch), (Literal(text(branch)),), text(branch))
        template = (Template(message.written, message.parts) if message is not None
                    else unknown(_name(branch)))
        template = _resolved(branch, template, file, read)
        for each in _interpolated_branches(branch, template, file, read):
            if each.normalized() not in {t.normalized() for t in out}:
                out.append(each)
    return tuple(out[:_MAX_ALTERNATIVES])


def _resolved(node: Node, template: Template, file: FileIndex, read: Read) -> Template:
    """``"#{message} in #{namespace}"`` where ``message`` was assigned text above: that text
    in place of the hole (thor's ``message = "Could not find …"; message = "#{message} …"``)."""
    if node.type != "string":
        return template
    bindings: dict[str, Template] = {}
    for interpolation in (c for c in node.named_children if c.type == "interpolation"):
        inner = [c for c in interpolation.named_children if c.type != "comment"]
        if len(inner) == 1 and inner[0].type == "identifier":
            value = read(inner[0], file)
            if value is not None and value.has_text():
                bindings[text(inner[0])] = Template(value.written, value.parts)
    return substitute(template, bindings) if bindings else template


def _interpolated_branches(node: Node, template: Template, file: FileIndex, read: Read
                           ) -> list[Template]:
    """``"invalid#{reason.empty? ? "." : ": #{reason}"}"``: a template per branch of each
    interpolated ``c ? a : b`` / ``if``."""
    out = [template]
    for interpolation in (c for c in node.named_children if c.type == "interpolation"):
        inner = [c for c in interpolation.named_children if c.type != "comment"]
        if node.type != "string" or len(inner) != 1 or inner[0].type not in (
                "conditional", "if", "unless"):
            continue
        branches = argument(inner[0], file, read)
        if len(branches) > 1:
            name = text(inner[0]).strip()
            out = [substitute(t, {name: b}) for t in out for b in branches][:_MAX_ALTERNATIVES]
    return out


def _joined(node: Node, file: FileIndex, read: Read) -> Argument | None:
    """``message + (safe ? " a" : " b")``: each branch of an operand joined to the others;
    None when no operand branches."""
    operands = _plus_operands(node)
    if len(operands) < 2 or all(len(_alternatives(op, file, 0)) < 2 and appended(
            op, file, lambda value: argument(value, file, read)) is None for op in operands):
        return None
    combos: list[Template] = [Template("", ())]
    for operand in operands:
        combos = [Template(c.written + t.written, merge_literals([*c.parts, *t.parts]))
                  for c in combos for t in argument(operand, file, read)][:_MAX_ALTERNATIVES]
    return tuple(combos)


def _plus_operands(node: Node) -> list[Node]:
    if node.type == "parenthesized_statements" and node.named_child_count == 1:
        return _plus_operands(node.named_children[0])
    if node.type != "binary" or text(node.child_by_field_name("operator")) != "+":
        return [node]
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None:
        return [node]
    return [*_plus_operands(left), *_plus_operands(right)]


def call_of(callee: str, args: Node | None, file: FileIndex, at: Node, read: Read,
            positional: list[Node] | None = None) -> Call:
    """The ``Call`` a site makes (``raise NotFound.new(key)``, ``raise X, msg``), written in
    the class or module around ``at``."""
    nodes, keywords = split_arguments(args) if positional is None else (positional, [])
    return Call(callee, tuple(argument(n, file, read) for n in nodes),
                tuple((k, argument(v, file, read)) for k, v in keywords), owner=owner_name(at))


def split_arguments(args: Node | None) -> tuple[list[Node], list[tuple[str, Node]]]:
    """Positional argument nodes and ``key: value`` pairs (splats and blocks left out)."""
    positional: list[Node] = []
    keywords: list[tuple[str, Node]] = []
    for child in args.named_children if args is not None else ():
        if child.type == "pair":
            key, value = child.child_by_field_name("key"), child.child_by_field_name("value")
            if key is not None and value is not None:
                keywords.append((text(key).rstrip(":").lstrip(":").strip("\"'"), value))
        elif child.type not in ("splat_argument", "hash_splat_argument", "block_argument",
                                "comment"):
            positional.append(child)
    return positional, keywords


def _alternatives(node: Node, file: FileIndex, depth: int) -> list[Node]:
    """The expressions ``node`` may be, one per branch (itself when it has none)."""
    if depth > 4:
        return [node]
    if node.type == "parenthesized_statements" and node.named_child_count == 1:
        return _alternatives(node.named_children[0], file, depth + 1)
    branches: list[Node] = []
    if node.type == "conditional":
        branches = [c for c in (node.child_by_field_name("consequence"),
                                node.child_by_field_name("alternative")) if c is not None]
    elif node.type in ("if", "unless", "elsif", "else", "then", "case", "when"):
        branches = branch_values(node)
    elif node.type == "binary" and text(node.child_by_field_name("operator")) in ("||", "or"):
        branches = [c for c in (node.child_by_field_name("left"),
                                node.child_by_field_name("right")) if c is not None]
    elif node.type == "identifier":
        branches = _assigned(node, file)
    if not branches:
        return [node]
    return [n for b in branches for n in _alternatives(b, file, depth + 1)]


def branch_values(node: Node) -> list[Node]:
    """The last expression of each branch of an ``if``/``case`` used as a value."""
    if node.type in ("then", "else"):
        statements = [c for c in node.named_children if c.type != "comment"]
        return statements[-1:]
    out: list[Node] = []
    for field in ("consequence", "alternative"):
        child = node.child_by_field_name(field)
        if child is not None:
            out.extend(branch_values(child))
    for child in node.named_children:
        if child.type in ("when", "else") and node.type == "case":
            body = child.child_by_field_name("body") if child.type == "when" else child
            if body is not None:
                out.extend(branch_values(body))
    return out


def _assigned(node: Node, file: FileIndex) -> list[Node]:
    """A variable's value: a branching one, or each branch's assignment of an ``if``/``case``
    above the use (``if n; msg = "a"; else; msg = "b"; end``); none when plain."""
    nearest = file.nearest(node, _SCOPES)
    if nearest is None or nearest.type != "assignment":
        return []
    right = nearest.child_by_field_name("right")
    if right is not None and right.type in ("conditional", "if", "unless", "case", "binary"):
        return [right]
    branching = next((a for a in ancestors(nearest) if a.type in _BRANCHES or a.type in _SCOPES),
                     None)
    if branching is None or branching.type not in ("if", "unless", "case"):
        return []
    name = text(node)
    values = [a.child_by_field_name("right") for a in file.assignments.get(name, [])
              if a.type == "assignment" and branching.start_byte <= a.start_byte
              and a.end_byte <= branching.end_byte]
    found = [v for v in values if v is not None]
    return found if len(found) > 1 else []


def _name(node: Node) -> str:
    """A hole's name: ``key.to_s`` is ``key``."""
    return text(node).removesuffix(".to_s")


def last(name: str) -> str:
    return name.rsplit("::", 1)[-1]


def is_constant(name: str) -> bool:
    """A string constant's name as the composition layer knows one (``NOT_FOUND``)."""
    return constant_name(Hole.of(name, name)) is not None


def message_call(node: Node, file: FileIndex, read: Read, at: Node) -> Call | None:
    """A message argument that a method of the repository may build: ``not_found(key)``,
    ``Messages.missing(key)``, a bare ``default_message`` that is no local variable."""
    if node.type == "identifier" and file.nearest(node, _SCOPES) is None and (
            text(node) not in _parameters_around(node)):
        return Call(text(node), owner=owner_name(at))
    if node.type != "call":
        return None
    method = text(node.child_by_field_name("method"))
    receiver = node.child_by_field_name("receiver")
    if not method[:1].islower() or method in ("new", "format", "sprintf", "to_s", "join",
                                                "inspect", "message", "freeze"):
        return None
    if receiver is not None and receiver.type not in (*CLASS_NODES, "self"):
        return None
    callee = method if receiver is None else f"{text(receiver)}.{method}"
    return call_of(callee, node.child_by_field_name("arguments"), file, at, read)


def errno_prefix(error_class: str | None) -> tuple[Part, ...]:
    """What ``SystemCallError`` and ``Errno::X`` print before the message: ``strerror - ``
    (this platform's text for a known ``Errno`` constant)."""
    name = (error_class or "").removeprefix("::")
    if name == "SystemCallError":
        return (Hole.of("strerror", "{strerror}"), Literal(" - "))
    number = getattr(errno, name.removeprefix("Errno::"), None) if name.startswith(
        "Errno::") else None
    if isinstance(number, int):
        return (Literal(os.strerror(number) + " - "),)
    return ()


def raise_call(node: Node, file: FileIndex, read: Read) -> Call | None:
    """The producer call ``raise X, msg`` / ``raise X.new(…)`` / ``raise X`` / ``raise "…"`` /
    ``raise factory(…)`` makes (None for ``raise e``); ``Errno`` classes' message prefixed."""
    call = _raise_call(node, file, read)
    prefix = errno_prefix(call.callee) if call is not None else ()
    if call is None or not prefix or not call.args:
        return call
    first = tuple(Template(t.written, t.message, (*prefix, *t.prefix), t.suffix)
                  for t in call.args[0])
    return Call(call.callee, (first, *call.args[1:]), call.keywords, call.owner, call.path)


def _raise_call(node: Node, file: FileIndex, read: Read) -> Call | None:
    positional, _ = split_arguments(node.child_by_field_name("arguments"))
    if not positional:
        return None
    first = positional[0]
    if first.type in CLASS_NODES and len(positional) == 1 and is_constant(last(text(first))):
        return Call("RuntimeError", ((unknown(text(first)),),), owner=owner_name(node))
    if first.type in CLASS_NODES:
        return call_of(text(first), None, file, node, read, positional=positional[1:2])
    if len(positional) > 1:
        return None
    if first.type == "call":
        method = text(first.child_by_field_name("method"))
        receiver = first.child_by_field_name("receiver")
        args = first.child_by_field_name("arguments")
        if method == "new" and receiver is not None and receiver.type in CLASS_NODES:
            return call_of(text(receiver), args, file, node, read)
        if receiver is None or receiver.type in (*CLASS_NODES, "self"):
            callee = method if receiver is None else f"{text(receiver)}.{method}"
            return call_of(callee, args, file, node, read)
        return None
    if first.type in ("string", "chained_string", "binary", "conditional"):
        return call_of("RuntimeError", None, file, node, read, positional=[first])
    return None


def _parameters_around(node: Node) -> set[str]:
    """The parameters of the method ``node`` is in (and of the blocks around it)."""
    names: set[str] = set()
    for ancestor in ancestors(node):
        params = ancestor.child_by_field_name("parameters")
        if params is not None:
            names.update(text(p.child_by_field_name("name") or p) for p in params.named_children)
        if ancestor.type in METHODS:
            break
    return names


def owner_name(node: Node) -> str | None:
    """The class or module ``node`` is written in (its last name)."""
    owner = next((a for a in ancestors(node) if a.type in OWNERS), None)
    return last(text(owner.child_by_field_name("name"))) if owner is not None else None


def values(method: Node, returns: list[Node] | None = None) -> list[Node]:
    """What a method returns: each ``return``'s value (``returns``, when the caller found
    them) and its last expression's branches."""
    out: list[Node] = []
    for node in own(method, ("return",)) if returns is None else returns:
        args = node.named_children[0] if node.named_children else None
        if args is not None and args.type == "argument_list" and args.named_children:
            out.append(args.named_children[0])
        elif args is not None and args.type != "argument_list":
            out.append(args)
    body = method.child_by_field_name("body")
    if body is not None and body.type != "body_statement":
        last: Node | None = body
    else:
        statements = [c for c in (body.named_children if body is not None else ())
                      if c.type not in ("comment", "rescue", "ensure", "else")]
        last = statements[-1] if statements else None
    if last is not None and last.type not in ("return", "if_modifier", "unless_modifier"):
        out.extend(branch_values(last) if last.type in ("if", "unless", "case") else [last])
    return out


def own(node: Node, types: tuple[str, ...]) -> list[Node]:
    """The nodes of ``types`` in a method, not inside a nested method or class."""
    return [n for n in nodes_below(node, (*METHODS, *OWNERS), keep_nested=True)
            if n.type in types]
