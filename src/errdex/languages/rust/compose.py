"""Rust producers: error types whose ``Display`` writes the message, and the functions that
build them, for sites that construct an error the file alone cannot print.

* a thiserror variant or struct: ``#[error("no such item: {key}")] NotFound { key: String }``
  prints ``no such item: <key>`` (tuple fields are ``0``, ``1``…, as ``{0}`` names them);
* an ``impl Display``: each ``match self`` arm's ``write!``/``f.write_str`` is what that
  variant prints (an arm's pattern names the fields its bindings print; two arms of one
  variant, or an ``if`` in one, are alternatives); without a ``match``, what the type
  prints (``self.ms`` is the ``ms`` field); a ``match self.kind`` makes each arm what that
  variant of the field's enum prints (``Kind::Closed => CLOSED.fmt(f)``), and the type
  print its field, so ``PoolError::new(Kind::Closed)`` composes the arm's text;
* a string constant (``const MSG_NOT_FOUND: &str = "…"``), spelled out where a composed
  message prints it;
* a helper: one that panics with a message built from its parameters (``fn fail(msg:
  &str) -> ! { panic!("config: {}", msg) }``), for the call statements that pass it text;
* a factory: a function or method whose result is a variant, a struct, another factory's
  result or an ``anyhow!``/``format!`` of its parameters (``fn not_found(k: &str) -> Self {
  Self::NotFound(k.into()) }``).

Parameters are named as calls pass them (``calls.py``): a field by its name, a tuple field
or a function's parameter by its index (``"0"``, ``"1"``).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence
from pathlib import Path

from tree_sitter import Node

from errdex.languages.base import captures, line_of, load_query, text, whole_words
from errdex.languages.facts import Composer, Producer, Result, bind, has_text, unknown
from errdex.languages.rust.calls import (
    ERROR_MACROS,
    FORMATS,
    MAX,
    args,
    arguments_of,
    call_of,
    format_template,
    macro,
    stripped,
    tails,
    tree_of,
    type_name,
)
from errdex.languages.rust.syntax import COMMENTS, in_test_code, split_token_tree, string_value
from errdex.templates.template import Literal, Template, merge_literals

_WRITERS = frozenset({"write", "writeln"})
_ITEMS = frozenset({"mod_item", "struct_item", "enum_item", "impl_item", "function_item",
                    "const_item", "static_item"})
_QUERY = Path(__file__).with_name("compose.scm")


def producers(root: Node, source: bytes, path: str) -> list[Producer]:
    """The producers of one parsed file."""
    found: list[Producer | None] = []
    structs: dict[str, tuple[str, ...]] = {}
    items = list(_items(root))
    for node in items:
        if node.type == "struct_item":
            structs[text(node.child_by_field_name("name"))] = _fields(
                node.child_by_field_name("body"))
    for node in items:
        if node.type in ("struct_item", "enum_item"):
            found.extend(_thiserror(node, path))
        elif node.type == "impl_item":
            owner = type_name(node.child_by_field_name("type"))
            trait = text(node.child_by_field_name("trait"))
            if trait.rsplit("::", 1)[-1] == "Display":
                found.extend(_display(node, owner, structs.get(owner), path))
            else:
                found.extend(_factory(f, owner, path, source) for f in _functions(node))
        elif node.type == "function_item":
            found.append(_factory(node, None, path, source))
        elif node.type in ("const_item", "static_item"):
            found.append(_constant(node, path))
    return [p for p in found if p is not None]


def _items(node: Node) -> list[Node]:
    """The items of a file and its inline modules, test code left out."""
    out: list[Node] = []
    # An item with no attribute of its own in a module with none is no test code (the
    # module is not, or it would not be read): ``in_test_code`` need not look again.
    inner = any(c.type == "inner_attribute_item" for c in node.named_children)
    for child in node.named_children:
        if child.type not in _ITEMS:
            continue
        if (inner or _attributed(child)) and in_test_code(child):
            continue
        if child.type == "mod_item":
            body = child.child_by_field_name("body")
            if body is not None:
                out.extend(_items(body))
        else:
            out.append(child)
    return out


def _attributed(item: Node) -> bool:
    sibling = item.prev_named_sibling
    return sibling is not None and sibling.type in ("attribute_item", *COMMENTS)


def _functions(impl: Node) -> list[Node]:
    body = impl.child_by_field_name("body")
    return [c for c in body.named_children if c.type == "function_item"] if body else []


def _fields(body: Node | None) -> tuple[str, ...]:
    """A struct's or variant's field names: ``key``, or ``0``, ``1`` for a tuple."""
    if body is None:
        return ()
    if body.type == "ordered_field_declaration_list":
        return tuple(str(i) for i in range(len(body.children_by_field_name("type"))))
    return tuple(text(f.child_by_field_name("name")) for f in body.named_children
                 if f.type == "field_declaration")


# --- thiserror ---------------------------------------------------------------------------


def _thiserror(item: Node, path: str) -> list[Producer]:
    """``#[error("…")]`` on a struct, or on each variant of an enum."""
    name = text(item.child_by_field_name("name"))
    if item.type == "struct_item":
        template = _error_attribute(item)
        if template is None:
            return []
        return [Producer(name, _fields(item.child_by_field_name("body")), (template,),
                         "class message", path, line_of(item), is_class=True)]
    out = []
    body = item.child_by_field_name("body")
    for variant in body.named_children if body is not None else ():
        template = _error_attribute(variant) if variant.type == "enum_variant" else None
        if template is not None:
            variant_name = text(variant.child_by_field_name("name"))
            out.append(Producer(variant_name, _fields(variant.child_by_field_name("body")),
                                (template,), "class message", path, line_of(variant),
                                owner=name, error_class=f"{name}::{variant_name}"))
    return out


