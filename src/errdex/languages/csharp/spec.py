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

Symbols are ``Class.Method`` (nested types and local functions included, namespaces
left out); constructors are ``Class.Class``, properties ``Class.Property``.
"""

from __future__ import annotations

from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import Captures, FileIndex, LanguageSpec, language
from errdex.languages._engine.evidence import EvidenceRules
from errdex.languages._engine.locals import LocalReader, Locals
from errdex.languages._engine.message import Message
from errdex.languages._engine.pieces import has_words
from errdex.languages._engine.reader import MessageTable
from errdex.languages._engine.snippets import Snippets, c_if, catch_block, guard_function
from errdex.languages.base import (
    Site,
    ancestors,
    line_of,
    text,
)
from errdex.languages.csharp.pastes import PASTES
from errdex.languages.csharp.strings import (
    composite_format,
    interpolated,
    message_template,
    string_value,
)
from errdex.templates.template import Hole, Literal, Part, Template

NEWLINE = Hole("Environment.NewLine", "{Environment.NewLine}", "any", r"\r?\n")
_STRINGS = ("string_literal", "verbatim_string_literal", "raw_string_literal")
_TEMPLATE_LOGS = frozenset({"LogError", "LogCritical", "Error", "Fatal"})
_FORMAT_LOGS = frozenset({"ErrorFormat", "FatalFormat"})
_PARAM_EXCEPTIONS = frozenset({
    "ArgumentException", "ArgumentNullException", "ArgumentOutOfRangeException",
    "InvalidEnumArgumentException", "DuplicateWaitObjectException",
})
_NULL_MESSAGE = "Value cannot be null."
_RANGE_MESSAGE = "Specified argument was out of the range of valid values."
_DISPOSED_MESSAGE = "Cannot access a disposed object."
_SCOPES = {
    "class_declaration": "name", "struct_declaration": "name", "record_declaration": "name",
    "interface_declaration": "name", "method_declaration": "name",
    "constructor_declaration": "name", "local_function_statement": "name",
    "property_declaration": "name", "operator_declaration": "operator",
}


# --- throw new X(...) -------------------------------------------------------------------


def _throw_site(captured: Captures, file: FileIndex) -> Site | None:
    node, value = captured["throw"][0], captured["throw.value"][0]
    error_class = text(value.child_by_field_name("type"))
    args = _arguments(value.child_by_field_name("arguments"))
    short = error_class.rsplit(".", 1)[-1]
    if short in _PARAM_EXCEPTIONS:
        template = _argument_exception(short, args, node)
    elif short == "ObjectDisposedException":
        template = _disposed(args, node)
    else:
        message = next((m for a in args if (m := _read(a, node)) is not None), None)
        template = Template(message.written, message.parts) if message is not None else None
    if template is None or not has_words(template.parts):
        return None
    return Site(template, "exception", line_of(node), error_class, symbol=_symbol(node))


def _argument_exception(short: str, args: list[Node], at: Node) -> Template | None:
    """``ArgumentException`` and kin: the message, then `` (Parameter 'name')``."""
    if short in ("ArgumentNullException", "ArgumentOutOfRangeException"):
        generic = _NULL_MESSAGE if short == "ArgumentNullException" else _RANGE_MESSAGE
        if len(args) == 1:
            return _with_param(Message(generic, (Literal(generic),)), args[0])
        if len(args) == 3 and short == "ArgumentOutOfRangeException":
            message = _read(args[2], at)
            if message is None:
                return None
            actual = (NEWLINE, Literal("Actual value was "), _hole(args[1]), Literal("."))
            return _with_param(message, args[0], actual)
        if len(args) == 2 and (message := _read(args[1], at)) is not None:
            return _with_param(message, args[0])  # (paramName, message)
    message = _read(args[0], at) if args else None
    if message is None:
        return None
    plain = short not in ("ArgumentNullException", "ArgumentOutOfRangeException")
    if plain and len(args) >= 2 and (len(args) == 3 or _looks_like_name(args[1])):
        return _with_param(message, args[1])
    return Template(message.written, message.parts)


def _with_param(message: Message, param: Node, after: tuple[Part, ...] = ()) -> Template:
    name = _name_of(param)
    shown: tuple[Part, ...] = (Literal(name),) if name is not None else (_hole(param),)
    suffix = (Literal(" (Parameter '"), *shown, Literal("')"), *after)
    return Template(message.written, message.parts).with_wrapper(suffix=suffix)


def _looks_like_name(node: Node) -> bool:
    """A ``paramName`` argument: ``nameof(x)``, a string literal, or a ``…name`` variable."""
    return _name_of(node) is not None or (
        node.type == "identifier" and "name" in text(node).lower()
    )


def _disposed(args: list[Node], at: Node) -> Template | None:
    """``ObjectDisposedException(objectName[, message])``."""
    if not args or len(args) > 2:
        return None
    if len(args) == 2:
        message = _read(args[1], at)
        if message is None:  # (message, innerException)
            message = _read(args[0], at)
            return Template(message.written, message.parts) if message is not None else None
    else:
        message = Message(_DISPOSED_MESSAGE, (Literal(_DISPOSED_MESSAGE),))
    name = _name_of(args[0])
    shown: Part = Literal(name) if name is not None else _hole(args[0])
    suffix = (NEWLINE, Literal("Object name: '"), shown, Literal("'."))
    return Template(message.written, message.parts).with_wrapper(suffix=suffix)


# --- calls ------------------------------------------------------------------------------


def _call_site(captured: Captures, file: FileIndex) -> Site | None:
    node = captured["call"][0]
    method = text(captured["call.method"][0])
    receiver = text(captured["call.receiver"][0])
    args = _arguments(captured["call.args"][0])
    if method == "FailFast" and receiver in ("Environment", "System.Environment") and args:
        message = _read(args[0], node)
        if message is None or not has_words(message.parts):
            return None
        return Site(Template(message.written, message.parts), "exit", line_of(node),
                    severity="fatal", symbol=_symbol(node))
    if method == "ThrowIfNull" and receiver.endswith("ArgumentNullException") and args:
        template = Template(_NULL_MESSAGE, (Literal(_NULL_MESSAGE),)).with_wrapper(
            suffix=(Literal(f" (Parameter '{text(args[0])}')"),)
        )
        return Site(template, "exception", line_of(node), "ArgumentNullException",
                    symbol=_symbol(node))
    if "log" not in receiver.rsplit(".", 1)[-1].lower():
        return None
    return _log_site(node, method, args)


def _log_site(node: Node, method: str, args: list[Node]) -> Site | None:
    """The first string argument is the message; the arguments after it fill its holes."""
    index = next((i for i, a in enumerate(args) if _is_text(a)), None)
    if index is None:
        return None
    rest = [text(a) for a in args[index + 1 :]]
    first = args[index]
    literal = string_value(first) if first.type in _STRINGS else None
    message: Message | None
    if literal is not None and rest and method in _FORMAT_LOGS:
        message = Message(literal, composite_format(literal, rest))
    elif literal is not None and method in _TEMPLATE_LOGS:
        message = Message(literal, message_template(literal, rest))
    else:
        message = _read(first, node)
    if message is None or not has_words(message.parts):
        return None
    return Site(Template(message.written, message.parts), "log", line_of(node),
                symbol=_symbol(node))


def _is_text(node: Node) -> bool:
    return node.type in (*_STRINGS, "interpolated_string_expression") or (
        node.type == "binary_expression" and _read(node, node) is not None
    )


# --- messages ---------------------------------------------------------------------------


def _read(node: Node | None, at: Node) -> Message | None:
    """The message an expression builds at the site ``at``, when source says what it is."""
    return LocalReader(_MESSAGES, at, _LOCALS).read(node)


def _literal(node: Node) -> Message | None:
    value = string_value(node)
    return None if value is None else Message(value, (Literal(value),))


def _format_call(node: Node) -> Message | None:
    """``string.Format([provider,] "…{0}…", a, …)`` and ``"…{0}…".FormatWith([provider,] a)``."""
    function = node.child_by_field_name("function")
    args = _arguments(node.child_by_field_name("arguments"))
    if function is not None and function.type == "member_access_expression" and text(
        function.child_by_field_name("name")
    ) == "FormatWith":
        receiver = function.child_by_field_name("expression")
        args = [receiver, *args] if receiver is not None else []
    elif text(function) not in ("string.Format", "String.Format", "System.String.Format"):
        return None
    if args and args[0].type not in _STRINGS:
        args = args[1:]  # an IFormatProvider first
    value = string_value(args[0]) if args and args[0].type in _STRINGS else None
    if value is None:
        return None
    rest = args[1:]
    if rest and any(word in text(rest[0]) for word in ("Culture", "FormatProvider")):
        rest = rest[1:]
    return Message(value, composite_format(value, [text(a) for a in rest]))


def _operand(node: Node) -> Message:
    """What an unknown ``+`` operand prints: ``nameof(x)`` its name, ``Environment.NewLine``
    a line break, anything else a hole named after it."""
    name = _name_of(node) if node.type == "invocation_expression" else None
    if name is not None:
        return Message("{" + text(node) + "}", (Literal(name),))
    if text(node) in ("Environment.NewLine", "System.Environment.NewLine"):
        return Message("{Environment.NewLine}", (NEWLINE,))
    hole = _hole(node)
    return Message("{" + (hole.name or "") + "}", (hole,))


def _hole(node: Node) -> Hole:
    """A value printed as is; ``x.ToString()`` prints ``x``."""
    call = node.type == "invocation_expression"
    function = node.child_by_field_name("function") if call else None
    if function is not None and function.type == "member_access_expression" and text(
        function.child_by_field_name("name")
    ) == "ToString" and not _arguments(node.child_by_field_name("arguments")):
        node = function.child_by_field_name("expression") or node
    name = text(node)
    return Hole.of(name, "{" + name + "}")


def _name_of(node: Node) -> str | None:
    """The text ``nameof(a.b)`` (``b``) or a plain string literal prints; None otherwise."""
    if node.type in _STRINGS:
        return string_value(node)
    if node.type != "invocation_expression" or text(node.child_by_field_name("function")) != (
        "nameof"
    ):
        return None
    args = _arguments(node.child_by_field_name("arguments"))
    return text(args[0]).rsplit(".", 1)[-1].split("<")[0] if len(args) == 1 else None


def _declared_value(declarator: Node) -> Node | None:
    """``var message = v``: ``v``, the declarator's last child that is not its name."""
    name = declarator.child_by_field_name("name")
    values = [c for c in declarator.named_children if c != name]
    return values[-1] if values else None


