"""Java producers: the message an exception class, factory, helper or constant prints.

Read per file for composition (``errdex.languages.facts``):

* a class that ``extends`` another: its constructors' ``super(..)`` / ``this(..)`` (merged
  by ``_jvm.compose``), fields set from parameters, and a ``getMessage()`` override (a
  ``super.getMessage()`` in it is what the constructor handed up);
* a method that returns ``new X(..)`` of an exception (or of its declared type), or a
  ``String`` built from its parameters (role ``factory``); one whose body throws
  ``new X(..)`` or logs a message built from its parameters unconditionally (``helper``);
* a ``static final String`` (or interface) constant with text (``constant``).

Arguments are read as their alternatives (``alternatives``): a ternary, a ``switch``
expression, or a local assigned in several branches gives one template per branch.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from tree_sitter import Node

from errdex.languages._engine.declared import JAVA, argument_types, parameter_types
from errdex.languages._engine.extract import site_index
from errdex.languages._engine.files import filled, index_query
from errdex.languages._engine.walk import class_declarations, keyword_nodes
from errdex.languages._jvm.compose import (
    SUPER_MESSAGE,
    THIS,
    ClassFacts,
    Constructor,
    class_producers,
    fields_set,
    formatted,
    message_method,
    one_per_signature,
    passes,
    renamed,
    uses,
)
from errdex.languages._jvm.libraries import is_exception_name, simple_name
from errdex.languages.base import ancestors, line_of, matches, text, whole_words
from errdex.languages.facts import (
    Argument,
    Call,
    Producer,
    Result,
    has_text,
    substitute,
    unknown,
)
from errdex.languages.java.messages import JavaFile, alternatives, arguments, index_import
from errdex.languages.java.scopes import (
    BODY_TYPES,
    CLASS_TYPES,
    nearest_assignment,
)
from errdex.languages.logs import level_of
from errdex.templates.template import Hole, Literal, Template

MAX_BRANCHES = 16
_OVERRIDES = ("getMessage", "getLocalizedMessage")
_SUPER_SPELLINGS = {"super.getMessage()": SUPER_MESSAGE, "getMessage()": SUPER_MESSAGE,
                    "super.getLocalizedMessage()": SUPER_MESSAGE}


# The patterns of ``queries.scm`` the file's index reads (message variables, static imports).
_INDEX = """
(variable_declarator name: (identifier) @assign.name value: (_) @assign.value) @assign
(assignment_expression left: (identifier) @assign.name operator: "=" right: (_) @assign.value
  ) @assign
(assignment_expression left: (identifier) @assign.name operator: "+=" right: (_) @assign.value
  ) @assign.add
(import_declaration "static" (scoped_identifier) @import.name (asterisk)? @import.all) @import
"""


def index(root: Node) -> JavaFile:
    """The file's message variables and static imports, as the site reader has them (its
    own index when it just read the file: ``_INDEX`` is its query's index patterns)."""
    held = site_index("java", root, JavaFile)
    if held is not None:
        return held
    return filled(JavaFile(), matches(index_query("java", _INDEX), root), index_import)


def producers(root: Node, source: bytes, path: str) -> list[Producer]:
    """Every producer the file declares (module docstring)."""
    file = index(root)
    out: list[Producer] = []
    for declaration, outer in _declarations(root, None):
        name = text(declaration.child_by_field_name("name"))
        body = declaration.child_by_field_name("body")
        if body is None:
            continue
        if declaration.type == "class_declaration":
            out.extend(_class(declaration, name, outer, body, file, path))
        for member in body.named_children:
            if member.type == "method_declaration" and text(
                    member.child_by_field_name("name")) not in _OVERRIDES:
                out.extend(_method(member, name, file, path))
            elif member.type in ("field_declaration", "constant_declaration"):
                out.extend(_constants(member, name, declaration.type, file, path))
    return one_per_signature(out)



def _declarations(node: Node, outer: str | None) -> Iterator[tuple[Node, str | None]]:
    """Class-like declarations at the top level and nested in class bodies."""
    return class_declarations(node, outer, CLASS_TYPES, _CONTAINERS)


_CONTAINERS = BODY_TYPES | {"enum_body_declarations"}


# --- arguments ---------------------------------------------------------------------------


def enclosing_class(node: Node) -> str | None:
    """The name of the class a node is written in (calls on ``this`` are looked up there)."""
    owner = next((a for a in ancestors(node) if a.type in CLASS_TYPES), None)
    return text(owner.child_by_field_name("name")) if owner is not None else None


def argument(node: Node, file: JavaFile) -> Argument:
    """What one argument of a call prints: its alternatives, a number as written, or a
    hole named after it."""
    number = text(node).replace(" ", "")
    if node.type in ("decimal_integer_literal", "unary_expression") and re.fullmatch(
            r"-?\d+", number):
        return (Template(number, (Literal(number),)),)  # ``-1`` prints as it is written
    return tuple(alternatives(node, file)) or (unknown(text(node)),)


