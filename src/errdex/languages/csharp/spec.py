"""C# sites: ``throw new X(…)``, error logging, ``Environment.FailFast``.

What is a site (``errorType``):

* ``exception``: ``throw new X(message, …)`` as a statement or an expression
  (``x ?? throw new X(…)``); ``errorClass`` is the type as written. The message is the
  first argument whose text is known.
* ``log``: ``logger.LogError(…)``/``LogCritical`` (Microsoft.Extensions.Logging message
  templates, ``{Name}`` holes taking the arguments in order), Serilog/NLog
  ``Log.Error``/``Fatal`` (same templates), log4net ``ErrorFormat``/``FatalFormat``
  (composite format); the receiver's name must contain ``log``.
* ``exit``: ``Environment.FailFast("…")`` (severity ``fatal``).

A message is read when source says what it is: string literals (regular, verbatim,
raw), interpolated strings (``$"…{x}…"``: holes named after the expression, ``{{``
escapes, ``{x:D}`` typed, other format specs untyped), ``string.Format`` composite
formats (``{0}``, ``{0,5}``, ``{0:X}``; also the ``"…".FormatWith(culture, …)`` extension
idiom), ``+`` concatenations holding a literal,
``nameof(x)`` (prints ``x``), ``Environment.NewLine`` (``\\r?\\n``), and a local variable
initialised with one of those earlier in the method.

Runtime text around the message (modern .NET, ``System.Private.CoreLib`` resources):

* ``ArgumentException(msg, paramName)`` and its subclasses print
  ``msg (Parameter 'name')``; ``nameof(x)`` makes the name a literal.
* ``ArgumentNullException(paramName)`` (and ``ArgumentNullException.ThrowIfNull(x)``,
  whose name is the argument expression) prints ``Value cannot be null. (Parameter 'x')``;
  ``ArgumentOutOfRangeException(paramName)`` prints ``Specified argument was out of the
  range of valid values. (Parameter 'x')``. They are sites even though no message is
  written: the parameter name tells sites apart, and the text is what a user pastes.
  ``(paramName, actualValue, msg)`` adds ``<NewLine>Actual value was <value>.``
* ``ObjectDisposedException(objectName[, msg])`` prints
  ``Cannot access a disposed object.`` (or ``msg``) ``<NewLine>Object name: 'X'.``

Composition (``compose.py``): a ``throw new X(…)`` carries its call, so an exception class
of the repository that writes its own message (``: base($"no such item: {key}")``, a
``Message`` override) gives the site that message; ``throw Errors.Create(…)``, a
``throw new X(key)`` whose text only the class tells, and a statement like
``Fail("…")`` are candidates, kept when a producer of the repository tells their message
(``new InvalidOperationException(Messages.NotFound)``: the constant's).

A file the grammar fails on (``async`` as a variable, an ``#if`` choosing a modifier) is
read as ``repair.py`` rewrites it, byte for byte.

Symbols are ``Class.Method`` (nested types and local functions included, namespaces
left out); constructors are ``Class.Class``, properties ``Class.Property``.
"""

from __future__ import annotations

import dataclasses
import re
from functools import partial
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import Captures, FileIndex, LanguageSpec, language
from errdex.languages._engine.evidence import EvidenceRules
from errdex.languages._engine.extract import extract as extract_with
from errdex.languages._engine.literals import keep_literals
from errdex.languages._engine.message import Message
from errdex.languages._engine.pieces import has_words
from errdex.languages._engine.snippets import Snippets, c_if, catch_block, guard_function
from errdex.languages._engine.walk import nodes_from
from errdex.languages.base import (
    FileSites,
    Site,
    ancestors,
    line_of,
    text,
)
from errdex.languages.csharp.calls import (
    arms_of,
    call_of,
    constant_like,
    invocation,
    owner_of,
    resource_call,
)
from errdex.languages.csharp.compose import COMPOSER
from errdex.languages.csharp.guards import GUARDS, guard_sites
from errdex.languages.csharp.messages import (
    BRANCH,
    MESSAGES,
    NEWLINE,
    SCOPES,
    STRINGS,
    arguments,
    hole,
    name_of,
    preproc_branches,
    read,
)
from errdex.languages.csharp.pastes import PASTES
from errdex.languages.csharp.repair import read_repaired
from errdex.languages.csharp.strings import composite_format, message_template, string_value
from errdex.languages.facts import Call
from errdex.languages.logs import level_of
from errdex.records.model import ErrorType, Severity
from errdex.templates.template import Hole, Literal, Part, Template

