"""Python producers: exception classes that write their own message, factories and helpers.

* a class: ``class NotFound(StoreError): def __init__(self, key): super().__init__(
  f"no such item: {key}")`` prints ``no such item: <key>``; ``Base.__init__(self, …)`` and
  ``super(NotFound, self).__init__(…)`` alike; a ``__str__`` that returns a template of
  ``self`` attributes set from parameters wins over the constructor (``self.path = path``
  makes ``{self.path}`` the ``path`` argument); a class with neither takes its base's;
* a factory: a function or method that returns an error built from its parameters
  (``def _bad_option(self, msg): return UsageError(f"{self.name}: {msg}")``);
* a helper: one that raises it itself (``def fail(msg): raise ConfigError("config: " + msg)``).

Each ``return``/``raise`` of such a function is an alternative (its branches).
"""

from __future__ import annotations

import bisect
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import FileIndex
from errdex.languages._engine.walk import nodes_below
from errdex.languages.base import ancestors, line_of, load_query, matches, text
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
from errdex.languages.python.messages import dict_items, read, read_alternatives, unwrap
from errdex.templates.formats import parse_brace_format
from errdex.templates.template import Hole, Template, literal_template

_SCOPES = frozenset({"function_definition", "class_definition", "module"})
_NESTING = frozenset({"function_definition", "class_definition", "lambda"})
_QUERY = Path(__file__).with_name("compose.scm")
_SUPER_STR = ("super().__str__()", "str(super())", "super().__repr__()")


def producers(root: Node, source: bytes, path: str) -> list[Producer]:
    """The producers of one parsed file: every class, and each function that returns or
    raises an error built from its parameters (the query finds them; a tree walk in Python
    would cost more than the parse)."""
    found: list[Producer] = []
    made: dict[int, tuple[Node, list[tuple[Node, Node]]]] = {}  # function → its statements
    assigned = _Assignments()
    classes: list[Node] = []
    texts: list[Node] = []  # returned values: message methods (``_undefined_message``)
    for _, caps in matches(load_query("python", _QUERY), root):
        if "assign" in caps:
            assigned.nodes.append(caps["assign"][0])
            continue
        if "text" in caps:
            texts.append(caps["text.value"][0])
            continue
        if "table" in caps:
            found.extend(_table(caps, path))
            continue
        if "const" in caps:
            constant = _constant(caps, path)
            if constant is not None:
                found.append(constant)
            continue
        if "class" in caps:
            classes.append(caps["class"][0])
            continue
        statement, call = caps["made"][0], caps["made.call"][0]
        function = next((a for a in ancestors(statement) if a.type in _NESTING), None)
        if function is None or function.type != "function_definition" or text(
                function.child_by_field_name("name")) in ("__init__", "__str__", "__repr__"):
            continue
        callee = text(caps["made.class"][0])
        if not callee.rsplit(".", 1)[-1][:1].isupper() and "." not in callee and (
                callee not in _parameter_names(function)):
            continue  # a class, a class passed in, or a method it delegates to
        made.setdefault(function.start_byte, (function, []))[1].append((statement, call))
    assigned.nodes.sort(key=lambda n: n.start_byte)
    found.extend(_class(node, path, assigned) for node in classes)
    for function, statements in made.values():
        producer = _function(function, statements, path, assigned)
        if producer is not None:
            found.append(producer)
    found.extend(_message_methods(texts, path, assigned))
    return found


def _message_methods(values: list[Node], path: str, assigned: _Assignments) -> list[Producer]:
    """Methods, properties and functions without parameters that return a message: what
    ``raise Error(self._undefined_message)`` prints (every return an alternative)."""
    by_function: dict[int, tuple[Node, list[Node]]] = {}
    for value in values:
        function = next((a for a in ancestors(value) if a.type in _NESTING), None)
        if function is None or function.type != "function_definition":
            continue
        by_function.setdefault(function.start_byte, (function, []))[1].append(value)
    out = []
    for function, returned in by_function.values():
        if _parameter_names(function):
            continue
        file = assigned.within(function)
        results = [t for value in returned for t in _argument(value, file)][:16]
        if any(has_text(t) for t in results):
            out.append(Producer(text(function.child_by_field_name("name")), (),
                                tuple(results), "message", path, line_of(function),
                                owner=_owner_name(function)))
    return out