def call_to(callee: str, args: list[Node], file: JavaFile, owner: str | None,
            path: str = "") -> Call:
    """A call to a producer, each argument read as its alternatives (a format string and
    its values as they print formatted)."""
    read_args = formatted([argument(a, file) for a in args], [text(a) for a in args])
    types = argument_types(args, args[0], JAVA) if args and len(read_args) == len(args) else ()
    return Call(callee, read_args, owner=owner, path=path, types=types)


# --- classes -------------------------------------------------------------------------------


def _class(node: Node, name: str, outer: str | None, body: Node, file: JavaFile,
           path: str) -> list[Producer]:
    superclass = node.child_by_field_name("superclass")
    if superclass is None or not superclass.named_children:
        return []
    base = simple_name(text(superclass.named_children[-1]))
    facts = ClassFacts(name, (base,), path, line_of(node), outer)
    computed: dict[str, Template] = {}  # ``this.message = "bad " + key;``
    for member in body.named_children:
        if member.type == "constructor_declaration":
            facts.constructors.append(_constructor(member, name, base, file, path))
            computed.update(_computed_fields(member, file))
        elif member.type == "method_declaration" and text(
                member.child_by_field_name("name")) in _OVERRIDES and not _parameters(member):
            returned = [t for r in _returns(member)
                        for t in alternatives(r, file) or [unknown(text(r))]]
            facts.override.extend(renamed(t, _SUPER_SPELLINGS) for t in returned)
        elif member.type == "method_declaration" and text(
                member.child_by_field_name("name")) == "toString" and not _parameters(member):
            facts.override.extend(_to_string(member, file))
    facts.override = [substitute(t, computed) for t in facts.override]
    return class_producers(facts)


def _to_string(method: Node, file: JavaFile) -> list[Template]:
    """``return super.toString() + "; job=" + job;``: a trace prints ``pkg.X: message; job=…``,
    so what follows ``super.toString()`` ends the message (a ``getMessage()`` override wins)."""
    out = []
    for template in (t for r in _returns(method) for t in alternatives(r, file)):
        first = template.message[0] if template.message else None
        if isinstance(first, Hole) and first.name == "super.toString()" and has_text(template):
            out.append(renamed(template, {"super.toString()": SUPER_MESSAGE}))
    return out


def _computed_fields(constructor: Node, file: JavaFile) -> dict[str, Template]:
    """Fields a constructor sets to a text of its own (``this.message = "bad " + key``),
    by the names a message override reads them with (``message``, ``this.message``)."""
    out: dict[str, Template] = {}
    body = constructor.child_by_field_name("body")
    for statement in body.named_children if body is not None else []:
        assignment = statement.named_children[0] if statement.named_children else None
        if statement.type != "expression_statement" or assignment is None or (
                assignment.type != "assignment_expression"):
            continue
        left = assignment.child_by_field_name("left")
        found = [t for t in alternatives(assignment.child_by_field_name("right"), file)
                 if has_text(t)]
        if left is not None and found:
            field = text(left.child_by_field_name("field") or left)
            out.setdefault(field, found[0])
            out.setdefault(f"this.{field}", found[0])
    return out


def _constructor(node: Node, owner: str, base: str, file: JavaFile, file_path: str
                 ) -> Constructor:
    params = _parameters(node)
    body = node.child_by_field_name("body")
    statements = body.named_children if body is not None else []
    first = statements[0] if statements else None
    implicit = Call(base, (), owner=owner, path=file_path)  # ``super()``
    results: tuple[Result, ...] = (implicit,)
    if first is not None and first.type == "explicit_constructor_invocation":
        which = first.child_by_field_name("constructor")
        args = arguments(first.child_by_field_name("arguments"))
        callee = THIS if which is not None and which.type == "this" else base
        results = (call_to(callee, args, file, owner, file_path),)
    fields = fields_set(statements, params, ("expression_statement",), "field_access", "field")
    modifiers = next((c for c in node.children if c.type == "modifiers"), None)
    private = modifiers is not None and any(c.type == "private" for c in modifiers.children)
    return Constructor(params, results, fields, private,
                       parameter_types(node.child_by_field_name("parameters"), JAVA))


def _parameters(node: Node) -> tuple[str, ...]:
    params = node.child_by_field_name("parameters")
    return tuple(
        text(p.child_by_field_name("name") or next(
            (c for c in p.named_children if c.type == "variable_declarator"), p))
        for p in (params.named_children if params is not None else ())
        if p.type in ("formal_parameter", "spread_parameter")
    )


# --- factories, helpers, constants -----------------------------------------------------------


