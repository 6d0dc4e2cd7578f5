"""C# producers: what ``throw new NotFound(key)`` or ``throw Errors.Create(r, "…", t)``
prints when the class or the factory is written in another file.

Read per file for composition (``errdex.languages.facts``):

* an exception class (one with a base): its constructors' ``: base(…)`` / ``: this(…)``
  initializers (those taking as many parameters merged by ``_jvm.compose``), a primary
  constructor's base arguments, properties and fields set from parameters (``Key =
  key``), and a ``Message`` override, whose ``base.Message`` is what the constructor
  handed up;
* a factory: a method that returns ``new X(…)`` of an exception (or of its declared
  type), another factory's result, or a ``string`` built from its parameters; a format
  parameter (``string.Format(culture, message, args)``) prints what the caller passes,
  whose ``{0}`` the site already read as the arguments after it;
* a helper: a method whose body throws, or logs, a message built from its parameters;
* a constant: a ``const`` / ``static readonly`` string with text.

Arguments are read as their alternatives (``calls.py``). Each overload of a method, and
each constructor arity of a class, is a producer of its own: composition tells a file's
namesakes of one owner apart by how many arguments a call passes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from tree_sitter import Node

from errdex.languages._engine.declared import CSHARP, parameter_types
from errdex.languages._engine.producing import builds_nothing, factory_or_helper
from errdex.languages._engine.walk import class_declarations, returned_values
from errdex.languages._jvm.compose import (
    SUPER_MESSAGE,
    THIS,
    ClassFacts,
    Constructor,
    class_producer,
    fields_set,
    one_per_signature,
    renamed,
)
from errdex.languages._jvm.libraries import is_exception_name, simple_name
from errdex.languages.base import line_of, text
from errdex.languages.csharp.calls import (
    CLASSES,
    alternatives,
    call_of,
    invocation,
    resource_call,
)
from errdex.languages.csharp.chosen import chosen_producers
from errdex.languages.csharp.messages import STRINGS, arguments, declared_value
from errdex.languages.csharp.reassigned import reassigned
from errdex.languages.csharp.repair import repaired
from errdex.languages.csharp.resources import resource_string, resx_producers
from errdex.languages.csharp.strings import composite_format
from errdex.languages.facts import (
    Call,
    Composer,
    Producer,
    Result,
    has_text,
    parameter,
)
from errdex.templates.template import Template

_CONTAINERS = frozenset({
    "namespace_declaration", "file_scoped_namespace_declaration", "declaration_list",
    "compilation_unit",
})
_BASE_MESSAGE = {"base.Message": SUPER_MESSAGE, "base.Message.ToString()": SUPER_MESSAGE}
_LOG_METHODS = frozenset({
    "LogError", "LogCritical", "LogWarning", "Error", "Fatal", "Warn", "Warning",
})
MAX_BRANCHES = 16



def producers(root: Node, source: bytes, path: str) -> list[Producer]:
    """Every producer the file declares (module docstring); a ``.resx`` file's strings."""
    if path.endswith(".resx"):
        return resx_producers(source, path)
    source, root = repaired(source, root)  # ``repair.py``
    out: list[Producer] = []
    for declaration, outer in _declarations(root, None):
        name = text(declaration.child_by_field_name("name"))
        body = declaration.child_by_field_name("body")
        out.extend(_class(declaration, name, outer, body, path))
        for member in body.named_children if body is not None else ():
            if member.type == "method_declaration":
                out.extend(_method(member, name, path))
                out.extend(chosen_producers(member, name, path))
            elif member.type == "field_declaration":
                out.extend(_constants(member, name, path))
            elif (made := resource_string(member, name, path)) is not None:
                out.append(made)
    return one_per_signature(out)


COMPOSER = Composer(producers=producers,
                    triggers=(b"class ", b"struct ", b"record ", b"<data "))


def _declarations(node: Node, outer: str | None) -> Iterator[tuple[Node, str | None]]:
    """Class-like declarations in namespaces and nested in class bodies."""
    return class_declarations(node, outer, CLASSES, _CONTAINERS)


# --- classes -------------------------------------------------------------------------------


