"""What a JavaScript/TypeScript call hands a producer (``errdex.languages.facts.Call``):
each argument as the templates it can print, one per branch; the class ``this.x`` is
looked up in; and the sites whose message only a producer of the repository tells.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from tree_sitter import Node

from errdex.languages._engine import Message
from errdex.languages.base import Site, ancestors, text
from errdex.languages.facts import Call, has_text
from errdex.languages.javascript.classes import last_name
from errdex.languages.javascript.declared import (
    BUILTIN_ERRORS,
    CLASSES,
    CONSTANT,
    foreign_names,
)
from errdex.languages.javascript.http import http_factory
from errdex.languages.javascript.messages import (
    JsIndex,
    Reader,
    arguments,
    object_pairs,
    scope_of,
    string_value,
    unwrap,
    unwrap_call,
)
from errdex.languages.javascript.where import statement_line, symbol
from errdex.templates.template import Template, merge_literals

_BRANCHES = frozenset({"if_statement", "switch_statement"})
_MAX_ALTERNATIVES = 8


def alternatives(node: Node, reader: Reader, depth: int = 0) -> tuple[Template, ...]:
    """What an argument can print, one template per branch (``c ? a : b``, a variable
    assigned in ``if``/``else`` or ``switch`` arms); an options object stands for its
    ``message``; a value source does not spell is a hole named after it."""
    node = unwrap(node) or node
    out: list[Template] = []
    if depth < 4 and node.type == "ternary_expression":
        for side in ("consequence", "alternative"):
            branch = node.child_by_field_name(side)
            out.extend(alternatives(branch, reader, depth + 1) if branch is not None else ())
    elif depth < 4 and (fallback := _fallback(node)) is not None:
        given, default = fallback
        out.extend(alternatives(given, reader, depth + 1))
        if not (given.type == "identifier" and text(given) in (reader.env or {})):
            out.extend(alternatives(default, reader, depth + 1))  # a parameter's: defaults
    elif node.type == "object" and "message" in (pairs := object_pairs(node)):
        return alternatives(pairs["message"], reader, depth + 1)
    elif depth < 4 and node.type == "identifier" and text(node) not in (reader.env or {}):
        out.extend(_appended(node, reader, depth))
        for value in _branch_values(node, reader.index):
            out.extend(alternatives(value, reader, depth + 1))
        bound = reader.env or {}
        if not any(has_text(t) or any(h.name in bound for h in t.holes) for t in out):
            out = []  # nothing known: a hole named after the variable
    if not out:
        out = [template(reader.read_or_hole(node))]
    unique = {t.normalized(): t for t in out}
    return tuple(unique.values())[:_MAX_ALTERNATIVES]


def _fallback(node: Node) -> tuple[Node, Node] | None:
    """``message ?? 'no message'`` / ``err.message || 'unknown error'``: (given, default)."""
    if node.type != "binary_expression" or text(node.child_by_field_name("operator")) not in (
            "??", "||"):
        return None
    left, right = unwrap(node.child_by_field_name("left")), node.child_by_field_name("right")
    return (left, right) if left is not None and right is not None else None


def parameter_defaults(function: Node, params: tuple[str, ...], reader: Reader
                       ) -> list[tuple[str, Template]]:
    """``super(message ?? 'the default text')``: what a parameter prints when a call omits
    it, written where it is used rather than in the parameter list."""
    out: list[tuple[str, Template]] = []
    stack = [function.child_by_field_name("body")]
    while stack:
        node = stack.pop()
        if node is None or node.type in ("function_expression", "arrow_function", "class"):
            continue
        fallback = _fallback(node)
        if fallback is not None and fallback[0].type == "identifier" and (
                text(fallback[0]) in params) and (said := reader.read(fallback[1])) is not None:
            out.append((text(fallback[0]), template(said)))
        stack.extend(node.named_children)
    return out


def _appended(use: Node, reader: Reader, depth: int) -> list[Template]:
    """``msg += ` Last error: ${e.message}` `` as the last assignment ``use`` sees: what
    ``msg`` held before, with the text appended; and, when the append is in a branch
    ``use`` is not in, without it too."""
    last = reader.index.sees(text(use), use)
    if last is None or last.type != "augmented_assignment_expression" or text(
            last.child_by_field_name("operator")) != "+=":
        return []
    left, right = last.child_by_field_name("left"), last.child_by_field_name("right")
    if left is None or right is None:
        return []
    before = alternatives(left, reader, depth + 1)
    if not any(has_text(t) for t in before):
        return []
    added = [_joined(b, a) for b in before for a in alternatives(right, reader, depth + 1)]
    skipped = branch_around(last, use, scope_of(last)) is not None
    return [*before, *added] if skipped else added


def _joined(first: Template, second: Template) -> Template:
    return Template(first.written + second.written, merge_literals((*first.parts, *second.parts)))


def _branch_values(use: Node, index: JsIndex) -> list[Node]:
    """The values a variable may hold at ``use``: its last assignment above, and when that
    is in a branch, the ones before it back to one outside any branch (or to a branch
    that covers every way: ``else``, ``default``). None after ``+=`` (the reader reads it)."""
    last = index.sees(text(use), use)
    if last is None:
        return []
    scope = scope_of(last)
    above = [a for a in index.assignments.get(text(use), [])
             if a.end_byte <= use.start_byte and scope_of(a) == scope]
    values: list[Node] = []
    covered = False
    for assignment in reversed(above):
        if assignment.type == "augmented_assignment_expression":
            return []
        branch = branch_around(assignment, use, scope)
        if branch is None and covered:
            break
        value = assignment.child_by_field_name(
            "value" if assignment.type == "variable_declarator" else "right")
        if value is not None:
            values.append(value)
        if branch is None:
            break
        covered = covered or _covers(branch)
    return list(reversed(values))


def branch_around(node: Node, use: Node, scope: Node | None) -> Node | None:
    """The outermost ``if``/``switch`` around ``node`` (below ``scope``) that ``use`` is not in."""
    found = None
    for ancestor in ancestors(node):
        if ancestor == scope:
            break
        if ancestor.type in _BRANCHES and not (
                ancestor.start_byte <= use.start_byte < ancestor.end_byte):
            found = ancestor
    return found


def _covers(branch: Node) -> bool:
    """An ``if`` chain that ends in ``else``, or a ``switch`` with ``default``."""
    if branch.type == "switch_statement":
        body = branch.child_by_field_name("body")
        return body is not None and any(c.type == "switch_default" for c in body.named_children)
    alternative = branch.child_by_field_name("alternative")
    if alternative is None:
        return False
    inner = next((c for c in alternative.named_children if c.type != "comment"), None)
    return inner is None or inner.type != "if_statement" or _covers(inner)


def call_of(callee: str, call: Node, reader: Reader, method: bool | None = None) -> Call:
    """The ``Call`` a site makes (``throw new NotFound(key)``, ``fail("…")``): a call
    without ``new`` calls a function (``method``) unless told it makes a class."""
    args = arguments(call)
    return Call(callee, tuple(alternatives(a, reader) for a in args), owner=owner_of(call),
                method=call.type == "call_expression" if method is None else method,
                nested=tuple(_nested(args, reader)))


def _nested(args: list[Node], reader: Reader) -> Iterator[tuple[str, Call]]:
    """The arguments composition spells out (the hole of each named as ``hole`` names it):
    a static text (``X.defaultMessage``) and a call to a function of the repository
    (``new NotFound(messages.notFound(id))``)."""
    for arg in args:
        node = unwrap(arg) or arg
        if (name := _static_member(node, reader)) is not None:
            yield name, Call(table_member(node) or name, owner=owner_of(node))
        elif node.type == "call_expression" and reader.read(node) is None and (
                unwrap_call(node) is node):
            function = node.child_by_field_name("function")
            if function is not None and function.type in ("identifier", "member_expression") and (
                    text(function).split(".", 1)[0] not in _NOT_HELPERS):
                yield " ".join(text(node).split()), call_of(text(function), node, reader)


def _static_member(node: Node, reader: Reader) -> str | None:
    """``ClusterAllFailedError.defaultMessage``, ``Errors.notReady``, ``messages.notFound``,
    ``messages['not-found']``: a member of a class, namespace or module table a file may
    declare as a text (its hole prints what composition finds)."""
    node = unwrap(node) or node
    name = table_member(node)
    if name is None or reader.read(node) is not None:
        return None
    return text(node)


def table_member(node: Node) -> str | None:
    """``Errors.notReady`` / ``messages.notFound`` / ``messages['notFound']`` as
    ``owner.key``: a member of a named object (not ``this``'s, not an error's own
    ``err.message``), which composition finds when a module declares it as a text."""
    if node.type == "member_expression":
        head, key = node.child_by_field_name("object"), node.child_by_field_name("property")
        key_text = text(key) if key is not None else ""
    elif node.type == "subscript_expression":
        head, key = node.child_by_field_name("object"), node.child_by_field_name("index")
        key_text = (string_value(key) or "") if key is not None else ""
    else:
        return None
    if head is None or head.type != "identifier" or not key_text.isidentifier() or (
            not text(head)[:1].isupper() and key_text in _OWN_FIELDS):
        return None
    return f"{text(head)}.{key_text}"


# What an error or event object carries itself: ``err.message`` is no table's entry.
_OWN_FIELDS = frozenset({"message", "stack", "code", "name", "reason", "cause", "errno",
                         "syscall", "path", "description", "detail", "details", "error"})


def owner_of(node: Node) -> str | None:
    """The class (or module object) a node is written in: where ``this.x`` is looked up."""
    for ancestor in ancestors(node):
        if ancestor.type in CLASSES:
            name = ancestor.child_by_field_name("name")
            return text(name) if name is not None else None
        if ancestor.type == "object" and ancestor.parent is not None and (
                ancestor.parent.type == "variable_declarator"):
            return text(ancestor.parent.child_by_field_name("name")) or None
        if ancestor.type == "assignment_expression":  # Store.prototype.get = function …
            holder = text(ancestor.child_by_field_name("left")).rpartition(".")[0]
            if holder.endswith(".prototype"):
                return holder.removesuffix(".prototype")
    return None


def template(message: Message) -> Template:
    return Template(message.written, message.parts)


# --- sites whose message a producer tells -------------------------------------------------

# Receivers and functions whose calls are no helper of the repository.
_NOT_HELPERS = frozenset({
    "console", "process", "Promise", "Object", "JSON", "Math", "module", "exports", "require",
    "describe", "it", "test", "expect", "alert",
})

def construction(name: str, node: Node, reader: Reader, said: bool) -> Call | None:
    """What ``new X(…)`` hands composition: the class's call (none for a package's class:
    it prints as it is); for a built-in error whose message the site cannot read, the
    factory or constant its message comes from."""
    if last_name(name) in BUILTIN_ERRORS:
        branches = _branched(name, node, reader)
        return branches if branches is not None else None if said else message_call(
            node, reader)
    if name.split(".", 1)[0] in package_names(reader.index, node):
        return None
    return call_of(name, node, reader, method=False)


def _branched(name: str, node: Node, reader: Reader) -> Call | None:
    """``new Error(msg)`` where ``msg`` is one of several texts (``c ? a : b``, assigned in
    branches, appended to in one): the built-in class's call, one record per text."""
    args = arguments(node)
    if not args:
        return None
    first = alternatives(args[0], reader)
    if len(first) < 2 or not any(has_text(t) for t in first):
        return None
    return Call(name, (first,), owner=owner_of(node), method=False)