_TEMPLATE_LOGS = frozenset({"LogError", "LogCritical", "Error", "Fatal", "LogWarning",
                            "LogInformation", "LogDebug", "LogTrace", "Warning", "Information",
                            "Debug", "Verbose"})
_FORMAT_LOGS = frozenset({"ErrorFormat", "FatalFormat", "WarnFormat", "InfoFormat",
                          "DebugFormat", "WriteLine"})
# A receiver named as a log of its own (``SelfLog``, ``InternalLogger``, ``_log``): its
# ``WriteLine(format, args…)`` writes a composite format, as ``TextWriter.WriteLine`` does.
_OWN_LOG = re.compile(r"(?:^_?[lL]og|[a-z_]Log)(?:ger)?$")
_PARAM_EXCEPTIONS = frozenset({
    "ArgumentException", "ArgumentNullException", "ArgumentOutOfRangeException",
    "InvalidEnumArgumentException", "DuplicateWaitObjectException",
})
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
# Calls that pass text but are no helper of a repository's: printing, tracing, testing.
_NOT_HELPERS = frozenset({
    "Console", "Debug", "Trace", "Assert", "Debugger", "Write", "WriteLine", "Append",
    "AppendLine", "AppendFormat", "Add", "Insert", "Contains", "Equals", "Replace", "Split",
    "StartsWith", "EndsWith", "IndexOf", "Format", "Join", "Concat", "Print", "Log",
    "LogInformation", "LogDebug", "LogTrace", "LogWarning", "Information", "Verbose",
    "Should", "Be", "Throw", "ThrowExactly", "WithMessage", "Fact", "Theory", "InlineData",
    "Parse", "TryParse", "SetValue", "GetValue", "Remove", "Set", "Get", "Enqueue", "Push",
})
# Static classes whose methods throw the exception they are named after
# (``Throw.JobPersistenceException(msg, e)``, ``ThrowHelper.ThrowArgumentException(msg)``):
# a call is a candidate even without a string (its message may be the class's own).
_THROW_HELPERS = frozenset({"Throw", "ThrowHelper", "ThrowHelpers", "Throws"})
_NULL_MESSAGE = "Value cannot be null."
_RANGE_MESSAGE = "Specified argument was out of the range of valid values."
_DISPOSED_MESSAGE = "Cannot access a disposed object."


# --- throw new X(...) -------------------------------------------------------------------


def _throw_site(captured: Captures, file: FileIndex) -> Site | list[Site] | None:
    """``throw new X(…)``; one site per build when its message holds an ``#if … #else``
    (``"Not initialized. " + #if NET45 "Call UseX." #else "Call AddX." #endif``)."""
    node, value = captured["throw"][0], captured["throw.value"][0]
    builds = max((len(preproc_branches(n)) for n in nodes_from(value, ())
                  if n.type == "preproc_if"), default=0)
    if builds < 2:
        return _one_throw_site(node, value)
    sites: list[Site] = []
    for branch in range(builds):
        chosen = BRANCH.set(branch)
        try:
            site = _one_throw_site(node, value)
        finally:
            BRANCH.reset(chosen)
        sites.extend([site] if isinstance(site, Site) else site or [])
    return sites or None


def _one_throw_site(node: Node, value: Node) -> Site | list[Site] | None:
    error_class = text(value.child_by_field_name("type"))
    args = arguments(value.child_by_field_name("arguments"))
    short = error_class.rsplit(".", 1)[-1]
    call: Call | None = None
    if short in _PARAM_EXCEPTIONS:
        template = _argument_exception(short, args, node)
        call = _param_call(error_class, short, args, node) if template is None else None
    elif short == "ObjectDisposedException":
        template = _disposed(args, node)
    else:
        message = next((m for a in args if (m := read(a, node)) is not None), None)
        template = Template(message.written, message.parts) if message is not None else None
        worded = template is not None and has_words(template.parts)
        if template is None and short in DOTNET_EXCEPTIONS and len(arms := arms_of(
                args[0] if args else None)) > 1:
            return _arm_sites(node, error_class, short, arms, args[1:])
        call = _class_call(error_class, short, args, node, worded)
    if template is None or not has_words(template.parts):
        return _candidate(node, call, error_class) if call is not None else None
    return Site(template, "exception", line_of(node), error_class, symbol=_symbol(node),
                call=call)


