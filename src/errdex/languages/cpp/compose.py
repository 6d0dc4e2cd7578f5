"""C++ producers: exception classes that build their message, factories, string helpers.

What ``throw NotFound(key)`` prints is written where ``NotFound`` is (read per file here,
composed across the repository by ``errdex.mining.compose``):

* an exception class: the constructor's base initializer (``: std::runtime_error("no such
  key: " + key)``, ``: Exception(mark, msg)``), fields it sets from its parameters (``m(
  what_arg)``, ``msg_ = "…" + k``) and a ``what()`` override returning one of them
  (``return m.what();``, ``return msg_.c_str();``); a class without a constructor of its own
  takes its base's (``using Base::Base``); a constructor defined out of the class
  (``NotFound::NotFound(…) : Base(…)``) is the class's;
* a factory: a function or static method returning an error built from its parameters
  (``static parse_error create(int id, …) { return {id, w.c_str()}; }``, ``return
  ParseError(…)``), or a string (``std::string name(…) { return concat("[json.exception.",
  ename, '.', std::to_string(id), "] "); }``); a helper throws it itself;
* a constant: a namespace's ``const char* const NAME = "…"`` or a ``#define NAME "…"``;
* the C reporters of ``c.compose`` (headers are read as C++).

Strings are read as ``messages`` reads them, the file's string helpers inlined.
"""

from __future__ import annotations

import re
from dataclasses import replace

from tree_sitter import Node

from errdex.languages.base import line_of, parser_for, text
from errdex.languages.c.calls import macro_body, scope_of
from errdex.languages.c.compose import placed, reporters
from errdex.languages.c.family import arguments, function_name, message_string
from errdex.languages.c.logs import log_macros
from errdex.languages.cpp.messages import (
    CLASSES,
    EMPTY_HELPER,
    MAX,
    Scope,
    arguments_of,
    class_of,
    last_name,
    locals_of,
    name_of,
    parameters_of,
    read,
    says,
    scope_owner,
    walk,
)
from errdex.languages.facts import (
    Call,
    Composer,
    Producer,
    Result,
    bind,
    unknown,
)
from errdex.templates.template import Literal, Template

# A call that makes an error: named so, or a standard exception named for its case.
_ERRORISH = re.compile(r"(?i)error|exception|fail|(?:^|::)(?:invalid_argument|out_of_range"
                       r"|bad_\w+)$")
_STRING_TYPE = re.compile(r"(?:^|::|\b)(?:string|string_view|char\s*\*|QString|String)\b|char")


# ``class YAML_CPP_API Exception : …``: an export macro tree-sitter cannot expand.
_EXPORT = re.compile(rb"\b(?:class|struct)\s+([A-Z][A-Z0-9_]*[A-Z0-9])\s+(?=[A-Za-z_]\w*"
                     rb"\s*(?:final\s*)?[:{])")


# ``JSON_HEDLEY_NON_NULL(3)`` alone on the line before a declaration: an attribute macro.
_ATTRIBUTE = re.compile(rb"^[ \t]*([A-Z][A-Z0-9_]{2,}(?:\([^()\n]*\))?)[ \t]*\n(?![ \t]*\{)",
                        re.MULTILINE)


def producers(root: Node, source: bytes, path: str) -> list[Producer]:
    """The producers of one parsed C++ file (its C reporters included)."""
    read = blanked(source)
    if read is not None:  # read again with the macros blanked (the same lines)
        root = parser_for("cpp").parse(read).root_node
    found: list[Producer] = reporters(root, path, "cpp", scope_of(source))
    classes, functions, constants = _declarations(root)
    helpers: dict[str, Producer] = {n: EMPTY_HELPER for n in _empty_returns(functions)}
    for _ in range(2):  # string helpers calling helpers defined later
        for node in functions:
            made = _function(node, path, helpers)
            if made is not None and all(isinstance(r, Template) for r in made.results):
                helpers[made.name] = made
    for node in functions:
        made = _function(node, path, helpers)
        if made is not None:
            found.append(made)
    found.extend(p for node in classes if (p := _class(node, path, helpers)) is not None)
    found.extend(constants)
    # a header's logging macros (``c.logs.log_macros``) win over a reporter of the same name
    # (``fatal_r(r, ...)`` also reads as a macro returning ``ssh_err(r)``): the macro carries
    # the format and the level, and two producers of one name would tie
    logging = log_macros(root, path, {})
    leveled = {p.name for p in logging}
    found = [p for p in found if p.name not in leveled] + logging
    return placed(_overloads_merged([
        p if p.path else replace(p, path=path) for p in found]), path)


