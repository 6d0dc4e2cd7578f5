"""Ruby producers: what ``raise NotFound.new(key)`` or ``raise Errors.not_found(key)`` prints
when the class or the factory is written in another file.

Read per file, composed across the repository (``errdex.mining.compose``):

* an error class: ``class NotFound < StoreError; def initialize(key); super("no such item:
  #{key}"); end; end`` prints ``no such item: <key>``. A bare ``super`` passes the
  parameters on (``def initialize(msg = "timed out"); super; end``: the default when no
  message is given), ``super(msg || "text")`` makes ``text`` ``msg``'s default; a ``def
  message`` or ``def to_s`` returning a template of ``@fields`` set from parameters wins
  (``#{super}`` in it is the message passed up). ``X = Class.new(Base)`` is a class too,
  and one with no message of its own takes its base's;
* a factory: a method (``def self.not_found(key)``, a module's) whose value, or a
  ``return``, is ``X.new(…)`` built from its parameters (``new(…)`` in a class method is its
  own class);
* a helper: one that raises it itself (``def fail!(msg) raise ConfigError, "config: " + msg``).

Arguments are alternatives (``argument``): each branch of ``c ? a : b``, of an ``if``
expression, of ``a || b``, and of a variable assigned per branch of an ``if``/``case``.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from errdex.languages._engine import FileIndex, Message
from errdex.languages.base import ancestors, line_of, text
from errdex.languages.facts import (
    Argument,
    Call,
    Composer,
    Producer,
    Result,
    bind,
    constant_name,
    has_text,
    parameter,
    unknown,
)
from errdex.templates.template import Hole, Literal, Template, literal_template, merge_literals

# How the language reads an expression's message (the spec's reader, given by the spec).
Read = Callable[[Node | None, FileIndex], Message | None]

_CLASS_NODES = ("constant", "scope_resolution")
_METHODS = ("method", "singleton_method")
_OWNERS = ("class", "module")
_SCOPES = frozenset({"method", "singleton_method", "class", "module", "program"})
_BRANCHES = ("if", "unless", "case", "if_modifier", "unless_modifier")
_MESSAGE_METHODS = ("message", "to_s")
_MAX_ALTERNATIVES = 8


# --- arguments -------------------------------------------------------------------------


def argument(node: Node | None, file: FileIndex, read: Read) -> Argument:
    """What an argument can print: a template per branch, a hole for what source hides."""
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
        if template.normalized() not in {t.normalized() for t in out}:
            out.append(template)
    return tuple(out[:_MAX_ALTERNATIVES])


def _joined(node: Node, file: FileIndex, read: Read) -> Argument | None:
    """``message + (safe ? " a" : " b")``: each branch of an operand joined to the others;
    None when no operand branches."""
    operands = _plus_operands(node)
    if len(operands) < 2 or all(len(_alternatives(op, file, 0)) < 2 for op in operands):
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
        branches = _branch_values(node)
    elif node.type == "binary" and text(node.child_by_field_name("operator")) in ("||", "or"):
        branches = [c for c in (node.child_by_field_name("left"),
                                node.child_by_field_name("right")) if c is not None]
    elif node.type == "identifier":
        branches = _assigned(node, file)
    if not branches:
        return [node]
    return [n for b in branches for n in _alternatives(b, file, depth + 1)]


def _branch_values(node: Node) -> list[Node]:
    """The last expression of each branch of an ``if``/``case`` used as a value."""
    if node.type in ("then", "else"):
        statements = [c for c in node.named_children if c.type != "comment"]
        return statements[-1:]
    out: list[Node] = []
    for field in ("consequence", "alternative"):
        child = node.child_by_field_name(field)
        if child is not None:
            out.extend(_branch_values(child))
    for child in node.named_children:
        if child.type in ("when", "else") and node.type == "case":
            body = child.child_by_field_name("body") if child.type == "when" else child
            if body is not None:
                out.extend(_branch_values(body))
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


# --- producers -------------------------------------------------------------------------


def producers(root: Node, source: bytes, path: str, *, read: Read) -> list[Producer]:
    """The producers of one parsed file."""
    file = _index(root)
    found: list[Producer] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "class":
            found.append(_class(node, path, file, read))
        elif node.type == "assignment":
            made = _class_new(node, path) or _constant(node, path, read)
            if made is not None:
                found.append(made)
        elif node.type in _METHODS and text(node.child_by_field_name("name")) not in (
                "initialize", *_MESSAGE_METHODS):
            function = _function(node, path, file, read)
            if function is not None:
                found.append(function)
        stack.extend(node.named_children)
    return found


def _index(root: Node) -> FileIndex:
    """Every local variable assignment of the file (``nearest`` keeps each to its method)."""
    file = FileIndex()
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in ("assignment", "operator_assignment"):
            left = node.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                file.add(text(left), node)
        stack.extend(node.named_children)
    file.sort()
    return file


def _last(name: str) -> str:
    return name.rsplit("::", 1)[-1]


def _class(node: Node, path: str, file: FileIndex, read: Read) -> Producer:
    written = text(node.child_by_field_name("name"))
    name = _last(written)
    superclass = node.child_by_field_name("superclass")
    base = next((c for c in superclass.named_children if c.type in _CLASS_NODES), None
                ) if superclass is not None else None
    bases = (text(base),) if base is not None else ()
    methods = _methods(node)
    init = methods.get("initialize")
    params: tuple[str, ...] = ()
    defaults: dict[str, Template] = {}
    fields: dict[str, Template] = {}
    results: list[Result] = []
    if init is not None:
        params, defaults = _parameters(init, read)
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
    bases = tuple(text(b) for b in positional[:1] if b.type in _CLASS_NODES)
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


def is_constant(name: str) -> bool:
    """A string constant's name as the composition layer knows one (``NOT_FOUND``)."""
    return constant_name(Hole.of(name, name)) is not None


