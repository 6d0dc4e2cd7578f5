"""Ruby sites: ``raise``/``fail``, ``logger.error``, ``Kernel#warn`` and ``abort``.

What is a site (``errorType``):

* ``exception``: ``raise X, "msg"``, ``raise X.new("msg")``, ``raise "msg"`` (a
  ``RuntimeError``), the same with ``fail`` or ``Kernel.raise``. ``errorClass`` is the
  class as written (``ArgumentError``, ``MyLib::NotFound``); a class given as a
  variable (``raise klass, "msg"``) leaves it null. ``XError.new("msg")`` (a class
  named ``…Error``/``…Exception``) built outside ``raise`` to be raised later is one too.
* ``log``: ``error``/``fatal`` on a receiver whose name says log (``logger``,
  ``@logger``, ``Rails.logger``, ``LOG``); the message is the first argument, or the
  block's value for ``logger.error { "msg" }`` (an argument then is the progname).
  ``logger.warn`` is a log of severity warning (what operators paste beside errors).
* ``warning``: ``warn "msg"`` (Kernel#warn), severity warning.
* ``exit``: ``abort("msg")`` prints the message and exits 1, severity fatal.

A message is read only when source says what it is: string literals (double-quoted
ones with ``#{expr}`` holes named after the expression; single-quoted and ``%q``
ones are plain text), adjacent literals, ``+`` concatenations that contain a
literal, ``format``/``sprintf`` and ``"fmt" % args`` with a literal format (C
printf conversions, and ``%<name>s``/``%{name}`` taken from a hash) or a format held
by a string constant of the file (``format(LIMIT, n)``, ``Errors::LIMIT % n``), heredocs
(``<<~MSG`` dedented as Ruby does), and a local variable assigned one of those earlier
in the same method. ``raise X`` without a
message, ``raise e`` and ``raise X, e.message`` say nothing about the text: no site;
nor does ``fail(404, "…")``, a class's own ``fail`` (a literal can name no class).

Runtime rules (what the pattern leaves out or adds):

* An uncaught exception prints ``file:line:in 'meth': msg (X)``; the pattern is the
  message alone (``e.message``), which is what a traceback parser extracts.
* Logger's default format adds ``E, [time #pid] ERROR -- prog: `` before the message;
  log lines lose that prefix in lookup, so the pattern is the message alone.
* ``warn "msg", uplevel: n`` prints ``file:line: warning: msg``: that prefix is part
  of the pattern, the location a hole. Several ``warn`` arguments print one a line.
* A trailing newline is not part of a printed line, so a message's final ``\\n`` is
  dropped from the pattern (``warn`` and ``abort`` add one anyway).

``symbol`` is ``Module::Class.method`` — modules and classes joined with ``::`` as
Ruby writes them, the method (instance or ``def self.``) after a dot, like
``Store.open`` elsewhere; code in a class body outside any method is the class.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import Captures, FileIndex, LanguageSpec, language
from errdex.languages._engine.calls import call_args, names_a_logger
from errdex.languages._engine.evidence import EvidenceRules
from errdex.languages._engine.message import Message, joined, trimmed
from errdex.languages._engine.pieces import message_site
from errdex.languages._engine.reader import MessageTable, Reader, read_with
from errdex.languages.base import (
    Site,
    ancestors,
    line_of,
    text,
)
from errdex.languages.logs import level_of
from errdex.languages.ruby import appended, calls, compose
from errdex.languages.ruby.pastes import PASTES
from errdex.languages.ruby.snippets import SNIPPETS
from errdex.languages.ruby.strings import constant_value, heredoc, string
from errdex.records.log_statements import LogLevel
from errdex.records.model import ErrorType, Severity
from errdex.templates.formats import parse_printf
from errdex.templates.template import Hole, Literal, Part, Template

_CLASS_NODES = ("constant", "scope_resolution")
# What can name the class in ``raise klass, "msg"``: a constant or an expression.
_CLASS_VALUES = (*_CLASS_NODES, "identifier", "call", "instance_variable", "class_variable")
_SCOPES = ("method", "singleton_method", "class", "module", "program")
_FORMAT_FUNCTIONS = ("format", "sprintf")
_STRIPS = frozenset({"strip", "lstrip", "rstrip"})  # a text with blanks cut from its ends
# Calls that pass text but are no helper of a repository's: Kernel, the stdlib, DSLs.
_NOT_HELPERS = frozenset({
    "raise", "fail", "warn", "abort", "puts", "print", "p", "pp", "require",
    "require_relative", "load", "include", "extend", "attr_reader", "attr_accessor",
    "describe", "it", "context", "let", "desc", "gem", "source", "format", "sprintf",
    "error", "fatal", "info", "debug", "warning", "log", "write", "exit", "system",
    "private_constant", "autoload", "include?", "start_with?", "end_with?", "join",
})
# What a helper's text argument may be (a number, symbol or hash is no message).
_TEXTUAL = frozenset({"string", "chained_string", "binary", "identifier", "call",
                      "parenthesized_statements"})
# Words in a method's name that say it makes text (its value is a message, not a raise).
_TEXT_WORDS = ("message", "msg", "text", "description", "to_s", "inspect", "label")
# Where a call is a statement of its own (a helper's result is not used).
_STATEMENTS = frozenset({
    "body_statement", "program", "then", "else", "do_block", "block_body", "begin",
    "ensure", "rescue", "when", "if_modifier", "unless_modifier", "block",
})
_NAMED_FORMAT = re.compile(r"%%|%<(\w+)>|%\{(\w+)\}")


# --- handlers --------------------------------------------------------------------------


def _call_site(caps: Captures, file: FileIndex) -> Site | None:
    node, method = caps["call"][0], text(caps["call.method"][0])
    receiver = node.child_by_field_name("receiver")
    logged = receiver is not None and names_a_logger(_last_name(receiver))
    if method in ("error", "fatal", "info", "debug"):  # every Logger level
        return _log_site(node, file, level_of(method)) if logged else None
    if method == "warn" and logged:
        return _log_site(node, file, "warning")
    if receiver is not None and text(receiver) != "Kernel":
        return None
    if method in ("raise", "fail"):
        return _raise_site(node, file)
    if method == "warn":
        return _warn_site(node, file)
    return _abort_site(node, file)


# --- site kinds ------------------------------------------------------------------------


def _raise_site(node: Node, file: FileIndex) -> Site | None:
    """``raise X, msg`` / ``raise X.new(msg)`` / ``raise msg`` (a RuntimeError).

    The call is kept for composition (``compose.py``): ``X`` may write its own message, and
    ``raise NotFound.new(key)``, ``raise NotFound`` or ``raise Errors.not_found(key)`` is a
    candidate whose message only the repository's producers tell."""
    positional, _ = _arguments(node.child_by_field_name("arguments"))
    if not positional:
        return None
    first = positional[0]
    error_class: str | None
    if len(positional) >= 2:
        if first.type not in _CLASS_VALUES:
            return None  # fail(416, "…"): a method of the same name, not Kernel#raise
        error_class = text(first) if first.type in _CLASS_NODES else None
        message = _read(positional[1], file) if not _built(positional[1], file) else None
    elif _is_new_call(first):
        error_class = text(first.child_by_field_name("receiver"))
        inner, _ = _arguments(first.child_by_field_name("arguments"))
        message = _read(inner[0], file) if inner and not _built(inner[0], file) else None
    else:
        message = _read(first, file)
        error_class = "RuntimeError"
        if message is None and first.type in (*_CLASS_NODES, "call") and not (
                first.type in _CLASS_NODES and calls.is_constant(text(first).split("::")[-1])):
            # raise NotFound / raise not_found(key): the producer's message, if any
            error_class = text(first) if first.type in _CLASS_NODES else None
    call = calls.raise_call(node, file, _read) if error_class != "RuntimeError" or (
        message is None) else None
    if message is None and len(positional) >= 2:  # raise X, not_found(key): the method's text
        call = calls.message_call(positional[1], file, _read, node) or call
    if message is None:
        if call is None:
            return None
        return Site(Template("", ()), "exception", line_of(node), error_class,
                    symbol=_symbol(node), call=call)
    site = _make(node, message, "exception", error_class, prefix=calls.errno_prefix(error_class))
    return replace(site, call=call) if site is not None and call is not None else site