def _empty_returns(functions: list[Node]) -> set[str]:
    """Functions that may return an empty string (``diagnostics(nullptr)`` returns ``""``
    in one overload): what they print may be nothing."""
    names: set[str] = set()
    for node in functions:
        body = node.child_by_field_name("body")
        if body is not None and any(
                r.type == "return_statement" and r.named_children and text(
                    r.named_children[0]) == '""' for r in walk(body)):
            names.add(last_name(function_name(node)))
    return names


def _overloads_merged(found: list[Producer]) -> list[Producer]:
    """Overloads of one function (``parse_error::create`` at a position or a byte) as one
    producer: which one a call picks is the compiler's choice by type, so each prints an
    alternative, parameters matched by position (named after the longest's)."""
    groups: dict[tuple[str, str | None, bool], list[Producer]] = {}
    for p in found:
        groups.setdefault((p.name, p.owner, p.is_class), []).append(p)
    out: list[Producer] = []
    for (_, _, is_class), same in groups.items():
        if len(same) == 1 or is_class or len({(p.params, p.results) for p in same}) == 1:
            out.extend(same)
            continue
        longest = max(same, key=lambda p: len(p.params))
        results: list[Result] = []
        for p in same:
            renamed = {q: unknown(longest.params[i]) for i, q in enumerate(p.params)}
            results.extend(r for r in (bind(r, renamed) for r in p.results) if r not in results)
        out.append(replace(longest, results=tuple(results[:MAX])))
    return out


def blanked(source: bytes) -> bytes | None:
    """The source with the macros tree-sitter cannot expand written as what they stand for,
    on the same lines and bytes, or None when it has none: export and attribute macros and
    namespace or ``extern "C"`` openers (``NLOHMANN_JSON_NAMESPACE_BEGIN``,
    ``PYBIND11_NAMESPACE_END(detail)``, ``G_BEGIN_DECLS``) as spaces, ``JSON_TRY {`` /
    ``JSON_CATCH (…)`` as ``try`` / ``catch``, an access macro (``JSON_PRIVATE_UNLESS_TESTED:``)
    as its access. One such macro can leave a whole header one parse error, every
    statement of it read as something else."""
    if not any(p.search(source) for p in (_EXPORT, _ATTRIBUTE, _SCOPE, _TRY, _ACCESS,
                                          _SPECIFIER)):
        return None

    def blank(match: re.Match[bytes]) -> bytes:
        start, end = match.span(1)
        whole = match.group(0)
        at = start - match.start()
        return whole[:at] + b" " * (end - start) + whole[at + end - start:]

    def scope(match: re.Match[bytes]) -> bytes:
        return blank(match) if _SCOPE_WORD.search(match.group(1)) else match.group(0)

    def keyword(match: re.Match[bytes]) -> bytes:  # ``JSON_TRY`` → ``try     ``
        start, end = match.span(1)
        at = start - match.start()
        whole = match.group(0)
        word = match.group(2).lower().ljust(end - start)
        return whole[:at] + word + whole[at + end - start:]

    out = _SPECIFIER.sub(blank, _ATTRIBUTE.sub(blank, _EXPORT.sub(blank, source)))
    out = _ACCESS.sub(keyword, _TRY.sub(keyword, _SCOPE.sub(scope, out)))
    return out if out != source else None


# A function's specifier macro before its type and name (``SPDLOG_INLINE void
# throw_spdlog_ex(…)``, ``DUCKDB_API string Name(…)``): one upper-case word holding an
# underscore, then a name and ``(`` on the line.
_SPECIFIER = re.compile(rb"^[ \t]*(?:(?:static|inline|extern)[ \t]+)?([A-Z][A-Z0-9]*_[A-Z0-9_]*)"
                        rb"[ \t]+(?=[A-Za-z_~][\w:<>,*& \t]*\()", re.MULTILINE)
