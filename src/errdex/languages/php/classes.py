"""PHP exception classes as producers, and what the composition reader shares.

A class that ``extends`` prints what its ``__construct`` hands ``parent::__construct(…)``
(Symfony's ``HttpException`` takes the status first; ``message:`` by name is the
message), or assigns ``$this->message`` (which wins: ``getMessage()`` returns it), or a
``protected $message = '…'`` default; ``$this->key`` prints the ``$key`` argument it was
set from (promoted or assigned). A method that sets ``$this->message`` and returns
``$this`` (``(new ModelNotFoundException)->setModel($model, $ids)``) is a factory of
its class; ``.=`` in an ``if``/``else`` gives one text per arm.
"""

from __future__ import annotations

from tree_sitter import Node

from errdex.languages._engine import FileIndex
from errdex.languages.base import line_of, text
from errdex.languages.facts import Call, Producer, Result, bind, has_text, parameter
from errdex.languages.php.calls import alternatives, call_of
from errdex.templates.template import Template, merge_literals

MAX_BRANCHES = 16


def class_producer(node: Node, name: str, file: FileIndex, path: str) -> Producer | None:
    clause = next((c for c in node.named_children if c.type == "base_clause"), None)
    base = next((c for c in clause.named_children if c.type in ("name", "qualified_name")),
                None) if clause is not None else None
    if base is None:
        return None
    base_name = text(base).lstrip("\\").rsplit("\\", 1)[-1]
    body = node.child_by_field_name("body")
    constructor = next((m for m in (body.named_children if body is not None else ())
                        if m.type == "method_declaration"
                        and text(m.child_by_field_name("name")) == "__construct"), None)
    default = _message_default(body)
    params: tuple[str, ...] = ()
    results: list[Result] = []
    given: tuple[tuple[str, Template], ...] = ()
    if constructor is not None:
        params = parameters(constructor)
        fields = _fields(constructor, params)
        own: list[Result] = []
        for statement in statements(constructor):
            own.extend(_handed_up(statement, base_name, name, file, path))
        unknown = unread(constructor, params, file)
        results = [bind(r, fields) for r in own if not holes(r) & unknown][:MAX_BRANCHES]
        if any(isinstance(r, Template) for r in results):  # ``$this->message`` wins
            results = [r for r in results if isinstance(r, Template)]
        if not any(isinstance(r, Template) or r.args or r.keywords for r in results) and (
                default is not None):
            results = [default]
    elif default is not None:  # ``protected $message = '…'``: printed unless one is passed
        params, given = ("$message",), (("$message", default),)
        results = [Call(base_name, ((parameter("$message"),),), owner=name, path=path)]
    if constructor is not None:
        given = defaults(constructor)
    return Producer(name, params, tuple(results), "class message", path, line_of(node),
                    bases=(base_name,), is_class=True, defaults=given)


def _message_default(body: Node | None) -> Template | None:
    """The text a ``protected $message = '…';`` property declares."""
    for member in body.named_children if body is not None else ():
        if member.type != "property_declaration":
            continue
        for element in member.named_children:
            value = element.child_by_field_name("default_value") if (
                element.type == "property_element") else None
            if value is not None and text(element.child_by_field_name("name")) == "$message":
                found = [t for t in alternatives(value, FileIndex()) if has_text(t)]
                return found[0] if found else None
    return None


def _handed_up(statement: Node, base: str, owner: str, file: FileIndex,
               path: str) -> list[Result]:
    """``parent::__construct(…)`` (a call to the base) or ``$this->message = …``."""
    inner = expression_of(statement)
    if inner is None:
        return []
    if inner.type == "scoped_call_expression" and text(
            inner.child_by_field_name("scope")) == "parent" and text(
            inner.child_by_field_name("name")) == "__construct":
        made = call_of(base, inner.child_by_field_name("arguments"), file, inner, path)
        named = dict(made.keywords)
        status = made.args[0][0].written if made.args and made.args[0] else ""
        if base.endswith("HttpException") and status.isdigit():  # Symfony's (status, message)
            return [Call(made.callee, made.args[1:], made.keywords, owner, path)]
        if not made.args and "$message" in named:  # ``parent::__construct(message: …)``
            return [Call(made.callee, (named.pop("$message"),), tuple(named.items()), owner,
                         path)]
        return [Call(made.callee, made.args, made.keywords, owner, path)]
    if inner.type == "assignment_expression" and text(
            inner.child_by_field_name("left")) == "$this->message":
        return list(alternatives(inner.child_by_field_name("right"), file))
    return []


def _fields(constructor: Node, params: tuple[str, ...]) -> dict[str, Template]:
    """``$this->key`` → the ``$key`` argument: promoted parameters and assignments."""
    mapping: dict[str, Template] = {}
    found = constructor.child_by_field_name("parameters")
    for param in found.named_children if found is not None else ():
        if param.type == "property_promotion_parameter":
            name = text(param.child_by_field_name("name"))
            mapping["$this->" + name.lstrip("$")] = parameter(name)
    for statement in statements(constructor):
        inner = statement.named_children[0] if statement.named_children else None
        if inner is not None and inner.type == "assignment_expression":
            left, right = inner.child_by_field_name("left"), inner.child_by_field_name("right")
            if left is not None and right is not None and text(right) in params and text(
                    left).startswith("$this->"):
                mapping[text(left)] = parameter(text(right))
    return mapping


