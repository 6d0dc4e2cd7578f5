"""Python sites: ``raise X("…")``, ``logger.error(…)``, ``warnings.warn(…)``, ``sys.exit("…")``
and web framework errors (``web.py``).

The query in ``queries.scm`` finds the candidate statements and the facts needed
to read their messages (message variables, imports); ``messages.py`` turns
each message expression into a template. A message is read only when its text
is known from source, so ``raise X(e)`` is no site. A message variable the clauses of
one ``if`` assign differently (requests' ``http_error_msg``: ``Client Error`` or
``Server Error``) gives the ``raise`` a site per branch, on the same line.

What Python prints, and what the pattern matches (the traceback's ``Class: ``
prefix is never part of it):

* ``raise X("m")``: ``str(exc)``, the message. Builtin exceptions given several
  arguments print their tuple's repr: no site, except the forms below.
* ``KeyError("m")`` prints ``repr("m")``: ``'m'``, or ``"m"`` when the message holds
  a ``'`` and no ``"`` (repr's rule), with ``\\`` and control characters escaped.
  The rule is applied to the literal text, taking a ``{x!r}``/``%r`` hole to print a
  quoted string (so ``"…"``); other hole values that hold a quote can flip it.
* ``OSError(errno, "m")`` and its subclasses (``FileNotFoundError`` …) print
  ``[Errno <n>] m``; with a filename, ``[Errno <n>] m: '<path>'``. ``errno.ENOENT`` is
  resolved to its number and ``os.strerror(errno.X)`` to its text on this platform.
* ``UnicodeDecodeError(enc, obj, start, end, "reason")`` prints
  ``'<enc>' codec can't decode <byte(s) and position>: reason`` (encode alike).
* ``logger.error/exception/critical(msg, *args)``: logging prints ``msg % args`` (only
  when args are given) after the handler's own prefix (time, level, name), which
  varies by configuration and is left out; ``exception`` adds the traceback below.
* ``warnings.warn(msg, Category)``: Python prints ``file:line: Category: msg``; the
  pattern is ``msg``, ``errorClass`` the category (``UserWarning`` by default).
* ``sys.exit("m")`` prints ``m`` to stderr and exits 1 (``severity`` fatal); an int
  status prints nothing.
"""

from __future__ import annotations

import builtins
import dataclasses
import errno
import os
import re
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import Captures, FileIndex, LanguageSpec, Message, language
from errdex.languages.base import Site, line_of, text
from errdex.languages.facts import Call
from errdex.languages.logs import level_of, logger_names
from errdex.languages.python import web
from errdex.languages.python.compose import COMPOSER
from errdex.languages.python.evidence import EVIDENCE
from errdex.languages.python.held import held_site
from errdex.languages.python.messages import (
    STRINGS,
    arguments,
    dict_arguments,
    is_class_call,
    last_name,
    message_argument,
    read,
    read_alternatives,
    symbol_of,
    unwrap,
)
from errdex.languages.python.pastes import PASTES
from errdex.languages.python.reading import call_of, own_method_call
from errdex.languages.python.snippets import SNIPPETS
from errdex.records.log_statements import LogLevel
from errdex.templates.formats import brace_hole, parse_percent_format
from errdex.templates.template import Hole, Literal, Part, Template, merge_literals

# A lowercase name that holds an error class: ``exc``, ``self._undefined_exception``,
# ``error_class``, ``exc_type``.
_HOLDS_CLASS = re.compile(r"(?:^|_)(?:exc|exception|exc_class|exception_class|error_class|"
                          r"exc_type|exception_type|error_type|error_cls|exc_cls)$")
# Calls that pass text but are no helper of a repository's: printing, logging, the stdlib.
_NOT_HELPERS = frozenset({
    "print", "debug", "info", "warning", "warn", "error", "exception", "critical", "log",
    "write", "append", "extend", "join", "format", "setdefault", "get", "pop", "add",
    "update", "echo", "secho", "replace", "split", "startswith", "endswith", "exit",
})
_UNICODE_ERRORS = {"UnicodeDecodeError": "decode", "UnicodeEncodeError": "encode"}


# --- entry point -----------------------------------------------------------------------



