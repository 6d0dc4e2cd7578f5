"""What a C++ expression prints, read for composition: the templates a string built from
parameters, fields and literals can print (holes named after what source does not say).

Strings are read through ``+``, ``concat``/``StrCat``-style calls, ``std::to_string``,
``.c_str()``/``.str()``/``.what()``, a ``std::stringstream`` fed with ``<<``, locals assigned
above, ``a ? b : c`` (one alternative each), ``fmt::format``, and the file's string helpers
(inlined: ``exception::name("parse_error", id_)`` is ``[json.exception.parse_error.<id_>] ``).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field, replace

from tree_sitter import Node

from errdex.languages._engine.walk import nodes_from
from errdex.languages.base import ancestors, text
from errdex.languages.c.family import (
    STRING_TYPES,
    arguments,
    function_name,
    message_string,
    parameter_list,
    printf_parts,
)
from errdex.languages.cpp.empties import declared_empty, loosened
from errdex.languages.cpp.joins import joins
from errdex.languages.facts import Argument, Producer, constant_names, has_text, substitute, unknown
from errdex.templates.formats import parse_rust_format
from errdex.templates.template import (
    ONE_CHARACTER,
    Hole,
    Literal,
    Part,
    Template,
    lost_last_character,
    merge_literals,
)

_TEXT_OF = frozenset({"c_str", "data", "str", "what", "toStdString", "message"})
_TO_TEXT = frozenset({"to_string", "to_wstring", "std::to_string", "std::to_wstring"})
_STRINGS = frozenset({"std::string", "string", "std::string_view", "std::wstring", "QString"})
_FORMATS = frozenset({"fmt::format", "std::format", "format"})
_MOVES = frozenset({"std::move", "std::forward", "move"})  # print what they are given
# A project's own formatting function (``StringUtil::Format("no column %s", c)``,
# ``base::StringPrintf(…)``): printf or ``{}`` style, as its literal is written.
FORMATTERS = frozenset({"Format", "StringFormat", "FormatString", "Sprintf", "StringPrintf",
                        "stringPrintf", "str_format", "strprintf", "format_string"})
MAX = 8
CLASSES = ("class_specifier", "struct_specifier")
# What a call to a function of the file that may return ``""`` prints (``messages._call``).
EMPTY_HELPER = Producer("", (), (), "helper", "", 0)


Branch = tuple[Node, str]  # an ``if`` (or a ``case``) and which of its branches


@dataclass
class Scope:
    """What names print inside one function: parameters, fields, locals, streams, helpers."""

    params: tuple[str, ...] = ()
    fields: dict[str, Template] = field(default_factory=dict)
    helpers: dict[str, Producer] = field(default_factory=dict)
    locals: dict[str, list[Node]] = field(default_factory=dict)  # each value assigned
    # what is appended to a local (``msg += "…"``, ``msg.append(…)``), in source order, each
    # with the branch it is appended in (``branch_of``; None: always)
    appends: dict[str, list[tuple[Node, Branch | None]]] = field(default_factory=dict)
    # the arguments of the call being read, as written (``read_at_call``): conditions on
    # them are decided (``if (!context.empty())`` given ``"value"``)
    known: dict[str, str] = field(default_factory=dict)
    chars: set[str] = field(default_factory=set)  # locals declared ``char``: one character
    streams: dict[str, list[Node]] = field(default_factory=dict)
    printed: set[str] = field(default_factory=set)  # buffers ``snprintf`` writes a text to
    depth: int = 0


def read(node: Node | None, scope: Scope) -> tuple[Template, ...]:
    """The templates an expression can print (holes named after what source does not say)."""
    if node is None:
        return ()
    if scope.depth > 12:
        return (unknown(text(node)),)
    scope.depth += 1
    try:
        return _read(node, scope)[:MAX]
    finally:
        scope.depth -= 1


def _read(node: Node, scope: Scope) -> tuple[Template, ...]:
    kind = node.type
    if kind in ("parenthesized_expression", "user_defined_literal") and node.named_children:
        return read(node.named_children[0], scope)
    found = message_string(node) if kind in STRING_TYPES else None
    if found is not None:
        return (Template(found.written, found.parts()),)
    if kind == "char_literal":
        value = text(node)[1:-1].replace("\\n", "\n").replace("\\'", "'")
        return (Template(value, merge_literals([Literal(value)])),)
    if kind == "number_literal":
        return (Template(text(node), (Literal(text(node)),)),)
    if kind == "binary_expression" and text(node.child_by_field_name("operator")) == "+":
        if any(c.type == "number_literal" for c in node.named_children):
            return (unknown(text(node)),)  # ``mark.line + 1``: arithmetic
        return _joined([read(node.child_by_field_name("left"), scope),
                        read(node.child_by_field_name("right"), scope)])
    if kind == "conditional_expression":
        return (*read(node.child_by_field_name("consequence"), scope),
                *read(node.child_by_field_name("alternative"), scope))
    if kind == "call_expression":
        return _call(node, scope)
    if kind in ("identifier", "field_expression", "qualified_identifier", "this"):
        return _name(node, scope)
    return (unknown(text(node)),)


def _name(node: Node, scope: Scope) -> tuple[Template, ...]:
    name = text(node).removeprefix("this->")
    if name in scope.fields:
        return (scope.fields[name],)
    if name in scope.locals and name not in scope.params:
        values = scope.locals.pop(name)  # read once: ``w = w + x`` does not loop
        try:  # assigned in branches (``if … msg = "a"; else msg = "b";``): each one
            assigned = tuple(t for value in values for t in read(value, scope))[:MAX]
            start = min(v.start_byte for v in values)
            found = _appended(assigned, [(v, b) for v, b in scope.appends.get(name, ())
                                         if v.start_byte > start], scope)
        finally:
            scope.locals[name] = values
        return tuple(_character(t) for t in found) if name in scope.chars else found
    return (_character(unknown(name)),) if name in scope.chars else (unknown(name),)




def _character(template: Template) -> Template:
    """What a ``char`` local prints: one character (a lone hole of any text becomes one)."""
    if len(template.parts) == 1 and isinstance(hole := template.parts[0], Hole) and (
            hole.regex == ".+?"):
        return Template(template.written, (replace(hole, regex=ONE_CHARACTER),))
    return template


def _call(node: Node, scope: Scope) -> tuple[Template, ...]:
    function = node.child_by_field_name("function")
    args = arguments(node.child_by_field_name("arguments"))
    name = text(function).removeprefix("::")
    last = name.replace("->", ".").replace("::", ".").rsplit(".", 1)[-1]
    if message_string(node) is not None:  # _("…"), tr("…")
        found = message_string(node)
        assert found is not None
        return (Template(found.written, found.parts()),)
    if function is not None and function.type == "field_expression" and not args and (
            last in _TEXT_OF):
        target = function.child_by_field_name("argument")
        if target is not None and text(target) in scope.streams:
            return _joined([read(a, scope) for a in scope.streams[text(target)]])
        return read(target, scope)
    if joins(name):
        return _joined([read(a, scope) for a in args])
    if (name in _STRINGS or name in _MOVES) and len(args) == 1:
        return read(args[0], scope)
    if name in _TO_TEXT and len(args) == 1:
        return (unknown(text(args[0]).removeprefix("this->")),)
    if name in _FORMATS and args:
        fmt = message_string(args[0])
        if fmt is not None:
            holes = [text(a) for a in args[1:]]
            return (Template(fmt.written, fmt.parts(parse_rust_format(fmt.text, holes))),)
    if last in FORMATTERS and args and (formatted := format_given(args[0], args[1:])):
        return (formatted,)
    if (at := _FORMAT_AT.get(name.removeprefix("std::"))) is not None and len(args) > at:
        fmt = message_string(args[at])  # ``snprintf(buf, n, "bad %d", v)``: what ``buf`` holds
        if fmt is not None:
            return (Template(fmt.written, printf_parts(fmt, [text(a) for a in args[at + 1:]])),)
    helper = scope.helpers.get(last)
    if helper is EMPTY_HELPER:  # may print nothing: a hole that may be empty
        name = text(node)
        return (Template("{" + name + "}", (Hole(name, "{" + name + "}", regex=".*?"),)),)
    if helper is not None:
        given = [read(a, scope) for a in args]
        out: list[Template] = []
        for combo in itertools.islice(itertools.product(*given), MAX):
            bindings = dict(zip(helper.params, combo, strict=False))
            out.extend(substitute(r, bindings) for r in helper.results if isinstance(r, Template))
        return tuple(out) or (unknown(text(node)),)
    return (unknown(text(node)),)


def _appended(assigned: tuple[Template, ...], appends: list[tuple[Node, Branch | None]],
              scope: Scope) -> tuple[Template, ...]:
    """A local's texts with what is appended to it after its value, in order: an append
    made always is added to each text; appends in the branches of one ``if`` give one
    alternative per branch, and one without them when a branch appends nothing (an ``if``
    with no ``else``): ``msg += "; expected " + x`` under a condition may be printed or not,
    unless the call's arguments decide the condition (``decided``)."""
    out = assigned
    i = 0
    while i < len(appends) and out:
        node, branch = appends[i]
        if branch is None:
            out = _joined([out, read(node, scope)])
            i += 1
            continue
        chosen: dict[str, list[Node]] = {}
        at = branch[0]
        while i < len(appends) and (b := appends[i][1]) is not None and b[0] == at:
            chosen.setdefault(b[1], []).append(appends[i][0])
            i += 1
        taken = decided(at, scope)
        if taken is not None:  # the condition is known: that branch only
            nodes = chosen.get(taken, [])
            out = _joined([out, *(read(n, scope) for n in nodes)]) if nodes else out
            continue
        options = [_joined([read(n, scope) for n in nodes]) for nodes in chosen.values()]
        empty = Template("", ())
        choices = tuple(t for o in options for t in o) + (
            (empty,) if len(chosen) < _branches(at) else ())
        out = _joined([out, choices])
    return out