def called(node: Node, reader: Reader) -> Call | None:
    """``throw Errors.create(r, "…", tok)``: an error only the callee's producer tells."""
    function = node.child_by_field_name("function")
    if function is None or function.type not in ("identifier", "member_expression") or (
            http_factory(node) is not None):
        return None
    return call_of(text(function), node, reader)


def package_names(index: JsIndex, node: Node) -> frozenset[str]:
    """The names the module of ``node`` imports from packages (read once per file)."""
    if index.packages is None:
        root = node
        while root.parent is not None:
            root = root.parent
        index.packages = foreign_names(root)
    return index.packages


def message_call(node: Node, reader: Reader) -> Call | None:
    """``new Error(notFound(key))``, ``new Error(NOT_FOUND)``, ``new Error(Errors.NOT_FOUND)``:
    the message a factory or constant of the repository prints."""
    args = arguments(node)
    first = unwrap(args[0]) if args else None
    if first is None:
        return None
    if first.type == "call_expression":
        function = first.child_by_field_name("function")
        if function is not None and function.type in ("identifier", "member_expression"):
            return call_of(text(function), first, reader)
        return None
    if first.type not in ("identifier", "member_expression", "subscript_expression") or (
            reader.read(first)):
        return None
    name = table_member(first) or text(first)
    head, _, last = name.rpartition(".")
    if CONSTANT.match(last) or head[:1].isupper() or (
            table_member(first) is not None and head not in ("this", "self")):
        return Call(name, owner=owner_of(first))
    return None