def _index_import(caps: Captures, file: FileIndex) -> None:
    """``import a.b as c`` → c: a.b; ``import a.b`` → a: a; ``from m import x as y`` → y: m.x."""
    if "import" not in caps:
        return
    node = caps["import"][0]
    imports = file.imports
    module = node.child_by_field_name("module_name")
    prefix = text(module) + "." if module is not None else ""
    for name in node.children_by_field_name("name"):
        if name.type == "aliased_import":
            dotted = text(name.child_by_field_name("name"))
            imports[text(name.child_by_field_name("alias"))] = prefix + dotted
        elif module is None:
            head = text(name).partition(".")[0]
            imports[head] = head
        else:
            imports[text(name)] = prefix + text(name)


# --- site kinds ------------------------------------------------------------------------


def _raise_site(caps: Captures, file: FileIndex) -> Site | list[Site] | None:
    """``raise X(message)``: the class as written, the message from its first argument
    (a site per branch when the ``if`` above assigns the message variable per branch).
    The call is kept for composition: ``X`` may write its own message (``compose.py``), and
    ``raise NotFound(key)`` or ``raise self._bad_option(…)`` is a candidate whose message
    only the repository's producers tell."""
    node = caps["raise"][0]
    if "raise.bare" in caps:  # ``raise FrozenError``: what the class writes, if anything
        named = text(caps["raise.bare"][0])
        if not named.rsplit(".", 1)[-1][:1].isupper():
            return None  # ``raise exc``: a caught or built error raised again
        return _candidate(node, call_of(named, None, file, node), named)
    error_class = text(caps["raise.class"][0])
    args = caps["raise.args"][0]
    made = call_of(error_class, args, file, node)
    if not error_class.rsplit(".", 1)[-1][:1].isupper():  # factories: raise make_error(...)
        if _HOLDS_CLASS.search(error_class.rsplit(".", 1)[-1]):
            # ``raise self._undefined_exception(msg)``: an attribute holding an error class
            # (not ``self.make_error(key)``, a method whose text composition must tell)
            made = dataclasses.replace(made, makes_error=True)
        return _candidate(node, made)
    call: Call | None = made
    framework = web.raise_class(error_class, args, file)
    if framework is not None:
        return web.raise_site(node, error_class, framework, args, file)
    positional, keywords = arguments(args)
    if len(positional) > 1 and _is_builtin_exception(error_class):
        template = _builtin_template(error_class, positional, file)
        call = None
    else:
        messages = read_alternatives(message_argument(positional, keywords), file)
        if len(messages) > 1:
            return [Site(Template(m.written, m.parts), "exception", line_of(node), error_class,
                         symbol=symbol_of(node), call=call) for m in messages]
        template = Template(messages[0].written, messages[0].parts) if messages else None
        if template is not None and error_class == "KeyError":
            template = _repr_quoted(template)
            call = None
    if template is None:
        return _candidate(node, call, error_class) if call is not None else None
    return Site(template, "exception", line_of(node), error_class, symbol=symbol_of(node),
                call=call)


def _candidate(node: Node, call: Call, error_class: str | None = None) -> Site:
    """A raise whose message only composition can tell (an empty template)."""
    return Site(Template("", ()), "exception", line_of(node), error_class,
                symbol=symbol_of(node), call=call)


def _helper_site(caps: Captures, file: FileIndex) -> Site | None:
    """``fail("no config")``: a call statement passing text, a candidate in case the callee
    is one of the repository's helpers that raise (or factories whose result is dropped)."""
    node, function = caps["helper"][0], caps["helper.function"][0]
    callee = text(function)
    if last_name(function) in _NOT_HELPERS or callee.startswith(("logging.", "warnings.")):
        return None
    args = caps["helper.args"][0]
    positional, keywords = arguments(args)
    given = [*positional, *keywords.values()]
    if not any(m.has_text() for a in given for m in [read(a, file)] if m is not None) and (
            not any(own_method_call(unwrap(a) or a) for a in given)):
        return None  # no text, nor a text method of the object (``self.invalid_message(v)``)
    return _candidate(node, call_of(callee, args, file, node))


def _web_call_site(caps: Captures, file: FileIndex) -> Site | None:
    function, args = caps["web.function"][0], caps["web.args"][0]
    framework = web.call_class(function, args, file)
    if framework is None:
        return None
    return web.call_site(caps["web"][0], function, framework, args, file)


