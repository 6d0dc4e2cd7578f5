"""C# producers: what ``throw new NotFound(key)`` or ``throw Errors.Create(r, "…", t)``
prints when the class or the factory is written in another file.

Read per file for composition (``errdex.languages.facts``):

* an exception class (one with a base): its constructors' ``: base(…)`` / ``: this(…)``
  initializers (merged into one producer by ``_jvm.compose``: composition finds a class
  by name), properties and fields set from parameters (``Key = key``), and a ``Message``
  override, whose ``base.Message`` is what the constructor handed up;
* a factory: a method that returns ``new X(…)`` of an exception (or of its declared
  type), another factory's result, or a ``string`` built from its parameters; a format
  parameter (``string.Format(culture, message, args)``) prints what the caller passes,
  whose ``{0}`` the site already read as the arguments after it;
* a helper: a method whose body throws, or logs, a message built from its parameters;
* a constant: a ``const`` / ``static readonly`` string with text.

Arguments are read as their alternatives: a ternary, a ``switch`` expression, a local
initialised with one or assigned in several branches give one template per branch.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from errdex.languages._jvm.compose import (
    SUPER_MESSAGE,
    THIS,
    ClassFacts,
    Constructor,
    capped,
    class_producer,
    renamed,
)
from errdex.languages._jvm.libraries import is_exception_name, simple_name
from errdex.languages.base import ancestors, line_of, text
from errdex.languages.csharp.messages import STRINGS, arguments, declared_value, hole, read
from errdex.languages.csharp.strings import composite_format, string_value
from errdex.languages.facts import Argument, Call, Composer, Producer, Result, has_text, unknown
from errdex.templates.template import Literal, Template

CLASSES = frozenset({"class_declaration", "struct_declaration", "record_declaration"})
_CONTAINERS = frozenset({
    "namespace_declaration", "file_scoped_namespace_declaration", "declaration_list",
    "compilation_unit",
})
_FUNCTIONS = frozenset({
    "method_declaration", "constructor_declaration", "local_function_statement",
    "lambda_expression", "anonymous_method_expression", "accessor_declaration",
    "property_declaration",
})
_BASE_MESSAGE = {"base.Message": SUPER_MESSAGE, "base.Message.ToString()": SUPER_MESSAGE}
_LOG_METHODS = frozenset({
    "LogError", "LogCritical", "LogWarning", "Error", "Fatal", "Warn", "Warning",
})
MAX_BRANCHES = 16

# .NET exceptions a repository does not define: ``throw new InvalidOperationException(
# Messages.NotFound(key))`` prints what the factory or constant gives.
DOTNET_EXCEPTIONS = frozenset({
    "Exception", "SystemException", "ApplicationException", "InvalidOperationException",
    "NotSupportedException", "NotImplementedException", "FormatException",
    "KeyNotFoundException", "IOException", "FileNotFoundException",
    "DirectoryNotFoundException", "TimeoutException", "UnauthorizedAccessException",
    "InvalidCastException", "IndexOutOfRangeException", "OverflowException",
    "HttpRequestException", "JsonException", "InvalidDataException",
    "NullReferenceException", "OperationCanceledException", "SecurityException",
    "InvalidProgramException", "PlatformNotSupportedException", "ArithmeticException",
    "DivideByZeroException", "EndOfStreamException", "SerializationException",
})


def producers(root: Node, source: bytes, path: str) -> list[Producer]:
    """Every producer the file declares (module docstring)."""
    out: list[Producer] = []
    for declaration, outer in _declarations(root, None):
        name = text(declaration.child_by_field_name("name"))
        body = declaration.child_by_field_name("body")
        if body is None:
            continue
        made = _class(declaration, name, outer, body, path)
        if made is not None:
            out.append(made)
        for member in body.named_children:
            if member.type == "method_declaration":
                out.extend(_method(member, name, path))
            elif member.type == "field_declaration":
                out.extend(_constants(member, name, path))
    return out


COMPOSER = Composer(producers=producers, triggers=(b"class ", b"struct ", b"record "))


def _declarations(node: Node, outer: str | None) -> Iterator[tuple[Node, str | None]]:
    """Class-like declarations in namespaces and nested in class bodies."""
    for child in node.named_children:
        if child.type in CLASSES:
            yield child, outer
            body = child.child_by_field_name("body")
            if body is not None:
                yield from _declarations(body, text(child.child_by_field_name("name")))
        elif child.type in _CONTAINERS:
            yield from _declarations(child, outer)


def owner_of(node: Node) -> str | None:
    """The name of the class a node is written in (``this.X()`` is looked up there)."""
    owner = next((a for a in ancestors(node) if a.type in CLASSES), None)
    return text(owner.child_by_field_name("name")) if owner is not None else None


# --- arguments ---------------------------------------------------------------------------


def alternatives(node: Node | None, at: Node, depth: int = 0) -> list[Template]:
    """The templates an expression prints, one per branch (a ternary, a ``switch``
    expression, a local initialised with one or assigned in several branches); empty
    when source does not say."""
    while node is not None and node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    if node is None or depth > 4:
        return []
    if node.type == "conditional_expression":
        return list(capped([
            *alternatives(node.child_by_field_name("consequence"), at, depth + 1),
            *alternatives(node.child_by_field_name("alternative"), at, depth + 1)]))
    if node.type == "switch_expression":
        return list(capped([t for arm in node.named_children
                            if arm.type == "switch_expression_arm" and arm.named_children
                            for t in alternatives(arm.named_children[-1], at, depth + 1)]))
    if node.type == "identifier":
        branches = _branches(node, at, depth)
        if branches:
            return branches
    message = read(node, at)
    if message is None and node.type == "identifier":
        value = _initialiser(node, at)
        if value is not None and value.type in ("conditional_expression", "switch_expression"):
            return alternatives(value, at, depth + 1)
    return [Template(message.written, message.parts)] if message is not None else []


def _initialiser(node: Node, at: Node) -> Node | None:
    """The value a local is declared with, above ``at`` in its method."""
    scope = _function(at)
    name = text(node)
    found = [d for d in _walk(scope) if d.type == "variable_declarator"
             and text(d.child_by_field_name("name")) == name
             and d.end_byte <= at.start_byte] if scope is not None else []
    return declared_value(found[-1]) if found else None


def _branches(node: Node, at: Node, depth: int) -> list[Template]:
    """A local assigned in several branches above its use (``if (c) msg = "a"; else msg =
    "b";``): each assignment's text, when every one is known."""
    scope = _function(at)
    if scope is None:
        return []
    name = text(node)
    assigned = [a for a in _walk(scope) if a.type == "assignment_expression"
                and a.end_byte <= at.start_byte
                and text(a.child_by_field_name("left")) == name
                and text(a.child_by_field_name("operator")) == "="]
    if len(assigned) < 2:
        return []
    out: list[Template] = []
    for assignment in assigned:
        found = alternatives(assignment.child_by_field_name("right"), assignment, depth + 1)
        if not found:
            return []
        out.extend(found)
    return list(capped(out))