def branch_of(node: Node, body: Node | None) -> Branch | None:
    """The ``if`` or ``switch`` and the branch of it that ``node`` runs in (``then``,
    ``else``, a case by its label), the nearest one inside ``body``; None when it runs
    whenever ``body`` does (a loop counts as always)."""
    child, above = node, node.parent
    while above is not None and above != body:
        if above.type == "if_statement" and child != above.child_by_field_name("condition"):
            alternative = above.child_by_field_name("alternative")
            return above, ("else" if child == alternative else "then")
        if above.type == "case_statement":
            switch = next((a for a in ancestors(above) if a.type == "switch_statement"), None)
            if switch is not None:
                return switch, _label(above)
        if above.type == "conditional_expression":
            return above, "case"
        child, above = above, above.parent
    return None


def _label(case: Node) -> str:
    value = case.child_by_field_name("value")
    return text(value) if value is not None else "default"


def _branches(at: Node) -> int:
    """How many branches an ``if`` or ``switch`` has that run some code (an ``if`` without
    ``else`` and a ``switch`` without ``default`` also run none)."""
    if at.type == "if_statement":
        return 2  # then, and else (or nothing)
    if at.type == "switch_statement":
        body = at.child_by_field_name("body")
        cases = [c for c in (body.named_children if body is not None else ())
                 if c.type == "case_statement"]
        labels = {_label(c) for c in cases}
        return len(labels) if "default" in labels else len(labels) + 1
    return 1


