"""C++ sites: thrown exceptions, error streams, and the C sites (``fprintf``, ``perror``, …).

What is a site (``errorType``):

* ``exception``: ``throw X(message, …)`` and ``throw X{message, …}`` (also through a
  throwing macro, ``FMT_THROW(format_error("…"))``); ``errorClass`` is the thrown type as
  written (``std::runtime_error``). The message is the first argument whose text is known.
* ``log``: ``std::cerr << "…" << x << std::endl`` and glog's ``LOG(ERROR) << …``
  (``LOG(FATAL)`` aborts → severity ``fatal``); ``fmt::print(stderr, "…", …)``.
* Everything ``c_family`` finds in C (``fprintf(stderr, …)``, ``perror``, ``err``, …).
* ``panic``: a failed ``assert(cond)`` or project ``…ASSERT…`` macro (``c.asserts``).

A message is read when source says what it is: string literals (raw, prefixed,
concatenated, ``"…"s``), ``std::string("…")``, ``+`` concatenations holding a literal
(``std::to_string(n)`` is the hole ``n``), ``fmt::format``/``std::format`` (``{}`` syntax),
``absl::StrFormat``/``fmt::sprintf`` (printf syntax), ``absl::StrCat``, ``.c_str()`` of
any of those, and a local variable initialised with one of those earlier in the function.

Runtime text around the message (what ``what()`` returns, libstdc++ and libc++ alike):
``std::system_error(code, "msg")`` → ``msg: <code message>``;
``std::filesystem::filesystem_error("msg", path…, code)`` →
``filesystem error: msg: <code message> [path]…`` (the tail is one hole). An uncaught
exception's ``terminate called after throwing … what():`` is the runtime's wrapper, not
part of the pattern. A stream's trailing ``std::endl``/``"\\n"`` is dropped.
The repository's own classes and factories may write the message (``throw NotFound(key)``,
``throw parse_error::create(101, pos, "…")``): a throw carries its call, composed across the
repository (``compose``); one whose message source does not say here is a candidate, kept
when composition reaches a producer, and so is a call passing text to a project function
(``yyerror("…")``, ``c.calls``). A standard exception whose message is a function's result
or a constant (``std::runtime_error(not_found(key))``) carries that call instead.
Symbols are ``Class::method`` (in-class definitions get their classes prefixed,
out-of-class ones keep their qualified name as written); namespaces are left out.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import Captures, FileIndex, LanguageSpec, language
from errdex.languages._engine.evidence import EvidenceRules
from errdex.languages._engine.locals import LocalReader, Locals
from errdex.languages._engine.message import Message
from errdex.languages._engine.pieces import concatenation, has_words
from errdex.languages._engine.reader import MessageTable, Reader
from errdex.languages.base import FileSites, Site, ancestors, line_of, text
from errdex.languages.c.asserts import assert_sites
from errdex.languages.c.calls import file_scope, helper_site, rewritten
from errdex.languages.c.conditionals import unconditioned
from errdex.languages.c.family import (
    STRING_TYPES,
    arguments,
    call_site,
    message_string,
    printf_parts,
    unescape,
    unsure,
)
from errdex.languages.c.snippets import CPP_SNIPPETS
from errdex.languages.c.xmacros import xmacro_site
from errdex.languages.cpp.assigned import assigned
from errdex.languages.cpp.calls import (
    built_message,
    cpp_symbol,
    handed_call,
    joined_text,
    made_error,
    thrown_call,
    thrown_class,
    typed_site,
)
from errdex.languages.cpp.compose import COMPOSER, blanked
from errdex.languages.cpp.glog import CHECKS, check_site, streamed_check, streamed_into
from errdex.languages.cpp.joins import converts
from errdex.languages.cpp.leveled import leveled_sites
from errdex.languages.cpp.messages import FORMATTERS, format_given, last_name, says, scope_owner
from errdex.languages.cpp.pastes import PASTES
from errdex.languages.cpp.qt import ASSERTS, qt_assert_sites, qt_log_site, qt_stream_site
from errdex.languages.cpp.spdlog import spdlog_site
from errdex.languages.cpp.status import status_handler
from errdex.languages.cpp.streamed import shift_operands, streamed_text, streamed_throw, to_stderr
from errdex.languages.facts import Call, unknown
from errdex.languages.logs import level_of
from errdex.templates.formats import parse_rust_format
from errdex.templates.template import Hole, Literal, Part, Template, merge_literals

_STRING_TYPES_CTORS = frozenset({
    "std::string", "string", "std::string_view", "std::wstring", "std::u8string",
    "QString", "QStringLiteral", "QLatin1String",
})
_BRACE_FORMATS = frozenset({"fmt::format", "std::format", "format", "fmt::sformat"})
_PRINTF_FORMATS = frozenset({"absl::StrFormat", "fmt::sprintf", "StrFormat", "string_format"})
_CONCATS = frozenset({"absl::StrCat", "StrCat"})
_TO_TEXT = frozenset({"std::to_string", "to_string", "std::to_wstring"})
_STREAM_ENDS = {"std::endl": "\n", "endl": "\n", "std::flush": "", "std::ends": ""}
_LOG_LEVELS = {"ERROR": "error", "FATAL": "fatal", "DFATAL": "error",
               "WARNING": "warning", "INFO": "info"}  # glog's levels (``languages.logs``)
# glog's ``LOG(ERROR) << …``, and a project's own by its prefix: ``ABSL_LOG``, ``ARROW_LOG``
_LOGGER = re.compile(r"(?:google::)?LOG|[A-Z][A-Z0-9]*_LOG")


# --- handlers -------------------------------------------------------------------------


def _throw_site(captured: Captures, file: FileIndex) -> Site | None:
    return _thrown(captured["throw"][0], captured["throw.value"][0])


def _call_site(captured: Captures, file: FileIndex) -> Site | None:
    call = captured["call"][0]
    name = text(captured["call.name"][0]).removeprefix("::")
    args = arguments(captured["call.args"][0])
    if name.endswith("THROW") or name.endswith("THROW_EXCEPTION"):
        return _thrown(call, args[0]) if len(args) == 1 else None
    if name in ("fmt::print", "std::print", "fmt::println", "std::println"):
        return _print_site(call, args)
    return call_site(name, call, args, cpp_symbol, file_scope(file, call))


def _helper_site(captured: Captures, file: FileIndex) -> Site | list[Site] | None:
    """A call passing text to a function that may be one of the repository's reporters
    (not one building the message of an error a factory makes: that error's site reads it,
    nor an error macro: ``_macro_site``)."""
    call, name = captured["helper"][0], text(captured["helper.name"][0])
    if _inside_made(call) or _error_macro(name):
        return None
    args = arguments(call.child_by_field_name("arguments"))
    qt = qt_log_site(name, call, args, lambda fmt, rest: _format_given(fmt, rest) or _literal(fmt))
    if qt is not None:  # ``qWarning("fmt", …)`` (``qt``)
        return qt
    # ``ABSL_RAW_LOG(FATAL, "fmt", …)``, ``ROCKS_LOG_WARN(log, "fmt", …)`` (``leveled``)
    return leveled_sites(name, call, args, captured["helper.text"][0], file_scope(file, call)
                         ) or helper_site(captured, file, cpp_symbol, True, joined_text)


_MACRO = re.compile(r"[A-Z][A-Z0-9_]*(?:THROW|RAISE|CHECK|ENFORCE|FAIL|ERROR)[A-Z0-9_]*")
_NOT_RAISING = re.compile(r"LOG|PRINT|WARN|DEBUG|TRACE|INFO|TEST|EXPECT")
_CLASS_LIKE = re.compile(
    r"(?:\w+::)*(?:[A-Z][a-z]\w*|\w*(?:error|exception|Error|Exception)\w*)")


def _error_macro(name: str) -> bool:
    """``TORCH_CHECK``, ``ORT_THROW``, ``PADDLE_ENFORCE``: a macro named for raising an
    error (a logging or test macro is not one)."""
    return bool(_MACRO.fullmatch(name)) and not _NOT_RAISING.search(name)


def _macro_site(captured: Captures, file: FileIndex) -> Site | None:
    """An error macro given its message (``TORCH_CHECK(x.dim() == 2, "expected 2 dims, got
    ", x.dim())``, ``MYLIB_THROW(ValueError, "bad value " << v)``): the arguments from the
    first text on are what it prints, one after the other (a format with one placeholder
    per argument after it: formatted; a ``<<`` chain: streamed). Composed with the macro
    when the repository defines it as a reporter; else the message is what it prints (its
    class unknown). The argument before the text names the class when it looks like one."""
    call = captured["macro"][0]
    name = text(captured["macro.name"][0])
    args = arguments(captured["macro.args"][0])
    if CHECKS.fullmatch(name):  # glog's, given nothing streamed (``glog``)
        return None if streamed_into(call) else check_site(call, call, [])
    if not _error_macro(name) or (name.endswith(("THROW", "THROW_EXCEPTION")) and len(args) == 1):
        return None  # a throwing macro given the error: ``_call_site``
    at = next((i for i, a in enumerate(args) if _starts_text(a)), None)
    if at is None:
        return None
    message = _macro_message(args[at], args[at + 1:], call)
    if message is None or not has_words(message.parts):
        return None
    before = args[at - 1] if at else None
    error_class = text(before) if before is not None and _CLASS_LIKE.fullmatch(
        text(before)) else None
    given = tuple((Template("{" + text(a) + "}", (Hole.of(text(a), "{" + text(a) + "}"),)),)
                  for a in args[:at])
    template = Template(message.written, message.parts)
    made = Call(name, (*given, (template,)), owner=file_scope(file, call), method=True)
    return Site(template, "exception", line_of(call), error_class, symbol=cpp_symbol(call),
                call=made)


def _assert_site(captured: Captures, file: FileIndex) -> list[Site] | None:
    """``assert(cond && "message")`` (``c.asserts``), ``MY_ASSERT(cond, "found " << kind)``;
    an error macro's later message is ``_macro_site``'s (``IM_ASSERT_USER_ERROR(c, "m")``)."""
    name = text(captured["assert.name"][0])
    if name in ASSERTS:  # Qt's own wording (``qt``)
        return qt_assert_sites(name, arguments(captured["assert.args"][0]), captured["assert"][0])
    return assert_sites(captured, cpp_symbol, later=not _error_macro(name), streamed=lambda a, at: (
        _macro_message(a[0], a[1:], at) if _starts_text(a[0]) else None))


def _starts_text(node: Node) -> bool:
    """A string, or a ``<<`` chain or ``+`` sum that starts with one."""
    while node.type == "binary_expression" and text(
            node.child_by_field_name("operator")) in ("<<", "+"):
        left = node.child_by_field_name("left")
        if left is None:
            return False
        node = left
    return node.type in STRING_TYPES


def _macro_message(first: Node, rest: list[Node], at: Node) -> Message | None:
    if first.type == "binary_expression" and text(first.child_by_field_name("operator")) == "<<":
        pieces = [_stream_piece(op, at) for op in shift_operands(first)]
    else:
        formatted = _format_given(first, rest)
        if formatted is not None:
            return formatted
        pieces = [_read(a, at) or _hole(a) for a in (first, *rest)]
    parts = merge_literals([p for piece in pieces for p in piece.parts])
    return Message("".join(piece.written for piece in pieces), parts)


def _made_site(captured: Captures, file: FileIndex) -> Site | None:
    """An error made by a factory of its class and handed on (``return sax->parse_error(…,
    parse_error::create(101, pos, msg, nullptr))``): a candidate, kept when composition
    reaches the factory; one thrown where it is made is the throw's site."""
    call = captured["made"][0]
    name = text(captured["made.name"][0]).removeprefix("::")
    if _thrown_here(call):
        return None
    args = arguments(captured["made.args"][0])
    made = handed_call(name, args, call)
    if made is None:
        return None
    return Site(Template("", ()), "exception", line_of(call), thrown_class(name),
                symbol=cpp_symbol(call), call=made)


def _thrown_here(call: Node) -> bool:
    """``throw X::create(…)``, ``JSON_THROW(X::create(…))``: thrown where it is made."""
    above = call.parent
    if above is not None and above.type == "parenthesized_expression":
        above = above.parent
    if above is not None and above.type == "throw_statement":
        return True
    outer = above.parent if above is not None and above.type == "argument_list" else None
    return outer is not None and outer.type == "call_expression" and text(
        outer.child_by_field_name("function")).endswith(("THROW", "THROW_EXCEPTION"))


def _inside_made(node: Node) -> bool:
    """Whether ``node`` is in the arguments of an error a factory makes (``made_error``)."""
    for above in ancestors(node):
        if above.type in ("function_definition", "compound_statement"):
            return False
        if above is not node and above.type == "call_expression" and made_error(
                text(above.child_by_field_name("function")).removeprefix("::")):
            return True
    return False


def _stream_site(captured: Captures, file: FileIndex) -> Site | None:
    node = captured["stream"][0]
    parent = node.parent
    if parent is not None and parent.type == "binary_expression" and (
        text(parent.child_by_field_name("operator")) == "<<"
    ):
        return None  # only the outermost `<<` of a chain
    operands = shift_operands(node)
    severity = _stream_severity(operands[0])
    if severity is None:  # ``qWarning() << "text" << v``, ``CHECK(c) << "text"`` (qt, glog)
        return qt_stream_site(node, operands, _stream_piece) or streamed_check(
            node, operands, _stream_piece)
    template = streamed_text([_stream_piece(op, node) for op in operands[1:]])
    if template is None:
        return None
    level = None if to_stderr(operands[0]) else level_of(severity)
    return Site(template, "log", line_of(node),
                severity="fatal" if severity == "fatal" else "error", symbol=cpp_symbol(node),
                level=level)


# --- sites ------------------------------------------------------------------------------


def _thrown(node: Node, value: Node) -> Site | None:
    """``X(args)`` or ``X{args}`` thrown at ``node``; ``X() << "text"`` (``streamed``)."""
    if value.type == "binary_expression":
        return streamed_throw(node, value, _stream_piece)
    if value.type == "call_expression":
        class_node = value.child_by_field_name("function")
        args = arguments(value.child_by_field_name("arguments"))
    elif value.type == "compound_literal_expression":
        class_node = value.child_by_field_name("type")
        args = arguments(value.child_by_field_name("value"))
    else:
        return None
    error_class = text(class_node).removeprefix("::")
    at = next(((i, m) for i, a in enumerate(args) if (m := _read(a, node)) is not None), None)
    message = None if at is None else (_format_given(args[at[0]], args[at[0] + 1:]) or at[1])
    call = thrown_call(error_class, args, node)
    built = built_message(args, node)
    if built is not None and len(built[1]) > 1:  # built in branches: a record for each
        shown = tuple(t for t in built[1] if says(t))
        given = tuple((unknown(text(a)),) for a in args)
        made = call if call is not None and not error_class.startswith("std::") else Call(
            error_class, (*given[:built[0]], shown, *given[built[0] + 1:]),
            owner=scope_owner(node))
        return Site(Template("", ()), "exception", line_of(node),
                    error_class if error_class.startswith("std::") else None,
                    symbol=cpp_symbol(node), call=replace(made, makes_error=True))
    if built is not None:  # ``oss.str()``, ``msg`` appended to: what the function built
        message = Message(built[1][0].written, built[1][0].parts)
    if message is None or not has_words(message.parts):
        if call is None:
            return None  # a candidate: only the repository's producers say what it prints
        # its class is the one composition finds (a factory's result), unless the call
        # is a standard exception's message function (``std::runtime_error(not_found(k))``)
        known = error_class if error_class.startswith("std::") else None
        return Site(Template("", ()), "exception", line_of(node), known,
                    symbol=cpp_symbol(node), call=call)
    template = Template(message.written, message.parts)
    short = error_class.removeprefix("std::").removeprefix("experimental::")
    if short == "system_error":
        template = template.with_wrapper(suffix=_code_suffix(args[0]))
    elif short == "filesystem::filesystem_error":
        prefix = (Literal("filesystem error: "),)
        template = template.with_wrapper(prefix, _code_suffix(args[-1]))
    return Site(template, "exception", line_of(node), thrown_class(error_class),
                symbol=cpp_symbol(node), call=call)


def _format_given(fmt: Node, rest: list[Node]) -> Message | None:
    """A literal thrown with the arguments it formats (``messages.format_given``)."""
    found = format_given(fmt, rest)
    return None if found is None else Message(found.written, found.parts)


def _code_suffix(code: Node) -> tuple[Part, ...]:
    """``: <message of the error code>`` that ``what()`` appends; the hole is named after the code
    (for ``filesystem_error`` it also covers the `` [path]`` tail)."""
    return (Literal(": "), Hole.of(text(code), "{" + text(code) + ".message()}"))


def _print_site(call: Node, args: list[Node]) -> Site | None:
    """``fmt::print(stderr, "…{}…", x)``: a log line on stderr."""
    if len(args) < 2 or text(args[0]) not in ("stderr", "std::stderr"):
        return None
    message = _brace_format(args[1:])
    if message is None:
        return None
    parts = list(message.parts)
    if parts and isinstance(parts[-1], Literal):
        parts[-1] = Literal(parts[-1].text.rstrip("\r\n"))
    if not has_words(parts):
        return None
    written = message.written.rstrip("\r\n")
    return Site(Template(written, merge_literals(parts)), "log", line_of(call),
                symbol=cpp_symbol(call))


def _stream_severity(first: Node) -> str | None:
    """``error``/``fatal`` when the chain starts at an error stream, else None."""
    if to_stderr(first):
        return "error"
    if first.type == "call_expression" and _LOGGER.fullmatch(
            text(first.child_by_field_name("function"))):
        args = arguments(first.child_by_field_name("arguments"))
        return _LOG_LEVELS.get(text(args[0])) if len(args) == 1 else None
    return None


def _stream_piece(operand: Node, at: Node) -> Message:
    """What one ``<<`` operand prints: its message, a character, a manipulator, or a hole."""
    name = text(operand)
    if name in _STREAM_ENDS:
        return Message(_STREAM_ENDS[name], (Literal(_STREAM_ENDS[name]),))
    if operand.type == "char_literal":
        value = "".join(
            unescape(text(c)) if c.type == "escape_sequence" else text(c)
            for c in operand.named_children
        )
        return Message(value, (Literal(value),))
    if operand.type == "call_expression" and text(
        operand.child_by_field_name("function")
    ).startswith("std::set"):
        return Message("", ())  # std::setw(8), std::setprecision(3): print nothing
    if name.startswith("std::") and operand.type == "qualified_identifier" and name[5:] in (
        "hex", "dec", "oct", "fixed", "scientific", "boolalpha", "noboolalpha", "left", "right"
    ):
        return Message("", ())
    message = _read(operand, at)
    return message if message is not None else _hole(operand)


# --- messages ---------------------------------------------------------------------------


def _read(node: Node | None, at: Node) -> Message | None:
    """The message an expression builds at the site ``at``, when source says what it is."""
    return LocalReader(_MESSAGES, at, _LOCALS).read(node)


def _literal(node: Node) -> Message | None:
    value = message_string(node)
    return None if value is None else Message(value.written, value.parts())


def _suffixed(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``"text"s``, ``"text"sv``: the literal."""
    return reader.read(node.named_children[0] if node.named_children else None, depth + 1)


def _call_message(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """gettext, ``.c_str()``, ``std::string(…)``, ``fmt::format``, ``StrFormat``, ``StrCat``."""
    if message_string(node) is not None:
        return _literal(node)
    function = node.child_by_field_name("function")
    args = arguments(node.child_by_field_name("arguments"))
    name = text(function).removeprefix("::")
    if function is not None and function.type == "field_expression":
        field = text(function.child_by_field_name("field"))
        if field in ("c_str", "data") and not args:
            return reader.read(function.child_by_field_name("argument"), depth + 1)
        return None
    if name in _STRING_TYPES_CTORS and len(args) == 1:
        return reader.read(args[0], depth + 1)
    if name in _BRACE_FORMATS:
        return _brace_format(args)
    if name in _PRINTF_FORMATS and args:
        fmt = message_string(args[0])
        if fmt is None:
            return None
        return Message(fmt.written, printf_parts(fmt, [text(a) for a in args[1:]]))
    if name in _CONCATS or converts(name):
        return concatenation(args, lambda a: reader.read(a, depth + 1), _hole)
    if last_name(name) in FORMATTERS and args:  # ``StringUtil::Format("no column %s", c)``
        return _format_given(args[0], args[1:])
    return None


def _brace_format(args: list[Node]) -> Message | None:
    """``fmt::format("…{}…", a, b)``: holes named after the arguments."""
    fmt = message_string(args[0]) if args else None
    if fmt is None:
        return None
    return Message(fmt.written, fmt.parts(parse_rust_format(fmt.text, [text(a) for a in args[1:]])))


def _hole(node: Node) -> Message:
    """A value printed as is: ``std::to_string(n)`` and ``std::string(s)`` print ``n``/``s``."""
    name = text(node)
    if node.type == "call_expression":
        args = arguments(node.child_by_field_name("arguments"))
        function = text(node.child_by_field_name("function"))
        if len(args) == 1 and (function in _TO_TEXT or function in _STRING_TYPES_CTORS):
            name = text(args[0])
    return Message("{" + name + "}", (Hole.of(name, "{" + name + "}"),))


def _declared_value(declarator: Node) -> Node | None:
    """``std::string msg = v;``, ``std::string msg(v);``, ``std::string msg{v};``: ``v``."""
    value = declarator.child_by_field_name("value")
    if value is not None and value.type in ("argument_list", "initializer_list"):
        inner = arguments(value)
        value = inner[0] if len(inner) == 1 else None
    return value


_MESSAGES: MessageTable[FileIndex] = MessageTable(
    strings=dict.fromkeys(STRING_TYPES, _literal),
    binary="binary_expression", wrappers=frozenset({"parenthesized_expression"}),
    variables=frozenset({"identifier"}), scopes=frozenset({"function_definition"}),
    rules={"user_defined_literal": _suffixed, "call_expression": _call_message},
    hole=_hole, unwrap_operands=False, max_depth=8,
)
_LOCALS = Locals("init_declarator", "declarator", _declared_value)


SPEC = LanguageSpec(
    strings=_MESSAGES.strings, name="cpp",
    grammar="cpp",
    extensions=(".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h", ".ipp"),
    query=Path(__file__).with_name("queries.scm"),
    handlers=(("throw", _throw_site), ("call", _call_site), ("stream", _stream_site),
              ("helper", _helper_site), ("typed", typed_site), ("made", _made_site),
              ("macro", _macro_site), ("assert", _assert_site), ("status", status_handler(_read)),
              ("xmacro", xmacro_site), ("spd", spdlog_site)),
    new_index=FileIndex, skip=unsure,
    function_types=frozenset({"function_definition"}), scope_types=_MESSAGES.scopes,
    evidence=EvidenceRules(frozenset({"function_definition"})),
    snippets=CPP_SNIPPETS, compose=COMPOSER, pastes=PASTES,
)
_ENGINE = language(SPEC)


def _extract(source: bytes) -> FileSites:
    """The engine's sites, read with the macros tree-sitter cannot expand written as what
    they stand for (``compose.blanked``, ``assigned``) and directives inside an expression
    blanked (``c.conditionals``): same lines, same bytes."""
    read = unconditioned(source) or source
    read = assigned(read) or read
    return _ENGINE.extract(rewritten(blanked(read) or (read if read is not source else None),
                                     source))


LANGUAGE = replace(_ENGINE, extract=_extract)
extract = LANGUAGE.extract
