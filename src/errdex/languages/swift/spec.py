"""Swift sites: runtime traps, thrown errors with messages, ``LocalizedError`` texts, os.Logger.

What is a site (``errorType``):

* ``panic``: ``fatalError("msg")``, ``precondition(cond, "msg")``,
  ``preconditionFailure("msg")``, ``assert(cond, "msg")``, ``assertionFailure("msg")``.
  They trap, so severity is fatal (``assert`` only traps in debug builds).
* ``exception``: ``throw MyError(message: "msg")`` (labels ``message``, ``msg``,
  ``reason``, ``description``, ``errorDescription``, ``details``, or the first unlabelled
  argument that reads as a message), ``throw NSError(domain:, code:, userInfo:
  [NSLocalizedDescriptionKey: "msg"])`` (``errorCode`` is the literal ``code``), and
  each ``return "msg"`` (or single-expression ``case``) of a ``LocalizedError``'s
  ``errorDescription`` or an error type's ``localizedDescription`` property
  (``errorClass`` ``E.case`` from the ``switch self`` entry, ``E`` outside one). Swift's ``throw``
  unwinds to a ``catch`` like an exception, hence the type. ``throw E.case(…)``, an error
  handed on (``promise.fail(E.case)``, ``.failure(E.case)``, ``resume(throwing: E.case)``,
  ``makeFailedFuture``), ``let error = E.case(…)`` in a function (handed on by name
  later) and a call statement passing text are candidates: the error type's text,
  composed across the repository (``compose.py``), is their message; a case its type's
  description does not spell prints as the case itself (``reflection.py``).
* ``log``: ``error``/``fault``/``critical`` on a receiver whose name says log.

A message is read only when source says what it is: string literals (``\\(expr)``
holes named after the expression; multi-line literals with their indentation removed
as Swift does; raw ``#"…"#`` literals), ``+`` concatenations that contain a literal,
``String(format:)`` (C printf; ``%@`` prints an object), ``NSLocalizedString("text",
…)``/``String(localized:)`` (the development-language text), and a ``let``/``var``
assigned one of those earlier in the same function.

Runtime rules: a trap prints ``file:line: Fatal error: msg`` (``Precondition failed:``,
``Assertion failed:`` for the conditional forms); the pattern is the message alone,
as for every other language's panic. ``localizedDescription`` is the message itself.
A printed line loses its trailing newline, so a final ``\\n`` is dropped.

``symbol`` is ``Type.method`` (``Type.init``, ``Type.errorDescription``), nested types
joined with ``.``, extensions named after the extended type; free functions by name.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import Captures, FileIndex, LanguageSpec, language
from errdex.languages._engine.calls import call_args, names_a_logger, nth
from errdex.languages._engine.evidence import EvidenceRules
from errdex.languages._engine.message import joined
from errdex.languages._engine.pieces import concatenation, has_words, message_site
from errdex.languages._engine.reader import MessageTable, Reader, read_with
from errdex.languages._engine.snippets import Snippets, braced_if, catch_block
from errdex.languages.base import (
    CallArgs,
    Site,
    ancestors,
    line_of,
    text,
)
from errdex.languages.facts import Call
from errdex.languages.logs import level_of
from errdex.languages.swift import calls, compose
from errdex.languages.swift.strings import Message, raw_string, string
from errdex.records.model import ErrorType, Severity
from errdex.templates.formats import parse_printf
from errdex.templates.template import Hole, Template

_TRAP_MESSAGE_INDEX = {
    "fatalError": 0, "preconditionFailure": 0, "assertionFailure": 0,
    "precondition": 1, "assert": 1,
}
_MESSAGE_LABELS = (
    "message", "msg", "reason", "description", "errorDescription", "details", "detail",
)
_FUNCTIONS = (
    "function_declaration", "init_declaration", "deinit_declaration",
    "subscript_declaration", "lambda_literal", "computed_property", "source_file",
)
_TYPES = ("class_declaration", "protocol_declaration")
# Calls that hand an error on: a promise's, a Result's, a continuation's.
_DELIVERS = frozenset({"fail", "failure", "makeFailedFuture", "resume"})
# Calls that pass text but are no helper of a repository's: printing, traps, logging.
_NOT_HELPERS = frozenset({
    "print", "debugPrint", "NSLog", "fatalError", "precondition", "preconditionFailure",
    "assert", "assertionFailure", "error", "fault", "critical", "info", "debug", "warning",
    "notice", "log", "trace", "append", "String", "NSLocalizedString", "XCTFail",
})
_STRINGS = ("line_string_literal", "multi_line_string_literal", "raw_string_literal")


# --- site kinds ------------------------------------------------------------------------


def _trap_sites(caps: Captures, file: FileIndex) -> list[Site]:
    node = caps["trap"][0]
    args = _arguments(caps["trap.args"][0])
    message = _read(nth(args.positional, _TRAP_MESSAGE_INDEX[text(caps["trap.name"][0])]), file)
    return _make(node, message, "panic", severity="fatal")


def _throw_sites(caps: Captures, file: FileIndex) -> list[Site]:
    """``throw MyError(message: "…")`` and ``throw NSError(… userInfo: [key: "…"])``."""
    node, call = caps["throw"][0], caps["throw.call"][0]
    callee = call.named_children[0] if call.named_child_count else None
    suffix = next((c for c in call.named_children if c.type == "call_suffix"), None)
    if callee is None or suffix is None:
        return []
    error_class = text(callee)
    made = calls.thrown_call(call, file, _read)
    if not error_class.rsplit(".", 1)[-1][:1].isupper():
        # an enum case (E.bad("x")) or a factory: only the error type's text tells
        return [_candidate(node, made)] if made is not None else []
    args = _arguments(next((c for c in suffix.named_children if c.type == "value_arguments"), None))
    if error_class == "NSError":
        return _nserror_sites(node, args, file)
    label = next((k for k in _MESSAGE_LABELS if k in args.named), None)
    if label is not None:
        message = _read(args.named[label], file)
    else:
        message = next((m for a in args.positional if (m := _read(a, file)) is not None), None)
    sites = _make(node, message, "exception", error_class)
    if made is None:
        return sites
    if sites:
        return [replace(s, call=made) for s in sites]
    # Only the type can tell (a Swift type prints no argument of its own): a candidate,
    # unless its first argument is a number (``HTTPError(code: 500)`` is no message "500"
    # when the type is another package's).
    first = made.args[0] if made.args else ()
    if first and all(not t.holes and not has_words(t.parts) for t in first):
        return []
    return [_candidate(node, made, error_class)]


def _made_sites(caps: Captures, file: FileIndex) -> list[Site]:
    """``let error = NetError.failed(reason: .badStatus(code: s))`` in a function: an error
    value made here and thrown or handed on by name later, its text the type's."""
    node = caps["assign"][0]
    value = node.child_by_field_name("value")
    scope = next((a for a in ancestors(node) if a.type in _FUNCTIONS), None)
    if value is None or scope is None or scope.type == "source_file" or value.type not in (
            "call_expression", "navigation_expression"):
        return []
    made = calls.thrown_call(value, file, _read)
    if made is None or "(" in made.callee or not made.named()[:1].islower():
        return []  # ``E.case`` only: a type's init, a function, are no error value
    kind = made.qualifier() or ""
    if not any(word in kind for word in ("Error", "Failure", "Exception")):
        return []
    return [_candidate(node, made)]