def _methods(cls: Node) -> dict[str, Node]:
    body = cls.child_by_field_name("body")
    return {text(m.child_by_field_name("name")): m
            for m in (body.named_children if body is not None else ()) if m.type == "method"}


def _parameters(method: Node, read: Read) -> tuple[tuple[str, ...], dict[str, Template]]:
    """Parameter names (splats and blocks left out) and the defaults that are text."""
    names: list[str] = []
    defaults: dict[str, Template] = {}
    params = method.child_by_field_name("parameters")
    for param in params.named_children if params is not None else ():
        if param.type == "identifier":
            names.append(text(param))
        elif param.type in ("optional_parameter", "keyword_parameter"):
            name = text(param.child_by_field_name("name"))
            names.append(name)
            value = read(param.child_by_field_name("value"), FileIndex())
            if value is not None and has_text(Template(value.written, value.parts)):
                defaults[name] = Template(value.written, value.parts)
    return tuple(names), defaults


def _fields(init: Node, params: tuple[str, ...], file: FileIndex, read: Read
            ) -> dict[str, Template]:
    """What ``@fields`` print: ``@key = key`` the ``key`` argument (and so does an
    ``attr_reader`` ``key``), ``@msg = "…"`` that template."""
    mapping: dict[str, Template] = {}
    for node in _own(init, ("assignment",)):
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
    for node in _own(init, ("super", "call")):
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
    for value in _values(method):
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


# --- factories and helpers -------------------------------------------------------------


def _function(node: Node, path: str, file: FileIndex, read: Read) -> Producer | None:
    """A factory (its value or a ``return`` is ``X.new(…)``), a helper (it raises), or a
    message builder (it returns text: ``def not_found_message(key) "no such #{key}" end``)."""
    params, defaults = _parameters(node, read)
    owner = owner_name(node)
    calls: list[Call] = []
    role = "factory"
    for value in _values(node):
        made = _constructed(value, node, owner, file, read)
        if made is not None:
            calls.append(made)
    for raised in _own(node, ("call",)):
        if text(raised.child_by_field_name("method")) in ("raise", "fail") and (
                raised.child_by_field_name("receiver") is None):
            made = raise_call(raised, file, read)
            if made is not None:
                calls.append(made)
                role = "helper"
    results: list[Result] = [
        Call(c.callee, c.args, c.keywords, c.owner, path) for c in calls
        if _uses(c, set(params)) and _last(c.callee)[:1].isupper()]  # a method is no producer
    if not results and not calls:
        results = list(_texts(node, params, file, read))
    if not results:
        return None
    return Producer(text(node.child_by_field_name("name")), params, tuple(results[:16]), role,
                    path, line_of(node), owner=owner, defaults=tuple(defaults.items()))


