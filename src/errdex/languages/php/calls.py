"""PHP calls to producers: each argument read as the templates it can print.

A ternary (``$n ? "a" : "b"``, ``?:``), a null coalescing ``a ?? b``, a ``match``
expression, or a variable assigned one, or assigned in several branches above its use,
gives one template per branch;
what source does not spell is a hole named after the expression (``$key``). Named
arguments (``message: $m``) are keywords named like the parameter (``$message``).
``new self``/``new static`` and ``self::``/``static::`` calls name the class they
are written in.
"""

from __future__ import annotations

from dataclasses import replace

from tree_sitter import Node

from errdex.languages._engine import FileIndex
from errdex.languages._jvm.compose import capped, every_alternative, unparenthesized
from errdex.languages.base import ancestors, text
from errdex.languages.facts import Argument, Call, substitute, unknown
from errdex.languages.php.messages import FUNCTIONS, arguments, read
from errdex.templates.template import Literal, Template

CLASSES = frozenset({
    "class_declaration", "trait_declaration", "interface_declaration", "enum_declaration",
})
_SELF = frozenset({"self", "static"})


def owner_of(node: Node) -> str | None:
    """The name of the class a node is written in (``self``, ``$this`` look there)."""
    owner = next((a for a in ancestors(node) if a.type in CLASSES), None)
    return text(owner.child_by_field_name("name")) if owner is not None else None


def class_named(written: str, at: Node) -> str:
    """``\\App\\NotFound`` → ``App\\NotFound``; ``self``/``static`` → the enclosing class."""
    name = written.lstrip("\\")
    return (owner_of(at) or name) if name in _SELF else name


def alternatives(node: Node | None, file: FileIndex, depth: int = 0) -> list[Template]:
    """The templates an expression prints, one per branch; empty when source does not say."""
    node = unparenthesized(node)
    if node is None or depth > 4:
        return []
    if node.type == "conditional_expression":
        first = node.child_by_field_name("body") or node.child_by_field_name("condition")
        return list(capped([*alternatives(first, file, depth + 1),
                            *alternatives(node.child_by_field_name("alternative"), file,
                                          depth + 1)]))
    if node.type == "binary_expression" and text(node.child_by_field_name("operator")) in (
            "??", "?:"):  # ``$previous?->getMessage() ?? "Unable to move …"``: either side
        return list(capped([*alternatives(node.child_by_field_name("left"), file, depth + 1),
                            *alternatives(node.child_by_field_name("right"), file,
                                          depth + 1)]))
    if node.type == "match_expression":
        block = node.child_by_field_name("body")
        arms = [a.child_by_field_name("return_expression")
                for a in (block.named_children if block is not None else ())]
        return list(capped([t for arm in arms for t in alternatives(arm, file, depth + 1)]))
    if node.type == "variable_name":
        branches = _branches(node, file, depth)
        if branches:
            return branches
        value = assigned(node, file)
        if value is not None:  # what it was assigned, read where it was
            return alternatives(value, file, depth + 1)
    message = read(node, file)
    if message is None:
        return []
    return _expanded(Template(message.written, message.parts), node, file, depth)


def _sources(node: Node, file: FileIndex) -> list[Node]:
    """What a message is built from: the expression, or for a variable (``$m = sprintf(…);
    $m .= …;``) the values assigned to it above, in its function."""
    if node.type != "variable_name":
        return [node]
    scope = next((a for a in ancestors(node) if a.type in FUNCTIONS), None)
    return [v for a in file.assignments.get(text(node), [])
            if a.end_byte <= node.start_byte
            and next((s for s in ancestors(a) if s.type in FUNCTIONS), None) == scope
            and (v := a.child_by_field_name("right")) is not None]


def assigned(node: Node, file: FileIndex) -> Node | None:
    """The value last assigned to a variable above ``node``, in its function."""
    assigned = file.nearest(node, FUNCTIONS)
    return assigned.child_by_field_name("right") if assigned is not None and (
        assigned.type == "assignment_expression") else None


def _expanded(template: Template, node: Node, file: FileIndex, depth: int) -> list[Template]:
    """``"{$reason} for {$url}"`` where ``$reason`` was assigned a ternary above, or in
    several branches: one template per branch (the variables interpolated in a string,
    or passed to ``sprintf``, are read as holes)."""
    out = [template]
    for variable in (v for source in _sources(node, file) for v in _variables(source)):
        name = text(variable)
        if not any(h.name == name for h in template.holes):
            continue
        value = assigned(variable, file)
        branches = _branches(variable, file, depth) if value is None or value.type not in (
            "conditional_expression", "match_expression") else alternatives(
            value, file, depth + 1)
        if branches:
            out = [substitute(t, {name: b}) for t in out for b in branches][:16]
    return out