def _built(node: Node, file: FileIndex) -> bool:
    """A variable the method builds with ``<<``, its text one of several (composition spells
    each out, ``appended.py``) or not known (a loop appends to it): not the first alone."""
    found = appended.appended(node, file, lambda value: calls.argument(value, file, _read))
    return found is not None and len(found) != 1


def _helper_site(caps: Captures, file: FileIndex) -> Site | None:
    """``fail_with "no config"``: a call statement passing text, a candidate in case the
    callee is one of the repository's helpers that raise."""
    node = caps["helper"][0]
    method = text(caps["helper.method"][0])
    receiver = node.child_by_field_name("receiver")
    if method in _NOT_HELPERS or (receiver is not None and receiver.type not in (
            *_CLASS_NODES, "self")) or node.parent is None or node.parent.type not in _STATEMENTS:
        return None
    if _returns_text(node, method):
        return None
    positional, _ = _arguments(node.child_by_field_name("arguments"))
    if not any(m is not None and m.has_text() for m in (
            _read(a, file) for a in positional if a.type in _TEXTUAL)):
        return None
    callee = method if receiver is None else f"{text(receiver)}.{method}"
    call = calls.call_of(callee, node.child_by_field_name("arguments"), file, node, _read)
    # A helper named to warn or log prints (``deprecate``, ``warn_once``, ``log_failure``).
    warns = any(w in method for w in ("warn", "deprecat"))
    kind: ErrorType = "warning" if warns else "log" if "log" in method else "exception"
    return Site(Template("", ()), kind, line_of(node), symbol=_symbol(node), call=call,
                severity="warning" if warns else "error")