def _constant(caps: dict[str, list[Node]], path: str) -> Producer | None:
    """``NOT_FOUND = "no such item"``: a string constant (UPPER_SNAKE names only)."""
    name = text(caps["const.name"][0])
    value = read(caps["const.value"][0], FileIndex())
    if value is None or value.literal is None or not constant_name(Hole.of(name, name)):
        return None
    return Producer(name, (), (literal_template(value.literal),), "constant", path,
                    line_of(caps["const"][0]), owner=_owner_name(caps["const"][0]))


def _table(caps: dict[str, list[Node]], path: str) -> list[Producer]:
    """``default_error_messages = {"invalid": "Not a valid date."}`` in a class: each entry
    a message that ``self.error_messages["invalid"]`` looks up (role ``table``)."""
    owner = _owner_name(caps["table"][0])
    out = []
    for key, value in dict_items(caps["table.value"][0]).items():
        message = read(value, FileIndex())
        if message is not None and message.literal is not None and message.has_text():
            # a table's texts are format strings: ``msg.format(**kwargs)`` fills them
            template = Template(message.written, parse_brace_format(message.literal, [], {}))
            out.append(Producer(key, (), (template,), "table", path, line_of(value),
                                owner=owner))
    return out


class _Assignments:
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
                keywords.append((text(name), _argument(value, file)))
        elif child.type == "list_splat":
            positional.append((unknown("*" + text(child.named_children[0])),)
                              if child.named_children else (unknown("*"),))
        elif child.type == "dictionary_splat":
            inner = text(child.named_children[0]) if child.named_children else ""
            keywords.append(("**" + inner, (unknown("**" + inner),)))
        elif child.type != "comment":
            positional.append(_argument(child, file))
    return tuple(positional), tuple(keywords)


def call_of(callee: str, args: Node | None, file: FileIndex, at: Node) -> Call:
    """The ``Call`` a site makes: ``raise NotFound(key)``, ``raise self._bad(…)``."""
    positional, keywords = arguments_of(args, file)
    return Call(callee, positional, keywords, owner=_owner_name(at))


def _argument(node: Node, file: FileIndex) -> Argument:
    branches = _ternary(node, file)
    if branches is not None:  # ``a if c else b``, or a variable assigned one: each its own
        return tuple(t for branch in branches for t in _argument(branch, file))[:16]
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
            assigned = file.nearest(node, _SCOPES)
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


def _ternary(node: Node, file: FileIndex) -> tuple[Node, Node] | None:
    node = unwrap(node) or node
    if node.type == "identifier":
        assigned = file.nearest(node, _SCOPES)
        value = assigned.child_by_field_name("right") if assigned is not None and (
            assigned.type == "assignment") else None
        node = unwrap(value) or node if value is not None else node
    if node.type != "conditional_expression" or len(node.named_children) != 3:
        return None
    return node.named_children[0], node.named_children[2]


# --- classes ---------------------------------------------------------------------------


def _class(node: Node, path: str, assigned: _Assignments) -> Producer:
    name = text(node.child_by_field_name("name"))
    bases = _bases(node)
    body = node.child_by_field_name("body")
    methods = {text(m.child_by_field_name("name")): m for m in _methods(body)}
    init, to_str = methods.get("__init__"), methods.get("__str__")
    params: tuple[str, ...] = ()
    defaults: tuple[tuple[str, Template], ...] = ()
    results: list[Result] = []
    fields: dict[str, Template] = {}
    if init is not None:
        params, defaults = _parameters(init)
        file = assigned.within(init)
        fields = _fields(init, params, file)
        results = [bind(r, fields) for r in _super_calls(init, name, bases, file)]
    if to_str is not None:
        shown = _str_results(to_str, fields, assigned.within(to_str))
        if shown:
            results = shown
    # A class that says nothing is kept too: it shadows a namesake elsewhere (``find``).
    return Producer(name, params, tuple(results), "class message", path, line_of(node),
                    owner=_owner_name(node), bases=bases, is_class=True, defaults=defaults)


