"""PHP producers: what ``throw new NotFound($key)`` or ``throw FetchError::create($request,
$response)`` prints when the class or the factory is written in another file.

Read per file for composition (``errdex.languages.facts``):

* an exception class (one that ``extends``): what its ``__construct`` hands
  ``parent::__construct(…)``, or assigns ``$this->message`` (which wins: it is what
  ``getMessage()`` returns); ``$this->key = $key`` and promoted parameters (``private
  string $key``) make ``$this->key`` the ``$key`` argument. A class without a
  constructor takes its base's;
* a factory: a function or method that returns ``new self(…)``/``new static(…)``/``new
  X(…)`` of an exception (or of its declared return type), another factory's result, or
  a string built from its parameters;
* a helper: one whose body throws, or logs (``error_log``, ``trigger_error``,
  ``$this->logger->error``), a message built from its parameters;
* a constant: a class ``const`` with text (``self::NOT_FOUND``, ``Messages::NOT_FOUND``).

Parameters keep their ``$`` (``$key``), as holes read from source are named.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import FileIndex
from errdex.languages._engine.calls import names_a_logger
from errdex.languages.base import line_of, load_query, matches, text
from errdex.languages.facts import Call, Composer, Producer, Result, bind, has_text, parameter
from errdex.languages.php.calls import (
    CLASSES,
    alternatives,
    call_of,
    class_named,
    invocation,
    owner_of,
)
from errdex.languages.php.messages import arguments
from errdex.templates.template import Template

QUERY = Path(__file__).with_name("queries.scm")
MAX_BRANCHES = 16
_CALLS = ("function_call_expression", "scoped_call_expression", "member_call_expression",
          "nullsafe_member_call_expression")
_LOG_FUNCTIONS = frozenset({"error_log", "trigger_error", "user_error"})
_LOG_METHODS = frozenset({"error", "critical", "alert", "emergency", "warning"})

# PHP's own exceptions: ``throw new \RuntimeException(Messages::notFound($key))`` prints
# what the repository's factory or constant gives.
PHP_EXCEPTIONS = frozenset({
    "Exception", "ErrorException", "Error", "RuntimeException", "LogicException",
    "InvalidArgumentException", "DomainException", "LengthException", "OutOfRangeException",
    "OutOfBoundsException", "RangeException", "OverflowException", "UnderflowException",
    "UnexpectedValueException", "BadFunctionCallException", "BadMethodCallException",
    "TypeError", "ValueError", "ArgumentCountError", "ArithmeticError",
    "DivisionByZeroError", "JsonException", "UnhandledMatchError",
})


def producers(root: Node, source: bytes, path: str) -> list[Producer]:
    """Every producer the file declares (module docstring)."""
    file = FileIndex.of(matches(load_query("php", QUERY), root))
    out: list[Producer] = []
    declared = list(_declarations(root))
    errors = frozenset(text(n.child_by_field_name("name")) for n in declared
                       if n.type in CLASSES and _is_error_class(n))
    for node in declared:
        if node.type == "function_definition":
            out.extend(_function(node, None, file, path, errors))
            continue
        name = text(node.child_by_field_name("name"))
        body = node.child_by_field_name("body")
        made = _class(node, name, file, path)
        if made is not None:
            out.append(made)
        for member in body.named_children if body is not None else ():
            if member.type == "method_declaration" and text(
                    member.child_by_field_name("name")) != "__construct":
                out.extend(_function(member, name, file, path, errors))
            elif member.type == "const_declaration":
                out.extend(_constants(member, name, file, path))
    return out


COMPOSER = Composer(producers=producers, triggers=(b"class ", b"function "))


def _declarations(node: Node) -> Iterator[Node]:
    """Classes (traits, enums) and functions, top level or in a namespace block."""
    for child in node.named_children:
        if child.type in CLASSES or child.type == "function_definition":
            yield child
        elif child.type in ("namespace_definition", "compound_statement"):
            yield from _declarations(child)


# --- classes -------------------------------------------------------------------------------


def _class(node: Node, name: str, file: FileIndex, path: str) -> Producer | None:
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
    defaults: tuple[tuple[str, Template], ...] = ()
    if constructor is not None:
        params = _parameters(constructor)
        fields = _fields(constructor, params)
        own: list[Result] = []
        for statement in _statements(constructor):
            own.extend(_handed_up(statement, base_name, name, file, path))
        unread = _unread(constructor, params, file)
        results = [bind(r, fields) for r in own if not _holes(r) & unread][:MAX_BRANCHES]
        if any(isinstance(r, Template) for r in results):  # ``$this->message`` wins
            results = [r for r in results if isinstance(r, Template)]
        if not any(isinstance(r, Template) or r.args or r.keywords for r in results) and (
                default is not None):
            results = [default]
    elif default is not None:  # ``protected $message = '…'``: printed unless one is passed
        params, defaults = ("$message",), (("$message", default),)
        results = [Call(base_name, ((parameter("$message"),),), owner=name, path=path)]
    if constructor is not None:
        defaults = _defaults(constructor)
    return Producer(name, params, tuple(results), "class message", path, line_of(node),
                    bases=(base_name,), is_class=True, defaults=defaults)


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
    inner = statement.named_children[0] if (
        statement.type == "expression_statement" and statement.named_children) else None
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
    for statement in _statements(constructor):
        inner = statement.named_children[0] if statement.named_children else None
        if inner is not None and inner.type == "assignment_expression":
            left, right = inner.child_by_field_name("left"), inner.child_by_field_name("right")
            if left is not None and right is not None and text(right) in params and text(
                    left).startswith("$this->"):
                mapping[text(left)] = parameter(text(right))
    return mapping


def _parameters(function: Node) -> tuple[str, ...]:
    found = function.child_by_field_name("parameters")
    return tuple(
        text(p.child_by_field_name("name")) for p in (
            found.named_children if found is not None else ())
        if p.type in ("simple_parameter", "property_promotion_parameter",
                      "variadic_parameter") and p.child_by_field_name("name") is not None
    )


# --- factories, helpers, constants -----------------------------------------------------------


def _function(node: Node, owner: str | None, file: FileIndex, path: str,
              errors: frozenset[str]) -> list[Producer]:
    """A factory (returns an error or a message built from its parameters) or a helper
    (throws or logs one built from what it is given)."""
    params = _parameters(node)
    returns = text(node.child_by_field_name("return_type")).lstrip("?\\")
    results: list[Result] = []
    for value in _returns(node):
        results.extend(_returned(value, returns, params, file, path, errors))
    if not params:  # ``static function closed(): self { return new self('…'); }``
        results = [r for r in results if isinstance(r, Call) and any(
            has_text(t) for arg in r.args for t in arg)]
    role = "factory"
    if not results and params:
        role = "helper"
        for statement in _statements(node):
            results.extend(_helper_result(statement, params, file, path))
    unread = _unread(node, params, file)  # ``$message = self::format($message);``
    results = [r for r in results if not _holes(r) & unread]
    if not results:
        return []
    name = text(node.child_by_field_name("name"))
    return [Producer(name, params, tuple(results[:MAX_BRANCHES]), role, path, line_of(node),
                     owner, defaults=_defaults(node))]


def _defaults(function: Node) -> tuple[tuple[str, Template], ...]:
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


def _unread(node: Node, params: tuple[str, ...], file: FileIndex) -> set[str]:
    """Parameters given a new value source does not say: a result printing one is unknown
    (a hole named after it would take the caller's argument)."""
    out = set()
    for param in params:
        for assignment in file.assignments.get(param, []):
            inside = node.start_byte <= assignment.start_byte < node.end_byte
            if inside and not alternatives(assignment.child_by_field_name("right"), file):
                out.add(param)
    return out


def _holes(result: Result) -> set[str]:
    templates = [result] if isinstance(result, Template) else [
        t for a in (*result.args, *(v for _, v in result.keywords)) for t in a]
    return {h.name for t in templates for h in t.holes if h.name}


def _returned(value: Node, returns: str, params: tuple[str, ...], file: FileIndex,
              path: str, errors: frozenset[str]) -> list[Result]:
    if value.type == "object_creation_expression":
        made = _created(value)
        if made is not None and (_errorish(made) or made in errors or _errorish(returns)):
            return [call_of(made, _arguments_node(value), file, value, path)]
        return []
    if value.type in _CALLS and (_errorish(returns) or (
            returns in ("self", "static") and owner_of(value) in errors)):
        called = invocation(value, file, value, path)
        return [called] if called is not None else []
    if returns in ("string", ""):
        return [t for t in alternatives(value, file) if has_text(t) and _uses(t, params)]
    return []


def _helper_result(statement: Node, params: tuple[str, ...], file: FileIndex,
                   path: str) -> list[Result]:
    """A statement of a helper's body that throws or logs what the helper is given."""
    inner = statement.named_children[0] if (
        statement.type == "expression_statement" and statement.named_children) else None
    if inner is None:
        return []
    if inner.type == "throw_expression" and inner.named_children:
        thrown = inner.named_children[0]
        made = _created(thrown) if thrown.type == "object_creation_expression" else None
        call = call_of(made, _arguments_node(thrown), file, thrown, path) if (
            made is not None) else invocation(thrown, file, thrown, path) if (
            thrown.type in _CALLS) else None
        return [call] if call is not None and _passes(call, params) else []
    if inner.type not in _CALLS:
        return []
    if inner.type == "function_call_expression":
        logged = text(inner.child_by_field_name("function")) in _LOG_FUNCTIONS
    else:
        receiver = inner.child_by_field_name("object") or inner.child_by_field_name("scope")
        logged = text(inner.child_by_field_name("name")) in _LOG_METHODS and (
            receiver is not None and names_a_logger(text(receiver).rsplit("->", 1)[-1]))
    found = arguments(inner.child_by_field_name("arguments"))
    first = found.named.get("message") or (found.positional[0] if found.positional else None)
    if not logged or first is None:
        return []
    return [t for t in alternatives(first, file) if has_text(t) and _uses(t, params)]


def _constants(node: Node, owner: str, file: FileIndex, path: str) -> list[Producer]:
    """``const NOT_FOUND = 'no such item';`` in a class, interface or enum."""
    out = []
    for element in node.named_children:
        if element.type != "const_element" or len(element.named_children) < 2:
            continue
        name, value = element.named_children[0], element.named_children[-1]
        found = [t for t in alternatives(value, file) if has_text(t)]
        if found:
            out.append(Producer(text(name), (), tuple(found), "constant", path,
                                line_of(element), owner))
    return out


def _is_error_class(node: Node) -> bool:
    """A class named like an error or extending one (``FetchError extends \\Exception``)."""
    clause = next((c for c in node.named_children if c.type == "base_clause"), None)
    bases = [text(c) for c in clause.named_children] if clause is not None else []
    return any(_errorish(n) for n in (text(node.child_by_field_name("name")), *bases))


def _created(node: Node) -> str | None:
    """The class ``new`` makes, ``self``/``static`` the one it is written in (and so
    ``new $className``: a subclass chosen at run time, its message built the same)."""
    written = next((c for c in node.named_children if c.type in (
        "name", "qualified_name", "variable_name")), None)
    if written is None:
        return None
    return class_named("static" if written.type == "variable_name" else text(written), node)


def _arguments_node(node: Node) -> Node | None:
    return next((c for c in node.named_children if c.type == "arguments"), None)


def _errorish(name: str) -> bool:
    short = name.rsplit("\\", 1)[-1]
    return short[:1].isupper() and short.endswith(("Exception", "Error", "Throwable"))


def _passes(call: Call, params: tuple[str, ...]) -> bool:
    """Whether a call hands on one of the parameters (a helper decorates what it is given)."""
    return any(_uses(t, params) for arg in (*call.args, *(a for _, a in call.keywords))
               for t in arg)


def _uses(template: Template, params: tuple[str, ...]) -> bool:
    return any(h.name in params for h in template.holes)


# --- walking -----------------------------------------------------------------------------------


def _statements(function: Node) -> list[Node]:
    body = function.child_by_field_name("body")
    return list(body.named_children) if body is not None else []


def _returns(function: Node) -> Iterator[Node]:
    """The values a function's own ``return`` statements give (not a closure's)."""
    stack = [function.child_by_field_name("body")]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if node.type == "return_statement" and node.named_children:
            yield node.named_children[0]
            continue
        stack.extend(c for c in reversed(node.named_children) if c.type not in (
            "anonymous_function", "arrow_function", "anonymous_class", "function_definition"))