def _throw_case_sites(caps: Captures, file: FileIndex) -> list[Site]:
    """``throw StoreError.closed``: a case without values, its text in the error type."""
    node, value = caps["throwcase"][0], caps["throwcase.value"][0]
    made = calls.thrown_call(value, file, _read)
    return [_candidate(node, made)] if made is not None else []


def _helper_sites(caps: Captures, file: FileIndex) -> list[Site]:
    """``try fail("no config")``: a call statement passing text, a candidate in case the
    callee is one of the repository's helpers that throw."""
    node, function = caps["helper"][0], caps["helper.function"][0]
    parent = node.parent
    if parent is not None and parent.type == "try_expression":
        parent = parent.parent
    name = _last_name(function)
    if parent is None or parent.type != "statements" or name in _NOT_HELPERS or (
            not name[:1].islower()):
        return []  # a type's initializer as a statement is a SwiftUI view (Text("…")), no helper
    if function.type == "navigation_expression":
        target = function.child_by_field_name("target")
        receiver = text(target)
        if target is None or target.type not in ("simple_identifier", "self_expression") or (
                not receiver[:1].isupper() and receiver != "self"):
            return []
    args = _arguments(caps["helper.args"][0])
    if not any(m is not None and m.has_text() for m in (_read(a, file) for a in args.positional)):
        return []
    made = calls.call_of(text(function), caps["helper.args"][0], file, node, _read)
    return [_candidate(node, made)]