def argument(node: Node, at: Node, after: list[Node] | None = None) -> Argument:
    """What one argument prints: its alternatives, a number as written, a composite format
    read with the arguments after it (``Create(r, "Unexpected {0}", tok)``), or a hole."""
    if node.type == "integer_literal" and text(node).isdigit():
        return (Template(text(node), (Literal(text(node)),)),)
    value = string_value(node) if node.type in STRINGS else None
    if value is not None and after and "{0" in value:
        return (Template(value, composite_format(value, [text(a) for a in after])),)
    found = alternatives(node, at)
    if found:
        return tuple(found)
    made = hole(node)
    return (unknown(made.name or text(node)),)


def call_of(callee: str, args: list[Node], at: Node, path: str = "") -> Call:
    """A call to a producer, each argument read as its alternatives at ``at``."""
    return Call(callee, tuple(argument(a, at, args[i + 1:]) for i, a in enumerate(args)),
                owner=owner_of(at), path=path)


def invocation(node: Node, at: Node, path: str = "") -> Call | None:
    """``Errors.Create(r, "…", t)`` / ``this.Fail(x)`` / ``Fail<T>(x)`` as a ``Call``."""
    function = node.child_by_field_name("function")
    if function is None or function.type not in (
            "identifier", "member_access_expression", "generic_name"):
        return None
    callee = text(function).split("<", 1)[0] if function.type == "generic_name" else text(
        function)
    return call_of(callee, arguments(node.child_by_field_name("arguments")), at, path)


