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

import itertools
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import FileIndex
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
)
from errdex.languages.python.messages import dict_items, read
from errdex.languages.python.reading import (
    NESTING,
    SCOPES,
    Assignments,
    argument,
    arguments_of,
    calls_in,
    owner_name,
    parameter_names,
    parameters,
    returns,
    self_assignments,
)
from errdex.languages.python.shown import SHOWN, shown_messages
from errdex.languages.python.texts import (
    class_attribute,
    code_and_status,
    code_parameter,
    field_producers,
    format_text,
    text_methods,
)
from errdex.templates.formats import parse_brace_format
from errdex.templates.template import Hole, Literal, Template, literal_template

_QUERY = Path(__file__).with_name("compose.scm")
_TEXT_METHODS = frozenset({"format", "format_map", "join", "replace", "strip", "lower",
                           "upper", "capitalize", "title", "decode", "encode"})
_SUPER_STR = ("super().__str__()", "str(super())", "super().__repr__()")


def producers(root: Node, source: bytes, path: str) -> list[Producer]:
    """The producers of one parsed file: every class, and each function that returns or
    raises an error built from its parameters (the query finds them; a tree walk in Python
    would cost more than the parse)."""
    found: list[Producer] = []
    made: dict[int, tuple[Node, list[tuple[Node, Node]]]] = {}  # function → its statements
    assigned = Assignments()
    classes: list[Node] = []
    texts: list[Node] = []  # returned values: message methods (``_undefined_message``)
    variables: list[tuple[Node, Node]] = []  # ``return exc``: the statement, the name
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
            found.extend(_constant(caps, path))
            continue
        if "class" in caps:
            classes.append(caps["class"][0])
            continue
        statement = caps["made"][0]
        if "made.var" in caps:
            variables.append((statement, caps["made.var"][0]))
            continue
        call = caps["made.call"][0]
        function = next((a for a in ancestors(statement) if a.type in NESTING), None)
        _made(made, statement, call, text(caps["made.class"][0]))
    assigned.nodes.sort(key=lambda n: n.start_byte)
    for statement, variable in variables:
        value = _assigned_call(variable, assigned)
        function = value.child_by_field_name("function") if value is not None else None
        if value is not None and function is not None and function.type in (
                "identifier", "attribute"):
            _made(made, statement, value, text(function))
    for node in classes:
        found.extend(_class(node, path, assigned))
    for function, statements in made.values():
        producer = _function(function, statements, path, assigned)
        if producer is not None:
            found.append(producer)
    found.extend(_message_methods(texts, path, assigned))
    return found


def _made(made: dict[int, tuple[Node, list[tuple[Node, Node]]]], statement: Node,
          call: Node, callee: str) -> None:
    """Note a ``return``/``raise`` of a built error in its function (not a constructor's or
    ``__str__``'s): a class, a class passed in, or a method it delegates to."""
    function = next((a for a in ancestors(statement) if a.type in NESTING), None)
    if function is None or function.type != "function_definition" or text(
            function.child_by_field_name("name")) in ("__init__", "__str__", "__repr__"):
        return
    if not callee.rsplit(".", 1)[-1][:1].isupper() and "." not in callee and (
            callee not in parameter_names(function)):
        return
    if callee.rsplit(".", 1)[-1] in _TEXT_METHODS:  # ``return self.error.format(…)``: a text
        return
    made.setdefault(function.start_byte, (function, []))[1].append((statement, call))


def _assigned_call(variable: Node, assigned: Assignments) -> Node | None:
    """The call a returned variable was assigned last in its function (``exc =
    InvalidMetadata(self.raw_name, msg)``), if it was one."""
    function = next((a for a in ancestors(variable) if a.type in NESTING), None)
    if function is None:
        return None
    found = assigned.within(function).nearest(variable, SCOPES)
    right = found.child_by_field_name("right") if found is not None and (
        found.type == "assignment") else None
    return right if right is not None and right.type == "call" else None