def _deliver_sites(caps: Captures, file: FileIndex) -> list[Site]:
    """``promise.fail(E.x)``, ``makeFailedFuture(E.x)``, ``.failure(E.x)``,
    ``resume(throwing: E.x)``: an error handed on rather than thrown, its text the type's."""
    node, function, value = caps["deliver"][0], caps["deliver.function"][0], caps[
        "deliver.value"][0]
    name = text(function).lstrip(".") if function.type == "prefix_expression" else (
        _last_name(function))
    argument = value.parent
    arguments = argument.parent if argument is not None else None
    if name not in _DELIVERS or arguments is None or sum(
            1 for c in arguments.named_children if c.type == "value_argument") != 1:
        return []
    label = text(argument.child_by_field_name("name")).strip() if argument is not None else ""
    if label != ("throwing" if name == "resume" else ""):
        return []
    made = calls.thrown_call(value, file, _read) if value.type in (
        "navigation_expression", "call_expression") else None
    if made is None or not made.callee[:1].isupper() or "(" in made.callee:
        return []
    first = made.args[0] if made.args and made.named()[:1].isupper() else ()
    if first and all(not t.holes and not has_words(t.parts) for t in first):
        return []  # a type's init given a number (see ``_throw_sites``)
    return [_candidate(node, made)]


def _candidate(node: Node, call: Call, error_class: str | None = None) -> Site:
    """A throw whose message only composition can tell (an empty template)."""
    return Site(Template("", ()), "exception", line_of(node), error_class,
                symbol=_symbol(node), call=call)


def _nserror_sites(node: Node, args: CallArgs, file: FileIndex) -> list[Site]:
    info = args.named.get("userInfo")
    if info is None or info.type != "dictionary_literal":
        return []
    keys = [c for c in info.children if info.field_name_for_child(_index(info, c)) == "key"]
    values = [c for c in info.children if info.field_name_for_child(_index(info, c)) == "value"]
    message = next(
        (_read(v, file) for k, v in zip(keys, values, strict=False)
         if text(k).endswith("NSLocalizedDescriptionKey")),
        None,
    )
    sites = _make(node, message, "exception", "NSError")
    code = args.named.get("code")
    if code is not None and code.type == "integer_literal":
        sites = [replace(s, error_code=text(code)) for s in sites]
    return sites


def _index(parent: Node, child: Node) -> int:
    return next(i for i, c in enumerate(parent.children) if c == child)


def _log_sites(caps: Captures, file: FileIndex) -> list[Site]:
    if not names_a_logger(_last_name(caps["log.receiver"][0])):
        return []
    args = _arguments(caps["log.args"][0])
    level = level_of(text(caps["log.method"][0]))  # os.Logger's levels: ``languages.logs``
    return [replace(site, level=level)
            for site in _make(caps["log"][0], _read(nth(args.positional, 0), file), "log")]


def _describe_sites(caps: Captures, file: FileIndex) -> list[Site]:
    """Each literal an ``errorDescription`` returns, classed by its ``switch self`` case."""
    body = caps["describe.body"][0]
    owner = ".".join(reversed([_type_name(a) for a in ancestors(body) if a.type in _TYPES]))
    sites: list[Site] = []
    for value, at in _returned_values(body):
        entry = next((a for a in ancestors(at) if a.type == "switch_entry"), None)
        cases = _case_names(entry) if entry is not None else []
        classes: list[str | None] = [f"{owner}.{case}" if owner else case for case in cases]
        classes = classes or [owner or None]
        for error_class in classes:
            sites.extend(_make(at, _read(value, file), "exception", error_class))
    return sites