# --- classes -------------------------------------------------------------------------------


def _class(node: Node, name: str, outer: str | None, body: Node, path: str) -> Producer | None:
    bases = next((c for c in node.named_children if c.type == "base_list"), None)
    first = next((c for c in bases.named_children if c.type != "argument_list"), None) if (
        bases is not None) else None
    if first is None or node.type == "struct_declaration":
        return None
    base = simple_name(text(first))
    facts = ClassFacts(name, (base,), path, line_of(node), outer)
    for member in body.named_children:
        if member.type == "constructor_declaration":
            facts.constructors.append(_constructor(member, name, base, path))
        elif member.type == "property_declaration" and text(
                member.child_by_field_name("name")) == "Message":
            facts.override.extend(renamed(t, _BASE_MESSAGE) for t in _getter(member))
    return class_producer(facts)


def _constructor(node: Node, owner: str, base: str, path: str) -> Constructor:
    params = _parameters(node)
    initializer = next((c for c in node.children if c.type == "constructor_initializer"), None)
    results: tuple[Result, ...] = (Call(base, (), owner=owner, path=path),)  # ``base()``
    if initializer is not None:
        which = "this" if any(c.type == "this" for c in initializer.children) else "base"
        args = arguments(next((c for c in initializer.named_children
                               if c.type == "argument_list"), None))
        made = call_of(THIS if which == "this" else base, args, initializer, path)
        results = (Call(made.callee, made.args, owner=owner, path=path),)
    fields = []
    body = node.child_by_field_name("body")
    for statement in body.named_children if body is not None else ():
        assignment = statement.named_children[0] if (
            statement.type == "expression_statement" and statement.named_children) else None
        if assignment is None or assignment.type != "assignment_expression":
            continue
        left, right = (assignment.child_by_field_name("left"),
                       assignment.child_by_field_name("right"))
        if left is not None and right is not None and text(right) in params:
            field = text(left.child_by_field_name("name")) if (
                left.type == "member_access_expression") else text(left)
            fields.append((field, text(right)))
    return Constructor(params, results, tuple(fields))


def _getter(prop: Node) -> list[Template]:
    """What a ``Message`` property returns: ``=> …`` or ``get { return …; }``/``get => …``."""
    value = prop.child_by_field_name("value")
    if value is not None and value.type == "arrow_expression_clause" and value.named_children:
        return alternatives(value.named_children[-1], value)
    accessors = prop.child_by_field_name("accessors")
    out: list[Template] = []
    for accessor in accessors.named_children if accessors is not None else ():
        if text(accessor.child_by_field_name("name")) != "get":
            continue
        out.extend(t for r in _returns(accessor) for t in alternatives(r, r))
    return out


def _parameters(node: Node) -> tuple[str, ...]:
    params = node.child_by_field_name("parameters")
    return tuple(text(p.child_by_field_name("name"))
                 for p in (params.named_children if params is not None else ())
                 if p.type == "parameter" and p.child_by_field_name("name") is not None)


# --- factories, helpers, constants -----------------------------------------------------------


def _method(node: Node, owner: str, path: str) -> list[Producer]:
    """A factory (returns an error or a message built from its parameters) or a helper
    (throws or logs one built from what it is given)."""
    params = _parameters(node)
    returns = simple_name(text(node.child_by_field_name("returns")))
    results: list[Result] = []
    for value in _returns(node):
        results.extend(_returned(value, returns, params, path))
    if not params:  # ``static Exception NoElements() => new InvalidOperationException("…")``
        results = [r for r in results if isinstance(r, Call) and any(
            has_text(t) for arg in r.args for t in arg)]
    role = "factory"
    if not results and params:
        role = "helper"
        for statement in _statements(node):
            results.extend(_helper_result(statement, params, path))
    if not results:
        return []
    name = text(node.child_by_field_name("name"))
    return [Producer(name, params, tuple(results[:MAX_BRANCHES]), role, path, line_of(node),
                     owner)]


def _returned(value: Node, returns: str, params: tuple[str, ...], path: str) -> list[Result]:
    if value.type == "object_creation_expression":
        made = simple_name(text(value.child_by_field_name("type")))
        if made[:1].isupper() and (is_exception_name(made) or made == returns
                                   or is_exception_name(returns)):
            args = arguments(value.child_by_field_name("arguments"))
            return [call_of(made, args, value, path)]
        return []
    if value.type == "invocation_expression" and is_exception_name(returns):
        called = invocation(value, value, path)
        return [called] if called is not None else []
    if returns in ("string", "String"):
        return [t for t in alternatives(value, value) if has_text(t) and _uses(t, params)]
    return []


