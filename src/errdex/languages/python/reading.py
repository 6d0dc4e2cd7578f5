"""Reading Python for composition: a call's arguments as templates, a function's
parameters and message variables, the class a node is written in."""

from __future__ import annotations

import bisect
import dataclasses

from tree_sitter import Node

from errdex.languages._engine import FileIndex
from errdex.languages._engine.walk import nodes_below
from errdex.languages.base import ancestors, text
from errdex.languages.facts import Argument, Call, unknown
from errdex.languages.python.messages import read_alternatives, unwrap
from errdex.templates.template import Template

SCOPES = frozenset({"function_definition", "class_definition", "module"})
NESTING = frozenset({"function_definition", "class_definition", "lambda"})


class Assignments:
    """A file's message variable assignments in source order, indexed per function on
    demand (most functions build no error)."""

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self._starts: list[int] | None = None

    def within(self, function: Node) -> FileIndex:
        """The function's assignments (nested functions' too: ``nearest`` keeps scopes)."""
        if self._starts is None:
            self._starts = [n.start_byte for n in self.nodes]
        low = bisect.bisect_left(self._starts, function.start_byte)
        high = bisect.bisect_left(self._starts, function.end_byte)
        file = FileIndex()
        for node in self.nodes[low:high]:
            left = node.child_by_field_name("left")
            if left is not None:
                file.add(text(left), node)
        return file


def arguments_of(args: Node | None, file: FileIndex) -> tuple[
        tuple[Argument, ...], tuple[tuple[str, Argument], ...]]:
    """A call's arguments as template alternatives (a hole named after what source does not
    spell), positional and by keyword; ``*args`` / ``**kwargs`` passed on as a hole named
    with its stars (composition expands them)."""
    positional: list[Argument] = []
    keywords: list[tuple[str, Argument]] = []
    for child in args.named_children if args is not None else ():
        if child.type == "keyword_argument":
            name, value = child.child_by_field_name("name"), child.child_by_field_name("value")
            if name is not None and value is not None:
                keywords.append((text(name), argument(value, file)))
        elif child.type == "list_splat":
            positional.append((unknown("*" + text(child.named_children[0])),)
                              if child.named_children else (unknown("*"),))
        elif child.type == "dictionary_splat":
            inner = text(child.named_children[0]) if child.named_children else ""
            keywords.append(("**" + inner, (unknown("**" + inner),)))
        elif child.type != "comment":
            positional.append(argument(child, file))
    return tuple(positional), tuple(keywords)


def call_of(callee: str, args: Node | None, file: FileIndex, at: Node) -> Call:
    """The ``Call`` a site makes: ``raise NotFound(key)``, ``raise self._bad(…)``; an
    argument that calls a method of the object (``self._format_error(value)``, or a
    variable assigned that) is a nested call composition fills in."""
    positional, keywords = arguments_of(args, file)
    return Call(_made_from(callee, args, file), positional, keywords, owner=owner_name(at),
                nested=_nested(args, file, at))


def _made_from(callee: str, args: Node | None, file: FileIndex) -> str:
    """``parser.parse_error`` where ``parser = Parser(raw)`` above: ``Parser.parse_error``
    (the method of the class the object was made from)."""
    call = args.parent if args is not None else None
    function = call.child_by_field_name("function") if call is not None else None
    receiver = function.child_by_field_name("object") if function is not None and (
        function.type == "attribute") else None
    if function is None or receiver is None or receiver.type != "identifier":
        return callee
    assigned = file.nearest(receiver, SCOPES)
    right = assigned.child_by_field_name("right") if assigned is not None and (
        assigned.type == "assignment") else None
    made = right.child_by_field_name("function") if right is not None and (
        right.type == "call") else None
    if made is not None and made.type in ("identifier", "attribute"):
        cls = text(made).rsplit(".", 1)[-1]
    else:
        cls = _annotated(receiver) or ""
    attribute = text(function.child_by_field_name("attribute"))
    return f"{cls}.{attribute}" if cls[:1].isupper() else callee