def _returns_text(node: Node, method: str) -> bool:
    """``def negative_failure_message; failure_message_helper(" not"); end``: the call is the
    value of a method that makes a message (it, or the callee, says so), raised nowhere."""
    body = node.parent
    definition = body.parent if body is not None and body.type == "body_statement" else body
    if definition is None or definition.type not in ("method", "singleton_method"):
        return False
    last = [c for c in body.named_children if c.type != "comment"][-1:] if body else []
    name = f"{text(definition.child_by_field_name('name'))} {method}".lower()
    return last == [node] and any(w in name for w in _TEXT_WORDS)


def _new_site(caps: Captures, file: FileIndex) -> Site | None:
    """``XError.new("msg")`` built outside ``raise`` (``raise X.new`` is the raise's site)."""
    node, error_class = caps["new"][0], text(caps["new.class"][0])
    if not error_class.endswith(("Error", "Exception")) or _raised(node):
        return None
    positional, _ = _arguments(node.child_by_field_name("arguments"))
    message = _read(positional[0], file) if positional else None
    site = None if message is None else _make(node, message, "exception", error_class)
    if site is None:
        return None
    call = calls.call_of(error_class, node.child_by_field_name("arguments"), file, node, _read)
    return replace(site, call=call)


def _raised(node: Node) -> bool:
    args = node.parent
    call = args.parent if args is not None and args.type == "argument_list" else None
    return call is not None and call.type == "call" and (
        text(call.child_by_field_name("method")) in ("raise", "fail")
    )


def _log_site(node: Node, file: FileIndex, level: LogLevel | None) -> Site | None:
    """``logger.error(msg)`` or ``logger.error(progname) { msg }``."""
    block = node.child_by_field_name("block")
    if block is not None:
        body = block.child_by_field_name("body")
        statements = body.named_children if body is not None else []
        message = _read(statements[-1], file) if statements else None
    else:
        positional, _ = _arguments(node.child_by_field_name("arguments"))
        message = _topic_message(positional, file) if len(positional) == 2 else (
            _read(positional[0], file) if positional else None)
    if message is None:
        return None
    found = _make(node, message, "log")
    return replace(found, level=level) if found is not None else None