def _made_site(captured: Captures, file: FileIndex) -> Site | list[Site] | None:
    """``return new XException(…)``, a switch arm's or a call argument's (``Task.FromException
    (new X(…))``): an exception made to be thrown elsewhere, sited where it is made (as
    ``throw new X`` is) when its message is known or composition may tell it; a factory
    that returns what its parameters make is left to its callers' sites."""
    value = captured["made"][0]
    holder = value.parent.parent if value.parent is not None else None
    if value.parent is not None and value.parent.type == "argument" and (
            holder is None or holder.parent is None
            or holder.parent.type != "invocation_expression"):
        return None  # an inner exception handed to another's constructor
    name = text(value.child_by_field_name("type")).split("<", 1)[0].rsplit(".", 1)[-1]
    if not name.endswith("Exception"):
        return None
    found = _throw_site({"throw": [value], "throw.value": [value]}, file)
    sites = found if isinstance(found, list) else [found] if found is not None else []
    kept = [s for s in sites if s.template.parts or not _passes_parameter(value)]
    return kept[0] if len(kept) == 1 else kept or None


def _passes_parameter(made: Node) -> bool:
    """Whether ``new X(…)`` hands on a parameter of the method it is in (a factory of what
    its callers pass, whose sites print it)."""
    function = next((a for a in ancestors(made) if a.type in (
        "method_declaration", "local_function_statement", "lambda_expression")), None)
    found = function.child_by_field_name("parameters") if function is not None else None
    names = {text(p.child_by_field_name("name")) for p in (
        found.named_children if found is not None else ()) if p.type == "parameter"}
    args = arguments(made.child_by_field_name("arguments"))
    return any(text(a) in names for a in args)


def _class_call(error_class: str, short: str, args: list[Node], at: Node,
                worded: bool) -> Call | None:
    """The producer call a ``throw new X(…)`` makes (composed across the repository): the
    class, unless it is .NET's, whose message a factory or constant of the repository may
    give (``new InvalidOperationException(Messages.NotFound(key))``)."""
    if short not in DOTNET_EXCEPTIONS:  # ``new``: the class, never a helper named after it
        return dataclasses.replace(call_of(error_class, args, at), callee="new " + error_class)
    if worded or not args:
        return None
    first = args[0]
    resource = resource_call(first, at)
    if resource is not None:
        return resource
    if first.type == "invocation_expression":
        return invocation(first, at)
    if first.type in ("identifier", "member_access_expression") and text(first)[:1].isupper():
        return Call(text(first), owner=owner_of(at))
    return call_of(error_class, args, at)  # a ternary: each branch (``_first_argument``)


def _arm_sites(node: Node, error_class: str, short: str, arms: list[Node],
               rest: list[Node]) -> list[Site] | None:
    """``new InvalidOperationException(night ? Strings.Closed : Strings.Gone)``: a site per
    arm of the ternary, its text read or told by composition (a resource, a constant, a
    factory of the repository)."""
    sites: list[Site] = []
    for arm in arms:
        message = read(arm, node)
        if message is not None and has_words(message.parts):
            sites.append(Site(Template(message.written, message.parts), "exception",
                              line_of(node), error_class, symbol=_symbol(node)))
        elif (call := _class_call(error_class, short, [arm, *rest], node, False)) is not None and (
                call.callee.removeprefix("new ") != error_class):  # not the class itself
            sites.append(_candidate(node, call, error_class))
    return sites or None


def _candidate(node: Node, call: Call, error_class: str | None = None,
               error_type: ErrorType = "exception", severity: Severity = "error") -> Site:
    """A site whose message only composition can tell (an empty template)."""
    return Site(Template("", ()), error_type, line_of(node), error_class, severity=severity,
                symbol=_symbol(node), call=call)


def _throw_call_site(captured: Captures, file: FileIndex) -> Site | None:
    """``throw Errors.Create(reader, "Unexpected token {0}", tok)``: what the factory
    returns only its producer tells."""
    node, value = captured["throwcall"][0], captured["throwcall.value"][0]
    call = invocation(value, node)
    return _candidate(node, call) if call is not None else None


def _helper_site(captured: Captures, file: FileIndex) -> Site | None:
    """``Fail("no store configured")`` as a statement, a worded string among its
    arguments: a candidate, kept when composition finds a helper of the repository."""
    node, value = captured["helper"][0], captured["helper.call"][0]
    function = value.child_by_field_name("function")
    if function is None:
        return None
    name = text(function.child_by_field_name("name")) if (
        function.type == "member_access_expression") else text(function).split("<", 1)[0]
    receiver = text(function.child_by_field_name("expression")) if (
        function.type == "member_access_expression") else ""
    thrower = receiver in _THROW_HELPERS
    if b'"' not in (value.text or b"") and not thrower:
        return None
    if name in _NOT_HELPERS or (receiver.split(".", 1)[0] in _NOT_HELPERS and not thrower) or (
            "log" in receiver.rsplit(".", 1)[-1].lower()) or "Assert" in receiver + name:
        return None
    if receiver and receiver != "this" and not receiver[:1].isupper():
        return None  # an instance's method: composition reaches it by its class only
    args = arguments(value.child_by_field_name("arguments"))
    if not thrower and not any(_worded(a) for a in args):
        return None
    call = invocation(value, node)
    if call is None:
        return None
    warns = "warn" in name.lower()
    return _candidate(node, call, error_type="log" if warns else "exception",
                      severity="warning" if warns else "error")