def _annotated(name: Node) -> str | None:
    """The class a parameter is annotated with (``ctx: Context``, ``ctx: Context | None``,
    ``ctx: "Context"``) in the function a name is used in."""
    function = next((a for a in ancestors(name) if a.type == "function_definition"), None)
    params = function.child_by_field_name("parameters") if function is not None else None
    for param in params.named_children if params is not None else ():
        if param.type not in ("typed_parameter", "typed_default_parameter"):
            continue
        ident = param.child_by_field_name("name") or next(
            (c for c in param.named_children if c.type == "identifier"), None)
        annotation = param.child_by_field_name("type")
        if ident is None or annotation is None or text(ident) != text(name):
            continue
        written = text(annotation).strip("'\"").removeprefix("Optional[").rstrip("]")
        head = written.split("|", 1)[0].strip().rsplit(".", 1)[-1]
        return head if head.isidentifier() and head[:1].isupper() else None
    return None


def _nested(args: Node | None, file: FileIndex, at: Node) -> tuple[tuple[str, Call], ...]:
    out: list[tuple[str, Call]] = []
    for child in args.named_children if args is not None else ():
        value = child.child_by_field_name("value") if child.type == "keyword_argument" else child
        if value is None:
            continue
        value = unwrap(value) or value
        name = text(value)
        called = value
        if value.type == "identifier":
            assigned = file.nearest(value, SCOPES)
            right = assigned.child_by_field_name("right") if assigned is not None and (
                assigned.type == "assignment") else None
            called = unwrap(right) or right if right is not None else value
        method = own_method_call(called)
        if method is not None and argument(value, file) == (unknown(name),):
            callee, inner_args = method
            out.append((name, dataclasses.replace(call_of(callee, inner_args, file, at),
                                                   method=True)))
    return tuple(out)


def own_method_call(node: Node) -> tuple[str, Node | None] | None:
    """``self._format_error(value)`` / ``super()._format_error(v)``: a call of a method of
    the object itself (callee as written, argument list), not a text method's."""
    if node.type != "call":
        return None
    function = node.child_by_field_name("function")
    if function is None or function.type != "attribute":
        return None
    receiver = function.child_by_field_name("object")
    head = text(receiver) if receiver is not None else ""
    if head not in ("self", "cls", "super()"):
        return None
    return text(function), node.child_by_field_name("arguments")


def argument(node: Node, file: FileIndex) -> Argument:
    """What an argument can print: each branch, a text read from source, a message looked
    up by key, else a hole named after the expression; ``self.x`` stays a hole (the
    object's class, known to composition, says what it holds)."""
    bare = unwrap(node) or node
    if bare.type == "attribute" and text(bare.child_by_field_name("object")) in ("self", "cls"):
        return (unknown(text(bare)),)
    branches = ternary(node, file)
    if branches is not None:  # ``a if c else b``, or a variable assigned one: each its own
        return tuple(t for branch in branches for t in argument(branch, file))[:16]
    messages = read_alternatives(node, file)
    if messages:
        return tuple(Template(m.written, m.parts) for m in messages)
    keyed = _keyed(node, file)
    return (unknown(keyed or text(unwrap(node) or node)),)


def _keyed(node: Node, file: FileIndex) -> str | None:
    """``self.error_messages[key]`` (or a variable assigned it, ``.format``-ed or not): a
    message looked up by key in a table of the class (composition reads the table)."""
    node = unwrap(node) or node
    for _ in range(3):
        if node.type == "identifier":
            assigned = file.nearest(node, SCOPES)
            right = assigned.child_by_field_name("right") if assigned is not None and (
                assigned.type == "assignment") else None
            if right is None:
                return None
            node = unwrap(right) or right
        elif node.type == "call":
            function = node.child_by_field_name("function")
            if function is None or function.type != "attribute" or text(
                    function.child_by_field_name("attribute")) not in ("format", "format_map"):
                return None
            target = function.child_by_field_name("object")
            if target is None:
                return None
            node = unwrap(target) or target
        else:
            break
    if node.type != "subscript":
        return None
    table, index = node.child_by_field_name("value"), node.child_by_field_name("subscript")
    if table is None or index is None or table.type != "attribute" or text(
            table.child_by_field_name("object")) != "self":
        return None
    return f"{text(table)}[{text(index)}]" if index.type in ("identifier", "string") else None