def _error_attribute(item: Node) -> Template | None:
    """thiserror's ``#[error("…")]`` (derive_more's ``#[display("…")]`` alike)."""
    sibling = item.prev_named_sibling
    while sibling is not None and sibling.type in ("attribute_item", *COMMENTS):
        attribute = sibling.named_children[0] if sibling.named_children else None
        if attribute is not None and attribute.type == "attribute" and text(
                attribute.named_children[0]) in ("error", "display"):
            arguments = attribute.child_by_field_name("arguments")
            if arguments is None:
                return None
            groups = split_token_tree(arguments)
            if groups and len(groups[0]) == 3 and text(groups[0][0]) == "fmt":
                groups[0] = groups[0][2:]  # derive_more 0.99: `#[display(fmt = "…", …)]`
            return format_template(groups, 0)
        sibling = sibling.prev_named_sibling
    return None


def _constant(item: Node, path: str) -> Producer | None:
    """``const MSG_NOT_FOUND: &str = "…"``: its text, for a composed message printing it."""
    name, value = item.child_by_field_name("name"), item.child_by_field_name("value")
    literal = string_value(value) if value is not None else None
    if literal is None or not re.fullmatch(r"[A-Z][A-Z0-9_]*", text(name)):
        return None
    return Producer(text(name), (), (Template(literal, (Literal(literal),) if literal else ()),),
                    "constant", path, line_of(item))


# --- impl Display ------------------------------------------------------------------------


def _display(impl: Node, owner: str, fields: tuple[str, ...] | None, path: str
             ) -> list[Producer]:
    fmt = next((f for f in _functions(impl) if text(f.child_by_field_name("name")) == "fmt"),
               None)
    body = fmt.child_by_field_name("body") if fmt is not None else None
    if body is None:
        return []
    field, match = _field_match(body)
    if match is not None and field is not None:
        return _kind_display(match, owner, field, fields, path)
    match = _self_match(body)
    if match is None:
        written = _writes(body)
        if not written:
            return []
        params = fields if fields is not None else _holes(written)
        first = next(c for c in body.named_children if c.type not in COMMENTS)
        return [Producer(owner, params, tuple(written), "class message", path,
                         line_of(first), is_class=True)]
    arms: dict[str, tuple[list[Result], int]] = {}
    for variant, bound, arm_line in _arms(match):
        results, line = arms.get(variant, ([], arm_line))
        arms[variant] = (results + bound, line)
    return [Producer(variant, _holes(results), tuple(results[:MAX]), "class message", path,
                     line, owner=owner, error_class=f"{owner}::{variant}")
            for variant, (results, line) in arms.items()]