def _arguments(args: Node | None) -> list[Node]:
    """The expressions of an ``argument_list`` in order (names and ``ref``/``out`` dropped)."""
    out: list[Node] = []
    for argument in args.named_children if args is not None else ():
        if argument.type == "argument" and argument.named_children:
            out.append(argument.named_children[-1])
    return out


_MESSAGES: MessageTable[FileIndex] = MessageTable(
    strings={
        **dict.fromkeys(_STRINGS, _literal),
        "interpolated_string_expression": lambda node: interpolated(node, _name_of),
    },
    binary="binary_expression", wrappers=frozenset({"parenthesized_expression"}),
    variables=frozenset({"identifier"}), scopes=frozenset(_SCOPES),
    rules={"invocation_expression": lambda reader, node, depth: _format_call(node)},
    hole=_operand, unwrap_operands=False, max_depth=8,
)
_LOCALS = Locals("variable_declarator", "name", _declared_value)


# --- symbols ----------------------------------------------------------------------------


def _symbol(node: Node) -> str | None:
    """``Outer.Inner.Method``: enclosing types and members, namespaces left out."""
    names = []
    for scope in ancestors(node):
        field = _SCOPES.get(scope.type)
        if field is not None:
            names.append(text(scope.child_by_field_name(field)))
        elif scope.type == "indexer_declaration":
            names.append("this[]")
    return ".".join(reversed(names)) or None


SPEC = LanguageSpec(
    strings=_MESSAGES.strings, name="csharp", grammar="csharp", extensions=(".cs",),
    query=Path(__file__).with_name("queries.scm"),
    handlers=(("throw", _throw_site), ("call", _call_site)), new_index=FileIndex,
    function_types=frozenset(_SCOPES) - {
        "class_declaration", "struct_declaration", "record_declaration", "interface_declaration",
    },
    scope_types=_MESSAGES.scopes,
    evidence=EvidenceRules(frozenset({
        "method_declaration", "constructor_declaration", "local_function_statement",
    })),
    snippets=Snippets(
        wrap={"statements": "class E { void M() {\n%s\n} }", "member": "class E {\n%s\n}"},
        default_class="Exception", validation=c_if,
        type_guard=guard_function("// {doc}\nstatic bool C{Camel}({params}) => {neg};"),
        try_catch=catch_block("try {{\n    {body}\n}} catch ({cls} e) {{\n    // {note}\n}}"),
    ),
    pastes=PASTES,
)
LANGUAGE = language(SPEC)
extract = LANGUAGE.extract