def _class(node: Node, name: str, outer: str | None, body: Node | None,
           path: str) -> list[Producer]:
    bases = next((c for c in node.named_children if c.type == "base_list"), None)
    first = next((c for c in bases.named_children if c.type != "argument_list"), None) if (
        bases is not None) else None
    if first is None or bases is None or node.type == "struct_declaration":
        return []
    written = first.child_by_field_name("type") if (
        first.type == "primary_constructor_base_type") else first
    base = simple_name(text(written))
    facts = ClassFacts(name, (base,), path, line_of(node), outer)
    primary = next((c for c in node.named_children if c.type == "parameter_list"), None)
    if primary is not None:  # ``class NotFound(string key) : Base($"… {key}")``
        handed = next((c for c in (*bases.named_children, *first.named_children)
                       if c.type == "argument_list"), None)
        made = call_of(base, arguments(handed), handed or node, path)
        facts.constructors.append(Constructor(_names(primary), (
            Call(base, made.args, owner=name, path=path, nested=made.nested,
                 types=made.types),), types=parameter_types(primary, CSHARP)))
    for member in body.named_children if body is not None else ():
        if member.type == "constructor_declaration":
            facts.constructors.append(_constructor(member, name, base, path))
        elif member.type == "property_declaration" and text(
                member.child_by_field_name("name")) == "Message":
            facts.override.extend(renamed(t, _BASE_MESSAGE) for t in _getter(member))
    return _by_arity(facts)


def _by_arity(facts: ClassFacts) -> list[Producer]:
    """The class as one producer per number of constructor parameters (composition picks
    the one a call's arguments fit); among constructors taking as many, those that hand
    a parameter up win over one that hands up a text of its own (``(string message)``
    over ``(TimeSpan timeout) : base("The operation didn't complete…")``)."""
    arities = sorted({len(c.params) for c in facts.constructors})
    out: list[Producer] = []
    for arity in arities if len(arities) > 1 else ():
        group = [c for c in facts.constructors if len(c.params) == arity]
        passing = [c for c in group if any(_holes(r) & set(c.params) for r in c.results)]
        rest = [c for c in facts.constructors if c not in group]
        made = class_producer(replace(facts, constructors=(passing or group) + rest))
        if made is not None and len(made.params) == arity:
            out.append(made)
    made = class_producer(facts) if not out else None
    return out or ([made] if made is not None else [])


def _constructor(node: Node, owner: str, base: str, path: str) -> Constructor:
    params = _parameters(node)
    initializer = next((c for c in node.children if c.type == "constructor_initializer"), None)
    results: tuple[Result, ...] = (Call(base, (), owner=owner, path=path),)  # ``base()``
    if initializer is not None:
        which = "this" if any(c.type == "this" for c in initializer.children) else "base"
        args = arguments(next((c for c in initializer.named_children
                               if c.type == "argument_list"), None))
        made = call_of(THIS if which == "this" else base, args, initializer, path)
        results = (Call(made.callee, made.args, owner=owner, path=path, nested=made.nested,
                        types=made.types),)
    body = node.child_by_field_name("body")
    statements = [body] if body is not None and body.type == "arrow_expression_clause" else (
        body.named_children if body is not None else [])
    # ``{ Key = key; }`` or ``=> _message = message;``
    fields = fields_set(statements, params, ("expression_statement", "arrow_expression_clause"),
                        "member_access_expression", "name")
    return Constructor(params, results, fields,
                       types=parameter_types(node.child_by_field_name("parameters"), CSHARP))


def _getter(prop: Node) -> list[Template]:
    """What a ``Message`` property returns: ``=> …`` or ``get { return …; }``/``get => …``;
    ``=> BuildMessage()``, a method of the class taking nothing, returns what it returns."""
    value = prop.child_by_field_name("value")
    if value is not None and value.type == "arrow_expression_clause" and value.named_children:
        return _returned_text(value.named_children[-1], prop)
    accessors = prop.child_by_field_name("accessors")
    out: list[Template] = []
    for accessor in accessors.named_children if accessors is not None else ():
        if text(accessor.child_by_field_name("name")) != "get":
            continue
        out.extend(t for r in _returns(accessor) for t in _returned_text(r, prop))
    return out


def _returned_text(value: Node, prop: Node) -> list[Template]:
    """The templates ``value`` prints; a call to a method of the class that takes nothing
    (``BuildMessage()``, ``this.Describe()``), those its returns print."""
    found = alternatives(value, value)
    if found or value.type != "invocation_expression" or arguments(
            value.child_by_field_name("arguments")):
        return found
    name = text(value.child_by_field_name("function")).removeprefix("this.")
    body = prop.parent
    method = next((m for m in body.named_children if m.type == "method_declaration"
                   and text(m.child_by_field_name("name")) == name
                   and not _parameters(m)), None) if body is not None else None
    return [t for r in _returns(method) for t in alternatives(r, r)] if method else []


def _parameters(node: Node) -> tuple[str, ...]:
    return _names(node.child_by_field_name("parameters"))


def _names(params: Node | None) -> tuple[str, ...]:
    return tuple(text(p.child_by_field_name("name"))
                 for p in (params.named_children if params is not None else ())
                 if p.type == "parameter" and p.child_by_field_name("name") is not None)