def _call_site(caps: Captures, file: FileIndex) -> Site | None:
    node = caps["call"][0]
    method = text(caps["call.method"][0])
    receiver = caps.get("call.receiver", [None])[0]
    args = caps["call.args"][0]
    if receiver is None:
        imported = file.imports.get("warn") == "warnings.warn"
        return _warn_site(node, args, file) if imported else None
    level = level_of(method)
    if (level is not None or method == "log") and "log" in last_name(receiver).lower():
        return _log_site(node, args, file, level)
    if method == "warn" and text(receiver) == "warnings":
        return _warn_site(node, args, file)
    if method == "exit" and text(receiver) == "sys":
        return _exit_site(node, args, file)
    return None


def _log_site(node: Node, args: Node, file: FileIndex, level: LogLevel | None) -> Site | None:
    """``logger.error(msg, *args)`` at any level (``logger.log(logging.INFO, msg)``):
    logging formats ``msg % args`` only when args are given."""
    positional, keywords = arguments(args)
    if level is None:  # ``log(level, msg, *args)``: the level is the first argument
        level = level_of(last_name(positional[0])) if positional else None
        if level is None:
            return None
        positional = positional[1:]
    message = read(message_argument(positional, keywords), file)
    if message is None:
        return None
    lazy = positional[1:]
    if lazy and message.literal is not None:
        if len(lazy) == 1 and lazy[0].type == "dictionary":
            parts = parse_percent_format(message.literal, kwargs=dict_arguments(lazy[0]))
        else:
            parts = parse_percent_format(message.literal, [text(a) for a in lazy])
        message = Message(message.literal, parts)
    # oslo.log prints the instance a call names before its message: ``[instance: <uuid>] ``
    shown = keywords.get("instance") or keywords.get("instance_uuid")
    prefix = () if shown is None else (
        Literal("[instance: "), Hole.of(text(shown) + ".uuid", "%s"), Literal("] "))
    template = Template(message.written, message.parts, prefix)
    function = node.child_by_field_name("function")
    receiver = function.child_by_field_name("object") if function is not None else None
    root = node
    while root.parent is not None:
        root = root.parent
    logger = logger_names(root.text or b"").get(text(receiver)) if receiver else None
    return Site(template, "log", line_of(node), symbol=symbol_of(node), level=level,
                logger=logger)


def _warn_site(node: Node, args: Node, file: FileIndex) -> Site | None:
    """``warn(message, Category)`` or ``warn(Category(message))``; UserWarning by default."""
    positional, keywords = arguments(args)
    first = message_argument(positional, keywords)
    category = keywords.get("category") or (positional[1] if len(positional) > 1 else None)
    if first is not None and first.type == "call" and is_class_call(first):
        category = first.child_by_field_name("function")
        inner, inner_keywords = arguments(first.child_by_field_name("arguments"))
        first = message_argument(inner, inner_keywords)
    message = read(first, file)
    if message is None:
        return None
    return Site(
        Template(message.written, message.parts), "warning", line_of(node),
        text(category) if category is not None else "UserWarning",
        severity="warning", symbol=symbol_of(node),
    )


def _exit_site(node: Node, args: Node, file: FileIndex) -> Site | None:
    """``sys.exit("message")`` prints the message and exits 1; an int status is no message."""
    positional, _ = arguments(args)
    message = read(positional[0] if positional else None, file)
    if message is None:
        return None
    template = Template(message.written, message.parts)
    return Site(template, "exit", line_of(node), severity="fatal", symbol=symbol_of(node))




# --- what builtin exceptions print ------------------------------------------------------


def _is_builtin_exception(name: str) -> bool:
    value = getattr(builtins, name, None)
    return isinstance(value, type) and issubclass(value, BaseException)


def _repr_quoted(template: Template) -> Template:
    """``repr(message)``: quotes chosen by repr's rule, escapes applied to the literal text."""
    literal = "".join(p.text for p in template.message if isinstance(p, Literal))
    quoted = "'" in literal or any(_is_repr(h) for h in template.message if isinstance(h, Hole))
    quote = '"' if quoted and '"' not in literal else "'"
    message = tuple(
        Literal(_repr_escape(p.text, quote)) if isinstance(p, Literal) else p
        for p in template.message
    )
    return Template(template.written, message, (Literal(quote),), (Literal(quote),))