def _message_methods(values: list[Node], path: str, assigned: Assignments) -> list[Producer]:
    """Methods, properties and functions without parameters that return a message: what
    ``raise Error(self._undefined_message)`` prints (every return an alternative)."""
    by_function: dict[int, tuple[Node, list[Node]]] = {}
    for value in values:
        function = next((a for a in ancestors(value) if a.type in NESTING), None)
        if function is None or function.type != "function_definition":
            continue
        by_function.setdefault(function.start_byte, (function, []))[1].append(value)
    out = []
    for function, returned in by_function.values():
        file = assigned.within(function)
        if parameter_names(function):
            with_parameters = text_methods(function, returned, file, path)
            if with_parameters is not None:
                out.append(with_parameters)
            continue
        results = [t for value in returned for t in argument(value, file)][:16]
        if any(has_text(t) for t in results):
            out.append(Producer(text(function.child_by_field_name("name")), (),
                                tuple(results), "message", path, line_of(function),
                                owner=owner_name(function)))
    return out


def _constant(caps: dict[str, list[Node]], path: str) -> list[Producer]:
    """``NOT_FOUND = "no such item"``: a string constant (UPPER_SNAKE names only); in a
    class body, any name is also a class attribute (``self.default_message``)."""
    name = text(caps["const.name"][0])
    value = read(caps["const.value"][0], FileIndex())
    if value is None or value.literal is None:
        return []
    node = caps["const"][0]
    written = literal_template(value.literal)
    held = class_attribute(name, written, node, path)
    out = [held] if held is not None else []
    if constant_name(Hole.of(name, name)):
        out.append(Producer(name, (), (written,), "constant", path, line_of(node),
                            owner=owner_name(node)))
    return out


def _table(caps: dict[str, list[Node]], path: str) -> list[Producer]:
    """``default_error_messages = {"invalid": "Not a valid date."}`` in a class: each entry
    a message that ``self.error_messages["invalid"]`` looks up (role ``table``); one at
    module level (no owner), what ``MESSAGES[code]`` looks up in its file."""
    owner = owner_name(caps["table"][0])
    out = []
    for key, value in dict_items(caps["table.value"][0]).items():
        message = read(value, FileIndex())
        if message is not None and message.literal is not None and message.has_text():
            # a table's texts are format strings: ``msg.format(**kwargs)`` fills them
            template = Template(message.written, parse_brace_format(message.literal, [], {}))
            out.append(Producer(key, (), (template,), "table", path, line_of(value),
                                owner=owner))
    return out


def _class(node: Node, path: str, assigned: Assignments) -> list[Producer]:
    """The class, and the fields its constructor sets to texts."""
    name = text(node.child_by_field_name("name"))
    bases = _bases(node)
    body = node.child_by_field_name("body")
    methods = {text(m.child_by_field_name("name")): m for m in _methods(body)}
    init, to_str = methods.get("__init__"), methods.get("__str__")
    params: tuple[str, ...] = ()
    defaults: tuple[tuple[str, Template], ...] = ()
    results: list[Result] = []
    fields: dict[str, list[Template]] = {}
    held: list[Producer] = []
    if init is not None:
        params, defaults = parameters(init)
        file = assigned.within(init)
        fields = _fields(init, params, file)
        held = field_producers(init, params, file, name, path)
        results = [b for r in _super_calls(init, name, bases, file) for b in _bound(r, fields)]
    if to_str is not None:
        shown = _str_results(to_str, fields, assigned.within(to_str))
        if shown:
            results = shown
    shower = next((methods[n] for n in SHOWN if n in methods), None)
    # what a command line shows, beside the text ``str()`` gives; a class whose ``str()``
    # passes a message on (``BadParameter(message)``) keeps printing what its callers pass
    if shower is not None and any(isinstance(r, Template) and has_text(r) for r in results):
        displayed = shown_messages(shower, assigned.within(shower))
        results = [*results, *(t for t in displayed if t not in results)][:16]
    # A class that says nothing is kept too: it shadows a namesake elsewhere (``find``).
    code, status = code_and_status(body, init)
    return [Producer(name, params, tuple(results), "class message", path, line_of(node),
                     owner=owner_name(node), bases=bases, is_class=True, defaults=defaults,
                     error_code=code, http_status=status,
                     error_code_from=code_parameter(init, params)),
            *held]