def _arms(match: Node) -> list[tuple[str, list[Result], int]]:
    """Each arm of a ``match self``: the variant, what it writes, its line."""
    out: list[tuple[str, list[Result], int]] = []
    for arm in match.named_children:
        value = arm.child_by_field_name("value")
        written = _writes(value) if value is not None else None
        for variant, renames in _variants(arm.child_by_field_name("pattern")) if written else ():
            out.append((variant, [bind(t, renames) for t in written or ()], line_of(arm)))
    return out


def _self_match(body: Node) -> Node | None:
    """The ``match self { … }`` (or ``*self``, ``&self``) a ``fmt`` body consists of."""
    node = _only_match(body)
    if node is None or text(node.child_by_field_name("value")).lstrip("*&") != "self":
        return None
    return node.child_by_field_name("body")


def _only_match(body: Node) -> Node | None:
    statements = [c for c in body.named_children if c.type not in COMMENTS]
    node = statements[0] if len(statements) == 1 else None
    if node is not None and node.type == "expression_statement" and node.named_children:
        node = node.named_children[0]
    return node if node is not None and node.type == "match_expression" else None


def _field_match(body: Node) -> tuple[str | None, Node | None]:
    """The field and arms of a ``match self.kind { … }`` (``&self.kind``) a ``fmt`` is."""
    node = _only_match(body)
    value = text(node.child_by_field_name("value")).lstrip("*&").strip() if node else ""
    if node is None or not re.fullmatch(r"self\.[A-Za-z_]\w*", value):
        return None, None
    return value.removeprefix("self."), node.child_by_field_name("body")


def _kind_display(match: Node, owner: str, field: str, fields: tuple[str, ...] | None,
                  path: str) -> list[Producer]:
    """``match self.kind { Kind::Closed => CLOSED.fmt(f), … }``: the type prints what its
    field's variant writes, so each arm is that variant's message (a site passing
    ``Kind::Closed`` composes it), and the type itself prints its field."""
    out: list[Producer] = []
    for arm in match.named_children:
        value = arm.child_by_field_name("value")
        written = _writes(value) if value is not None else None
        for variant, kind, renames in _kind_variants(arm.child_by_field_name("pattern")) if (
                written) else ():
            results = [bind(t, renames) for t in written or ()]
            out.append(Producer(variant, _holes(results), tuple(results[:MAX]), "class message",
                                path, line_of(arm), owner=kind, error_class=owner))
    if out:
        params = fields if fields is not None and field in fields else (field,)
        out.append(Producer(owner, params, (unknown(field),), "class message", path,
                            line_of(match), is_class=True))
    return out


def _kind_variants(pattern: Node | None) -> list[tuple[str, str, dict[str, Template]]]:
    """The variants an arm of a field's match names, each with its enum (``Kind::Closed``:
    ``Closed`` of ``Kind``); a variant named without its enum says none."""
    node = pattern.named_children[0] if pattern is not None and pattern.type == (
        "match_pattern") and pattern.named_children else pattern
    heads = node.named_children if node is not None and node.type == "or_pattern" else [node]
    out = []
    for head in heads:
        path_node = head.child_by_field_name("type") if head is not None and head.type in (
            "tuple_struct_pattern", "struct_pattern") else head
        enum, _, _ = text(path_node).rpartition("::") if path_node is not None else ("", "", "")
        kind = enum.rsplit("::", 1)[-1]
        for variant, renames in _variants(head) if kind and kind != "Self" else ():
            out.append((variant, kind, renames))
    return out


