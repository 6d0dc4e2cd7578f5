"""Swift producers: what ``throw StoreError.notFound(key)`` or ``throw ParseError(line: 3,
message: "…")`` prints when the error's text is written in its type, maybe in another file.

Read per file, composed across the repository (``errdex.mining.compose``):

* an enum case: each arm of an error type's ``errorDescription`` (else
  ``localizedDescription``, else ``description``) ``switch self`` is the case's message,
  its bound values the case's parameters by position (``case .notFound(let key): return
  "no such item: \\(key)"``; ``case let .http(code, message)``); a ``default`` arm serves
  the cases the file declares and no arm names; a ``String`` enum whose text is its
  ``rawValue`` gives each case its raw value (its name when none is written).
  ``errorClass`` is ``Type.case``;
* a struct or class: the same property without a ``switch``, its stored properties
  (``self.x`` or ``x``) the memberwise initializer's parameters, or the ``init``'s through
  ``self.x = param``;
* a factory or helper: a function that returns or throws an error built from its
  parameters (``static func make(_ key: String) -> StoreError { .notFound(key) }``,
  ``func fail(_ msg: String) throws -> Never { throw ConfigError(message: "config: " +
  msg) }``).

What a site or a producer passes is read in ``calls.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import FileIndex
from errdex.languages._engine.walk import nodes_below
from errdex.languages.base import ancestors, captures, line_of, load_query, parse, text
from errdex.languages.facts import Call, Composer, Producer, Result, bind, has_text, parameter
from errdex.languages.swift.calls import (
    Read,
    argument,
    own_name,
    owner_name,
    thrown_call,
)
from errdex.languages.swift.reflection import describes_itself, reflected
from errdex.templates.template import Template, literal_template

_QUERY = Path(__file__).with_name("compose.scm")
_DESCRIBE = ("errorDescription", "localizedDescription", "description")
_NESTED = frozenset({"function_declaration", "init_declaration", "lambda_literal",
                     "class_declaration", "computed_property", "property_declaration"})
_ERRORISH = ("Error", "Exception", "Failure")


# --- producers -------------------------------------------------------------------------


def producers(root: Node, source: bytes, path: str, *, read: Read) -> list[Producer]:
    """The producers of one parsed file (a query finds the declarations, the enum cases
    and the ``let``s their messages may read)."""
    root = _without_directives(root, source)
    found_nodes = captures(load_query("swift", _QUERY), root)
    types, functions = found_nodes.get("type", []), found_nodes.get("function", [])
    properties, entries = found_nodes.get("property", []), found_nodes.get("entry", [])
    file = FileIndex()
    for node in properties:
        pattern = node.child_by_field_name("name")
        name = pattern.child_by_field_name("bound_identifier") if pattern else None
        if name is not None and node.child_by_field_name("value") is not None:
            file.add(text(name), node)
    file.sort()
    declared = _declared_cases(entries)
    found = [p for node in types if _is_error(node)
             for p in _type(node, path, file, read, declared)]
    found.extend(p for node in functions if (p := _function(node, path, file, read)) is not None)
    found.extend(p for node in properties if (p := _alias(node, path, file, read)) is not None)
    return _with_reflection(found, entries, types, path)


def _with_reflection(found: list[Producer], entries: list[Node], types: list[Node],
                     path: str) -> list[Producer]:
    """The producers with each error case's printed form (``reflection.py``) where its
    type's description says nothing of the case (``reason.localizedDescription``): what
    the site prints is its case (the site of a described case keeps its one text)."""
    errors = {type_name(n) for n in types if _is_error(n)}
    described = {type_name(n) for n in types if describes_itself(n)}
    own = {(p.name, p.owner, p.error_class) for p in found}
    found.extend(made for made in reflected(entries, errors, described, path, type_name)
                 if (made.name, made.owner, made.error_class) not in own)
    return found


_DIRECTIVE = re.compile(rb"(?m)^[ \t]*#(?:if|elseif|else|endif)\b[^\n]*")


def _without_directives(root: Node, source: bytes) -> Node:
    """The file read again with its ``#if``/``#else``/``#endif`` lines blanked when it does
    not parse (a nested type under ``#if`` in an enum's body hides the cases after it
    from the grammar); lines and offsets stay as written."""
    if not root.has_error or b"#" not in source:
        return root
    blanked = _DIRECTIVE.sub(lambda m: b" " * len(m.group()), source)
    if blanked == source:
        return root
    again = parse("swift", blanked).root_node
    return again if not again.has_error else root


def _alias(node: Node, path: str, file: FileIndex, read: Read) -> Producer | None:
    """``static let _ioOnClosedChannel: any Error = ChannelError.ioOnClosedChannel``: a
    type's error value under another name (``throw ChannelError._ioOnClosedChannel``)."""
    value = node.child_by_field_name("value")
    modifiers = next((c for c in node.named_children if c.type == "modifiers"), None)
    if value is None or "static" not in text(modifiers) or value.type not in (
            "navigation_expression", "call_expression"):
        return None
    made = thrown_call(value, file, read)
    if made is None or not _capitalized(made) or "." not in made.callee:
        return None
    return Producer(_property_name(node), (), (Call(made.callee, made.args, made.keywords,
                                                    made.owner, path),),
                    "factory", path, line_of(node), owner=owner_name(node))