def _bases(node: Node) -> tuple[str, ...]:
    """The base classes as named: a generic base (``ParamType[bool]``) by its class."""
    superclasses = node.child_by_field_name("superclasses")
    out = []
    for base in superclasses.named_children if superclasses is not None else ():
        if base.type == "subscript":
            base = base.child_by_field_name("value") or base
        if base.type in ("identifier", "attribute"):
            out.append(text(base))
    return tuple(out)


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
    for call in calls_in(init):
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


def _bound(result: Result, fields: dict[str, list[Template]]) -> list[Result]:
    """``result`` with the fields it prints filled in, once per combination of what each
    field is set to (a constructor setting it in two branches: two alternatives)."""
    templates = [result] if isinstance(result, Template) else [
        t for arg in (*result.args, *(a for _, a in result.keywords)) for t in arg]
    named = sorted({h.name for t in templates for h in t.holes if h.name in fields})
    choices = [[(name, t) for t in fields[name]] for name in named]
    return [bind(result, dict(combo))
            for combo in itertools.islice(itertools.product(*choices), 16)]


def _str_results(method: Node, fields: dict[str, list[Template]], file: FileIndex
                 ) -> list[Result]:
    """``__str__`` returning a template of ``self`` fields (set from parameters or texts);
    one that only passes a field on, or decorates the base's text, leaves the constructor's."""
    out: list[Result] = []
    for node in returns(method):
        for template in argument(node, file):
            if any(h.name in _SUPER_STR for h in template.holes):
                return []
            out.extend(_bound(template, fields))
    # a layout of fields counts too (``f"{self.message}\n    {self.source}"``)
    return out if any(isinstance(r, Template) and (has_text(r) or len(r.parts) > 1)
                      for r in out) else []


def _shown_parameter(node: Node) -> str:
    """``message`` or ``str(message)``: the name whose text the expression prints."""
    if node.type == "call" and text(node.child_by_field_name("function")) == "str":
        args = node.child_by_field_name("arguments")
        named = args.named_children if args is not None else []
        if len(named) == 1 and named[0].type == "identifier":
            return text(named[0])
    return text(node)


def _fields(init: Node, params: tuple[str, ...], file: FileIndex
            ) -> dict[str, list[Template]]:
    """What ``self`` fields print: ``self.path = path`` the ``path`` argument, ``self.msg =
    f"…"`` that template (a field set in two branches, both); ``self.args[0]`` the first
    argument passed up."""
    mapping: dict[str, list[Template]] = {}
    if params:
        mapping["self.args[0]"] = [parameter(params[0])]
    for _, left, right in self_assignments(init):
        shown = _shown_parameter(right)
        if shown in params:  # ``self.message = message`` / ``= str(cause)``
            found = [parameter(shown)]
        else:  # a text (``f"{context}.{cause.context}"``), not a value read elsewhere
            found = [t for t in argument(right, file)
                     if any(isinstance(p, Literal) for p in t.parts)]
        held = mapping.setdefault(text(left), [])
        held.extend(t for t in found if t not in held and len(held) < 4)
    return {name: held for name, held in mapping.items() if held}


# --- functions -------------------------------------------------------------------------


def _function(node: Node, statements: list[tuple[Node, Node]], path: str,
              assigned: Assignments) -> Producer | None:
    """A factory (returns an error built from parameters) or helper (raises it)."""
    params = parameter_names(node)
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
        results.append(Call(callee, positional, keywords, owner=owner_name(node), path=path))
        if statement.type == "raise_statement":
            role = "helper"
    if not results:
        return None
    name = text(node.child_by_field_name("name"))
    _, defaults = parameters(node)
    return Producer(name, params, tuple(results[:16]), role, path, line_of(node),
                    owner=owner_name(node), defaults=defaults)


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


# every file may define a constant, so no triggers
COMPOSER = Composer(producers=producers, format=format_text)