def _variants(pattern: Node | None) -> list[tuple[str, dict[str, Template]]]:
    """Each variant an arm's pattern names, and its bindings renamed to the field each
    holds (``Self::Token(t)``: ``t`` → ``0``; ``Io { path: p, .. }``: ``p`` → ``path``)."""
    node = pattern.named_children[0] if pattern is not None and pattern.type == (
        "match_pattern") and pattern.named_children else pattern
    if node is None:
        return []
    if node.type == "or_pattern":
        return [v for c in node.named_children for v in _variants(c) if not v[1]]
    renames: dict[str, Template] = {}
    if node.type == "tuple_struct_pattern":
        head = node.child_by_field_name("type")
        for index, child in enumerate(c for c in node.named_children if c != head):
            name = text(child).removeprefix("ref ").removeprefix("mut ").strip()
            if child.type in ("identifier", "ref_pattern", "mut_pattern") and name != "_":
                renames[name] = unknown(str(index))
    elif node.type == "struct_pattern":
        head = node.child_by_field_name("type")
        for field in node.named_children:
            if field.type != "field_pattern":
                continue
            label = field.child_by_field_name("name")
            bound = field.child_by_field_name("pattern")
            renames[text(bound or label).split()[-1]] = unknown(text(label))
    elif node.type in ("scoped_identifier", "identifier"):
        head = node
    else:
        return []
    return [(text(head).rsplit("::", 1)[-1], renames)] if head is not None else []


def _writes(node: Node) -> list[Template] | None:
    """What a ``fmt`` body (or arm) writes: each alternative, the writes of a block joined."""
    if node.type == "try_expression" and node.named_children:
        return _writes(node.named_children[0])
    if node.type == "macro_invocation" and macro(node) in _WRITERS:
        tree = tree_of(node)
        template = format_template(split_token_tree(tree), 1) if tree is not None else None
        return [template] if template is not None else None
    if node.type == "call_expression":
        function = node.child_by_field_name("function")
        field = text(function.child_by_field_name("field")) if function is not None and (
            function.type == "field_expression") else ""
        found_args = args(node)
        if field in ("write_str", "write_fmt") and len(found_args) == 1:
            return list(arguments_of(found_args[0])) or None
        value = function.child_by_field_name("value") if field == "fmt" and function else None
        if value is not None and len(found_args) == 1 and (
                value.type == "string_literal" or re.fullmatch(r"[A-Z][A-Z0-9_]*", text(value))):
            return list(arguments_of(value))  # `CLOSED.fmt(f)`: a constant's Display
        return None
    if node.type == "if_expression":
        branches = [node.child_by_field_name("consequence"), node.child_by_field_name(
            "alternative")]
        found = [w for b in branches if b is not None for w in _writes(
            b.named_children[-1] if b.type == "else_clause" else b) or []]
        return found or None
    if node.type in ("block", "expression_statement"):
        pieces = [w for c in node.named_children if c.type not in COMMENTS and not _is_ok(c)
                  for w in [_writes(c)]]
        if not pieces or any(p is None for p in pieces):
            return None
        return [_joined(combo) for combo in itertools.islice(
            itertools.product(*[p for p in pieces if p is not None]), MAX)]
    return None


def _is_ok(node: Node) -> bool:
    return text(node).rstrip(";").strip() == "Ok(())"


def _joined(templates: tuple[Template, ...]) -> Template:
    parts = merge_literals([p for t in templates for p in t.message])
    return Template("".join(t.written for t in templates), parts)


def _holes(results: Sequence[Result]) -> tuple[str, ...]:
    names = {h.name for r in results if isinstance(r, Template) for h in r.holes if h.name}
    return tuple(sorted(names))


# --- factories ---------------------------------------------------------------------------