def _is_repr(hole: Hole) -> bool:
    """``{x!r}`` / ``%r``: most often a string's repr, whose ``'`` makes repr pick ``"``."""
    return "!r" in hole.spec or (hole.spec.endswith("r") and hole.spec.startswith("%"))


def _repr_escape(value: str, quote: str) -> str:
    out = []
    for ch in value:
        if ch == "\\" or ch == quote:
            out.append("\\" + ch)
        elif ch in "'\"" or ch.isprintable():
            out.append(ch)
        else:
            out.append(repr(ch)[1:-1])
    return "".join(out)


def _builtin_template(name: str, positional: list[Node], file: FileIndex) -> Template | None:
    """Builtins given several arguments: the ``OSError`` and ``Unicode*Error`` forms only."""
    value = getattr(builtins, name)
    if issubclass(value, OSError) and len(positional) in (2, 3):
        return _oserror_template(positional, file)
    if name in _UNICODE_ERRORS and len(positional) == 5:
        return _unicode_template(_UNICODE_ERRORS[name], positional, file)
    return None  # str() of other builtins with several args is their tuple's repr


def _oserror_template(positional: list[Node], file: FileIndex) -> Template | None:
    """``OSError(errno, strerror[, filename])`` → ``[Errno n] strerror[: 'filename']``."""
    number = _errno_value(positional[0])
    message = _strerror(positional[1]) or read(positional[1], file)
    if message is None:
        return None
    errno_part: Part = Literal(str(number)) if number is not None else Hole.of(
        text(positional[0]), "{errno}", "int"
    )
    suffix: tuple[Part, ...] = ()
    if len(positional) == 3:
        filename = text(positional[2])
        suffix = (Literal(": "), brace_hole(filename, "r", "", "{" + filename + "!r}"))
    prefix = merge_literals([Literal("[Errno "), errno_part, Literal("] ")])
    return Template(message.written, message.parts, prefix, suffix)


def _errno_value(node: Node) -> int | None:
    """``2`` or ``errno.ENOENT`` (this platform's number); None when only known at run time."""
    if node.type == "integer":
        return int(text(node), 0)
    name = last_name(node) if node.type in ("identifier", "attribute") else ""
    value = getattr(errno, name, None) if name.startswith("E") else None
    return value if isinstance(value, int) else None


def _strerror(node: Node) -> Message | None:
    """``os.strerror(errno.ENOENT)`` → ``No such file or directory`` on this platform."""
    if node.type != "call" or last_name(node) != "strerror":
        return None
    positional, _ = arguments(node.child_by_field_name("arguments"))
    number = _errno_value(positional[0]) if len(positional) == 1 else None
    if number is None:
        return None
    value = os.strerror(number)
    return Message(value, (Literal(value),), value)


def _unicode_template(verb: str, positional: list[Node], file: FileIndex) -> Template | None:
    """``'enc' codec can't decode byte 0xff in position 0: reason`` — the middle is a hole."""
    reason = read(positional[4], file)
    if reason is None:
        return None
    encoding = read(positional[0], file)
    lead: list[Part] = (
        [Literal(repr(encoding.literal))] if encoding is not None and encoding.literal
        else [brace_hole(text(positional[0]), "r", "", "{encoding!r}")]
    )
    prefix = merge_literals([
        *lead, Literal(f" codec can't {verb} "), Hole.of("position", "{position}"), Literal(": "),
    ])
    return Template(reason.written, reason.parts, prefix)


SPEC: LanguageSpec[FileIndex] = LanguageSpec(
    strings=STRINGS, name="python", grammar="python", extensions=(".py", ".pyi"),
    query=Path(__file__).with_name("queries.scm"),
    handlers=(("raise", _raise_site), ("web", _web_call_site), ("call", _call_site),
              ("helper", _helper_site), ("assign", held_site)),
    new_index=FileIndex, index=_index_import,
    function_types=frozenset({"function_definition"}),
    scope_types=frozenset({"function_definition", "class_definition", "module"}),
    evidence=EVIDENCE, snippets=SNIPPETS,
    pastes=PASTES, compose=COMPOSER,
)
LANGUAGE = language(SPEC)
extract = LANGUAGE.extract  # all sites of one file, in source order