def _texts(node: Node, params: tuple[str, ...], file: FileIndex, read: Read) -> list[Template]:
    """The messages a method returns: text, built from its parameters when it has some."""
    out: list[Template] = []
    for value in _values(node):
        if value.type not in ("string", "chained_string", "binary", "call", "conditional",
                              "if", "case", "identifier"):
            continue
        for template in argument(value, file, read):
            if has_text(template) and (not params or any(h.name in params
                                                         for h in template.holes)):
                out.append(template)
    return out


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
    if receiver is not None and receiver.type not in (*_CLASS_NODES, "self"):
        return None
    callee = method if receiver is None else f"{text(receiver)}.{method}"
    return call_of(callee, node.child_by_field_name("arguments"), file, at, read)


def _constructed(value: Node, method: Node, owner: str | None, file: FileIndex, read: Read
                 ) -> Call | None:
    """``X.new(…)`` (``new(…)`` in a class method: its class)."""
    if value.type != "call" or text(value.child_by_field_name("method")) != "new":
        return None
    receiver = value.child_by_field_name("receiver")
    if receiver is None and method.type == "singleton_method" and owner is not None:
        callee = owner
    elif receiver is not None and receiver.type in _CLASS_NODES:
        callee = text(receiver)
    else:
        return None
    return call_of(callee, value.child_by_field_name("arguments"), file, value, read)


def raise_call(node: Node, file: FileIndex, read: Read) -> Call | None:
    """The producer call ``raise X, msg`` / ``raise X.new(…)`` / ``raise X`` / ``raise "…"`` /
    ``raise factory(…)`` makes (None for ``raise e``)."""
    positional, _ = split_arguments(node.child_by_field_name("arguments"))
    if not positional:
        return None
    first = positional[0]
    if first.type in _CLASS_NODES and len(positional) == 1 and is_constant(_last(text(first))):
        return Call("RuntimeError", ((unknown(text(first)),),), owner=owner_name(node))
    if first.type in _CLASS_NODES:
        return call_of(text(first), None, file, node, read, positional=positional[1:2])
    if len(positional) > 1:
        return None
    if first.type == "call":
        method = text(first.child_by_field_name("method"))
        receiver = first.child_by_field_name("receiver")
        args = first.child_by_field_name("arguments")
        if method == "new" and receiver is not None and receiver.type in _CLASS_NODES:
            return call_of(text(receiver), args, file, node, read)
        if receiver is None or receiver.type in (*_CLASS_NODES, "self"):
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
        if ancestor.type in _METHODS:
            break
    return names


def _uses(call: Call, params: set[str]) -> bool:
    """Whether a call's arguments print one of the parameters."""
    arguments_ = [*call.args, *(a for _, a in call.keywords)]
    return any(h.name in params for a in arguments_ for t in a for h in t.holes)


# --- walking ---------------------------------------------------------------------------


def _values(method: Node) -> list[Node]:
    """What a method returns: each ``return``'s value and its last expression's branches."""
    out: list[Node] = []
    for node in _own(method, ("return",)):
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
        out.extend(_branch_values(last) if last.type in ("if", "unless", "case") else [last])
    return out


def _own(node: Node, types: tuple[str, ...]) -> list[Node]:
    """The nodes of ``types`` in a method, not inside a nested method or class."""
    out: list[Node] = []
    stack = list(node.named_children)
    while stack:
        child = stack.pop()
        if child.type in types:
            out.append(child)
        if child.type not in (*_METHODS, *_OWNERS):
            stack.extend(child.named_children)
    return sorted(out, key=lambda n: n.start_byte)


def owner_name(node: Node) -> str | None:
    """The class or module ``node`` is written in (its last name)."""
    owner = next((a for a in ancestors(node) if a.type in _OWNERS), None)
    return _last(text(owner.child_by_field_name("name"))) if owner is not None else None


def _owner(node: Node, written: str) -> str | None:
    """A class's owner: ``MyLib`` for ``class MyLib::Gone`` or one inside ``module MyLib``."""
    if "::" in written:
        return _last(written.rsplit("::", 1)[0])
    return owner_name(node)


def composer(read: Read) -> Composer:
    """The Ruby composer, reading messages the spec's way."""
    def read_producers(root: Node, source: bytes, path: str) -> list[Producer]:
        return producers(root, source, path, read=read)

    return Composer(producers=read_producers)  # constants too: every file may define one
