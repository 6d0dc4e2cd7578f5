"""Rust calls to producers, read at a site: what ``Err(StoreError::NotFound { key })`` or
``not_found(k)`` passes, each argument as the templates it can print.

Arguments go by name: a field by its name (``Io { path, .. }``), a tuple field or a
function's parameter by its index (``"0"``, ``"1"``). So a call no producer of the
repository answers is never read as a class's first argument: a variant of another
crate prints what its own ``Display`` says, which source here does not hold.
"""

from __future__ import annotations

from functools import cache

from tree_sitter import Node, Query, QueryCursor
from tree_sitter_language_pack import get_language

from errdex.languages.base import Site, ancestors, line_of, text
from errdex.languages.facts import Call, bind, has_text, unknown
from errdex.languages.rust.syntax import (
    COMMENTS,
    format_string_template,
    function_symbol,
    split_token_tree,
    string_value,
)
from errdex.templates.template import Literal, Template

MAX = 16
FORMATS = frozenset({"format", "format_args"})
ERROR_MACROS = frozenset({"anyhow", "eyre", "format_err"})
# Methods that print their receiver as it is (a hole keeps the receiver's name).
_SAME = (".display()", ".to_string()", ".as_str()", ".clone()", ".to_owned()", ".as_ref()",
         ".to_string_lossy()", ".into()")
_CONVERSIONS = frozenset({"to_string", "into", "to_owned", "as_str", "as_ref", "clone"})
# Paths that are no error of the repository's (wrappers, the standard library's).
_FOREIGN = frozenset({"Ok", "Err", "Some", "Box", "String", "Vec", "Arc", "Rc", "Cow",
                      "PathBuf", "std", "core", "alloc", "io", "fmt", "serde", "de", "ser"})
# ``T::new(…)`` and friends are read by the constructor sites of ``spec.py``.
CONSTRUCTORS = frozenset({"new", "custom", "msg", "other", "from", "new_spanned"})


def candidate(value: Node, at: Node, from_err: bool) -> Site | None:
    """A site whose message only composition can tell (``Err(StoreError::NotFound { key
    })``, ``.ok_or_else(|| not_found(k))``); None for what ``spec.py`` reads itself."""
    value = stripped(value)
    function = value.child_by_field_name("function") if value.type == "call_expression" else None
    if function is not None and function.type == "scoped_identifier":
        name = text(function.child_by_field_name("name"))
        type_name = text(function.child_by_field_name("path")).rsplit("::", 1)[-1]
        if name in CONSTRUCTORS and (from_err or type_name.endswith("Error")):
            return None  # the constructor site's
    made = call_of(value, owner_of(at))
    if made is None:
        return None
    return Site(Template("", ()), "error", line_of(at), symbol=function_symbol(at), call=made)


def helper_call(statement: Node) -> Site | None:
    """``fail("no store configured");``: a candidate in case the callee is a helper of the
    repository's that panics with what it is given (no producer: no site)."""
    made = call_of(statement.named_children[0], owner_of(statement)) if (
        statement.named_children) else None
    if made is None:
        return None
    return Site(Template("", ()), "panic", line_of(statement), symbol=function_symbol(statement),
                call=made)


