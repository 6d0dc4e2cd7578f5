"""PHP producers: what ``throw new NotFound($key)`` or ``throw FetchError::create($request,
$response)`` prints when the class or the factory is written in another file.

Read per file for composition (``errdex.languages.facts``):

* an exception class (one that ``extends``; read in ``classes.py``): what its
  ``__construct`` hands ``parent::__construct(…)`` or assigns ``$this->message``, or its
  ``$message`` default; a class without a constructor takes its base's. A method of an
  error class that sets ``$this->message`` and returns ``$this`` is a factory of it;
* a factory: a function or method that returns ``new self(…)``/``new static(…)``/``new
  X(…)`` of an exception (or of its declared return type), another factory's result, or
  a string built from its parameters;
* a helper: one whose body throws, or logs (``error_log``, ``trigger_error``,
  ``$this->logger->error``), a message built from its parameters;
* a constant: a class ``const`` with text (``self::NOT_FOUND``, ``Messages::NOT_FOUND``).

Parameters keep their ``$`` (``$key``), as holes read from source are named; a string
default prints when a call leaves its parameter out. A parameter given a value source
can't read (``$message = decorate($message)``) makes what prints it unknown.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import FileIndex
from errdex.languages._engine.calls import names_a_logger
from errdex.languages._engine.producing import builds_nothing, factory_or_helper
from errdex.languages._engine.walk import returned_values
from errdex.languages.base import line_of, load_query, matches, text
from errdex.languages.facts import Call, Composer, Producer, Result, has_text
from errdex.languages.php.calls import (
    CLASSES,
    alternatives,
    assigned,
    call_of,
    class_named,
    invocation,
    owner_of,
)
from errdex.languages.php.classes import (
    class_producer,
    defaults,
    errorish,
    expression_of,
    holes,
    is_error_class,
    message_setter,
    parameters,
    statements,
    unread,
)
from errdex.languages.php.messages import arguments
from errdex.templates.template import Template

QUERY = Path(__file__).with_name("assignments.scm")
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
    file = _LazyIndex(root)
    out: list[Producer] = []
    declared = list(_declarations(root))
    errors = frozenset(text(n.child_by_field_name("name")) for n in declared
                       if n.type in CLASSES and is_error_class(n))
    for node in declared:
        if node.type == "function_definition":
            out.extend(_function(node, None, file, path, errors))
            continue
        name = text(node.child_by_field_name("name"))
        body = node.child_by_field_name("body")
        made = class_producer(node, name, file, path)
        if made is not None:
            out.append(made)
        for member in body.named_children if body is not None else ():
            if member.type == "method_declaration" and text(
                    member.child_by_field_name("name")) != "__construct":
                setter = message_setter(member, name, file, path) if name in errors else None
                out.extend([setter] if setter else _function(member, name, file, path, errors))
            elif member.type == "const_declaration":
                out.extend(_constants(member, name, file, path))
    return out


COMPOSER = Composer(producers=producers, triggers=(b"class ", b"function "))


class _LazyIndex(FileIndex):
    """The file's message variables, read when a producer first needs one (most functions
    of a file are no producer: their bodies are not read)."""

    def __init__(self, root: Node) -> None:  # the fields are set on first use
        self._root = root

    def __getattr__(self, name: str) -> object:
        if name not in ("assignments", "imports"):
            raise AttributeError(name)
        built = FileIndex.of(matches(load_query("php", QUERY), self._root))
        self.assignments, self.imports = built.assignments, built.imports
        return getattr(self, name)


def _declarations(node: Node) -> Iterator[Node]:
    """Classes (traits, enums) and functions, top level or in a namespace block."""
    for child in node.named_children:
        if child.type in CLASSES or child.type == "function_definition":
            yield child
        elif child.type in ("namespace_definition", "compound_statement"):
            yield from _declarations(child)


# --- factories, helpers, constants -----------------------------------------------------------


def _function(node: Node, owner: str | None, file: FileIndex, path: str,
              errors: frozenset[str]) -> list[Producer]:
    """A factory (returns an error or a message built from its parameters) or a helper
    (throws or logs one built from what it is given)."""
    returns = text(node.child_by_field_name("return_type")).lstrip("?\\")
    if builds_nothing(node, errorish(returns) or returns in ("self", "static"), _WORDS):
        return []
    params = parameters(node)
    results, role = factory_or_helper(
        (r for value in _returns(node) for r in _returned(value, returns, params, file, path,
                                                          errors)),
        params, lambda: (r for statement in statements(node)
                         for r in _helper_result(statement, params, file, path)))
    unknown = unread(node, params, file) if results else set()  # ``$m = f($m);``
    results = [r for r in results if not holes(r) & unknown]
    if not results:
        return []
    name = text(node.child_by_field_name("name"))
    return [Producer(name, params, tuple(results[:MAX_BRANCHES]), role, path, line_of(node),
                     owner, defaults=defaults(node))]


def _returned(value: Node, returns: str, params: tuple[str, ...], file: FileIndex,
              path: str, errors: frozenset[str]) -> list[Result]:
    if value.type == "variable_name":  # ``$e = new static(…); $e->x = …; return $e;``
        held = assigned(value, file)
        if held is None or held.type != "object_creation_expression":
            return []
        value = held
    if value.type == "object_creation_expression":
        made = _created(value)
        if made is not None and (errorish(made) or made in errors or errorish(returns)):
            return [call_of(made, _arguments_node(value), file, value, path)]
        return []
    if value.type in _CALLS and (errorish(returns) or returns in errors or (
            returns in ("self", "static") and owner_of(value) in errors)):
        called = invocation(value, file, value, path)
        return [called] if called is not None else []
    if returns == "string" or (not returns and value.type in _TEXTS):
        return [t for t in alternatives(value, file) if has_text(t) and _uses(t, params)]
    return []


# What a function that builds an error or a text holds somewhere in its body.
_WORDS = (b"new ", b"throw", b"'", b'"', b"<<<", b"error", b"warn", b"alert", b"critical",
          b"emergency")
# What a function without a declared return type returns that may be a message.
_TEXTS = frozenset({"string", "encapsed_string", "heredoc", "binary_expression",
                    "function_call_expression", "conditional_expression"})
# Statements a ``return`` may sit in (expressions are not walked into).
_BLOCKS = frozenset({
    "compound_statement", "if_statement", "else_clause", "else_if_clause", "colon_block",
    "foreach_statement", "for_statement", "while_statement", "do_statement",
    "switch_statement", "switch_block", "case_statement", "default_statement",
    "try_statement", "catch_clause", "finally_clause", "declare_statement",
})


def _helper_result(statement: Node, params: tuple[str, ...], file: FileIndex,
                   path: str) -> list[Result]:
    """A statement of a helper's body that throws or logs what the helper is given."""
    inner = expression_of(statement)
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


def _passes(call: Call, params: tuple[str, ...]) -> bool:
    """Whether a call hands on one of the parameters (a helper decorates what it is given)."""
    return any(_uses(t, params) for arg in (*call.args, *(a for _, a in call.keywords))
               for t in arg)


def _uses(template: Template, params: tuple[str, ...]) -> bool:
    return any(h.name in params for h in template.holes)


# --- walking -----------------------------------------------------------------------------------


def _returns(function: Node) -> Iterator[Node]:
    """The values a function's own ``return`` statements give (not a closure's)."""
    return returned_values(function.child_by_field_name("body"), _BLOCKS)