# A line that only opens or closes a namespace (or ``extern "C"``) through a macro.
_SCOPE = re.compile(rb"^[ \t]*([A-Z_][A-Z0-9_]*(?:BEGIN|END|OPEN|CLOSE)[A-Z0-9_]*"
                    rb"(?:\([^()\n]*\))?)[ \t]*;?[ \t]*$", re.MULTILINE)
_SCOPE_WORD = re.compile(rb"NAMESPACE|_NS\b|_NS_|DECLS|EXTERN_C")
_TRY = re.compile(rb"\b([A-Z][A-Z0-9_]*_(TRY|CATCH))\b(?=[ \t]*(?:\n[ \t]*)?[{(])")
_ACCESS = re.compile(rb"^[ \t]*([A-Z][A-Z0-9_]*(PRIVATE|PUBLIC|PROTECTED)[A-Z0-9_]*)"
                     rb"(?=[ \t]*:(?!:))", re.MULTILINE)


def _declarations(root: Node) -> tuple[list[Node], list[Node], list[Producer]]:
    classes: list[Node] = []
    functions: list[Node] = []
    constants: list[Producer] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in CLASSES and node.child_by_field_name("body") is not None:
            classes.append(node)
        elif node.type == "function_definition":
            functions.append(node)
            continue
        elif node.type in ("declaration", "preproc_def"):
            constant = _constant(node)
            if constant is not None:
                constants.append(constant)
            continue
        elif node.type == "preproc_function_def":
            thrower = _throwing_macro(node)
            if thrower is not None:
                constants.append(thrower)
            continue
        stack.extend(node.named_children)
    return classes, sorted(functions, key=lambda n: n.start_byte), constants


# --- classes ------------------------------------------------------------------------------


def _class(node: Node, path: str, helpers: dict[str, Producer]) -> Producer | None:
    name = text(node.child_by_field_name("name"))
    body = node.child_by_field_name("body")
    if not name or body is None:
        return None
    bases = _bases(node)
    methods = [m for m in _members(body) if m.type == "function_definition"]
    ctors = [m for m in methods if last_name(function_name(m)) == name]
    declared = any(last_name(function_name(m)) == name for m in _members(body)
                   if m.type in ("declaration", "field_declaration"))
    params: tuple[str, ...] = ()
    results: list[Result] = []
    fields: dict[str, Template] = {}
    for ctor in ctors:
        made = _constructor(ctor, name, bases, helpers)
        if made[1] or not params:
            params, results, fields = made
        if any((isinstance(r, Template) and says(r)) or isinstance(r, Call) for r in results):
            break
    what = next((m for m in methods if last_name(function_name(m)) == "what"), None)
    if what is not None:
        shown = _returned(what, Scope(params, fields, helpers))
        if any(says(t) or {h.name for h in t.holes} <= set(params) for t in shown):
            results = list(shown)
    if declared and not ctors and not results:
        return None  # its constructor is defined elsewhere (``X::X(…) : Base(…)``)
    if not bases and not results:
        return None
    return Producer(name, params, tuple(results), "class message", path, line_of(node),
                    owner=class_of(node), bases=bases, is_class=True)


def _bases(node: Node) -> tuple[str, ...]:
    clause = next((c for c in node.named_children if c.type == "base_class_clause"), None)
    return tuple(text(b) for b in (clause.named_children if clause is not None else ())
                 if b.type in ("type_identifier", "qualified_identifier", "template_type"))


def _members(body: Node) -> list[Node]:
    out: list[Node] = []
    for child in body.named_children:
        if child.type == "template_declaration":
            child = next((c for c in child.named_children if c.type in (
                "function_definition", "declaration")), child)
        out.append(child)
    return out