def decided(branch: Node, scope: Scope) -> str | None:
    """The branch an ``if`` or ``switch`` takes when its condition tests only arguments the
    call gives as literals or constants: ``!context.empty()`` given ``"value"`` (``then``),
    ``expected != token_type::uninitialized`` given ``token_type::uninitialized``
    (``else``), ``switch (format)`` given ``input_format_t::cbor`` (that case)."""
    if not scope.known:
        return None
    condition = branch.child_by_field_name("condition")
    inner = condition.named_children[0] if condition is not None and (
        condition.named_children) else None
    if branch.type == "switch_statement":
        given = scope.known.get(text(inner)) if inner is not None else None
        if given is None or not _CONSTANT_LIKE.fullmatch(given):
            return None
        body = branch.child_by_field_name("body")
        labels = {_label(c) for c in (body.named_children if body is not None else ())
                  if c.type == "case_statement"}
        return given if given in labels else "default"
    if branch.type != "if_statement":
        return None
    truth = _truth(inner, scope.known)
    return None if truth is None else ("then" if truth else "else")


def _truth(node: Node | None, known: dict[str, str]) -> bool | None:
    if node is None:
        return None
    if node.type == "parenthesized_expression" and node.named_children:
        return _truth(node.named_children[0], known)
    if node.type == "unary_expression" and text(node.child_by_field_name("operator")) == "!":
        inner = _truth(node.child_by_field_name("argument"), known)
        return None if inner is None else not inner
    if node.type == "call_expression":  # ``context.empty()``
        function = node.child_by_field_name("function")
        if function is None or function.type != "field_expression":
            return None
        target = function.child_by_field_name("argument")
        given = known.get(text(target)) if target is not None else None
        if given is None or text(function.child_by_field_name("field")) != "empty" or (
                not given.startswith('"')):
            return None
        return given == '""'
    if node.type == "binary_expression" and text(
            node.child_by_field_name("operator")) in ("==", "!="):
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            return None
        given = known.get(text(left))
        other = text(right)
        if given is None and text(right) in known:
            given, other = known[text(right)], text(left)
        if given is None or not (_CONSTANT_LIKE.fullmatch(given) and _CONSTANT_LIKE.fullmatch(
                other)):
            return None
        same = given == other
        return same if text(node.child_by_field_name("operator")) == "==" else not same
    return None