def _method(node: Node, owner: str, file: JavaFile, path: str) -> list[Producer]:
    """A factory (returns an error or a message built from its parameters) or a helper
    (throws or logs one whatever it is given)."""
    body = node.child_by_field_name("body")
    if body is None:
        return []
    params = _parameters(node)
    returns = simple_name(text(node.child_by_field_name("type")))
    name = text(node.child_by_field_name("name"))
    if returns == "String" and not params:
        return _message_method(node, name, owner, file, path)
    # a helper's or message factory's results print a parameter: none named in the body,
    # none of those (most methods of a large tree)
    named = bool(params) and _names_any(body.text or b"", params)
    results: list[Result] = []
    if (named or returns != "String") and _may_return_a_message(returns, params, body):
        for value in _returns(node):
            results.extend(_returned(value, returns, params, file, owner, path))
    role = "factory"
    if not results and named:
        role = "helper"
        for statement in body.named_children:
            results.extend(_helper_result(statement, params, file, owner, path))
        if not results:
            results = _guards(body, params, file, owner, path)
    if not results:
        return []
    level = _logged_level(body) if role == "helper" else None
    return [Producer(name, params, tuple(results[:MAX_BRANCHES]), role, path, line_of(node),
                     owner, level=level,
                     param_types=parameter_types(node.child_by_field_name("parameters"), JAVA))]


def _logged_level(body: Node) -> str | None:
    """A logging helper's level: that of the log call among its statements, when it throws
    nothing (``void note(String m) { LOG.info("audit: " + m); }`` logs at info)."""
    levels: list[str | None] = []
    for statement in body.named_children:
        if statement.type == "throw_statement":
            return None
        inner = statement.named_children[0] if statement.named_children else None
        if statement.type == "expression_statement" and inner is not None and (
                inner.type == "method_invocation"):
            receiver = text(inner.child_by_field_name("object"))
            if "log" in receiver.rsplit(".", 1)[-1].lower():
                levels.append(level_of(text(inner.child_by_field_name("name"))))
    return levels[0] if len(levels) == 1 else None


def _names_any(source: bytes, names: tuple[str, ...]) -> bool:
    """Whether a body's text names one of the parameters (a cheap test before reading it):
    one of them written as a whole word, found by searching for each (no word list of the
    body is made: most bodies name none)."""
    for name in names:
        wanted = name.encode()
        if _WORD.fullmatch(wanted) and next(whole_words(source, wanted, _WORD_BYTES),
                                            None) is not None:
            return True  # (a name that is no whole word never is one)
    return False

_WORD = re.compile(rb"[\w$\x80-\xff]+")  # an identifier's bytes (or a number's)
_WORD_BYTES = frozenset(b for b in range(256) if _WORD.fullmatch(bytes([b])))


def _message_method(node: Node, name: str, owner: str, file: JavaFile, path: str
                    ) -> list[Producer]:
    """``String locationString()``: what a hole printing ``locationString()`` or
    ``this.describe()`` in a message of its class prints (each return an alternative)."""
    return message_method(name, [t for value in _returns(node) for t in argument(value, file)
                                 ][:MAX_BRANCHES], node, owner, path)


def _may_return_a_message(returns: str, params: tuple[str, ...], body: Node) -> bool:
    """Whether a method's returns are worth reading (most are not: ``void``, getters)."""
    if is_exception_name(returns):
        return True
    if returns == "String":
        return bool(params)
    return returns[:1].isupper() and ("new " + returns).encode() in (body.text or b"")


def _returned(value: Node, returns: str, params: tuple[str, ...], file: JavaFile,
              owner: str, path: str) -> list[Result]:
    if value.type == "object_creation_expression":
        made = simple_name(text(value.child_by_field_name("type")))
        if made[:1].isupper() and (is_exception_name(made) or made == returns
                                   or is_exception_name(returns)):
            args = arguments(value.child_by_field_name("arguments"))
            return [call_to(made, args, file, owner, path)]
        return []
    if value.type == "method_invocation" and is_exception_name(returns):
        return [invocation(value, file, owner, path)]
    if value.type == "identifier" and is_exception_name(returns):
        # ``X e = new X(message); e.initCause(cause); return e;`` or ``X r = create(code);
        # r.path = path; return r;``: what the local was made of
        local = nearest_assignment(text(value), value, file.assignments.get(text(value), []))
        given = local.child_by_field_name("value") or local.child_by_field_name("right") if (
            local is not None) else None
        if given is not None and given.type in ("object_creation_expression",
                                                "method_invocation"):
            return _returned(given, returns, params, file, owner, path)
    if returns == "String":
        return [t for t in alternatives(value, file) if has_text(t) and uses(t, params)]
    return []