def _constructor(ctor: Node, name: str, bases: tuple[str, ...], helpers: dict[str, Producer]
                 ) -> tuple[tuple[str, ...], list[Result], dict[str, Template]]:
    """A constructor's parameters, what it passes its base (or a sibling it delegates to),
    and the fields it sets."""
    params = parameters_of(ctor)
    scope = Scope(params, {}, helpers)
    body = ctor.child_by_field_name("body")
    locals_of(body, scope)
    results: list[Result] = []
    initializers = next((c for c in ctor.named_children if c.type == "field_initializer_list"),
                        None)
    base_names = {last_name(b.split("<", 1)[0]) for b in bases}
    for init in initializers.named_children if initializers is not None else ():
        target = init.named_children[0] if init.named_children else None
        args = arguments(init.named_children[-1]) if len(init.named_children) > 1 else []
        called = text(target)
        is_base = last_name(called.split("<", 1)[0]) in base_names or (not bases and (
            called[:1].isupper() or "::" in called or _ERRORISH.search(called)))
        if target is None:
            continue
        # a base's, or a sibling's it delegates to (``RequiredError(name + " is required",
        # code)``): what it prints, given these
        if is_base or last_name(called) == name:
            results.append(Call(called, arguments_of(args, scope), owner=name))
        elif len(args) == 1:
            scope.fields[called] = read(args[0], scope)[0]
    for node in walk(body):
        if node.type == "assignment_expression" and text(
                node.child_by_field_name("operator")) == "=":
            left = text(node.child_by_field_name("left")).removeprefix("this->")
            value = read(node.child_by_field_name("right"), scope)
            if value:
                scope.fields[left] = value[0]
    return params, results, scope.fields


def _returned(function: Node, scope: Scope) -> list[Template]:
    body = function.child_by_field_name("body")
    locals_of(body, scope)
    return [t for node in walk(body) if node.type == "return_statement" and node.named_children
            for t in read(node.named_children[0], scope)]


# --- functions ----------------------------------------------------------------------------


def _function(node: Node, path: str, helpers: dict[str, Producer]) -> Producer | None:
    """A factory, a helper that throws, a string helper or an out-of-class constructor."""
    full = function_name(node) or ""
    name = last_name(full)
    owner = class_of(node) or (full.rsplit("::", 1)[0].rsplit("::", 1)[-1] if "::" in full
                             else None)
    if not name or name == "what" or name.startswith("~") or name.startswith("operator"):
        return None
    params = parameters_of(node)
    if not params:
        return None
    if owner is not None and name == last_name(owner) and class_of(node) is None:
        params_, initialized, _ = _constructor(node, name, (), helpers)
        if not initialized:
            return None
        return Producer(name, params_, tuple(initialized), "class message", path,
                        line_of(node), is_class=True)
    if owner is not None and name == owner:
        return None  # an in-class constructor: the class's (``_class``)
    others = {k: v for k, v in helpers.items() if k != name}
    scope = Scope(params, {}, others)
    body = node.child_by_field_name("body")
    locals_of(body, scope)
    returns = text(node.child_by_field_name("type"))
    results: list[Result] = []
    role, error_class = "factory", None
    for statement in walk(body):
        if statement.type not in ("return_statement", "throw_statement") and not _macro_throw(
                statement):
            continue
        value = statement.named_children[0] if statement.named_children else None
        if statement.type == "call_expression":  # ``SPDLOG_THROW(spdlog_ex(msg))``: a throw
            value = arguments(statement.child_by_field_name("arguments"))[0]
        made = _made(value, returns, scope, thrown=statement.type != "return_statement")
        if isinstance(made, Call):
            results.append(made)
            error_class = error_class or made.callee
            role = "helper" if statement.type != "return_statement" else role
        elif made and statement.type == "return_statement" and _STRING_TYPE.search(returns):
            results.extend(t for t in made if _uses(t, params) or says(t))
    results = [r for r in results if isinstance(r, Template) or _passes(r, params)]
    if not any(isinstance(r, Call) or says(r) for r in results):
        return None  # ``if (mark.is_null()) return msg;`` alone says nothing
    results, typed = _typed(node, results)
    return Producer(name, (*params, *typed), tuple(results[:MAX]), role, path, line_of(node),
                    owner=owner, error_class=None if typed else error_class)


def _typed(node: Node, results: list[Result]) -> tuple[list[Result], tuple[str, ...]]:
    """A function templated on the error it throws (``template <typename T> void
    throw_or_mimic(const std::string& text) { throw T{text}; }``): each call names the class
    in its template arguments (``throw_or_mimic<no_such_option>(name)``, ``typed_call``), so
    the class is a parameter, ``<i>`` for the i-th template argument, and the callee."""
    above = node.parent
    if above is None or above.type != "template_declaration":
        return results, ()
    listed = above.child_by_field_name("parameters")
    names = [text(p.named_children[-1]) for p in (listed.named_children if listed else ())
             if p.type == "type_parameter_declaration" and p.named_children]
    spelled = {n: f"<{i}>" for i, n in enumerate(names)}
    renamed = [replace(r, callee=spelled[r.callee]) if isinstance(r, Call) and (
        r.callee in spelled) else r for r in results]
    used = tuple(dict.fromkeys(r.callee for r in renamed if isinstance(r, Call) and (
        r.callee in spelled.values())))
    return renamed, used