# An enumerator, a constant or a literal, as written: two different ones differ.
_CONSTANT_LIKE = re.compile(r"(?:[A-Za-z_]\w*::)+[A-Za-z_]\w*|[A-Z][A-Z0-9_]+|-?\d+|\"[^\"]*\"")


def _joined(pieces: list[tuple[Template, ...]]) -> tuple[Template, ...]:
    out: list[Template] = []
    for combo in itertools.islice(itertools.product(*pieces), MAX):
        parts: list[Part] = [p for t in combo for p in t.parts]
        out.append(lost_last_character(Template("".join(t.written for t in combo),
                                       merge_literals(parts))))
    return tuple(out)


def arguments_of(args: list[Node], scope: Scope) -> tuple[Argument, ...]:
    """A call's arguments as template alternatives; a literal with a placeholder for each
    argument after it, as the text they format (``format_given``)."""
    out: list[Argument] = []
    for i, arg in enumerate(args):
        made = format_given(arg, args[i + 1:])
        out.append((made,) if made is not None else read(arg, scope) or (unknown(text(arg)),))
    return tuple(out)


_PRINTF_SPEC = re.compile(r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?"
                          r"[diouxXeEfgGcsp]")
_BRACE_SPEC = re.compile(r"\{(?:\d+|[A-Za-z_]\w*)?(?::[^{}]*)?\}")


def format_given(fmt: Node, rest: list[Node]) -> Template | None:
    """A literal given with the arguments it formats (``throw Error("bad %s at %d", k, n)``,
    ``throw Exception(code, "cannot parse {}", s)``): the class formats it, printf style or
    ``{}`` style, whichever the literal is written in, when it has a placeholder for each
    argument after it; None for a plain literal or one with no arguments after it."""
    found = message_string(fmt) if rest and fmt.type in STRING_TYPES else None
    if found is None:
        return None
    texts = [text(a) for a in rest]
    printf = _PRINTF_SPEC.findall(found.text.replace("%%", ""))
    braces = _BRACE_SPEC.findall(found.text.replace("{{", "").replace("}}", ""))
    if printf and not braces and len(printf) == len(rest):  # ``string hint;``: may be empty
        return loosened(Template(found.written, printf_parts(found, texts)), declared_empty(rest))
    if braces and not printf and len(braces) == len(rest):
        parsed = Template(found.written, found.parts(parse_rust_format(found.text, texts)))
        return loosened(parsed, declared_empty(rest))
    return None


def locals_of(body: Node | None, scope: Scope) -> None:
    """Locals assigned a value (``std::string w = …;``) and streams fed with ``<<``."""
    for node in nodes_from(body, ("lambda_expression", "class_specifier"), keep_nested=True):
        if node.type == "declaration" and text(node.child_by_field_name("type")) == "char":
            scope.chars.update(_plain_names(node))
        if node.type == "init_declarator":
            value = node.child_by_field_name("value")
            if value is not None and value.type in ("argument_list", "initializer_list"):
                inner = arguments(value)
                value = inner[0] if len(inner) == 1 else None
            name = name_of(node.child_by_field_name("declarator"))
            if value is not None and name:
                scope.locals.setdefault(name, []).append(value)
        elif node.type == "assignment_expression" and text(
                node.child_by_field_name("operator")) == "=":
            left, value = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and left.type == "identifier" and value is not None:
                scope.locals.setdefault(text(left), []).append(value)
        elif node.type == "assignment_expression" and text(
                node.child_by_field_name("operator")) == "+=":
            left, value = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and left.type == "identifier" and value is not None:
                scope.appends.setdefault(text(left), []).append((value, branch_of(node, body)))
        elif node.type == "call_expression" and (appended := _append_call(node)) is not None:
            target, value = appended
            scope.appends.setdefault(target, []).append((value, branch_of(node, body)))
        elif node.type == "call_expression" and text(node.child_by_field_name("function")
                                                     ).removeprefix("std::") in _FORMAT_AT:
            buffer = arguments(node.child_by_field_name("arguments"))[:1]
            if buffer and buffer[0].type == "identifier":  # read as its format (``_call``)
                scope.locals.setdefault(text(buffer[0]), []).append(node)
                scope.printed.add(text(buffer[0]))
        elif node.type == "declaration" and "stream" in text(node.child_by_field_name("type")):
            for declarator in node.children_by_field_name("declarator"):
                scope.streams[name_of(declarator) or text(declarator)] = []
        elif node.type == "expression_statement" and node.named_children:
            operands = _shifted(node.named_children[0])
            if operands and text(operands[0]) in scope.streams:
                scope.streams[text(operands[0])].extend(operands[1:])