def _topic_message(positional: list[Node], file: FileIndex) -> Message | None:
    """``Jekyll.logger.warn "Theme:", "value of 'theme' …"``: Ruby's Logger takes one
    argument, so a logger given two is a project's that prints a topic, a blank, then the
    message (a blank topic: the message alone)."""
    topic = _read(positional[0], file)
    if topic is None or topic.literal is None:
        return None
    said = _read(positional[1], file) or _hole(text(positional[1]))
    if not topic.literal.strip():
        return said if said.has_text() else None  # ``warn "", e.message``: nothing said
    return joined([topic, Message(" ", (Literal(" "),), " "), said])


def _warn_site(node: Node, file: FileIndex) -> Site | None:
    """``warn "a", "b", uplevel: 1`` prints each message on its own line."""
    positional, keywords = _arguments(node.child_by_field_name("arguments"))
    if not positional:
        return None
    read = [_read(arg, file) for arg in positional]
    if any(m is None for m in read):
        return None
    lines = [m for m in read if m is not None]
    newline = Message("\n", (Literal("\n"),), "\n")
    pieces = [piece for m in lines for piece in (newline, m)][1:]
    message = joined(pieces)
    if message is None:
        return None
    prefix: tuple[Part, ...] = ()
    if "uplevel" in keywords:
        prefix = (Hole.of("location", "file:line"), Literal(": warning: "))
    return _make(node, message, "warning", severity="warning", prefix=prefix)


def _abort_site(node: Node, file: FileIndex) -> Site | None:
    positional, _ = _arguments(node.child_by_field_name("arguments"))
    message = _read(positional[0], file) if positional else None
    if message is None:
        return None
    return _make(node, message, "exit", severity="fatal")


def _make(
    node: Node, message: Message, error_type: ErrorType, error_class: str | None = None,
    severity: Severity = "error", prefix: tuple[Part, ...] = (),
) -> Site | None:
    return message_site(
        node, message, error_type, _symbol(node), error_class, severity=severity, prefix=prefix
    )


def _arguments(args: Node | None) -> tuple[list[Node], dict[str, Node]]:
    """Positional argument nodes, and keyword (``key: value``) name → value node."""
    read = call_args(args, _split_argument, lambda key: text(key).lstrip(":").strip("\"'"))
    return read.positional, read.named


def _split_argument(child: Node) -> tuple[Node | None, Node] | None:
    if child.type == "pair":
        key, value = child.child_by_field_name("key"), child.child_by_field_name("value")
        return (key, value) if key is not None and value is not None else None
    if child.type in ("splat_argument", "hash_splat_argument", "block_argument", "comment"):
        return None
    return None, child


def _is_new_call(node: Node) -> bool:
    receiver = node.child_by_field_name("receiver")
    return (
        node.type == "call"
        and text(node.child_by_field_name("method")) == "new"
        and receiver is not None
        and receiver.type in _CLASS_NODES
    )


def _last_name(node: Node) -> str:
    """``Rails.logger`` → ``logger``; ``@logger`` → ``@logger``."""
    if node.type == "call":
        return text(node.child_by_field_name("method"))
    return text(node)


def _symbol(node: Node) -> str | None:
    """``Module::Class.method``; the class path alone in a class body; None at top level."""
    method: str | None = None
    owners: list[str] = []
    for ancestor in ancestors(node):
        if ancestor.type in ("method", "singleton_method") and method is None and not owners:
            method = text(ancestor.child_by_field_name("name"))
        elif ancestor.type in ("class", "module"):
            owners.append(text(ancestor.child_by_field_name("name")))
    owner = "::".join(reversed(owners))
    if method is None:
        return owner or None
    return f"{owner}.{method}" if owner else method


# --- messages --------------------------------------------------------------------------


def _read(node: Node | None, file: FileIndex) -> Message | None:
    """The message an expression prints, when source says what it is."""
    return read_with(_MESSAGES, file, node)