def _helper_result(statement: Node, params: tuple[str, ...], file: JavaFile,
                   owner: str, path: str) -> list[Result]:
    """A statement of a helper's body that raises or logs what the helper is given."""
    inner = statement.named_children[0] if statement.named_children else None
    if statement.type == "throw_statement" and inner is not None:
        if inner.type == "object_creation_expression":
            made = simple_name(text(inner.child_by_field_name("type")))
            if not made[:1].isupper():
                return []
            args = arguments(inner.child_by_field_name("arguments"))
            made_call = call_to(made, args, file, owner, path)
            return [made_call] if passes(made_call, params) else []
        if inner.type == "method_invocation":
            called = invocation(inner, file, owner, path)
            return [called] if passes(called, params) else []
    if statement.type == "expression_statement" and inner is not None and (
            inner.type == "method_invocation"):
        receiver = text(inner.child_by_field_name("object"))
        method = text(inner.child_by_field_name("name"))
        logger = "log" in receiver.rsplit(".", 1)[-1].lower()
        logged = (level_of(method) is not None and logger) or (
            receiver == "System.err" and method in ("println", "print"))
        args = arguments(inner.child_by_field_name("arguments"))
        if logged and args:
            return [t for t in alternatives(args[0], file) if has_text(t) and uses(t, params)]
        if not args or not _static_or_own(inner.child_by_field_name("object")) or not (
                _may_pass(inner, params, file)):
            return []
        chained = invocation(inner, file, owner, path)  # ``fail("bad " + x)``: another helper
        if passes(chained, params):
            return [chained]
    return []


def _may_pass(call: Node, params: tuple[str, ...], file: JavaFile) -> bool:
    """Whether a call's text names a parameter or a variable (whose value may): else none
    of its arguments prints a parameter, and reading them can wait."""
    return any(w in params or w in file.assignments
               for w in {w.decode("utf-8", "replace") for w in _WORD.findall(call.text or b"")})


def _guards(body: Node, params: tuple[str, ...], file: JavaFile, owner: str, path: str
            ) -> list[Result]:
    """A checker's throws: a body of nothing but ``if (src == null) throw new X(..)``
    (``_assertNotNull(name, src)``) raises what each guard says, given the caller's
    arguments."""
    statements = [c for c in body.named_children if c.type not in ("line_comment",
                                                                   "block_comment")]
    if not statements or any(c.type != "if_statement" or c.child_by_field_name("alternative")
                             for c in statements):
        return []
    results: list[Result] = []
    for guard in statements:
        then = guard.child_by_field_name("consequence")
        inner = then.named_children if then is not None and then.type == "block" else [then]
        throws = [c for c in inner if c is not None and c.type == "throw_statement"]
        if len(throws) != 1:
            return []
        results.extend(_helper_result(throws[0], params, file, owner, path))
    return results


def _static_or_own(receiver: Node | None) -> bool:
    """A receiver a producer is found on: none, ``this``, or a class (``Errors.fail``)."""
    return receiver is None or receiver.type == "this" or text(receiver)[:1].isupper()


def invocation(node: Node, file: JavaFile, owner: str | None, path: str = "") -> Call:
    """``Errors.create(r, "…", tok)`` as a call to the producer ``create`` of ``Errors``."""
    receiver = node.child_by_field_name("object")
    name = text(node.child_by_field_name("name"))
    callee = f"{text(receiver)}.{name}" if receiver is not None else name
    if receiver is None and name in file.imports:  # ``import static a.Reporter.fail;``
        callee = f"{file.imports[name]}.{name}"
    made = call_to(callee, arguments(node.child_by_field_name("arguments")), file, owner, path)
    return replace(made, method=True)  # a method, never a class, whatever its case


def _returns(method: Node) -> Iterator[Node]:
    """The values a method's own ``return`` statements give (not a lambda's, not a local
    class's)."""
    body = method.child_by_field_name("body")
    return (n.named_children[0] for n in keyword_nodes(
        body, b"return", "return_statement", ("lambda_expression", "class_body"))
            if n.named_children)


def _constants(node: Node, owner: str, holder: str, file: JavaFile,
               path: str) -> list[Producer]:
    """``static final String NOT_FOUND = "…";`` (any field of an interface)."""
    modifiers = next((c for c in node.children if c.type == "modifiers"), None)
    words = {c.type for c in modifiers.children} if modifiers is not None else set()
    if holder != "interface_declaration" and not {"static", "final"} <= words:
        return []
    if simple_name(text(node.child_by_field_name("type"))) != "String":
        return []
    out = []
    for declarator in node.children_by_field_name("declarator"):
        name = text(declarator.child_by_field_name("name"))
        found = [t for t in alternatives(declarator.child_by_field_name("value"), file)
                 if has_text(t) and "${" not in t.written]  # not a build's placeholder
        if found and name.upper() == name:
            out.append(Producer(name, (), tuple(found), "constant", path, line_of(declarator),
                                owner))
    return out