def _worded(node: Node) -> bool:
    """A string with words (a letter and a space) in it, also as a part of a ``+`` chain
    (``"Couldn't store job: " + e.Message``)."""
    if node.type == "binary_expression" and text(node.child_by_field_name("operator")) == "+":
        return any(_worded(c) for c in node.named_children)
    value = text(node)
    return node.type in (*STRINGS, "interpolated_string_expression") and " " in value and any(
        c.isalpha() for c in value)


def _argument_exception(short: str, args: list[Node], at: Node) -> Template | None:
    """``ArgumentException`` and kin: the message, then `` (Parameter 'name')``."""
    if short in ("ArgumentNullException", "ArgumentOutOfRangeException"):
        generic = _NULL_MESSAGE if short == "ArgumentNullException" else _RANGE_MESSAGE
        if len(args) == 1:
            return _with_param(Message(generic, (Literal(generic),)), args[0])
        if len(args) == 3 and short == "ArgumentOutOfRangeException":
            message = read(args[2], at)
            if message is None:
                return None
            actual = (NEWLINE, Literal("Actual value was "), hole(args[1]), Literal("."))
            return _with_param(message, args[0], actual)
        if len(args) == 2 and (message := read(args[1], at)) is not None:
            return _with_param(message, args[0])  # (paramName, message)
        if len(args) == 2 and (name := name_of(args[0])) is not None and " " not in name:
            return None  # (paramName, a message source does not spell): never the name
    message = read(args[0], at) if args else None
    if message is None:
        return None
    plain = short not in ("ArgumentNullException", "ArgumentOutOfRangeException")
    if plain and len(args) >= 2 and (len(args) == 3 or _looks_like_name(args[1])):
        return _with_param(message, args[1])
    return Template(message.written, message.parts)


def _param_call(error_class: str, short: str, args: list[Node], at: Node) -> Call | None:
    """``ArgumentException(Resources.NotFound, nameof(x))``, ``(string.Format(Resources.X,
    a), name)``, ``(Errors.Missing(k))``: the message a resource, constant or factory of the
    repository gives (composition spells it out), `` (Parameter 'x')`` after it."""
    two = short in ("ArgumentNullException", "ArgumentOutOfRangeException")
    if not args or (two and len(args) != 2) or len(args) > 3:
        return None
    given = args[1] if two else args[0]
    inner = resource_call(given, at) or (
        Call(text(given), owner=owner_of(at)) if constant_like(given) else None) or (
        invocation(given, at) if given.type == "invocation_expression" and text(given)[:1].isupper()
        and not text(given.child_by_field_name("function")).endswith("Format") else None)
    if inner is None:
        return None
    name = text(given)
    message = Message("{" + name + "}", (Hole.of(name, "{" + name + "}"),))
    param = args[0] if two else args[1] if len(args) >= 2 and (
        len(args) == 3 or _looks_like_name(args[1])) else None
    made = _with_param(message, param) if param is not None else Template(
        message.written, message.parts)
    return Call(error_class, ((made,),), owner=owner_of(at), nested=((name, inner),))


def _with_param(message: Message, param: Node, after: tuple[Part, ...] = ()) -> Template:
    name = name_of(param)
    shown: tuple[Part, ...] = (Literal(name),) if name is not None else (hole(param),)
    suffix = (Literal(" (Parameter '"), *shown, Literal("')"), *after)
    return Template(message.written, message.parts).with_wrapper(suffix=suffix)


def _looks_like_name(node: Node) -> bool:
    """A ``paramName`` argument: ``nameof(x)``, a string literal, or a ``…name`` variable."""
    return name_of(node) is not None or (
        node.type == "identifier" and "name" in text(node).lower()
    )


def _disposed(args: list[Node], at: Node) -> Template | None:
    """``ObjectDisposedException(objectName[, message])``."""
    if not args or len(args) > 2:
        return None
    if len(args) == 2:
        message = read(args[1], at)
        if message is None:  # (message, innerException)
            message = read(args[0], at)
            return Template(message.written, message.parts) if message is not None else None
    else:
        message = Message(_DISPOSED_MESSAGE, (Literal(_DISPOSED_MESSAGE),))
    name = name_of(args[0])
    shown: Part = Literal(name) if name is not None else hole(args[0])
    suffix = (NEWLINE, Literal("Object name: '"), shown, Literal("'."))
    return Template(message.written, message.parts).with_wrapper(suffix=suffix)