def _helper_result(statement: Node, params: tuple[str, ...], path: str) -> list[Result]:
    """A statement of a helper's body that throws or logs what the helper is given."""
    inner = statement.named_children[0] if statement.named_children else None
    if inner is None:
        return []
    if statement.type in ("throw_statement", "throw_expression"):
        if inner.type == "object_creation_expression":
            made = simple_name(text(inner.child_by_field_name("type")))
            call = call_of(made, arguments(inner.child_by_field_name("arguments")), inner, path)
            return [call] if made[:1].isupper() and _passes(call, params) else []
        called = invocation(inner, inner, path) if inner.type == "invocation_expression" else None
        return [called] if called is not None and _passes(called, params) else []
    if statement.type != "expression_statement" or inner.type != "invocation_expression":
        return []
    function = inner.child_by_field_name("function")
    if function is None or function.type != "member_access_expression":
        return []
    receiver = text(function.child_by_field_name("expression"))
    method = text(function.child_by_field_name("name"))
    logged = (method in _LOG_METHODS and "log" in receiver.rsplit(".", 1)[-1].lower()) or (
        receiver == "Console.Error" and method in ("WriteLine", "Write"))
    args = arguments(inner.child_by_field_name("arguments"))
    first = next((a for a in args if a.type in (*STRINGS, "interpolated_string_expression",
                                                "binary_expression")), None)
    if not logged or first is None:
        return []
    return [t for t in alternatives(first, first) if has_text(t) and _uses(t, params)]


def _constants(node: Node, owner: str, path: str) -> list[Producer]:
    """``const string NotFound = "…";`` / ``static readonly string …``."""
    words = {text(m) for m in node.children if m.type == "modifier"}
    if "const" not in words and not {"static", "readonly"} <= words:
        return []
    declaration = next((c for c in node.named_children if c.type == "variable_declaration"),
                       None)
    if declaration is None or text(declaration.child_by_field_name("type")) not in (
            "string", "String"):
        return []
    out = []
    for declarator in declaration.named_children:
        if declarator.type != "variable_declarator":
            continue
        value = declared_value(declarator)
        found = [t for t in alternatives(value, value) if has_text(t)] if value else []
        if found:
            name = text(declarator.child_by_field_name("name"))
            out.append(Producer(name, (), tuple(found), "constant", path, line_of(declarator),
                                owner))
    return out


def _passes(call: Call, params: tuple[str, ...]) -> bool:
    """Whether a call hands on one of the parameters (a helper decorates what it is given)."""
    return any(_uses(t, params) for arg in call.args for t in arg)


def _uses(template: Template, params: tuple[str, ...]) -> bool:
    return any(h.name in params for h in template.holes)


# --- walking -----------------------------------------------------------------------------------


def _function(node: Node) -> Node | None:
    return next((a for a in ancestors(node) if a.type in _FUNCTIONS), None)


def _walk(node: Node | None) -> Iterator[Node]:
    """Nodes under ``node`` in source order, not inside a nested lambda or local function."""
    stack = [node] if node is not None else []
    while stack:
        current = stack.pop()
        yield current
        stack.extend(c for c in reversed(current.named_children)
                     if c.type not in ("lambda_expression", "local_function_statement",
                                       "anonymous_method_expression"))


def _returns(function: Node) -> Iterator[Node]:
    """The values a member gives: ``=> value`` or its own ``return`` statements."""
    body = function.child_by_field_name("body")
    if body is not None and body.type == "arrow_expression_clause":
        if body.named_children:
            yield body.named_children[-1]
        return
    for node in _walk(body):
        if node.type == "return_statement" and node.named_children:
            yield node.named_children[0]


def _statements(function: Node) -> list[Node]:
    """A body's top-level statements; ``=> throw …`` is one throw."""
    body = function.child_by_field_name("body")
    if body is not None and body.type == "arrow_expression_clause":
        return [c for c in body.named_children if c.type == "throw_expression"]
    return list(body.named_children) if body is not None else []
