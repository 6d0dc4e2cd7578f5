"""Python texts an object holds: fields a constructor sets, class attributes, methods that
return a text made of their parameters, and ``str.format`` applied at run time.

``self.error = error or self.default_message`` is a ``field`` producer (each alternative),
``default_message = "Not a valid URL."`` in a class body an ``attribute``, and
``def _format_error(self, value): return self.error.format(input=value)`` a ``message``
producer with parameters whose result is a ``FORMAT`` call: composition spells
``self.…`` out for the class the object is, then formats (``format_text``).
"""

from __future__ import annotations

import itertools

from tree_sitter import Node

from errdex.languages._engine import FileIndex
from errdex.languages._engine.walk import nodes_below
from errdex.languages.base import line_of, text
from errdex.languages.facts import (
    FORMAT,
    Argument,
    Call,
    Producer,
    Result,
    has_text,
    substitute,
    unknown,
)
from errdex.languages.python.messages import dict_items, read_alternatives, unwrap
from errdex.languages.python.reading import (
    NESTING,
    SCOPES,
    argument,
    arguments_of,
    own_method_call,
    owner_name,
    parameter_names,
    self_assignments,
    ternary,
)
from errdex.templates.formats import parse_brace_format
from errdex.templates.template import Hole, Literal, Part, Template, merge_literals

_MAX = 16
_OBJECT = ("self", "cls")


def results_of(node: Node, file: FileIndex, depth: int = 0) -> list[Result]:
    """What an expression holds as producer results: a text (templates, ``self.x`` kept a
    hole for composition to spell for the object's class), a ``FORMAT`` call for
    ``text.format(…)`` / ``text.format_map({…})`` of a text not known here, or a call of
    the object's own method (``super()._format_error(value)``)."""
    node = unwrap(node) or node
    branches = ternary(node, file) if depth < 4 else None
    if branches is not None:
        return [r for b in branches for r in results_of(b, file, depth + 1)][:_MAX]
    if node.type == "attribute" and text(node.child_by_field_name("object")) in _OBJECT:
        return [unknown(text(node))]
    if node.type == "identifier" and depth < 4:
        assigned = file.nearest(node, SCOPES)
        right = assigned.child_by_field_name("right") if assigned is not None and (
            assigned.type == "assignment") else None
        if right is not None and (unwrap(right) or right).type == "call":
            return results_of(right, file, depth + 1)
    if node.type == "call" and not read_alternatives(node, file):
        formatted = _format_call(node, file, depth)
        if formatted is not None:
            return [formatted]
        own = own_method_call(node)
        if own is not None:
            positional, keywords = arguments_of(own[1], file)
            return [Call(own[0], positional, keywords, owner=owner_name(node), method=True)]
    return list(argument(node, file))


def _format_call(node: Node, file: FileIndex, depth: int) -> Call | None:
    """``<text>.format(…)`` / ``<text>.format_map({…})`` of a text source does not spell
    here (an attribute, a parameter, ``self.error or message``)."""
    function = node.child_by_field_name("function")
    if function is None or function.type != "attribute":
        return None
    method = text(function.child_by_field_name("attribute"))
    receiver = function.child_by_field_name("object")
    if method not in ("format", "format_map") or receiver is None:
        return None
    texts = tuple(r for r in results_of(receiver, file, depth + 1) if isinstance(r, Template))
    if not texts:
        return None
    args = node.child_by_field_name("arguments")
    positional, keywords = arguments_of(args, file)
    if method == "format_map":
        given = args.named_children if args is not None else []
        mapping = unwrap(given[0]) if len(given) == 1 else None
        if mapping is None or mapping.type != "dictionary":
            return None
        positional = ()
        keywords = tuple((k, argument(v, file)) for k, v in dict_items(mapping).items())
    return Call(FORMAT, (texts, *positional), keywords, owner=owner_name(node), method=True)


def text_methods(function: Node, returned: list[Node], file: FileIndex,
                 path: str) -> Producer | None:
    """A method with parameters that returns a text made of them (each return an
    alternative): what ``self._format_error(value)`` prints."""
    results = [r for value in returned for r in results_of(value, file)][:_MAX]
    if not any(isinstance(r, Call) or has_text(r) for r in results):
        return None
    return Producer(text(function.child_by_field_name("name")), parameter_names(function),
                    tuple(results), "message", path, line_of(function),
                    owner=owner_name(function))