def call_of(value: Node, owner: str | None) -> Call | None:
    """``X::Variant(a, b)``, ``X { f: a }``, ``factory(a)``: the call, arguments by name."""
    value = stripped(value)
    if value.type == "call_expression":
        function = value.child_by_field_name("function")
        if function is None or function.type not in ("identifier", "scoped_identifier"):
            return None
        callee = text(function)
    elif value.type == "struct_expression":
        callee = text(value.child_by_field_name("name"))
    elif value.type == "scoped_identifier" and _camel(text(value.child_by_field_name("name"))):
        callee = text(value)  # a unit variant: `ParseError::Eof`
    else:
        return None
    callee = callee.split("<", 1)[0]
    if callee.split("::", 1)[0] in _FOREIGN:
        return None  # (before its arguments are read: they are what costs)
    keywords: list[tuple[str, tuple[Template, ...]]] = []
    nested: list[tuple[str, Call]] = []
    if value.type == "call_expression":
        keywords = [(str(i), arguments_of(a)) for i, a in enumerate(args(value))]
        nested = [(text(a), Call(text(a), owner=owner)) for a in args(value) if _variant(a)]
    elif value.type == "struct_expression":
        body = value.child_by_field_name("body")
        for field in body.named_children if body is not None else ():
            if field.type == "shorthand_field_initializer":
                keywords.append((text(field), (unknown(text(field)),)))
            elif field.type == "field_initializer":
                initial = field.child_by_field_name("value")
                if initial is not None:
                    keywords.append((text(field.child_by_field_name("field")),
                                     arguments_of(initial)))
    if owner is not None and (callee == "Self" or callee.startswith("Self::")):
        callee = owner + callee.removeprefix("Self")
    return Call(callee, (), tuple(keywords), owner=owner, nested=tuple(nested))


def _variant(node: Node) -> bool:
    """``Kind::Closed`` passed on: a unit variant whose own Display may be the message."""
    return node.type == "scoped_identifier" and _camel(text(node.child_by_field_name("name"))
                                                      ) and "::" in text(node)


def arguments_of(node: Node, depth: int = 0) -> tuple[Template, ...]:
    """The templates an argument can print: a literal, ``format!``, a branch of an
    ``if``/``match`` or of the ``let`` that assigned it; else a hole named after it."""
    node = stripped(node)
    if node.type == "macro_invocation" and macro(node) in FORMATS | ERROR_MACROS:
        tree = tree_of(node)
        template = format_template(split_token_tree(tree), 0) if tree is not None else None
        if template is not None:
            return (template,)
    value = string_value(node)
    if value is not None:
        return (Template(value, (Literal(value),) if value else ()),)
    if node.type == "integer_literal" and text(node).isdigit():
        return (Template(text(node), (Literal(text(node)),)),)
    if depth < 2 and node.type in ("if_expression", "match_expression", "block"):
        found = [t for tail in tails(node) for t in arguments_of(tail, depth + 1)]
        if found:
            return tuple(found[:MAX])
    if depth < 2 and node.type == "identifier":
        assigned = _let_value(node)
        if assigned is not None:
            found_let = arguments_of(assigned, depth + 1)
            if any(has_text(t) for t in found_let):
                return found_let
    return (unknown(_tidy_name(text(node))),)


def _camel(name: str) -> bool:
    return name[:1].isupper() and not name.isupper()


def owner_of(node: Node) -> str | None:
    """The type of the ``impl`` a node is written in (``Self``)."""
    impl = next((a for a in ancestors(node) if a.type == "impl_item"), None)
    return type_name(impl.child_by_field_name("type")) if impl is not None else None


def tails(node: Node) -> list[Node]:
    """The values an ``if``/``match``/block expression may end with."""
    if node.type == "block":
        last = [c for c in node.named_children if c.type not in COMMENTS]
        return [last[-1]] if last and last[-1].type != "expression_statement" else []
    if node.type == "if_expression":
        out = []
        for branch in (node.child_by_field_name("consequence"),
                       node.child_by_field_name("alternative")):
            if branch is not None and branch.type == "else_clause" and branch.named_children:
                branch = branch.named_children[-1]
            if branch is not None:
                out.extend(tails(branch) if branch.type in ("block", "if_expression") else [])
        return out
    if node.type == "match_expression":
        body = node.child_by_field_name("body")
        values = [a.child_by_field_name("value") for a in (body.named_children if body else ())
                  if a.type == "match_arm"]
        return [v for value in values if value is not None
                for v in (tails(value) if value.type == "block" else [value])]
    return []


def _let_value(use: Node) -> Node | None:
    """The value of the last ``let name = …`` above ``use`` in its function (a closure's
    own ``let``s left out, those of a function nested in it kept)."""
    function = next((a for a in ancestors(use) if a.type in ("function_item",
                                                             "closure_expression")), None)
    if function is None:
        return None
    best: Node | None = None
    for node in _lets(function).get(text(use), ()):
        if node.end_byte <= use.start_byte and (
                best is None or node.start_byte > best.start_byte) and _reached(node, function):
            best = node
    return best.child_by_field_name("value") if best is not None else None


