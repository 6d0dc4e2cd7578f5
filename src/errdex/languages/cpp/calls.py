"""What a C++ throw hands composition: the call ``throw X(args)`` makes (a class or a
factory of the repository may build its message), or for a standard exception the function,
constant or branch-assigned variable its message comes from."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

from tree_sitter import Node

from errdex.languages._engine import Captures
from errdex.languages._engine.walk import nodes_from
from errdex.languages.base import Site, ancestors, line_of, text
from errdex.languages.c.family import arguments, function_name
from errdex.languages.cpp.messages import (
    MAX,
    Scope,
    arguments_of,
    decided,
    last_name,
    locals_of,
    parameters_of,
    read,
    says,
    scope_owner,
    walk,
)
from errdex.languages.facts import Argument, Call, substitute, unknown
from errdex.templates.template import Hole, Template

_FACTORY = re.compile(r"^(?:create\w*|make\w*|build|from\w*|of|[Nn]ew\w*|error)$")
_CONSTANT = re.compile(r"^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*|k[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)$")
_ERRORISH = re.compile(r"(?i)error|exception|fail")


def made_error(name: str) -> bool:
    """Whether a call makes an error by a factory of its class (``parse_error::create``,
    ``ConfigError::make``): what it is given is what the error prints, wherever it goes."""
    head, separator, last = name.rpartition("::")
    return bool(separator) and bool(_FACTORY.match(last)) and bool(
        _ERRORISH.search(last_name(head.split("<", 1)[0])))


def handed_call(name: str, args: list[Node], at: Node) -> Call | None:
    """The call an error made by a factory and handed on, not thrown where it is made
    (``return sax->parse_error(pos, tok, parse_error::create(101, pos, msg, nullptr));``, the
    handler throws it): the factory's, composed as a throw of it would be; a static factory
    named for its case (``current = BinderException::ColumnNotFound(name, hints)``) is a
    method's call, never its class's constructor nor a class of elsewhere."""
    if _CASE_FACTORY.fullmatch(name):
        call = thrown_call(name, args, at)
        return None if call is None else replace(call, method=True)
    if not made_error(name):
        return None
    return thrown_call(name, args, at)


# A static factory of a class named for errors, named for its case (``CatalogException::
# MissingEntry``): not ``create``/``make`` (``made_error``), nor a constant's scope.
_CASE_FACTORY = re.compile(r"(?:\w+::)*\w*(?:Error|Exception)(?:<[^<>]*>)?::[A-Z]\w*[a-z]\w*")


def _given(args: list[Node], scope: Scope, owner: str | None, at: Node
           ) -> tuple[tuple[Argument, ...], tuple[tuple[str, Call], ...]]:
    """A call's arguments, those that are calls to the repository's functions or the
    class's own methods (``exception_message(token_type::uninitialized, "value")``) read
    through the function when this file defines it (its conditions on the arguments
    decided, ``messages.decided``), else left to composition (``Call.nested``: each hole of
    that text prints what the call composes)."""
    given = list(arguments_of(args, scope))
    nested: list[tuple[str, Call]] = []
    for i, arg in enumerate(args):
        if arg.type != "call_expression":
            continue
        function = arg.child_by_field_name("function")
        if function is not None and function.type == "template_function":
            function = function.child_by_field_name("name")  # ``Text<SRC, DST>(input)``
        if function is None or function.type not in ("identifier", "qualified_identifier") or (
                text(function).startswith("std::")):
            continue
        shown = given[i]
        if len(shown) != 1 or len(shown[0].parts) != 1 or not isinstance(
                shown[0].parts[0], Hole) or shown[0].parts[0].name != text(arg):
            continue  # read here already (``std::to_string(n)``, a string helper)
        inner = arguments(arg.child_by_field_name("arguments"))
        here = read_at_call(text(function), inner, scope, at)
        if here:
            given[i] = here
            continue
        nested.append((text(arg), Call(text(function), arguments_of(inner, scope),
                                       owner=owner, method=True)))
    return tuple(given), tuple(nested)


def read_at_call(name: str, args: list[Node], scope: Scope, at: Node) -> tuple[Template, ...]:
    """What the string function ``name`` of this file returns for these arguments (its
    parameters bound to them, conditions on them decided); () when the file defines none
    (or more than one) that says something."""
    root = at
    while root.parent is not None:
        root = root.parent
    found = [d for d in _definitions(root) if last_name(function_name(d)) == last_name(name)]
    if len(found) != 1 or found[0].child_by_field_name("body") is None:
        return ()
    definition = found[0]
    params = parameters_of(definition)
    if len(params) != len(args):
        return ()
    bound = dict(zip(params, arguments_of(args, scope), strict=True))
    inner = Scope(params, known={p: text(a) for p, a in zip(params, args, strict=True)})
    body = definition.child_by_field_name("body")
    locals_of(body, inner)
    out: list[Template] = []
    for node in walk(body):
        if node.type != "return_statement" or not node.named_children:
            continue
        runs = runs_at_call(node, body, inner)
        if runs is False:
            continue  # under a condition the arguments rule out (another code's message)
        for t in read(node.named_children[0], inner):
            names = list(dict.fromkeys(h.name for h in t.holes if h.name in bound))
            for combo in itertools.islice(itertools.product(
                    *(bound[n] for n in names if n is not None)), MAX):
                out.append(substitute(t, dict(zip(names, combo, strict=True))))
        if runs is True:
            break  # returned whatever comes after
    return tuple(out[:MAX]) if any(says(t) for t in out) else ()


def runs_at_call(node: Node, body: Node | None, scope: Scope) -> bool | None:
    """Whether ``node`` runs for the call's arguments: False when an ``if`` or ``switch``
    around it takes another branch (``switch (code) { case E_NOMEM: return "…"; }``
    given ``E_BUSY``), True when every one around it takes its branch (or none is), None
    when one depends on what the arguments do not say."""
    unsure = False
    child, above = node, node.parent
    while above is not None and above != body:
        if above.type == "if_statement" and child != above.child_by_field_name("condition"):
            chosen = decided(above, scope)
            here = "else" if child == above.child_by_field_name("alternative") else "then"
            unsure = unsure or chosen is None
            if chosen is not None and chosen != here:
                return False
        elif above.type == "case_statement" and (switch := next(
                (a for a in ancestors(above) if a.type == "switch_statement"), None)):
            chosen = decided(switch, scope)
            unsure = unsure or chosen is None
            if chosen is not None and _case_taken(switch, chosen) != above:
                return False
        child, above = above, above.parent
    return None if unsure else True


def _case_taken(switch: Node, label: str) -> Node | None:
    """The case a ``switch`` runs for ``label``, through labels that fall through
    (``case A: case B: return "…";``)."""
    body = switch.child_by_field_name("body")
    cases = [c for c in (body.named_children if body is not None else ())
             if c.type == "case_statement"]
    at = next((i for i, c in enumerate(cases) if _label_of(c) == label), None)
    if at is None:
        return None
    while at + 1 < len(cases) and not [c for c in cases[at].named_children
                                       if c != cases[at].child_by_field_name("value")]:
        at += 1
    return cases[at]


def _label_of(case: Node) -> str:
    value = case.child_by_field_name("value")
    return text(value) if value is not None else "default"


_DEFINED: list[tuple[int, list[Node]]] = []  # the tree last asked, and its definitions
_SCOPES: list[tuple[Node | None, Scope]] = []  # the function last asked, and its names


def _scope_of(definition: Node | None) -> Scope:
    """The parameters and locals of the function a throw is in, read once for the throws
    of one function (a parser's throws are many, in long functions)."""
    if _SCOPES and _SCOPES[0][0] == definition:
        return _SCOPES[0][1]
    scope = Scope(parameters_of(definition) if definition is not None else ())
    locals_of(definition.child_by_field_name("body") if definition is not None else None, scope)
    _SCOPES[:] = [(definition, scope)]
    return scope


def _definitions(root: Node) -> list[Node]:
    if _DEFINED and _DEFINED[0][0] == root.id:
        return _DEFINED[0][1]
    found = [n for n in nodes_from(root, ()) if n.type == "function_definition"]
    _DEFINED[:] = [(root.id, found)]
    return found


def thrown_class(written: str) -> str | None:
    """``parse_error::create`` → ``parse_error`` (a static factory's class), ``make_error`` →
    None (what it makes composition tells); else the class as written."""
    head, separator, last = written.rpartition("::")
    if _FACTORY.match(last):
        return head if separator else None
    return head if _CASE_FACTORY.fullmatch(written) else written


def built_message(args: list[Node], at: Node) -> tuple[int, tuple[Template, ...]] | None:
    """The argument of a throw at ``at`` whose message the function builds before it, and
    what it can print: a stream's text (``oss << "value " << v; throw E(oss.str());``), a
    local appended to (``msg += " (empty)"``) or a buffer formatted into (``snprintf(buf,
    n, "bad %d", v); throw E(buf);``), each branch an alternative; None when no argument
    is one."""
    definition = next((a for a in ancestors(at) if a.type == "function_definition"), None)
    if definition is None:
        return None
    scope = _scope_of(definition)
    for i, arg in enumerate(args):
        if arg.type == "call_expression" and text(arg.child_by_field_name("function")) in (
                "std::string", "string") and len(inner := arguments(
                arg.child_by_field_name("arguments"))) == 1:
            arg = inner[0]  # ``throw E(std::string(buf))``: the buffer
        target = arg
        if arg.type == "call_expression":
            function = arg.child_by_field_name("function")
            if function is None or function.type != "field_expression" or text(
                    function.child_by_field_name("field")) not in ("str", "c_str"):
                continue
            target = function.child_by_field_name("argument") or arg
        name = text(target)
        if name not in scope.streams and name not in scope.appends and (
                name not in scope.printed):
            continue
        shown = read(arg, scope)
        return (i, shown) if any(says(t) for t in shown) else None
    return None


def thrown_call(written: str, args: list[Node], at: Node) -> Call | None:
    """The call composition follows for ``throw X(args)``: ``X``'s own (a class or factory of
    the repository may build the message), or for a standard exception the function or
    constant its message comes from (``std::runtime_error(not_found(key))``)."""
    definition = next((a for a in ancestors(at) if a.type == "function_definition"), None)
    scope = _scope_of(definition)
    owner = scope_owner(at)
    if not written.startswith("std::"):
        given, nested = _given(args, scope, owner, at)
        return Call(written, given, owner=owner, nested=nested)
    first = args[0] if args else None
    if first is not None and first.type == "identifier" and text(first) in scope.locals:
        values = scope.locals[text(first)]
        if len(values) > 1:  # a message assigned in branches: each its own record
            shown = read(first, scope)
            return Call(written, (shown, *arguments_of(args[1:], scope)), owner=owner,
                        makes_error=True) if any(says(t) for t in shown) else None
        first = values[0]
    if first is None:
        return None
    if first.type == "call_expression":
        function = first.child_by_field_name("function")
        if function is None or function.type not in ("identifier", "qualified_identifier") or (
                text(function).startswith("std::")):
            return None
        return Call(text(function), arguments_of(arguments(
            first.child_by_field_name("arguments")), scope), owner=owner, method=True)
    if first.type in ("identifier", "qualified_identifier") and _CONSTANT.match(
            last_name(text(first))):
        return Call(text(first), owner=owner, method=True)
    if first.type == "binary_expression" and _joins_constant(first):
        # ``std::string(Msg::BAD_ESCAPE) + c``: the constant is spelled out once every file
        # is read (composition), the message is then this argument's text
        return Call(written, arguments_of(args, scope), owner=owner, makes_error=True)
    return None


def _joins_constant(node: Node) -> bool:
    """Whether a ``+`` chain names a constant (``Msg::X``, ``std::string(NAME)``)."""
    if node.type == "binary_expression":
        if text(node.child_by_field_name("operator")) != "+":
            return False
        return any(_joins_constant(side) for side in (node.child_by_field_name("left"),
                                                      node.child_by_field_name("right"))
                   if side is not None)
    if node.type == "call_expression" and text(node.child_by_field_name("function")) in (
            "std::string", "string"):
        given = arguments(node.child_by_field_name("arguments"))
        return len(given) == 1 and _joins_constant(given[0])
    return node.type in ("identifier", "qualified_identifier") and bool(
        _CONSTANT.match(last_name(text(node))))


def joined_text(node: Node) -> tuple[Template, ...]:
    """What a ``+`` chain handed to a throwing helper reads as (``"unexpected token " +
    tok``): its templates that say something, read in the scope of its function."""
    definition = next((a for a in ancestors(node) if a.type == "function_definition"), None)
    return tuple(t for t in read(node, _scope_of(definition)) if says(t))


def cpp_symbol(node: Node) -> str | None:
    """``Class::method`` around a node: classes it is defined in, then its declared name."""
    definition = next((a for a in ancestors(node) if a.type == "function_definition"), None)
    if definition is None:
        return None
    name = function_name(definition)
    if name is None:
        return None
    classes = [
        text(a.child_by_field_name("name"))
        for a in ancestors(definition)
        if a.type in ("class_specifier", "struct_specifier", "union_specifier")
        and a.child_by_field_name("name") is not None
    ]
    return "::".join([*reversed(classes), name])


def typed_site(captured: Captures, file: object) -> Site | None:
    """``throw_or_mimic<exceptions::no_such_option>(name)``: a function named for throwing,
    templated on the class it throws. Its definition says what it does with the class
    (``compose._typed``): the call hands the class on as the parameter ``<0>``."""
    call, name = captured["typed"][0], text(captured["typed.name"][0])
    error_class = text(captured["typed.class"][0])
    args = arguments(captured["typed.args"][0])
    if call.parent is not None and call.parent.type == "throw_statement":
        return None
    made = thrown_call(name, args, call)
    if made is None:
        return None
    typed = (("<0>", (unknown(error_class.removeprefix("::")),)),)
    return Site(Template("", ()), "exception", line_of(call), symbol=cpp_symbol(call),
                call=replace(made, keywords=(*made.keywords, *typed), method=True))