def _variables(node: Node) -> list[Node]:
    """The variables interpolated in a string (or concatenated, or formatted) at ``node``."""
    found = []
    stack = [node]
    while stack:
        child = stack.pop()
        if child.type == "variable_name":
            found.append(child)
        elif child.type in ("encapsed_string", "heredoc", "binary_expression", "string_value",
                            "heredoc_body", "parenthesized_expression", "arguments",
                            "argument", "function_call_expression"):
            stack.extend(child.named_children)
    return found


def _branches(node: Node, file: FileIndex, depth: int) -> list[Template]:
    """A variable assigned in several branches above its use (``if ($c) { $m = 'a'; }
    else { $m = 'b'; }``): each assignment's text, when every one is known."""
    scope = next((a for a in ancestors(node) if a.type in FUNCTIONS), None)
    assigned = [a for a in file.assignments.get(text(node), [])
                if a.type == "assignment_expression" and a.end_byte <= node.start_byte
                and next((s for s in ancestors(a) if s.type in FUNCTIONS), None) == scope]
    if len(assigned) < 2 or not all(_in_branch(a, scope) for a in assigned):
        return []
    return every_alternative(assigned, lambda a: alternatives(
        a.child_by_field_name("right"), file, depth + 1))


def _in_branch(node: Node, scope: Node | None) -> bool:
    """Whether an assignment is inside an ``if``/``else``/``switch`` arm of its function."""
    for ancestor in ancestors(node):
        if ancestor == scope:
            return False
        if ancestor.type in ("if_statement", "else_clause", "else_if_clause", "case_statement",
                             "default_statement"):
            return True
    return False


def argument(node: Node, file: FileIndex) -> Argument:
    """What one argument prints: its alternatives, a number as written, or a hole."""
    if node.type == "integer":
        return (Template(text(node), (Literal(text(node)),)),)
    return tuple(alternatives(node, file)) or (unknown(text(node)),)


def call_of(callee: str, args: Node | None, file: FileIndex, at: Node, path: str = "") -> Call:
    """A call to a producer (``new NotFound($key)``, ``FetchError::create($r, $s)``)."""
    found = arguments(args)
    return Call(
        callee, tuple(argument(a, file) for a in found.positional),
        tuple(("$" + k, argument(v, file)) for k, v in found.named.items()),
        owner=owner_of(at), path=path,
    )


def callee_of(node: Node, at: Node) -> str | None:
    """The name a call is made by: ``fail``, ``self::fail``, ``Errors::create``,
    ``$this->error``, ``X::setModel`` for ``(new X)->setModel(…)``; None for a call
    through a variable or a closure."""
    if node.type == "function_call_expression":
        function = node.child_by_field_name("function")
        return text(function).lstrip("\\") if function is not None and function.type in (
            "name", "qualified_name") else None
    name = node.child_by_field_name("name")
    if name is None or name.type != "name":
        return None
    if node.type == "scoped_call_expression":
        scope = node.child_by_field_name("scope")
        written = text(scope)
        if written in _SELF or scope is None or scope.type not in (
                "name", "qualified_name", "relative_scope"):
            return f"self::{text(name)}" if written in _SELF else None
        return f"{class_named(written, at)}::{text(name)}"
    if node.type in ("member_call_expression", "nullsafe_member_call_expression"):
        receiver = node.child_by_field_name("object")
        while receiver is not None and receiver.type == "parenthesized_expression" and (
                receiver.named_children):
            receiver = receiver.named_children[0]
        if receiver is not None and receiver.type == "object_creation_expression":
            made = next((c for c in receiver.named_children
                         if c.type in ("name", "qualified_name")), None)  # ``(new X)->set(…)``
            return f"{class_named(text(made), at)}::{text(name)}" if made is not None else None
        return f"$this->{text(name)}" if receiver is not None and text(
            receiver) == "$this" else None
    return None


def invocation(node: Node, file: FileIndex, at: Node, path: str = "") -> Call | None:
    """A function, static or ``$this`` method call as a ``Call``."""
    callee = callee_of(node, at)
    if callee is None:
        return None
    made = call_of(callee, node.child_by_field_name("arguments"), file, at, path)
    return replace(made, method=True)  # whatever its case: unresolved, it says nothing