def _percent(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``"fmt" % args``: the format with an array's items, a hash's keys or one value."""
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    fmt = reader.read(constant_value(left) or left, depth + 1)
    if fmt is None or fmt.literal is None or right is None:
        return None
    if right.type == "array":
        items = [a for a in right.named_children if a.type != "comment"]
        return _format(fmt.literal, items, {})
    if right.type == "hash":
        _, keywords = _arguments(right)
        return _format(fmt.literal, [], keywords)
    return _format(fmt.literal, [right], {})


def _hole(expression: str) -> Message:
    """A value printed with ``to_s``; ``x.to_s`` is named ``x``."""
    name = expression.removesuffix(".to_s") if expression.endswith(".to_s") else expression
    return Message("#{" + name + "}", (Hole.of(name, "#{" + name + "}"),))


def _format_call(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``format("…%s", x)`` / ``sprintf`` / ``Kernel.format``; a mutable copy of a text
    (``"…".dup``, ``String.new("…")``) prints that text."""
    receiver = node.child_by_field_name("receiver")
    copied = appended.mutable_text(node)
    if copied is not None:
        return reader.read(copied, depth + 1)
    method = text(node.child_by_field_name("method"))
    if method in appended.COPIES and receiver is not None and (
            node.child_by_field_name("arguments") is None):  # ``message.freeze``
        return reader.read(receiver, depth + 1)
    if method in _STRIPS and receiver is not None and node.child_by_field_name(
            "arguments") is None:  # ``"Failed executing: #{cmd} #{args}".strip``
        read = reader.read(receiver, depth + 1)
        return trimmed(read, left=method != "rstrip", right=method != "lstrip") if (
            read is not None) else None
    if text(node.child_by_field_name("method")) not in _FORMAT_FUNCTIONS:
        return None
    if receiver is not None and text(receiver) != "Kernel":
        return None
    positional, keywords = _arguments(node.child_by_field_name("arguments"))
    fmt = reader.read(constant_value(positional[0]) or positional[0], depth + 1) if (
        positional) else None
    if fmt is None or fmt.literal is None:
        return None
    return _format(fmt.literal, positional[1:], keywords)


def _format(fmt: str, args: list[Node], keywords: dict[str, Node]) -> Message:
    """Ruby ``format``: C conversions, or ``%<name>d`` / ``%{name}`` from a hash."""
    if any(m.group(0) != "%%" for m in _NAMED_FORMAT.finditer(fmt)):
        python_style = _NAMED_FORMAT.sub(_to_python_key, fmt)
        kwargs = {k: text(v) for k, v in keywords.items()}
        return Message(fmt, parse_printf(python_style, (), kwargs, dialect="python"))
    return Message(fmt, parse_printf(fmt, [text(a) for a in args], dialect="c"))


def _to_python_key(match: re.Match[str]) -> str:
    if match.group(1):
        return f"%({match.group(1)})"
    if match.group(2):
        return f"%({match.group(2)})s"
    return "%%"


_MESSAGES: MessageTable[FileIndex] = MessageTable(
    strings={
        "string": string,
        "chained_string": lambda node: joined([string(part) for part in node.named_children]),
        "heredoc_beginning": heredoc,
    },
    binary="binary", operators={"%": _percent}, wrappers=frozenset({"parenthesized_statements"}),
    variables=frozenset({"identifier"}), scopes=frozenset(_SCOPES),
    augmented=frozenset({"operator_assignment"}),
    rules={"call": _format_call, "unary": _format_call},
    hole=lambda node: _hole(text(node)), unwrap_operands=False,
)


SPEC = LanguageSpec(
    strings=_MESSAGES.strings, name="ruby", grammar="ruby", extensions=(".rb", ".rake", ".gemspec"),
    query=Path(__file__).with_name("queries.scm"),
    handlers=(("call", _call_site), ("new", _new_site), ("helper", _helper_site)),
    new_index=FileIndex,
    function_types=frozenset({"method", "singleton_method"}), scope_types=frozenset(_SCOPES),
    evidence=EvidenceRules(frozenset({"method", "singleton_method"})), snippets=SNIPPETS,
    pastes=PASTES, compose=compose.composer(_read),
)
LANGUAGE = language(SPEC)
extract = LANGUAGE.extract