def ternary(node: Node, file: FileIndex) -> tuple[Node, Node] | None:
    """The two values ``a if c else b`` or ``a or b`` (a text or its default) can be."""
    node = unwrap(node) or node
    if node.type == "identifier":
        assigned = file.nearest(node, SCOPES)
        value = assigned.child_by_field_name("right") if assigned is not None and (
            assigned.type == "assignment") else None
        node = unwrap(value) or node if value is not None else node
    if node.type == "boolean_operator" and text(node.child_by_field_name("operator")) == "or":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        return (left, right) if left is not None and right is not None else None
    if node.type != "conditional_expression" or len(node.named_children) != 3:
        return None
    return node.named_children[0], node.named_children[2]


# --- classes ---------------------------------------------------------------------------


def parameter_names(function: Node) -> tuple[str, ...]:
    """Parameter names, ``self``/``cls`` and splats left out (no defaults read: cheap)."""
    params = function.child_by_field_name("parameters")
    names: list[str] = []
    for param in params.named_children if params is not None else ():
        if param.type == "identifier":
            names.append(text(param))
        elif param.type in ("default_parameter", "typed_default_parameter", "typed_parameter"):
            first = param.named_children[0] if param.named_children else None
            if first is not None and first.type in ("list_splat_pattern",
                                                    "dictionary_splat_pattern"):
                names.append(_splat_name(first))  # ``*args: Any``
                continue
            ident = param.child_by_field_name("name") or next(
                (c for c in param.named_children if c.type == "identifier"), None)
            if ident is not None:
                names.append(text(ident))
        elif param.type in ("list_splat_pattern", "dictionary_splat_pattern"):
            names.append(_splat_name(param))
    if names and names[0] in ("self", "cls") and _owner_class(function) is not None:
        names = names[1:]
    return tuple(names)


def _splat_name(param: Node) -> str:
    """``*args`` / ``**kwargs`` as a parameter name, stars kept."""
    stars = "*" if param.type == "list_splat_pattern" else "**"
    return stars + text(param.named_children[0]) if param.named_children else stars


def parameters(function: Node) -> tuple[tuple[str, ...], tuple[tuple[str, Template], ...]]:
    """Parameter names (``parameter_names``) and the defaults that are known texts."""
    params = function.child_by_field_name("parameters")
    defaults: list[tuple[str, Template]] = []
    empty = FileIndex()
    for param in params.named_children if params is not None else ():
        if param.type not in ("default_parameter", "typed_default_parameter"):
            continue
        ident, value = param.child_by_field_name("name"), param.child_by_field_name("value")
        if ident is not None and value is not None:
            read = argument(value, empty)
            if read and not read[0].holes:
                defaults.append((text(ident), read[0]))
    return parameter_names(function), tuple(defaults)


# --- walking ---------------------------------------------------------------------------




def own(node: Node, types: tuple[str, ...]) -> list[Node]:
    """The nodes of ``types`` under ``node``, in source order, none of a nested function."""
    return [n for n in nodes_below(node, NESTING, keep_nested=True) if n.type in types]


def calls_in(node: Node) -> list[Node]:
    return own(node, ("call",))


def returns(node: Node) -> list[Node]:
    return [r.named_children[0] for r in own(node, ("return_statement",)) if r.named_children]


def _owner_class(node: Node) -> Node | None:
    for ancestor in ancestors(node):
        if ancestor.type == "class_definition":
            return ancestor
        if ancestor.type == "function_definition" and ancestor is not node:
            return None
    return None


def owner_name(node: Node) -> str | None:
    """The class a node is written in (a method's, a nested class's), at any depth."""
    owner = next((a for a in ancestors(node) if a.type == "class_definition"), None)
    return text(owner.child_by_field_name("name")) if owner is not None else None


def self_assignments(init: Node) -> list[tuple[Node, Node, Node]]:
    """A constructor's ``self.x = …`` statements (not a nested function's), as
    (assignment, ``self.x``, value), in source order."""
    out = []
    for node in own(init, ("assignment",)):
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is not None and right is not None and left.type == "attribute" and text(
                left.child_by_field_name("object")) == "self":
            out.append((node, left, right))
    return out