def helper(node: Node, reader: Reader) -> Site | None:
    """``fail("no config")`` as a statement (or awaited, or returned), with words in a
    string argument: a candidate, kept only when composition finds ``fail`` a helper or
    factory of the repository."""
    statement = node.parent
    if statement is not None and statement.type == "await_expression":
        statement = statement.parent
    function = node.child_by_field_name("function")
    if statement is None or function is None or statement.type not in (
            "expression_statement", "return_statement"):
        return None
    if function.type == "member_expression":
        receiver = unwrap(function.child_by_field_name("object"))
        if receiver is None or receiver.type not in ("this", "identifier") or (
                text(receiver) in _NOT_HELPERS):
            return None
    elif function.type != "identifier" or text(function) in _NOT_HELPERS:
        return None
    if not any(_worded(a) for a in arguments(node)):
        return None
    name = last_name(text(function)).lower()
    warns = "warn" in name
    call = call_of(text(function), node, reader)
    if text(function) == "this.error":
        # a plugin or loader context's ``this.error(msg, pos)`` (Rollup, webpack) throws an
        # error of that message: when the class has no ``error`` of its own, its first argument
        call = replace(call, makes_error=True)
    return Site(
        Template("", ()), "log" if warns or "log" in name else "exception",
        statement_line(node), severity="warning" if warns else "error", symbol=symbol(node),
        call=call,
    )


def _worded(node: Node) -> bool:
    """A string literal with words (a letter and a space) in it."""
    return node.type in ("string", "template_string") and b" " in (node.text or b"") and any(
        c.isalpha() for c in text(node))