def _bases(node: Node) -> tuple[str, ...]:
    superclasses = node.child_by_field_name("superclasses")
    return tuple(
        text(b) for b in (superclasses.named_children if superclasses is not None else ())
        if b.type in ("identifier", "attribute")
    )


def _methods(body: Node | None) -> list[Node]:
    out = []
    for child in body.named_children if body is not None else ():
        if child.type == "decorated_definition":
            child = child.child_by_field_name("definition") or child
        if child.type == "function_definition":
            out.append(child)
    return out


def _super_calls(init: Node, name: str, bases: tuple[str, ...], file: FileIndex) -> list[Result]:
    """What ``__init__`` passes to its base: ``super().__init__(…)``, ``Base.__init__(self, …)``."""
    out: list[Result] = []
    for call in _calls_in(init):
        function = call.child_by_field_name("function")
        if function is None or function.type != "attribute":
            continue
        if text(function.child_by_field_name("attribute")) != "__init__":
            continue
        target = function.child_by_field_name("object")
        args = call.child_by_field_name("arguments")
        positional, keywords = arguments_of(args, file)
        if target is not None and target.type == "call" and text(
                target.child_by_field_name("function")) == "super":
            out.append(Call("super", positional, keywords, owner=name))
        elif target is not None and text(target) in bases and positional:
            out.append(Call(text(target), positional[1:], keywords, owner=name))  # drop self
    return out


def _str_results(method: Node, fields: dict[str, Template], file: FileIndex) -> list[Result]:
    """``__str__`` returning a template of ``self`` fields (set from parameters or texts);
    one that only passes a field on, or decorates the base's text, leaves the constructor's."""
    out: list[Result] = []
    for node in _returns(method):
        for template in _argument(node, file):
            if any(h.name in _SUPER_STR for h in template.holes):
                return []
            bound = bind(template, fields)
            assert isinstance(bound, Template)
            out.append(bound)
    return out if any(isinstance(r, Template) and has_text(r) for r in out) else []


def _shown_parameter(node: Node) -> str:
    """``message`` or ``str(message)``: the name whose text the expression prints."""
    if node.type == "call" and text(node.child_by_field_name("function")) == "str":
        args = node.child_by_field_name("arguments")
        named = args.named_children if args is not None else []
        if len(named) == 1 and named[0].type == "identifier":
            return text(named[0])
    return text(node)


def _fields(init: Node, params: tuple[str, ...], file: FileIndex) -> dict[str, Template]:
    """What ``self`` fields print: ``self.path = path`` the ``path`` argument, ``self.msg =
    f"…"`` that template; ``self.args[0]`` the first argument passed up."""
    mapping: dict[str, Template] = {}
    if params:
        mapping["self.args[0]"] = parameter(params[0])
    # last first, as ever: of two assignments of one field, the first is the one kept
    for node in reversed(nodes_below(init, _NESTING, keep_nested=True)):
        if node.type != "assignment":
            continue
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or left.type != "attribute" or text(
                left.child_by_field_name("object")) != "self":
            continue
        shown = _shown_parameter(right)
        if shown in params:  # ``self.message = message`` / ``= str(cause)``
            mapping[text(left)] = parameter(shown)
        else:
            read = _argument(right, file)
            if len(read) == 1 and has_text(read[0]):
                mapping[text(left)] = read[0]
    return mapping


# --- functions -------------------------------------------------------------------------


