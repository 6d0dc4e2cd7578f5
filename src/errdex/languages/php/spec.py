"""PHP sites: ``throw new X(…)``, ``trigger_error``, ``error_log``, PSR-3 loggers,
Laravel's ``abort``, ``die``/``exit``.

What is a site (``errorType``):

* ``exception``: ``throw new X("msg", …)`` (also ``message: "msg"``), as a statement or
  an expression, and ``new XException("msg")``/``new XError("msg")`` built elsewhere
  (returned by a factory, handed to a promise rejection) to be thrown later. An
  explicit ``$code`` argument (a literal or constant) is the ``errorCode``.
  ``errorClass`` is the class as written, less a leading ``\\`` (PHP prints
  ``Uncaught App\\Errors\\Missing``, never ``\\App\\…``).
* ``http``: Laravel's ``abort(404, "msg")``, ``abort_if(cond, 403, "msg")``,
  ``abort_unless(…)``, Symfony's ``throw new HttpException(404, "msg")`` and the
  ``*HttpException`` classes that fix their status (``NotFoundHttpException`` → 404).
* ``warning``: ``trigger_error("msg", E_USER_WARNING)`` (``user_error`` too); the level
  constant is the ``errorClass`` (``E_USER_NOTICE`` when none is given). ``E_USER_ERROR``
  ends the script: ``errorType`` error, severity fatal.
* ``log``: ``error_log("msg")`` and PSR-3 ``error``/``critical``/``alert``/``emergency``
  on a receiver whose name says log (``$this->logger``, ``Log::``, ``logger()``). With a
  context argument, a ``{key}`` placeholder is a hole named after the context value
  (it prints the placeholder itself when no processor replaces it, which the hole
  matches too).
* ``exit``: ``die("msg")`` / ``exit("msg")`` print the message and stop, severity fatal.

A message is read only when source says what it is: single-quoted strings (plain text),
double-quoted strings and heredocs with ``$var``/``{$expr}`` holes named after the
expression, nowdocs, ``.`` concatenations that contain a literal, ``sprintf`` with a
literal format (C printf conversions, ``%1$s`` positions), and a variable assigned
one of those earlier in the same function.

Runtime rules: an uncaught exception prints ``PHP Fatal error:  Uncaught X: msg in
file:line`` and ``trigger_error`` prints ``PHP Warning:  msg in file on line N``; the
pattern is the message alone, the text a log/trace parser extracts. A printed line
loses its trailing newline, so a message's final ``\\n`` is dropped from the pattern.

Composition (``compose.py``, ``classes.py``): a ``throw new X(…)`` carries its call, so
an exception class of the repository that writes its own message gives the site that
message; ``throw X::create(…)``, ``throw $this->error(…)``, a ``throw new X($key)`` whose
text only the class tells, and a statement like ``fail('…')`` are candidates, kept when
a producer of the repository tells their message (``\\RuntimeException(self::NOT_FOUND)``
or ``(Messages::missing($k))``: the constant's, the factory's).

``symbol`` is ``Class.method`` (classes, traits, interfaces and enums alike; no
namespace), a function's name for functions; closures belong to the function around them.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import replace
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import Captures, FileIndex, LanguageSpec, language
from errdex.languages._engine.calls import names_a_logger, nth
from errdex.languages._engine.evidence import EvidenceRules
from errdex.languages._engine.pieces import has_words, message_site, substitute
from errdex.languages._engine.snippets import Snippets, c_if, catch_block
from errdex.languages.base import (
    CallArgs,
    Site,
    ancestors,
    line_of,
    text,
)
from errdex.languages.facts import Call
from errdex.languages.logs import level_of
from errdex.languages.php.calls import (
    alternatives,
    call_of,
    callee_of,
    class_named,
    invocation,
    owner_of,
)
from errdex.languages.php.compose import COMPOSER, PHP_EXCEPTIONS
from errdex.languages.php.messages import FUNCTIONS, MESSAGES, arguments, read
from errdex.languages.php.pastes import PASTES
from errdex.languages.php.strings import Message
from errdex.records.log_statements import LogLevel
from errdex.records.model import ErrorType, Severity
from errdex.templates.template import Hole, Literal, Template, merge_literals

_CLASSES = (
    "class_declaration", "trait_declaration", "interface_declaration", "enum_declaration",
)
_HTTP_EXCEPTIONS = {
    "BadRequestHttpException": 400, "AccessDeniedHttpException": 403,
    "NotFoundHttpException": 404, "NotAcceptableHttpException": 406,
    "ConflictHttpException": 409, "GoneHttpException": 410,
    "LengthRequiredHttpException": 411, "PreconditionFailedHttpException": 412,
    "UnsupportedMediaTypeHttpException": 415, "UnprocessableEntityHttpException": 422,
    "PreconditionRequiredHttpException": 428,
}
_ABORT_STATUS_INDEX = {"abort": 0, "abort_if": 1, "abort_unless": 1}
# An exception's ``$code`` argument is an explicit code when written as a literal or constant.
_CODE_NODES = ("integer", "name", "qualified_name", "class_constant_access_expression")
_CALLS = ("function_call_expression", "scoped_call_expression", "member_call_expression")
# Calls that pass text but are no helper of a repository's: PHP's own functions, tests.
_NOT_HELPERS = frozenset({
    "trigger_error", "user_error", "error_log", "die", "exit", "printf", "sprintf", "print",
    "print_r", "var_dump", "define", "header", "setcookie", "assert", "implode", "explode",
    "in_array", "file_put_contents", "fwrite", "fprintf", "vsprintf", "error_reporting",
    "ini_set", "set_error_handler", "spl_autoload_register", "setlocale", "date",
    "__", "_e", "esc_html", "esc_html_e", "trans", "markTestSkipped", "markTestIncomplete",
    "expectExceptionMessage", "addSql",
})
_NOT_PREFIXES = ("array_", "str_", "preg_", "json_", "mb_", "session_", "assert", "is_",
                 "wp_", "add_", "do_", "apply_", "register_")
_PSR3_PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_.]+)\}")


# --- site kinds ------------------------------------------------------------------------


def _throw_site(caps: Captures, file: FileIndex) -> Site | None:
    return _creation_site(caps["throw"][0], caps["throw.new"][0], file)


def _new_site(caps: Captures, file: FileIndex) -> Site | None:
    """``return new XException("…")``, ``reject(new XError("…"))``: built to be thrown later."""
    creation = caps["new"][0]
    parent = creation.parent
    if parent is not None and parent.type == "throw_expression":
        return None  # the throw's own site
    class_node = next(
        (c for c in creation.named_children if c.type in ("name", "qualified_name")), None
    )
    if class_node is None or not text(class_node).endswith(("Exception", "Error")):
        return None
    return _creation_site(creation, creation, file)


def _creation_site(node: Node, creation: Node, file: FileIndex) -> Site | None:
    """``new X("msg", code)``; ``node`` is the statement that positions the site."""
    class_node = next(
        (c for c in creation.named_children if c.type in ("name", "qualified_name")), None
    )
    if class_node is None:
        return None  # new $class(...), anonymous classes
    error_class = class_named(text(class_node), creation)  # ``new static`` → its class
    args_node = next((c for c in creation.named_children if c.type == "arguments"), None)
    args = arguments(args_node)
    short = error_class.rsplit("\\", 1)[-1]
    status = _HTTP_EXCEPTIONS.get(short)
    first = args.positional[0] if args.positional else None
    if short == "HttpException" and first is not None and first.type == "integer":
        status = int(text(first))
        message_node = args.named.get("message") or nth(args.positional, 1)
    else:
        message_node = args.named.get("message") or first
    message = read(message_node, file)
    if status is not None:
        return _make(node, message, "http", error_class, http_status=status)
    thrown = node is not creation
    if thrown and message_node is not None and len(alternatives(message_node, file)) > 1:
        # ``$msg`` assigned per branch: each its own, through the call
        message = None
    call = _class_call(error_class, short, args_node, message_node, message is None, file,
                       creation)
    site = _make(node, message, "exception", error_class)
    if site is None and call is not None and thrown:  # a candidate
        site = Site(Template("", ()), "exception", line_of(node), error_class,
                    symbol=_symbol(node))
    if site is None:
        return None
    site = dataclasses.replace(site, call=call)
    code = args.named.get("code") or nth(args.positional, 1)
    if code is None or code.type not in _CODE_NODES or text(code) == "0":
        return site  # 0 is Exception's default: no code
    return dataclasses.replace(site, error_code=text(code))


def _class_call(error_class: str, short: str, args: Node | None, message: Node | None,
                unread: bool, file: FileIndex, at: Node) -> Call | None:
    """The producer call ``new X(…)`` makes (composed across the repository): the class,
    unless it is PHP's, whose message a factory or constant of the repository may give
    (``new \\RuntimeException(Messages::notFound($key))``, ``…(self::NOT_FOUND)``)."""
    if short not in PHP_EXCEPTIONS:
        return call_of(error_class, args, file, at)
    if not unread or message is None:
        return None
    if message.type == "class_constant_access_expression":
        return Call(text(message), owner=owner_of(at))
    if message.type in _CALLS:
        return invocation(message, file, at)
    return call_of(error_class, args, file, at)  # a ternary: each branch


def _throw_call_site(caps: Captures, file: FileIndex) -> Site | None:
    """``throw FetchError::create($request, $response)``: what the factory returns only
    its producer tells (a candidate)."""
    node, value = caps["throwcall"][0], caps["throwcall.value"][0]
    call = invocation(value, file, node)
    if call is None:
        return None
    return Site(Template("", ()), "exception", line_of(node), symbol=_symbol(node), call=call)


def _helper_site(caps: Captures, file: FileIndex) -> Site | None:
    """``fail('no store configured')`` / ``self::fail(…)`` / ``$this->fail(…)`` as a
    statement, a worded string among its arguments: a candidate, kept when composition
    finds a helper of the repository."""
    node, value = caps["helper"][0], caps["helper.call"][0]
    callee = callee_of(value, node)
    if callee is None:
        return None
    name = callee.rsplit(":", 1)[-1].rsplit(">", 1)[-1]
    if name in _NOT_HELPERS or name in _ABORT_STATUS_INDEX or name.startswith(
            ("__", *_NOT_PREFIXES)):
        return None
    found = arguments(value.child_by_field_name("arguments"))
    if not any(_worded(a) for a in [*found.positional, *found.named.values()]):
        return None
    call = call_of(callee, value.child_by_field_name("arguments"), file, node)
    warns = "warn" in name.lower()
    return Site(Template("", ()), "log" if warns else "exception", line_of(node),
                severity="warning" if warns else "error", symbol=_symbol(node), call=call)


def _worded(node: Node) -> bool:
    """A string with words (a letter and a space) in it."""
    value = text(node)
    return node.type in ("string", "encapsed_string", "heredoc") and " " in value and any(
        c.isalpha() for c in value)


def _call_site(caps: Captures, file: FileIndex) -> Site | None:
    node, name = caps["call"][0], text(caps["call.name"][0])
    args = arguments(caps["call.args"][0])
    if name in _ABORT_STATUS_INDEX:
        return _abort_site(node, args, _ABORT_STATUS_INDEX[name], file)
    message = read(args.named.get("message") or nth(args.positional, 0), file)
    if message is None:
        return None
    if name == "error_log":
        return _make(node, message, "log")
    if name in ("die", "exit"):
        return _make(node, message, "exit", severity="fatal")
    level_node = args.named.get("error_level") or nth(args.positional, 1)
    level = text(level_node).lstrip("\\") if level_node is not None else "E_USER_NOTICE"
    if level == "E_USER_ERROR":
        return _make(node, message, "error", level, severity="fatal")
    return _make(node, message, "warning", level, severity="warning")


def _abort_site(node: Node, args: CallArgs, index: int, file: FileIndex) -> Site | None:
    """Laravel ``abort(status, message)``: an HttpException with that status."""
    status = nth(args.positional, index)
    if status is None or status.type != "integer":
        return None
    message = read(args.named.get("message") or nth(args.positional, index + 1), file)
    if message is None:
        return None
    return _make(node, message, "http", http_status=int(text(status)))


def _exit_site(caps: Captures, file: FileIndex) -> Site | None:
    node = caps["exit"][0]
    value = next((c for c in node.named_children if c.type != "comment"), None)
    message = read(value, file)
    return None if message is None else _make(node, message, "exit", severity="fatal")


def _log_site(caps: Captures, file: FileIndex) -> Site | None:
    """PSR-3 ``$logger->error("… {key} …", ['key' => $value])``."""
    node = caps["log"][0]
    receiver = node.child_by_field_name("object") or node.child_by_field_name("scope")
    if receiver is None or not names_a_logger(_last_name(receiver)):
        return None
    args = arguments(caps["log.args"][0])
    message = read(args.named.get("message") or nth(args.positional, 0), file)
    if message is None:
        return None
    context = args.named.get("context") or nth(args.positional, 1)
    if context is not None:
        message = _placeholders(message, _array_keys(context))
    found = _make(node, message, "log")  # at the method's level (``languages.logs``)
    level = level_of(text(caps["log.method"][0]))
    return replace(found, level=level) if found is not None else None


# Symfony Console's style tags: ``<error>``, ``</>``, ``<fg=red;options=bold>``; printed
# without them. An ``<error>`` or ``<warning>`` tag marks the text as an error's.
_CONSOLE_TAG = re.compile(r"</?(?:error|warning|info|comment|question|[a-z]+=[^<>]*)?>")
_CONSOLE_LEVEL = re.compile(r"<(error|warning)>")


def _console_site(caps: Captures, file: FileIndex) -> Site | None:
    """``$output->writeln('<error>…</error>')`` / ``$io->writeError(…)``: a console command's
    error line, its style tags dropped (what the terminal shows); text not tagged as an
    error or a warning is no site (progress and info go out the same way)."""
    node = caps["console"][0]
    args = arguments(caps["console.args"][0])
    message = read(args.named.get("messages") or nth(args.positional, 0), file)
    if message is None:
        return None
    tagged = [m.group(1) for p in message.parts if isinstance(p, Literal)
              for m in _CONSOLE_LEVEL.finditer(p.text)]
    if not tagged:
        return None
    parts = list(merge_literals([Literal(_CONSOLE_TAG.sub("", p.text)) if isinstance(p, Literal)
                                 else p for p in message.parts]))
    if parts and isinstance(parts[0], Literal):  # a blank line printed before it
        parts[0] = Literal(parts[0].text.lstrip("\r\n"))
    shown = [p for p in parts if not isinstance(p, Literal) or p.text]
    if not has_words(shown):
        return None
    plain = Message(_CONSOLE_TAG.sub("", message.written).lstrip("\r\n"), tuple(shown))
    level: LogLevel = "error" if "error" in tagged else "warning"
    found = _make(node, plain, "log", severity="error" if level == "error" else "warning")
    return replace(found, level=level) if found is not None else None


def _make(
    node: Node, message: Message | None, error_type: ErrorType, error_class: str | None = None,
    severity: Severity = "error", http_status: int | None = None,
) -> Site | None:
    return message_site(node, message, error_type, _symbol(node), error_class,
                        severity=severity, http_status=http_status)


def _placeholders(message: Message, context: dict[str, str]) -> Message:
    """PSR-3 ``{key}`` placeholders in literal text → holes named after the context value."""
    parts = substitute(message.parts, _PSR3_PLACEHOLDER, lambda match: (
        Hole.of(context.get(match.group(1), match.group(1)), match.group(0)),
    ))
    return Message(message.written, merge_literals(parts))


def _array_keys(node: Node) -> dict[str, str]:
    """``['key' => $value]`` → key → value source."""
    out: dict[str, str] = {}
    if node.type != "array_creation_expression":
        return out
    for element in node.named_children:
        pair = [c for c in element.named_children if c.type != "comment"]
        if element.type == "array_element_initializer" and len(pair) == 2:
            key = read(pair[0], FileIndex())
            if key is not None and key.literal is not None:
                out[key.literal] = text(pair[1])
    return out


# --- arguments and names ---------------------------------------------------------------


def _last_name(node: Node) -> str:
    """``$this->logger`` → ``logger``; ``Log::channel('x')`` → ``Log``; ``logger()``."""
    if node.type in ("member_access_expression", "nullsafe_member_access_expression"):
        return text(node.child_by_field_name("name"))
    if node.type in ("member_call_expression", "nullsafe_member_call_expression"):
        inner = node.child_by_field_name("object")
        return _last_name(inner) if inner is not None else ""
    if node.type == "scoped_call_expression":
        inner = node.child_by_field_name("scope")
        return _last_name(inner) if inner is not None else ""
    if node.type == "function_call_expression":
        return text(node.child_by_field_name("function"))
    return text(node)


def _symbol(node: Node) -> str | None:
    """``Class.method`` for methods, the name for functions; None at file level."""
    function = next(
        (a for a in ancestors(node) if a.type in ("function_definition", "method_declaration")),
        None,
    )
    if function is None:
        return None
    name = text(function.child_by_field_name("name"))
    if function.type == "function_definition":
        return name
    owner = next((a for a in ancestors(function) if a.type in _CLASSES), None)
    owner_name = owner.child_by_field_name("name") if owner is not None else None
    return f"{text(owner_name)}.{name}" if owner_name is not None else name


SPEC = LanguageSpec(
    strings=MESSAGES.strings, name="php", grammar="php", extensions=(".php",),
    query=Path(__file__).with_name("queries.scm"),
    handlers=(
        ("throw", _throw_site), ("throwcall", _throw_call_site), ("new", _new_site),
        ("call", _call_site), ("helper", _helper_site),
        ("exit", _exit_site), ("log", _log_site), ("console", _console_site),
    ),
    new_index=FileIndex,
    function_types=frozenset({"function_definition", "method_declaration"}),
    scope_types=frozenset(FUNCTIONS),
    evidence=EvidenceRules(frozenset({"function_definition", "method_declaration"})),
    snippets=Snippets(
        wrap={"statements": "<?php\n%s", "member": "<?php\n%s"},
        default_class="\\Exception", validation=c_if,
        try_catch=catch_block("try {{\n    {body}\n}} catch ({cls} $e) {{\n    // {note}\n}}"),
    ),
    pastes=PASTES, compose=COMPOSER,
)
LANGUAGE = language(SPEC)
extract = LANGUAGE.extract