def type_name(node: Node) -> str:
    """``Store`` for ``struct Store<T>``; ``Outer.Inner`` nested, or ``extension Outer.Inner``."""
    names = [own_name(a) for a in ancestors(node) if a.type == "class_declaration"]
    return ".".join([*reversed(names), own_name(node)])


def _is_error(node: Node) -> bool:
    """An error type: it conforms to something named ``…Error`` or is named like one."""
    inherits = [text(c) for c in node.named_children if c.type == "inheritance_specifier"]
    return any("Error" in i for i in inherits) or any(
        w in own_name(node) for w in _ERRORISH)


def _declared_cases(entries: list[Node]) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """The cases each enum of the file declares: (name, its values' labels or ``_i``)."""
    out: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for node in entries:
        enum = next((a for a in ancestors(node) if a.type == "class_declaration"), None)
        data = node.child_by_field_name("data_contents")
        count = sum(1 for c in data.named_children if c.type != "simple_identifier"
                    ) if data is not None else 0
        params = tuple(f"_{i}" for i in range(count))
        for name in node.children_by_field_name("name"):
            if enum is not None:
                out.setdefault(type_name(enum), []).append((text(name), params))
    return out


def _raw_values(enum: Node, read: Read) -> list[tuple[str, Template, int]]:
    """A ``String`` enum's cases and their raw values (the case's name when not written)."""
    body = enum.child_by_field_name("body")
    strings = any(text(c) == "String" for c in enum.named_children
                  if c.type == "inheritance_specifier")
    out: list[tuple[str, Template, int]] = []
    for entry in (c for c in (body.named_children if body is not None else ())
                  if c.type == "enum_entry"):
        raw: dict[str, Template] = {}
        names: list[str] = []
        for i, child in enumerate(entry.named_children):
            field = entry.field_name_for_named_child(i)
            if field == "name":
                names.append(text(child))
            elif field == "raw_value" and names:
                value = read(child, FileIndex())
                if value is not None:
                    raw[names[-1]] = Template(value.written, value.parts)
        out.extend((name, raw[name] if name in raw else literal_template(name), line_of(entry))
                   for name in names if name in raw or strings)
    return out


def _type(node: Node, path: str, file: FileIndex, read: Read,
          declared: dict[str, list[tuple[str, tuple[str, ...]]]]) -> list[Producer]:
    """An error type's producers: one per ``switch self`` case, or the type's own."""
    body = node.child_by_field_name("body")
    members = body.named_children if body is not None else []
    properties = {_property_name(m): m for m in members if m.type == "property_declaration"}
    describe = next((properties[n] for n in _DESCRIBE if n in properties and (
        properties[n].child_by_field_name("computed_value") is not None)), None)
    if describe is None:
        return []
    full = type_name(node)
    owner = full.rsplit(".", 1)[-1]
    computed = describe.child_by_field_name("computed_value")
    switch = _switch_on_self(computed)
    if switch is not None:
        return _cases(switch, full, owner, path, file, read, declared.get(full, []))
    if [text(v) for v in _values(computed)] in (["rawValue"], ["self.rawValue"]):
        return [Producer(case, (), (raw,), "class message", path, line, owner=owner,
                         error_class=f"{full}.{case}")
                for case, raw, line in _raw_values(node, read)]
    params, defaults, fields = _initializer(members, file, read)
    results: list[Result] = []
    for value in _values(computed):
        for template in argument(value, file, read):
            bound = bind(template, fields)
            assert isinstance(bound, Template)
            results.append(bound)
    if not results:
        return []
    return [Producer(owner, params, tuple(results), "class message", path, line_of(node),
                     owner=_outer(node), is_class=True, defaults=defaults)]