def _returned_values(body: Node) -> list[tuple[Node, Node]]:
    """(value, statement) for each ``return value`` and each single-expression switch entry."""
    found: list[tuple[Node, Node]] = []
    stack = list(body.named_children)
    while stack:
        node = stack.pop()
        if node.type in ("lambda_literal", "function_declaration"):
            continue
        result = node.child_by_field_name("result")
        if node.type == "control_transfer_statement" and result is not None:
            found.append((result, node))
            continue
        if node.type == "statements" and node.parent is not None and (
            node.parent.type == "switch_entry" and node.named_child_count == 1
            and node.named_children[0].type != "control_transfer_statement"
        ):  # a switch expression's value (Swift 5.9); _read says whether it is a message
            found.append((node.named_children[0], node.named_children[0]))
            continue
        stack.extend(node.named_children)
    return sorted(found, key=lambda pair: pair[1].start_byte)


def _case_names(entry: Node) -> list[str]:
    """``case .a(let x), .b:`` → ``["a", "b"]``; ``default`` → ``[]``."""
    names: list[str] = []
    for pattern in (c for c in entry.named_children if c.type == "switch_pattern"):
        stack = [pattern]
        while stack:
            node = stack.pop(0)
            before = node.prev_sibling
            if node.type == "simple_identifier" and before is not None and before.type == ".":
                names.append(text(node))
                break
            stack[:0] = node.children
    return names


def _make(
    node: Node, message: Message | None, error_type: ErrorType,
    error_class: str | None = None, severity: Severity = "error",
) -> list[Site]:
    site = message_site(node, message, error_type, _symbol(node), error_class, severity=severity)
    return [] if site is None else [site]


# --- arguments and names ---------------------------------------------------------------


def _split_argument(argument: Node) -> tuple[Node | None, Node] | None:
    if argument.type != "value_argument":
        return None
    value = argument.child_by_field_name("value")
    return None if value is None else (argument.child_by_field_name("name"), value)


_arguments = partial(call_args, split=_split_argument)


def _last_name(node: Node) -> str:
    """``Self.logger`` → ``logger``; ``log`` → ``log``."""
    if node.type == "navigation_expression":
        suffix = node.child_by_field_name("suffix")
        inner = suffix.child_by_field_name("suffix") if suffix is not None else None
        return text(inner)
    return text(node)


def _type_name(node: Node | None) -> str:
    """``Store`` for ``class Store<T>``, ``Outer.Inner`` for ``extension Outer.Inner``."""
    if node is None:
        return ""
    name = node.child_by_field_name("name")
    if name is None:
        return ""
    if name.type == "user_type":
        return ".".join(text(c) for c in name.named_children if c.type == "type_identifier")
    return text(name)


def _symbol(node: Node) -> str | None:
    """``Outer.Type.method``; the function's name for free functions; None at top level."""
    member: str | None = None
    types: list[str] = []
    for ancestor in ancestors(node):
        if member is None and not types:
            member = _member_name(ancestor)
        if ancestor.type in _TYPES:
            types.append(_type_name(ancestor))
    names = [*reversed(types), *([member] if member else [])]
    return ".".join(names) or None


def _member_name(node: Node) -> str | None:
    if node.type == "function_declaration":
        return text(node.child_by_field_name("name"))
    if node.type in ("init_declaration", "deinit_declaration"):
        return node.type.removesuffix("_declaration")
    if node.type == "subscript_declaration":
        return "subscript"
    if node.type == "property_declaration" and node.child_by_field_name("computed_value"):
        pattern = node.child_by_field_name("name")
        return text(pattern.child_by_field_name("bound_identifier")) if pattern else None
    return None


# --- messages --------------------------------------------------------------------------


def _read(node: Node | None, file: FileIndex) -> Message | None:
    """The message an expression prints, when source says what it is."""
    return read_with(_MESSAGES, file, node)