# --- factories, helpers, constants -----------------------------------------------------------


def _method(node: Node, owner: str, path: str) -> list[Producer]:
    """A factory (returns an error or a message built from its parameters) or a helper
    (throws or logs one built from what it is given)."""
    returns = simple_name(text(node.child_by_field_name("returns")))
    if builds_nothing(node, is_exception_name(returns) or returns in ("string", "String"),
                      _WORDS):
        return []
    params = _parameters(node)
    results, role = factory_or_helper(
        (r for value in _returns(node) for r in _returned(value, returns, params, path)),
        params, lambda: (r for statement in _statements(node)
                         for r in _helper_result(statement, params, path)))
    results = reassigned(node, params, results, path) if results else []
    results = [r for r in results if not isinstance(r, Template) or has_text(r)]
    if not results:
        return []
    name = text(node.child_by_field_name("name"))
    return [Producer(name, params, tuple(results[:MAX_BRANCHES]), role, path, line_of(node),
                     owner, defaults=_defaults(node),
                     param_types=parameter_types(node.child_by_field_name("parameters"), CSHARP))]


def _defaults(function: Node) -> tuple[tuple[str, Template], ...]:
    """Parameters whose default is a string (``string reason = ""``): what they print when
    a call leaves them out."""
    found = function.child_by_field_name("parameters")
    out = []
    for param in found.named_children if found is not None else ():
        value = param.named_children[-1] if param.type == "parameter" else None
        if value is not None and value.type in STRINGS:
            read = alternatives(value, value)
            if len(read) == 1 and not read[0].holes:
                out.append((text(param.child_by_field_name("name")), read[0]))
    return tuple(out)


def _holes(result: Result) -> set[str]:
    templates = [result] if isinstance(result, Template) else [t for a in result.args for t in a]
    return {h.name for t in templates for h in t.holes if h.name}


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
    if returns in ("string", "String"):  # its text may be given by ``message += …`` above
        if value.type == "identifier" and text(value) in params:
            return [parameter(text(value))]
        formatted = resource_call(value, value)  # ``string.Format(culture, Resources.X, a)``
        if formatted is not None:
            return [replace(formatted, path=path)]
        return [t for t in alternatives(value, value) if _uses(t, params)]
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
            params = _placeholders(found)
            if params:  # a composite format: ``string.Format(NotFound, key)`` fills it
                found = [Template(found[0].written, composite_format(found[0].written,
                                                                     list(params)))]
            out.append(Producer(name, params, tuple(found), "constant", path,
                                line_of(declarator), owner))
    return out


_PLACEHOLDER = re.compile(r"(?<!\{)\{(\d+)[^{}]*\}")


def _placeholders(found: list[Template]) -> tuple[str, ...]:
    """A constant's ``{0}``, ``{1}``… as parameters ``_0``, ``_1``… (as a resource's), when
    it is one plain text."""
    if len(found) != 1 or found[0].holes:
        return ()
    count = 1 + max((int(m.group(1)) for m in _PLACEHOLDER.finditer(found[0].written)),
                    default=-1)
    return tuple(f"_{i}" for i in range(count))


def _passes(call: Call, params: tuple[str, ...]) -> bool:
    """Whether a call hands on one of the parameters (a helper decorates what it is given)."""
    return any(_uses(t, params) for arg in call.args for t in arg)


def _uses(template: Template, params: tuple[str, ...]) -> bool:
    return any(h.name in params for h in template.holes)


# --- walking -----------------------------------------------------------------------------------


def _returns(function: Node) -> Iterator[Node]:
    """The values a member gives: ``=> value`` or its own ``return`` statements."""
    body = function.child_by_field_name("body")
    if body is not None and body.type == "arrow_expression_clause":
        if body.named_children:
            yield body.named_children[-1]
        return
    yield from returned_values(body, _BLOCKS)


_BLOCKS = frozenset({
    "block", "if_statement", "switch_statement", "switch_body", "switch_section",
    "for_statement", "foreach_statement", "while_statement", "do_statement",
    "try_statement", "catch_clause", "finally_clause", "using_statement", "lock_statement",
    "checked_statement", "unsafe_statement", "fixed_statement", "labeled_statement",
})
# What a method that builds an error or a text holds somewhere in its body.
_WORDS = (b"new ", b"throw", b'"', b"Log", b"Error", b"Warn", b"Fatal", b"Console")


def _statements(function: Node) -> list[Node]:
    """A body's top-level statements; ``=> throw …`` is one throw."""
    body = function.child_by_field_name("body")
    if body is not None and body.type == "arrow_expression_clause":
        return [c for c in body.named_children if c.type == "throw_expression"]
    return list(body.named_children) if body is not None else []