def parameters(function: Node) -> tuple[str, ...]:
    found = function.child_by_field_name("parameters")
    return tuple(
        text(p.child_by_field_name("name")) for p in (
            found.named_children if found is not None else ())
        if p.type in ("simple_parameter", "property_promotion_parameter",
                      "variadic_parameter") and p.child_by_field_name("name") is not None
    )


def defaults(function: Node) -> tuple[tuple[str, Template], ...]:
    """Parameters whose default is a string: what they print when a call leaves them out
    (``string $extraReason = ''``)."""
    found = function.child_by_field_name("parameters")
    out = []
    for param in found.named_children if found is not None else ():
        value = param.child_by_field_name("default_value")
        if value is not None and value.type in ("string", "encapsed_string"):
            read = alternatives(value, FileIndex())
            if len(read) == 1 and not read[0].holes:
                out.append((text(param.child_by_field_name("name")), read[0]))
    return tuple(out)


def unread(node: Node, params: tuple[str, ...], file: FileIndex) -> set[str]:
    """Parameters given a new value source does not say: a result printing one is unknown
    (a hole named after it would take the caller's argument)."""
    out = set()
    for param in params:
        for assignment in file.assignments.get(param, []):
            inside = node.start_byte <= assignment.start_byte < node.end_byte
            if inside and not alternatives(assignment.child_by_field_name("right"), file):
                out.add(param)
    return out


def holes(result: Result) -> set[str]:
    templates = [result] if isinstance(result, Template) else [
        t for a in (*result.args, *(v for _, v in result.keywords)) for t in a]
    return {h.name for t in templates for h in t.holes if h.name}


def is_error_class(node: Node) -> bool:
    """A class named like an error or extending one (``FetchError extends \\Exception``)."""
    clause = next((c for c in node.named_children if c.type == "base_clause"), None)
    bases = [text(c) for c in clause.named_children] if clause is not None else []
    return any(errorish(n) for n in (text(node.child_by_field_name("name")), *bases))


def errorish(name: str) -> bool:
    short = name.rsplit("\\", 1)[-1]
    return short[:1].isupper() and short.endswith(("Exception", "Error", "Throwable"))


def expression_of(statement: Node) -> Node | None:
    """The expression an expression statement is (``$m = 'a';``); None for any other."""
    return statement.named_children[0] if (
        statement.type == "expression_statement" and statement.named_children) else None


def statements(function: Node) -> list[Node]:
    body = function.child_by_field_name("body")
    return list(body.named_children) if body is not None else []


def message_setter(node: Node, owner: str, file: FileIndex, path: str) -> Producer | None:
    """A method of an error class that sets ``$this->message`` and returns ``$this``."""
    if not any(r.type == "return_statement" and text(r).replace(" ", "") == "return$this;"
               for r in statements(node)):
        return None
    built: list[Template] = []
    for statement in statements(node):
        if statement.type == "if_statement" and built:
            arms = [statement.child_by_field_name("body"), *(
                c.child_by_field_name("body") for c in statement.named_children
                if c.type in ("else_clause", "else_if_clause"))]
            appended = [_appended(arm, file) for arm in arms]
            if any(appended):
                whole = any(c.type == "else_clause" for c in statement.named_children)
                tails = [t for found in appended for t in found or [_EMPTY]] + (
                    [] if whole else [_EMPTY])
                built = [_joined(b, t) for b in built for t in tails][:MAX_BRANCHES]
            continue
        operator, value = _message_assignment(statement)
        if operator == "=":
            built = alternatives(value, file)
        elif operator == ".=" and built:
            built = [_joined(b, t) for b in built for t in alternatives(value, file)]
    if not any(has_text(t) for t in built):
        return None
    return Producer(text(node.child_by_field_name("name")), parameters(node), tuple(built),
                    "factory", path, line_of(node), owner, error_class=owner,
                    defaults=defaults(node))


_EMPTY = Template("", ())


def _message_assignment(statement: Node) -> tuple[str, Node | None]:
    """``$this->message = …`` / ``.= …``: the operator and the value."""
    inner = expression_of(statement)
    if inner is None or text(inner.child_by_field_name("left")) != "$this->message":
        return "", None
    if inner.type == "assignment_expression":
        return "=", inner.child_by_field_name("right")
    operator = inner.child_by_field_name("operator")
    return (text(operator) if operator is not None else ""), inner.child_by_field_name("right")


def _appended(arm: Node | None, file: FileIndex) -> list[Template]:
    """What an ``if`` arm appends to ``$this->message`` (``.= …``), if anything."""
    found = [arm] if arm is not None and arm.type != "compound_statement" else (
        arm.named_children if arm is not None else [])
    for statement in found:
        operator, value = _message_assignment(statement)
        if operator == ".=":
            return alternatives(value, file)
    return []


def _joined(head: Template, tail: Template) -> Template:
    return Template(head.written + tail.written, merge_literals((*head.parts, *tail.parts)))