# --- calls ------------------------------------------------------------------------------


def _call_site(captured: Captures, file: FileIndex) -> Site | list[Site] | None:
    node = captured["call"][0]
    method = text(captured["call.method"][0])
    receiver = text(captured["call.receiver"][0])
    args = arguments(captured["call.args"][0])
    if method == "FailFast" and receiver in ("Environment", "System.Environment") and args:
        message = read(args[0], node)
        if message is None or not has_words(message.parts):
            return None
        return Site(Template(message.written, message.parts), "exit", line_of(node),
                    severity="fatal", symbol=_symbol(node))
    if method in GUARDS and receiver.rsplit(".", 1)[-1].endswith("Exception"):
        return guard_sites(node, receiver, method, args, _symbol(node)) or None
    if "log" not in receiver.rsplit(".", 1)[-1].lower():
        return None
    if method == "WriteLine" and not _OWN_LOG.search(receiver.rsplit(".", 1)[-1]):
        return None  # ``catalog.WriteLine``, ``dialog.WriteLine``: no log
    return _log_site(node, method, args)


def _log_site(node: Node, method: str, args: list[Node]) -> Site | None:
    """The first string argument is the message; the arguments after it fill its holes."""
    index = next((i for i, a in enumerate(args) if _is_text(a)), None)
    if index is None:
        return None
    rest = [text(a) for a in args[index + 1 :]]
    first = args[index]
    literal = string_value(first) if first.type in STRINGS else None
    message: Message | None
    if literal is not None and rest and method in _FORMAT_LOGS:
        message = Message(literal, composite_format(literal, rest))
    elif literal is not None and method in _TEMPLATE_LOGS:
        message = Message(literal, message_template(literal, rest))
    else:
        message = read(first, node)
    if message is None or not has_words(message.parts):
        return None
    return Site(Template(message.written, message.parts), "log", line_of(node),
                symbol=_symbol(node), level=level_of(method.removesuffix("Format")))


def _is_text(node: Node) -> bool:
    return node.type in (*STRINGS, "interpolated_string_expression") or (
        node.type == "binary_expression" and read(node, node) is not None
    )


# --- symbols ----------------------------------------------------------------------------


def _symbol(node: Node) -> str | None:
    """``Outer.Inner.Method``: enclosing types and members, namespaces left out."""
    names = []
    for scope in ancestors(node):
        field = SCOPES.get(scope.type)
        if field is not None:
            names.append(text(scope.child_by_field_name(field)))
        elif scope.type == "indexer_declaration":
            names.append("this[]")
    return ".".join(reversed(names)) or None


SPEC = LanguageSpec(
    strings=MESSAGES.strings, name="csharp", grammar="csharp", extensions=(".cs", ".resx"),
    query=Path(__file__).with_name("queries.scm"),
    handlers=(("throw", _throw_site), ("throwcall", _throw_call_site), ("call", _call_site),
              ("helper", _helper_site), ("made", _made_site)),
    new_index=FileIndex,
    function_types=frozenset(SCOPES) - {
        "class_declaration", "struct_declaration", "record_declaration", "interface_declaration",
    },
    scope_types=MESSAGES.scopes,
    evidence=EvidenceRules(frozenset({
        "method_declaration", "constructor_declaration", "local_function_statement",
    })),
    snippets=Snippets(
        wrap={"statements": "class E { void M() {\n%s\n} }", "member": "class E {\n%s\n}"},
        default_class="Exception", validation=c_if,
        type_guard=guard_function("// {doc}\nstatic bool C{Camel}({params}) => {neg};"),
        try_catch=catch_block("try {{\n    {body}\n}} catch ({cls} e) {{\n    // {note}\n}}"),
    ),
    pastes=PASTES, compose=COMPOSER,
)


def extract(source: bytes) -> FileSites:
    """All sites of one file, in source order (what the grammar fails on rewritten first
    when the file does not parse: ``repair.py``); a ``.resx`` file (XML: ``<`` first) has
    none, its strings are read for composition only (``resources.py``)."""
    if source.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"<":
        keep_literals(source, [])  # nor text sites: XML is no C#
        return FileSites([])
    return read_repaired(partial(extract_with, SPEC), source)


LANGUAGE = dataclasses.replace(language(SPEC), extract=extract)