def _property_name(node: Node) -> str:
    pattern = node.child_by_field_name("name")
    return text(pattern.child_by_field_name("bound_identifier")) if pattern is not None else ""


def _switch_on_self(computed: Node | None) -> Node | None:
    statements = next((c for c in computed.named_children if c.type == "statements"), None
                      ) if computed is not None else None
    for statement in statements.named_children if statements is not None else ():
        if statement.type == "control_transfer_statement" and statement.named_child_count:
            statement = statement.named_children[-1]
        if statement.type == "switch_statement" and text(
                statement.child_by_field_name("expr")) == "self":
            return statement
    return None


def _cases(switch: Node, full: str, owner: str, path: str, file: FileIndex, read: Read,
           declared: list[tuple[str, tuple[str, ...]]]) -> list[Producer]:
    """One producer per case an arm names, and per declared case the ``default`` arm serves."""
    found: list[Producer] = []
    named: set[str] = set()
    fallback: list[Result] = []
    fallback_line = 0
    for entry in (c for c in switch.named_children if c.type == "switch_entry"):
        results = _arm(entry, file, read)
        if any(c.type == "default_keyword" for c in entry.children):
            fallback, fallback_line = results, line_of(entry)
            continue
        for pattern in (c for c in entry.named_children if c.type == "switch_pattern"):
            case, params = _case_pattern(pattern)
            if case is None:
                continue
            named.add(case)
            if results:
                found.append(Producer(case, params, tuple(results), "class message", path,
                                      line_of(entry), owner=owner, error_class=f"{full}.{case}"))
    if fallback:
        found.extend(Producer(case, params, tuple(fallback), "class message", path,
                              fallback_line, owner=owner, error_class=f"{full}.{case}")
                     for case, params in declared if case not in named)
    return found


def _arm(entry: Node, file: FileIndex, read: Read) -> list[Result]:
    statements = next((c for c in entry.named_children if c.type == "statements"), None)
    results: list[Result] = []
    for value in _values(statements) if statements is not None else []:
        results.extend(argument(value, file, read))
    return results if any(isinstance(r, Template) and has_text(r) for r in results) else []


def _case_pattern(pattern: Node) -> tuple[str | None, tuple[str, ...]]:
    """``.notFound(let key)`` → (``notFound``, (``key``,)); a wildcard is ``_i``."""
    stack = [pattern]
    while stack:
        node = stack.pop(0)
        if node.type == "simple_identifier" and node.prev_sibling is not None and (
                node.prev_sibling.type == "."):
            siblings = [c for c in (node.parent.named_children if node.parent else [])
                        if c.type == "pattern" and c.start_byte > node.start_byte]
            return text(node), tuple(_bound(p, i) for i, p in enumerate(siblings))
        stack[:0] = node.children
    return None, ()


def _bound(pattern: Node, index: int) -> str:
    name = pattern.child_by_field_name("bound_identifier") or next(
        (c for c in pattern.named_children if c.type == "simple_identifier"), None)
    return text(name) if name is not None else f"_{index}"


def _initializer(members: list[Node], file: FileIndex, read: Read) -> tuple[
        tuple[str, ...], tuple[tuple[str, Template], ...], dict[str, Template]]:
    """The parameters a type is built with, their text defaults, and what its fields
    print (``self.x``/``x``): an ``init``'s through ``self.x = param``, else memberwise."""
    init = next((m for m in members if m.type == "init_declaration"), None)
    fields: dict[str, Template] = {}
    if init is not None:
        params = tuple(text(p.child_by_field_name("name")) for p in init.named_children
                       if p.type == "parameter")
        for node in _own(init, ("assignment",)):
            target, value = node.child_by_field_name("target"), node.child_by_field_name("result")
            field = text(target).removeprefix("self.")
            if value is not None and text(value) in params:
                fields[field] = fields["self." + field] = parameter(text(value))
        return params, (), fields
    names: list[str] = []
    defaults: list[tuple[str, Template]] = []
    for member in members:
        if member.type != "property_declaration" or member.child_by_field_name(
                "computed_value") is not None or "static" in text(
                next((c for c in member.named_children if c.type == "modifiers"), None)):
            continue
        name, value = _property_name(member), member.child_by_field_name("value")
        binding = next((c for c in member.named_children if c.type == "value_binding_pattern"),
                       None)
        if value is not None and text(binding) == "let":
            continue  # ``let x = 1`` is no initializer parameter
        names.append(name)
        fields["self." + name] = parameter(name)
        message = read(value, file) if value is not None else None
        if message is not None:
            defaults.append((name, Template(message.written, message.parts)))
    return tuple(names), tuple(defaults), fields