def field_producers(init: Node, params: tuple[str, ...], file: FileIndex, owner: str,
                    path: str) -> list[Producer]:
    """The fields a constructor sets to a text (not a parameter as it is): ``self.error =
    error or self.default_message``, ``self.message_min = self.message_min.format(…)``."""
    out: dict[str, Producer] = {}
    for node, left, right in self_assignments(init):
        name = text(left.child_by_field_name("attribute"))
        if name in out or text(right) in params:
            continue
        results = results_of(right, file)
        if any(isinstance(r, Call) or has_text(r) or _names_object(r) for r in results):
            out[name] = Producer(name, (), tuple(results), "field", path, line_of(node),
                                 owner=owner)
    return list(out.values())


def _names_object(template: Result) -> bool:
    return isinstance(template, Template) and any(
        (h.name or "").startswith(("self.", "cls.")) for h in template.holes)


def class_attribute(name: str, value: Template, node: Node, path: str) -> Producer | None:
    """``default_message = "Not a valid URL."`` in a class body (a constant's name aside):
    what ``self.default_message`` is unless a field says otherwise."""
    owner = owner_name(node)
    if owner is None or not has_text(value):
        return None
    return Producer(name, (), (value,), "attribute", path, line_of(node), owner=owner)


def format_text(template: Template, args: tuple[Argument, ...],
                keywords: tuple[tuple[str, Argument], ...]) -> list[Template]:
    """``template.format(*args, **keywords)``: its literal text read as a format string,
    the fields filled with what is passed (one template per combination)."""
    names = [f"\0{i}" for i in range(len(args))]
    named = {k: f"\0{k}" for k, _ in keywords if not k.startswith("**")}
    parts: list[Part] = []
    for part in template.message:
        if isinstance(part, Literal):
            parts.extend(parse_brace_format(part.text, names, named))
        else:
            parts.append(part)
    spelled = "".join(p.text if isinstance(p, Literal) else p.spec for p in parts)
    formatted = Template(spelled, merge_literals(parts), template.prefix, template.suffix)
    choices = [[(names[i], t) for t in a] for i, a in enumerate(args) if a]
    choices += [[(named[k], t) for t in a] for k, a in keywords if k in named and a]
    combos = itertools.islice(itertools.product(*choices), _MAX)
    return [_unnamed(substitute(formatted, dict(combo))) for combo in combos]


def _unnamed(template: Template) -> Template:
    """Holes of fields nothing was passed for keep the field's name, not a placeholder's."""
    if not any((h.name or "").startswith("\0") for h in template.holes):
        return template
    parts = tuple(Hole(h.name.lstrip("\0"), h.spec, h.kind, h.regex, h.precision,
                       h.optional_lead) if isinstance(h, Hole) and h.name else h
                  for h in template.message)
    return Template(template.written, parts, template.prefix, template.suffix)


_CODE_NAMES = frozenset({"code", "error_code", "errcode"})
_STATUS_NAMES = frozenset({"status_code", "http_status", "status", "code"})


def code_parameter(init: Node | None, params: tuple[str, ...]) -> str | None:
    """The constructor parameter a class keeps as its error code (``self.code = code``):
    what a site passes for it is the code (``code='model-field-missing-annotation'``)."""
    for _, left, right in self_assignments(init) if init is not None else ():
        if text(left).removeprefix("self.") in _CODE_NAMES and text(right) in params:
            return text(right)
    return None


def code_and_status(body: Node | None, init: Node | None) -> tuple[str | None, int | None]:
    """The error code and HTTP status a class sets: ``code = "E_AUTH"`` / ``status_code =
    404`` in its body, or ``self.code = "E_AUTH"`` in its constructor (a text is a code, a
    number from 100 to 599 a status)."""
    code: str | None = None
    status: int | None = None
    assignments = [c.named_children[0] if c.type == "expression_statement" and (
        c.named_children) else c for c in (body.named_children if body else ())]
    if init is not None:
        assignments += [n for n in nodes_below(init, NESTING, keep_nested=True)
                        if n.type == "assignment"]
    for node in assignments:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if node.type != "assignment" or left is None or right is None:
            continue
        name = text(left).removeprefix("self.")
        if "." in name:
            continue
        if right.type == "integer" and name in _STATUS_NAMES and status is None:
            value = int(text(right)) if text(right).isdigit() else 0
            status = value if 100 <= value <= 599 else None
        elif right.type == "string" and name in _CODE_NAMES and code is None:
            found = read_alternatives(right, FileIndex())
            literal = found[0].literal if len(found) == 1 else None
            code = literal if literal and len(literal) <= 100 else None
    return code, status