def _plain_names(declaration: Node) -> list[str]:
    """The names a declaration declares as values (``char c = …``, not ``char *p``)."""
    out: list[str] = []
    for declarator in declaration.children_by_field_name("declarator"):
        named = (declarator.child_by_field_name("declarator")
                 if declarator.type == "init_declarator" else declarator)
        if named is not None and named.type == "identifier":
            out.append(text(named))
    return out


_FORMAT_AT = {"snprintf": 2, "sprintf": 1}  # C's formatting into a buffer: the format's index


def _append_call(node: Node) -> tuple[str, Node] | None:
    """``msg.append(x)`` on a local: the local and what it appends."""
    function = node.child_by_field_name("function")
    args = arguments(node.child_by_field_name("arguments"))
    if function is None or function.type != "field_expression" or len(args) != 1:
        return None
    target = function.child_by_field_name("argument")
    if text(function.child_by_field_name("field")) != "append" or target is None or (
            target.type != "identifier"):
        return None
    return text(target), args[0]


def _shifted(node: Node) -> list[Node]:
    out: list[Node] = []
    while node.type == "binary_expression" and text(node.child_by_field_name("operator")) == "<<":
        right, left = node.child_by_field_name("right"), node.child_by_field_name("left")
        if right is None or left is None:
            return []
        out.append(right)
        node = left
    return [node, *reversed(out)] if out else []


def name_of(node: Node | None) -> str | None:
    while node is not None and node.type not in ("identifier", "field_identifier"):
        node = node.child_by_field_name("declarator") or (
            node.named_children[0] if node.named_children else None)
    return text(node) if node is not None else None


def says(template: Template) -> bool:
    """Some text, or a constant that composition fills in (``KEY_NOT_FOUND << ": " << k``)."""
    return has_text(template) or bool(constant_names(template))


def parameters_of(definition: Node) -> tuple[str, ...]:
    """A function's parameter names, in order."""
    params = parameter_list(definition)
    names = [name_of(p.child_by_field_name("declarator"))
             for p in (params.named_children if params is not None else ())
             if p.type in ("parameter_declaration", "optional_parameter_declaration")]
    return tuple(n for n in names if n)


# --- where code is ------------------------------------------------------------------------


def walk(node: Node | None) -> list[Node]:
    """The nodes of a body in source order, nested lambdas and classes left out."""
    return nodes_from(node, ("lambda_expression", "class_specifier", "struct_specifier"),
                      keep_nested=True)


def last_name(name: str | None) -> str:
    """``mylib::NotFound`` → ``NotFound``."""
    return (name or "").rsplit("::", 1)[-1]


def class_of(node: Node) -> str | None:
    """The class a definition is written in."""
    for ancestor in ancestors(node):
        if ancestor is not node and ancestor.type in CLASSES:
            return text(ancestor.child_by_field_name("name")) or None
    return None


def scope_owner(node: Node) -> str | None:
    """The class the code at ``node`` belongs to: its enclosing class, or the qualifier of an
    out-of-class method (``Store::open`` → ``Store``)."""
    owner = class_of(node)
    if owner is not None:
        return owner
    definition = next((a for a in ancestors(node) if a.type == "function_definition"), None)
    full = function_name(definition) if definition is not None else None
    return full.rsplit("::", 1)[0].rsplit("::", 1)[-1] if full and "::" in full else None
