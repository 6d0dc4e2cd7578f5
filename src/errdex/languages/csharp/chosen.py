"""C# resource texts chosen by a ``switch`` or a ternary, then formatted::

    var message = this.kind switch
    {
        Kind.Once => Resources.NoMatchingCallsOnce,
        Kind.Never => Resources.NoMatchingCallsNever,
        _ => throw new InvalidOperationException(),
    };
    return string.Format(CultureInfo.CurrentCulture, message, from, to, callCount);

The local is a producer of its class (``<method>__<local>``, a constant): one result per
arm, each a call to the resource it names with the format's arguments handed on
(``_0``, ``_1``…); the format is a call to it. Arms that throw choose nothing.
"""

from __future__ import annotations

from tree_sitter import Node

from errdex.languages._jvm.compose import unparenthesized
from errdex.languages.base import ancestors, line_of, text
from errdex.languages.csharp.messages import arguments, declared_value
from errdex.languages.facts import Argument, Call, Producer, parameter

_CHOICES = ("switch_expression", "conditional_expression")
_METHODS = ("method_declaration", "constructor_declaration", "local_function_statement",
            "accessor_declaration")


def chosen_name(method: str, local: str) -> str:
    """The producer name of ``local`` in ``method`` (no dot: a call's last name)."""
    return f"{method}__{local}"


def arms(value: Node | None) -> list[Node] | None:
    """The resources a ``switch`` expression or a ternary chooses among (``Resources.X``,
    ``SR.X``), throwing arms left out; None when an arm is anything else."""
    value = unparenthesized(value)
    if value is None or value.type not in _CHOICES:
        return None
    if value.type == "conditional_expression":
        found = [value.child_by_field_name("consequence"),
                 value.child_by_field_name("alternative")]
    else:
        found = [arm.named_children[-1] for arm in value.named_children
                 if arm.type == "switch_expression_arm" and arm.named_children]
    out: list[Node] = []
    for arm in found:
        arm = unparenthesized(arm)
        if arm is None:
            return None
        if arm.type == "throw_expression":
            continue
        if arm.type != "member_access_expression" or not _resource(arm):
            return None
        out.append(arm)
    return out or None


def chosen_call(local: Node, at: Node, passed: tuple[Argument, ...]) -> Call | None:
    """``string.Format(culture, message, a, b)`` with ``message`` a local chosen among
    resources: a call to the local's producer with the arguments after it."""
    if local.type != "identifier":
        return None
    method = next((a for a in ancestors(at) if a.type in _METHODS), None)
    if method is None:
        return None
    declared = [d for d in _declarators(method) if text(d.child_by_field_name("name")) == (
        text(local)) and d.end_byte <= at.start_byte]
    if not declared or arms(declared_value(declared[-1])) is None:
        return None
    return Call(chosen_name(_name(method), text(local)), passed, owner=_owner(at))


def chosen_producers(method: Node, owner: str, path: str) -> list[Producer]:
    """Each local of ``method`` chosen among resources, as a producer (module docstring)."""
    out = []
    for declarator in _declarators(method):
        found = arms(declared_value(declarator))
        if found is None:
            continue
        local = text(declarator.child_by_field_name("name"))
        count = _passed(method, local)
        params = tuple(f"_{i}" for i in range(count))
        args = tuple((parameter(p),) for p in params)
        results = tuple(Call(text(arm), args, owner=owner, path=path) for arm in found)
        out.append(Producer(chosen_name(_name(method), local), params, results, "constant",
                            path, line_of(declarator), owner))
    return out


def _passed(method: Node, local: str) -> int:
    """How many arguments the method's formats of ``local`` pass after it (the most)."""
    most = 0
    for node in _nodes(method):
        if node.type != "invocation_expression":
            continue
        args = arguments(node.child_by_field_name("arguments"))
        names = [text(a) for a in args]
        if local in names[:2]:
            most = max(most, len(args) - names.index(local) - 1)
    return most


def _declarators(method: Node) -> list[Node]:
    return [n for n in _nodes(method) if n.type == "variable_declarator"]


def _nodes(node: Node) -> list[Node]:
    out = []
    stack = [node]
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(reversed(current.named_children))
    return out


def _name(method: Node) -> str:
    return text(method.child_by_field_name("name")) or method.type


def _owner(node: Node) -> str | None:
    found = next((a for a in ancestors(node) if a.type in (
        "class_declaration", "struct_declaration", "record_declaration")), None)
    return text(found.child_by_field_name("name")) if found is not None else None


def _resource(node: Node) -> bool:
    """``Resources.NotFound`` / ``SR.NotFound``: a capitalized member of a capitalized
    class."""
    head = text(node.child_by_field_name("expression")).rsplit(".", 1)[-1]
    name = text(node.child_by_field_name("name"))
    return head[:1].isupper() and name[:1].isupper()