# The ``let``s of the function last asked about, by the name each binds: the arguments of
# one function's calls ask again and again.
_LAST_LETS: list[tuple[Node, dict[str, list[Node]]]] = []


def _lets(function: Node) -> dict[str, list[Node]]:
    if _LAST_LETS and _LAST_LETS[0][0] == function:
        return _LAST_LETS[0][1]
    found: dict[str, list[Node]] = {}
    for node in QueryCursor(_let_query()).captures(function).get("let", ()):
        found.setdefault(text(node.child_by_field_name("pattern")), []).append(node)
    _LAST_LETS[:] = [(function, found)]
    return found


@cache
def _let_query() -> Query:
    return Query(get_language("rust"), "(let_declaration) @let")


def _reached(node: Node, function: Node) -> bool:
    """Whether no closure lies between ``function`` and a ``let`` inside it."""
    parent = node.parent
    while parent is not None and parent != function:
        if parent.type == "closure_expression":
            return False
        parent = parent.parent
    return True


def stripped(value: Node) -> Node:
    """``x.into()``, ``&x``, ``String::from(x)``, ``|| x``, ``{ x }``, ``x?`` → ``x``."""
    while True:
        if value.type in ("reference_expression", "try_expression", "parenthesized_expression"
                          ) and value.named_children:
            value = value.named_children[-1]
        elif value.type == "closure_expression" and value.child_by_field_name("body"):
            body = value.child_by_field_name("body")
            assert body is not None
            value = body
        elif value.type == "block" and len([c for c in value.named_children
                                            if c.type not in COMMENTS]) == 1 and (
                value.named_children[0].type != "expression_statement"):
            value = value.named_children[0]
        elif value.type == "call_expression":
            function = value.child_by_field_name("function")
            found_args = args(value)
            if function is not None and function.type == "field_expression" and not found_args and (
                    text(function.child_by_field_name("field")) in _CONVERSIONS):
                value = function.child_by_field_name("value") or value
            elif text(function) == "String::from" and len(found_args) == 1:
                value = found_args[0]
            else:
                return value
        else:
            return value


def args(call: Node) -> list[Node]:
    arguments = call.child_by_field_name("arguments")
    return [c for c in arguments.named_children if c.type not in COMMENTS] if arguments else []


def macro(node: Node) -> str:
    name = node.child_by_field_name("macro")
    if name is not None and name.type == "scoped_identifier":
        name = name.child_by_field_name("name")
    return text(name)


def tree_of(node: Node) -> Node | None:
    return next((c for c in node.named_children if c.type == "token_tree"), None)


def format_template(args: list[list[Node]], index: int) -> Template | None:
    """A format string's template, holes named after the fields or arguments they print."""
    template = format_string_template(args, index)
    if template is None:
        return None
    renames = {h.name: unknown(_tidy_name(h.name)) for h in template.holes
               if h.name and _tidy_name(h.name) != h.name}
    bound = bind(template, renames) if renames else template
    assert isinstance(bound, Template)
    return bound


def _tidy_name(name: str) -> str:
    """``&self.path.display()`` → ``path``; thiserror's ``.0`` → ``0``."""
    name = name.strip().lstrip("&*").strip()
    changed = True
    while changed:
        changed = False
        for suffix in _SAME:
            if name.endswith(suffix):
                name, changed = name[: -len(suffix)], True
    name = name.removeprefix("self.").lstrip(".") or name
    return name[1:] if name[:1] == "_" and name[1:].isdigit() else name  # derive_more `_0`


def type_name(node: Node | None) -> str:
    """``Flex`` for ``Flex``, ``Flex<T>``, ``crate::m::Flex``."""
    while node is not None and node.type != "type_identifier":
        inner = node.child_by_field_name("name" if node.type == "scoped_type_identifier"
                                         else "type")
        if inner is None:
            break
        node = inner
    return text(node)