def _function(node: Node, statements: list[tuple[Node, Node]], path: str,
              assigned: _Assignments) -> Producer | None:
    """A factory (returns an error built from parameters) or helper (raises it)."""
    params = _parameter_names(node)
    if not params:
        return None
    file = assigned.within(node)
    results: list[Result] = []
    role = "factory"
    ordered = sorted(statements, key=lambda item: item[0].start_byte)
    plain = [(s, v) for s, v in ordered if not _handling(s, node)]
    # ``except KeyError: raise AssertionError(…)`` beside a ``return Error(…)``: the
    # factory's own failure, not what its callers raise (a handler alone is the helper)
    for statement, value in plain or ordered:
        positional, keywords = arguments_of(value.child_by_field_name("arguments"), file)
        if not _uses(positional, keywords, set(params)):
            continue
        callee = text(value.child_by_field_name("function"))
        results.append(Call(callee, positional, keywords, owner=_owner_name(node), path=path))
        if statement.type == "raise_statement":
            role = "helper"
    if not results:
        return None
    name = text(node.child_by_field_name("name"))
    _, defaults = _parameters(node)
    return Producer(name, params, tuple(results[:16]), role, path, line_of(node),
                    owner=_owner_name(node), defaults=defaults)


def _parameter_names(function: Node) -> tuple[str, ...]:
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


def _handling(statement: Node, function: Node) -> bool:
    """Whether a statement sits in an ``except`` clause of the function (not a nested one)."""
    for ancestor in ancestors(statement):
        if ancestor == function:
            return False
        if ancestor.type == "except_clause":
            return True
    return False


def _uses(positional: tuple[Argument, ...], keywords: tuple[tuple[str, Argument], ...],
          params: set[str]) -> bool:
    """Whether a call's arguments print one of the parameters."""
    arguments_ = [*positional, *(a for _, a in keywords)]
    return any(h.name in params or any(f"[{p}]" in (h.name or "") for p in params)
               for a in arguments_ for t in a for h in t.holes)


def _splat_name(param: Node) -> str:
    """``*args`` / ``**kwargs`` as a parameter name, stars kept."""
    stars = "*" if param.type == "list_splat_pattern" else "**"
    return stars + text(param.named_children[0]) if param.named_children else stars


def _parameters(function: Node) -> tuple[tuple[str, ...], tuple[tuple[str, Template], ...]]:
    """Parameter names (``_parameter_names``) and the defaults that are known texts."""
    params = function.child_by_field_name("parameters")
    defaults: list[tuple[str, Template]] = []
    empty = FileIndex()
    for param in params.named_children if params is not None else ():
        if param.type not in ("default_parameter", "typed_default_parameter"):
            continue
        ident, value = param.child_by_field_name("name"), param.child_by_field_name("value")
        if ident is not None and value is not None:
            read = _argument(value, empty)
            if read and not read[0].holes:
                defaults.append((text(ident), read[0]))
    return _parameter_names(function), tuple(defaults)


# --- walking ---------------------------------------------------------------------------




def _own(node: Node, types: tuple[str, ...]) -> list[Node]:
    """The nodes of ``types`` under ``node``, in source order, none of a nested function."""
    return [n for n in nodes_below(node, _NESTING, keep_nested=True) if n.type in types]


def _calls_in(node: Node) -> list[Node]:
    return _own(node, ("call",))


def _returns(node: Node) -> list[Node]:
    return [r.named_children[0] for r in _own(node, ("return_statement",)) if r.named_children]


def _owner_class(node: Node) -> Node | None:
    for ancestor in ancestors(node):
        if ancestor.type == "class_definition":
            return ancestor
        if ancestor.type == "function_definition" and ancestor is not node:
            return None
    return None


def _owner_name(node: Node) -> str | None:
    """The class a node is written in (a method's, a nested class's), at any depth."""
    owner = next((a for a in ancestors(node) if a.type == "class_definition"), None)
    return text(owner.child_by_field_name("name")) if owner is not None else None


COMPOSER = Composer(producers=producers)  # constants too: every file may define one