def _factory(function: Node, owner: str | None, path: str, source: bytes) -> Producer | None:
    """A function whose result is an error (or message) built from its parameters."""
    params = _parameters(function)
    body = function.child_by_field_name("body")
    if not params or body is None:
        return None
    renames: dict[str, Template] = {}
    results: list[Result] = []
    returns, panics = _owned(body, source)
    for value in _results(body, returns):
        for result in _built(value, owner):
            renames = renames or {name: unknown(str(i)) for i, name in enumerate(params)}
            bound = bind(result, renames)
            if _uses(bound, len(params)):
                results.append(bound)
    role = "factory"
    if not results:  # a helper: `fn fail(msg: &str) -> ! { panic!("config: {}", msg) }`
        role = "helper"
        for node in panics:
            tree = tree_of(node)
            template = format_template(split_token_tree(tree), 0) if tree is not None else None
            renames = renames or {name: unknown(str(i)) for i, name in enumerate(params)}
            bound_panic = bind(template, renames) if template is not None else None
            if bound_panic is not None and _uses(bound_panic, len(params)):
                results.append(bound_panic)
    if not results:
        return None
    return Producer(text(function.child_by_field_name("name")),
                    tuple(str(i) for i in range(len(params))), tuple(results[:MAX]),
                    role, path, line_of(function), owner=owner)


def _parameters(function: Node) -> tuple[str, ...]:
    params = function.child_by_field_name("parameters")
    return tuple(text(p.child_by_field_name("pattern")).removeprefix("mut ").strip()
                 for p in (params.named_children if params is not None else ())
                 if p.type == "parameter")


def _results(body: Node, returns: list[Node]) -> list[Node]:
    """A body's tail expression and ``return`` values (a ``return`` inside another's value
    left out), as a walk from its last statement back finds them."""
    out: list[Node] = []
    tail = body.named_children[-1] if body.named_children else None
    if tail is not None and tail.type not in ("expression_statement", "let_declaration",
                                              *COMMENTS):
        out.append(tail)
    values: list[Node] = []
    end = -1
    for node in returns:
        if node.start_byte >= end and node.named_children:
            values.append(node.named_children[0])
            end = node.end_byte
    out.extend(reversed(values))
    return out


def _owned(body: Node, source: bytes) -> tuple[list[Node], list[Node]]:
    """The ``return``s and ``panic!``s of a body, in source order, those of the closures
    and functions in it left out: one query, only for a body whose text holds one."""
    start, end = body.start_byte, body.end_byte
    if next(whole_words(source, b"return", start=start, end=end), None) is None and next(
            whole_words(source, b"panic", start=start, end=end), None) is None:
        return [], []
    found = captures(load_query("rust", _QUERY), body)
    # the scopes by start, with the furthest end reached by any scope starting at or before
    # each: a node is in some scope when one starting at or before it ends at or after it
    scopes = sorted((s.start_byte, s.end_byte) for s in found.get("scope", []))
    starts = [start for start, _ in scopes]
    reach = list(itertools.accumulate((end for _, end in scopes), max))

    def own(nodes: list[Node]) -> list[Node]:
        return sorted((n for n in nodes if not (
            (at := bisect.bisect_right(starts, n.start_byte)) and reach[at - 1] >= n.end_byte)),
            key=lambda n: n.start_byte)

    return own(found.get("return", [])), own(found.get("panic", []))


def _built(value: Node, owner: str | None) -> list[Result]:
    """What a returned value is: a constructor's or factory's call, or a message."""
    value = stripped(value)
    if value.type in ("if_expression", "match_expression", "block"):
        return [r for v in tails(value) for r in _built(v, owner)][:MAX]
    if value.type == "macro_invocation" and macro(value) in ERROR_MACROS | FORMATS:
        return list(arguments_of(value))
    made = call_of(value, owner)
    return [made] if made is not None else []


def _uses(result: Result, count: int) -> bool:
    """Whether a result prints one of the (renamed) parameters, or text of its own."""
    params = {str(i) for i in range(count)}
    if isinstance(result, Template):
        return has_text(result) or any(h.name in params for h in result.holes)
    arguments = [*result.args, *(a for _, a in result.keywords)]
    return any(h.name in params or has_text(t) for a in arguments for t in a for h in t.holes)


COMPOSER = Composer(producers=producers, triggers=(b"impl", b"#[error", b"fn ", b"const ",
                                                   b"static "))