def _concatenation(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``"a " + x``: tree-sitter-swift names its sides ``lhs``/``rhs`` and the operator ``op``."""
    return concatenation(
        _plus_operands(node), lambda op: reader.read(op, depth + 1), lambda op: _hole(text(op))
    )


def _plus_operands(node: Node) -> list[Node]:
    if node.type != "additive_expression":
        return [node]
    if text(node.child_by_field_name("op")) != "+":
        return []
    sides = (node.child_by_field_name("lhs"), node.child_by_field_name("rhs"))
    out: list[Node] = []
    for side in sides:
        if side is None:
            return []
        inner = _plus_operands(side)
        if not inner:
            return []
        out.extend(inner)
    return out


def _hole(expression: str) -> Message:
    return Message("\\(" + expression + ")", (Hole.of(expression, "\\(" + expression + ")"),))


def _call(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``String(format:…)``, ``NSLocalizedString("text", …)``, ``String(localized: "text")``."""
    suffix = next((c for c in node.named_children if c.type == "call_suffix"), None)
    first = node.named_children[0] if node.named_child_count else None
    if first is not None and first.type == "additive_expression" and suffix is not None:
        return _misparsed_concatenation(reader, first, suffix, depth)
    callee = text(first)
    args = _arguments(
        next((c for c in suffix.named_children if c.type == "value_arguments"), None)
        if suffix is not None else None
    )
    if callee == "NSLocalizedString":
        return reader.read(nth(args.positional, 0), depth + 1)
    if callee != "String":
        return None
    if "localized" in args.named:
        return reader.read(args.named["localized"], depth + 1)
    fmt = reader.read(args.named.get("format"), depth + 1)
    if fmt is None or fmt.literal is None:
        return None
    # `%@` prints an object's description: the same shape as C's `%s`.
    c_format = fmt.literal.replace("%%", "\0").replace("%@", "%s").replace("\0", "%%")
    return Message(fmt.literal, parse_printf(c_format, [text(a) for a in args.positional]))


def _misparsed_concatenation(
    reader: Reader[FileIndex], left: Node, suffix: Node, depth: int
) -> Message | None:
    """``"a " + String(x)``, which tree-sitter-swift reads as ``("a " + String)(x)``:
    the call belongs to the last operand."""
    operands = _plus_operands(left)
    if not operands:
        return None
    read = [reader.read(op, depth + 1) for op in operands[:-1]]
    if all(m is None for m in read):
        return None
    holes = [_hole(text(op)) for op in operands[:-1]]
    last = _hole(text(operands[-1]) + text(suffix))
    return joined([m or h for m, h in zip(read, holes, strict=True)] + [last])


_MESSAGES: MessageTable[FileIndex] = MessageTable(
    strings={
        "line_string_literal": string, "multi_line_string_literal": string,
        "raw_string_literal": raw_string,
    },
    variables=frozenset({"simple_identifier"}), scopes=frozenset(_FUNCTIONS),
    values={"property_declaration": "value"},
    rules={"additive_expression": _concatenation, "call_expression": _call},
)


SPEC = LanguageSpec(
    strings=_MESSAGES.strings, name="swift", grammar="swift", extensions=(".swift",),
    query=Path(__file__).with_name("queries.scm"),
    handlers=(
        ("trap", _trap_sites), ("throw", _throw_sites), ("log", _log_sites),
        ("describe", _describe_sites), ("throwcase", _throw_case_sites),
        ("helper", _helper_sites), ("deliver", _deliver_sites), ("assign", _made_sites),
    ),
    new_index=FileIndex,
    function_types=frozenset(_FUNCTIONS) - {"lambda_literal", "source_file"},
    scope_types=frozenset(_FUNCTIONS),
    evidence=EvidenceRules(frozenset({"function_declaration", "init_declaration"})),
    snippets=Snippets(
        default_class="Error", terminated=False, validation=braced_if,
        try_catch=catch_block("do {{\n    try {body}\n}} catch {{\n    // {note}\n}}"),
    ),
    compose=compose.composer(_read),
)
LANGUAGE = language(SPEC)
extract = LANGUAGE.extract