def _macro_throw(node: Node) -> bool:
    """``SPDLOG_THROW(spdlog_ex(msg))``, ``FMT_THROW(format_error(m))``: a macro named for
    throwing given the one error it throws."""
    function = node.child_by_field_name("function") if node.type == "call_expression" else None
    return function is not None and function.type == "identifier" and text(function).endswith(
        ("THROW", "THROW_EXCEPTION")) and len(arguments(node.child_by_field_name("arguments"))) == 1


def _made(value: Node | None, returns: str, scope: Scope, thrown: bool = False
          ) -> Call | tuple[Template, ...]:
    """What a return/throw hands back: an error built by a call (whatever its class's name
    when ``thrown``: ``throw spdlog_ex(msg)``), or a string's templates."""
    if value is None:
        return ()
    if value.type == "initializer_list" and returns:
        return Call(returns.removeprefix("const ").strip(),
                    arguments_of(arguments(value), scope), owner=scope_owner(value))
    if value.type in ("call_expression", "compound_literal_expression"):
        callee = value.child_by_field_name("function") or value.child_by_field_name("type")
        args = value.child_by_field_name("arguments") or value.child_by_field_name("value")
        name = text(callee)
        if callee is not None and callee.type != "field_expression" and (
                thrown or _ERRORISH.search(name)
                or last_name(name) == last_name(returns.split("<", 1)[0])):
            return Call(name, arguments_of(arguments(args), scope), owner=scope_owner(value))
    return read(value, scope)


def _uses(template: Template, params: tuple[str, ...]) -> bool:
    """A hole printing a parameter, or what it gives (``name.GetIdentifierName()``)."""
    return any((m := _ROOT.match(h.name or "")) is not None and m.group(1) in params
               for h in template.holes)


def _passes(call: Call, params: tuple[str, ...]) -> bool:
    """An error built from the parameters, or one whose text says what it is (``return
    BinderException(info, StringUtil::Format("no column \"%s\"", name.Get()))``)."""
    return any(_uses(t, params) or says(t) for arg in call.args for t in arg)


_ROOT = re.compile(r"(?:this->|\*)?(\w+)")


# --- macros -------------------------------------------------------------------------------


def _throwing_macro(node: Node) -> Producer | None:
    """``#define THROW_ERR(msg) throw std::runtime_error(std::string("mylib: ") + msg)``: a
    helper that throws what its arguments build."""
    if "throw" not in text(node.child_by_field_name("value")):
        return None
    read_ = macro_body(node, "cpp")
    if read_ is None:
        return None
    name, params, _, block = read_
    scope = Scope(params)
    for statement in walk(block):
        if statement.type == "throw_statement" and statement.named_children:
            made = _made(statement.named_children[0], "", scope)
            if isinstance(made, Call) and _passes(made, params):
                return Producer(name, params, (made,), "helper", "", line_of(node),
                                error_class=made.callee)
    return None


# --- constants ----------------------------------------------------------------------------


def _constant(node: Node) -> Producer | None:
    """``const char* const NAME = "…";`` outside functions, ``#define NAME "…"``."""
    if node.type == "preproc_def":
        name = text(node.child_by_field_name("name"))
        value = text(node.child_by_field_name("value")).strip()
        if not (value.startswith('"') and value.endswith('"')) or '"' in value[1:-1]:
            return None
        literal = value[1:-1]
    else:
        declarator = node.child_by_field_name("declarator")
        if declarator is None or declarator.type != "init_declarator":
            return None
        found = message_string(declarator.child_by_field_name("value"))
        name = name_of(declarator.child_by_field_name("declarator")) or ""
        if found is None:
            return None
        literal = found.text
    if not name or not any(c.isalpha() for c in literal) or "%" in literal:
        return None
    return Producer(name, (), (Template(literal, (Literal(literal),)),), "constant", "",
                    line_of(node))


COMPOSER = Composer(producers=producers)