# --- factories and helpers -------------------------------------------------------------


def _function(node: Node, path: str, file: FileIndex, read: Read) -> Producer | None:
    """A factory (returns an error built from its parameters) or a helper (throws it)."""
    params = tuple(text(p.child_by_field_name("name")) for p in node.named_children
                   if p.type == "parameter")
    if not params:
        return None
    result_type = next((text(c) for c in node.children_by_field_name("name")
                        if c.type == "user_type"), None)
    throwing = b"throw " in (node.text or b"")
    if not throwing and not any(w in (result_type or "") for w in _ERRORISH):
        return None  # neither throws nor returns an error: no factory nor helper
    results: list[Result] = []
    role = "factory"
    for statement in _own(node, ("control_transfer_statement",)):
        throws = any(c.type == "throw_keyword" for c in statement.children)
        value = statement.named_children[-1] if statement.named_child_count else None
        if value is None or (not throws and statement.child_by_field_name("result") is None):
            continue
        if throws and not _guarded(statement, node):
            continue
        made = thrown_call(value, file, read, result_type)
        if made is None or not _capitalized(made) or not _uses(made, set(params)):
            continue
        results.append(Call(made.callee, made.args, made.keywords, made.owner, path))
        role = "helper" if throws else role
    body = node.child_by_field_name("body")
    for value in [] if results or body is None else _values(body):  # ``{ .notFound(key) }``
        made = thrown_call(value, file, read, result_type)
        if made is not None and _capitalized(made) and _uses(made, set(params)):
            results.append(Call(made.callee, made.args, made.keywords, made.owner, path))
    if not results:
        return None
    return Producer(text(node.child_by_field_name("name")), params, tuple(results[:16]), role,
                    path, line_of(node), owner=owner_name(node))


def _guarded(statement: Node, function: Node) -> bool:
    """Whether a ``throw`` is what the function is for: a statement of its own or under one
    ``guard``/``if``, not in a ``catch``, loop or ``switch`` of a function that throws on
    the way."""
    guards = 0
    for ancestor in ancestors(statement):
        if ancestor == function:
            return guards <= 1
        if ancestor.type in ("catch_block", "do_statement", "for_statement", "while_statement",
                             "repeat_while_statement", "switch_statement"):
            return False
        guards += ancestor.type in ("if_statement", "guard_statement")
    return False


def _capitalized(call: Call) -> bool:
    """A type (``ParseError(…)``) or a type's member (``E.notFound``): no free function."""
    return call.callee[:1].isupper()


def _uses(call: Call, params: set[str]) -> bool:
    arguments_ = [*call.args, *(a for _, a in call.keywords)]
    return any(h.name in params for a in arguments_ for t in a for h in t.holes)


# --- walking ---------------------------------------------------------------------------


def _values(node: Node | None) -> list[Node]:
    """What a body returns: each ``return``'s value, or its single expression."""
    if node is None:
        return []
    returns = [r.child_by_field_name("result") for r in _own(node, ("control_transfer_statement",))]
    found = [r for r in returns if r is not None]
    if found:
        return found
    statements = node if node.type == "statements" else next(
        (c for c in node.named_children if c.type == "statements"), None)
    if statements is not None and statements.named_child_count == 1:
        only = statements.named_children[0]
        if only.type not in ("switch_statement", "if_statement", "control_transfer_statement"):
            return [only]
    return []


def _own(node: Node, types: tuple[str, ...]) -> list[Node]:
    """The nodes of ``types`` under ``node``, not inside a nested function, closure or type."""
    return [n for n in nodes_below(node, _NESTED, keep_nested=True) if n.type in types]


def _outer(node: Node) -> str | None:
    """The type a type is nested in."""
    return owner_name(node)


def composer(read: Read) -> Composer:
    """The Swift composer, reading messages the spec's way."""
    def read_producers(root: Node, source: bytes, path: str) -> list[Producer]:
        return producers(root, source, path, read=read)

    return Composer(producers=read_producers, triggers=(b"Error", b"throw", b"Exception"))
