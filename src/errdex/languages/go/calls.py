"""Go calls to producers, read at a site or in a factory: what ``return &NotFoundError{Key:
k}``, ``newErr("open", err)`` or ``panic(parseError(7, tok))`` passes, each argument as the
templates it can print.

A function's arguments go by name, its parameter's index (``"0"``, ``"1"``), and a
literal's fields by name; so a call no producer of the repository answers is never read as
a class's first argument (``pkg.NewThing("x")`` may print anything). Only an unkeyed
literal of a type of the package passes its fields in order: the type's ``Error()`` is
then nearly always the repository's.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from errdex.languages._engine import Message
from errdex.languages.base import Site, ancestors, line_of, text
from errdex.languages.facts import Argument, Call, Result, has_text
from errdex.languages.go.messages import (
    FUNCTION_TYPES,
    GoFile,
    call_parts,
    errors_package,
    hole_message,
)
from errdex.records.model import ErrorType
from errdex.templates.template import Literal, Template

MAX = 16
_ERROR = re.compile(r"\berror\b")
# The last file's root and the package names it imports (the root held: compared by value).
_IMPORTS: list[Node | frozenset[str] | None] = [None, None]
# Packages whose calls the site handlers read themselves, or that build no error.
_KNOWN = frozenset({"fmt", "errors", "status", "grpc", "log", "http", "strings", "strconv",
                    "os", "io", "context", "time", "filepath", "path", "json", "bytes"})


def receiver_of(method: Node) -> tuple[str, str]:
    """(``e``, ``T``) for ``(e *T)``, ``(e T)``, ``(e *T[K])``."""
    receiver = method.child_by_field_name("receiver")
    declaration = receiver.named_children[0] if receiver and receiver.named_children else None
    if declaration is None:
        return "", ""
    name = text(declaration.child_by_field_name("name"))
    kind = text(declaration.child_by_field_name("type")).lstrip("*").split("[", 1)[0]
    return name, kind


def operand(value: Node) -> Node:
    """The value under parentheses and ``&``: ``&NotFoundError{key}`` is the literal."""
    while value.type in ("parenthesized_expression", "unary_expression") and (
            value.named_children):
        value = value.named_children[-1]
    return value


def built(value: Node, file: GoFile, structs: dict[str, tuple[str, ...]], owner: str | None,
          factory: bool = False) -> list[Result]:
    """An error value: a constructor's message (a factory's alone: a site reads it
    itself), a composite literal of a type, or a call to a function of the repository."""
    value = operand(value)
    if value.type == "composite_literal":
        call = _literal(value, structs, file)
        return [call] if call is not None else []
    if value.type != "call_expression":
        return []
    message = file.reader.error_value(value)
    if message is not None:
        return [template_of(message.written, message.parts, message.suffix)] if factory else []
    receiver, name, args = call_parts(value)
    if receiver in _KNOWN or errors_package(receiver) or not name or "(" in receiver:
        return []
    callee = text(value.child_by_field_name("function"))
    if receiver and owner is not None and receiver == _enclosing_receiver(value):
        callee = f"self.{name}"  # a method of the receiver's type
    elif receiver and not imported(receiver, value):
        return []  # a method of some variable: which type it is, source does not say
    keywords: list[tuple[str, Argument]] = []
    for index, arg in enumerate(args):
        if arg.type == "variadic_argument":
            break
        keywords.append((str(index), argument_of(arg, file)))
    # A bare call in Go never reaches a method, whatever type it is written in.
    return [Call(callee, (), tuple(keywords), owner=owner if callee.startswith("self.") else None)]


def _literal(value: Node, structs: dict[str, tuple[str, ...]], file: GoFile) -> Call | None:
    """``&OpError{Op: op, Err: err}`` (or unkeyed, by the struct's field order)."""
    kind = value.child_by_field_name("type")
    body = value.child_by_field_name("body")
    if kind is None or body is None or kind.type not in ("type_identifier",
                                                         "qualified_type"):
        return None
    fields = structs.get(text(kind))
    keywords: list[tuple[str, Argument]] = []
    positional: list[Argument] = []
    for index, element in enumerate(c for c in body.named_children if c.type != "comment"):
        if element.type == "keyed_element":
            key, item = element.named_children[0], element.named_children[-1]
            keywords.append((text(key), _element(item, file)))
        elif fields is not None and index < len(fields):
            keywords.append((fields[index], _element(element, file)))
        elif kind.type == "qualified_type":
            return None  # unkeyed fields of another package's type (go vet says no)
        else:  # in field order, which the type's declaration elsewhere tells
            positional.append(_element(element, file))
    return Call(text(kind), tuple(positional), tuple(keywords))


def _element(node: Node, file: GoFile) -> Argument:
    inner = node.named_children[0] if node.type == "literal_element" and (
        node.named_children) else node
    return argument_of(inner, file)


def argument_of(node: Node, file: GoFile) -> Argument:
    """The templates an argument can print: its message, each value a variable is
    assigned in the function (branches), or a hole named after it."""
    if node.type == "int_literal" and text(node).isdigit():
        return (Template(text(node), (Literal(text(node)),)),)
    message = file.reader.read(node)
    if message is not None:
        return (template_of(message.written, message.parts, message.suffix),)
    if node.type == "identifier":
        found = [template_of(m.written, m.parts, m.suffix) for value in _assigned(node, file)
                 for m in [file.reader.read(value)] if m is not None]
        if len(found) == 1 and not found[0].suffix:  # `msg += " in " + dir` in an `if`
            found += [template_of(found[0].written + m.written, (*found[0].parts, *m.parts), ())
                      for m in _appended(node, file) if not m.suffix]
        if found and any(has_text(t) for t in found):
            return tuple(found[:MAX])
    hole = hole_message(node)
    return (Template(hole.written, hole.parts),)


def _appended(use: Node, file: GoFile) -> list[Message]:
    """What one ``name += …`` inside an ``if`` above ``use`` adds (in the same function):
    the variable prints its first value with it or without it."""
    function = next((a for a in ancestors(use) if a.type in FUNCTION_TYPES), None)
    if function is None:
        return []
    found = []
    stack = [function]
    while stack:
        node = stack.pop()
        if node.type == "func_literal" or node.start_byte >= use.start_byte:
            continue
        if node.type == "assignment_statement" and text(node.child_by_field_name(
                "operator")) == "+=" and text(node.child_by_field_name("left")) == text(use):
            if not any(a.type == "if_statement" for a in ancestors(node)
                       if function.start_byte <= a.start_byte):
                return []  # an append always done is the message's, not an alternative
            right = node.child_by_field_name("right")
            values = [v for v in right.named_children if v.type != "comment"] if right else []
            message = file.reader.read(values[0]) if len(values) == 1 else None
            if message is None:
                return []
            found.append(message)
        stack.extend(node.named_children)
    return found if len(found) == 1 else []


def _assigned(use: Node, file: GoFile) -> list[Node]:
    """The values ``name = …``/``name := …`` give a variable in the function of ``use``,
    above it."""
    function = next((a for a in ancestors(use) if a.type in FUNCTION_TYPES), None)
    if function is None:
        return []
    out = []
    for assignment in file.assignments.get(text(use), []):
        if function.start_byte <= assignment.start_byte and assignment.end_byte <= (
                use.start_byte):
            value = assignment.child_by_field_name("right" if assignment.type in (
                "assignment_statement", "short_var_declaration") else "value")
            values = [v for v in value.named_children if v.type != "comment"] if value else []
            if len(values) == 1:
                out.append(values[0])
    return out


def template_of(written: str, parts: tuple[object, ...], suffix: tuple[object, ...]) -> Template:
    return Template(written, tuple(parts), (), tuple(suffix))  # type: ignore[arg-type]


def _enclosing_receiver(node: Node) -> str | None:
    method = next((a for a in ancestors(node) if a.type == "method_declaration"), None)
    return receiver_of(method)[0] if method is not None else None


def imported(name: str, node: Node) -> bool:
    """Whether ``name`` is a package the file imports (its last path element or alias)."""
    root = _root(node)
    if _IMPORTS[0] is None or _IMPORTS[0] != root:  # the last file's, kept while it is read
        names = set()
        for declaration in root.named_children:
            for spec in _import_specs(declaration) if (
                    declaration.type == "import_declaration") else ():
                alias = spec.child_by_field_name("name")
                path = text(spec.child_by_field_name("path")).strip('"`')
                names.add(text(alias) if alias is not None else path.rsplit("/", 1)[-1])
        _IMPORTS[:] = [root, frozenset(names)]
    names_ = _IMPORTS[1]
    return isinstance(names_, frozenset) and name in names_


def _import_specs(declaration: Node) -> list[Node]:
    out = []
    for child in declaration.named_children:
        if child.type == "import_spec":
            out.append(child)
        elif child.type == "import_spec_list":
            out.extend(c for c in child.named_children if c.type == "import_spec")
    return out


def returned_error(node: Node) -> Node | None:
    """The last value of a ``return`` in a function whose results hold an ``error``."""
    values = [v for v in node.named_children[0].named_children if v.type != "comment"] if (
        node.named_children) else []
    function = next((a for a in ancestors(node) if a.type in FUNCTION_TYPES), None)
    result = function.child_by_field_name("result") if function is not None else None
    if not values or result is None or not _ERROR.search(text(result)):
        return None
    return values[-1]


def candidate(at: Node, value: Node, file: GoFile, symbol: str | None,
              error_type: ErrorType = "error") -> Site | None:
    """``return …, &NotFoundError{Key: k}``, ``panic(newErr("open", err))``: a site whose
    message only a producer of the repository tells (kept only if one does)."""
    method = next((a for a in ancestors(at) if a.type in FUNCTION_TYPES), None)
    owner = receiver_of(method)[1] if method is not None and (
        method.type == "method_declaration") else None
    made = built(value, file, {}, owner)
    if not made or not isinstance(made[0], Call):
        return None
    return Site(Template("", ()), error_type, line_of(at), symbol=symbol, call=made[0])


def _root(node: Node) -> Node:
    while node.parent is not None:
        node = node.parent
    return node
