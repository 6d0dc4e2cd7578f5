"""Python sites: ``raise X("…")``, ``logger.error(…)``, ``warnings.warn(…)``, ``sys.exit("…")``.

The query in ``python.scm`` finds the candidate statements and the facts needed
to read their messages (message variables, ``from warnings import warn``); this
module turns each message expression into a template. A message is read only
when its text is known from source: string literals, f-strings, ``%`` and
``str.format`` with a literal format string, ``+`` concatenations that contain
a literal, and a variable assigned one of those earlier in the function.
Anything else (``raise X(e)``) says nothing about the message, so it is no site.
"""

from __future__ import annotations

import ast
import builtins
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tree_sitter import Node

from errdex.formats import brace_hole, parse_brace_format, parse_percent_format
from errdex.languages.base import (
    FileSites,
    Language,
    Site,
    ancestors,
    inside_error,
    line_of,
    load_query,
    matches,
    parse,
    text,
)
from errdex.template import Hole, Literal, Part, Template, merge_literals

_QUERY_PATH = Path(__file__).with_name("python.scm")
_LOG_METHODS = frozenset({"error", "exception", "critical"})
_MESSAGE_KEYWORDS = ("message", "msg", "detail")
_SCOPES = frozenset({"function_definition", "class_definition", "module"})
_MAX_DEPTH = 12  # message variables that refer to message variables; stops cycles


@dataclass(frozen=True)
class _Message:
    """A message read from source: as written, as printed, and its text when it is a plain literal.

    ``literal`` is set only for messages that are one decoded string, because only
    those can serve as the format string of ``%``, ``.format`` or logging's lazy args.
    """

    written: str
    parts: tuple[Part, ...]
    literal: str | None = None


@dataclass
class _File:
    """What one file tells about messages: its message variables and imported names."""

    assignments: dict[str, list[Node]] = field(default_factory=dict)
    imports_warn: bool = False


# --- entry point -----------------------------------------------------------------------


def extract(source: bytes) -> FileSites:
    """All sites in one Python file; statements tree-sitter could not parse are skipped."""
    tree = parse("python", source)
    found = matches(load_query("python", _QUERY_PATH), tree.root_node)
    file = _index_file(found)
    sites = [site for _, caps in found if (site := _site(caps, file)) is not None]
    sites.sort(key=lambda s: s.line)
    return FileSites(sites=sites, parse_errors=tree.root_node.has_error)


def _index_file(found: list[tuple[int, dict[str, list[Node]]]]) -> _File:
    file = _File()
    for _, caps in found:
        if "assign.name" in caps:
            name = text(caps["assign.name"][0])
            outer = (caps.get("assign") or caps["assign.add"])[0]
            file.assignments.setdefault(name, []).append(outer)
        elif "import" in caps:
            file.imports_warn = True
    for nodes in file.assignments.values():
        nodes.sort(key=lambda n: n.start_byte)
    return file


def _site(caps: dict[str, list[Node]], file: _File) -> Site | None:
    if "raise" in caps:
        node = caps["raise"][0]
        build = _raise_site
    elif "call" in caps:
        node = caps["call"][0]
        build = _call_site
    else:
        return None
    if inside_error(node):
        return None
    return build(caps, file)


# --- site kinds ------------------------------------------------------------------------


def _raise_site(caps: dict[str, list[Node]], file: _File) -> Site | None:
    """``raise X(message)``: the class as written, the message from its first argument."""
    node = caps["raise"][0]
    error_class = text(caps["raise.class"][0])
    if not error_class.rsplit(".", 1)[-1][:1].isupper():  # factories: raise make_error(...)
        return None
    positional, keywords = _arguments(caps["raise.args"][0])
    if len(positional) > 1 and _is_builtin_exception(error_class):
        return None  # str() of a builtin exception with several args is their tuple's repr
    message = _read(_message_argument(positional, keywords), file)
    if message is None:
        return None
    template = Template(message.written, message.parts)
    if error_class == "KeyError":  # KeyError prints repr(key): 'k'
        template = template.with_wrapper((Literal("'"),), (Literal("'"),))
    return Site(template, "exception", line_of(node), error_class, symbol=_symbol(node))


def _call_site(caps: dict[str, list[Node]], file: _File) -> Site | None:
    node = caps["call"][0]
    method = text(caps["call.method"][0])
    receiver = caps.get("call.receiver", [None])[0]
    args = caps["call.args"][0]
    if receiver is None:
        return _warn_site(node, args, file) if file.imports_warn else None
    if method in _LOG_METHODS and "log" in _last_name(receiver).lower():
        return _log_site(node, args, file)
    if method == "warn" and text(receiver) == "warnings":
        return _warn_site(node, args, file)
    if method == "exit" and text(receiver) == "sys":
        return _exit_site(node, args, file)
    return None


def _log_site(node: Node, args: Node, file: _File) -> Site | None:
    """``logger.error(msg, *args)``: logging formats ``msg % args`` only when args are given."""
    positional, keywords = _arguments(args)
    message = _read(_message_argument(positional, keywords), file)
    if message is None:
        return None
    lazy = positional[1:]
    if lazy and message.literal is not None:
        if len(lazy) == 1 and lazy[0].type == "dictionary":
            parts = parse_percent_format(message.literal, kwargs=_dict_arguments(lazy[0]))
        else:
            parts = parse_percent_format(message.literal, [text(a) for a in lazy])
        message = _Message(message.literal, parts)
    template = Template(message.written, message.parts)
    return Site(template, "log", line_of(node), severity="error", symbol=_symbol(node))


def _warn_site(node: Node, args: Node, file: _File) -> Site | None:
    """``warn(message, Category)`` or ``warn(Category(message))``; UserWarning by default."""
    positional, keywords = _arguments(args)
    first = _message_argument(positional, keywords)
    category = keywords.get("category") or (positional[1] if len(positional) > 1 else None)
    if first is not None and first.type == "call" and _is_class_call(first):
        category = first.child_by_field_name("function")
        inner, inner_keywords = _arguments(first.child_by_field_name("arguments"))
        first = _message_argument(inner, inner_keywords)
    message = _read(first, file)
    if message is None:
        return None
    return Site(
        Template(message.written, message.parts), "warning", line_of(node),
        text(category) if category is not None else "UserWarning",
        severity="warning", symbol=_symbol(node),
    )


def _exit_site(node: Node, args: Node, file: _File) -> Site | None:
    """``sys.exit("message")`` prints the message and exits 1; an int status is no message."""
    positional, _ = _arguments(args)
    message = _read(positional[0] if positional else None, file)
    if message is None:
        return None
    template = Template(message.written, message.parts)
    return Site(template, "exit", line_of(node), severity="fatal", symbol=_symbol(node))


# --- arguments and names ---------------------------------------------------------------


def _arguments(args: Node | None) -> tuple[list[Node], dict[str, Node]]:
    """Positional argument nodes and keyword name → value node (splats dropped)."""
    positional: list[Node] = []
    keywords: dict[str, Node] = {}
    for child in args.named_children if args is not None else ():
        if child.type == "keyword_argument":
            name, value = child.child_by_field_name("name"), child.child_by_field_name("value")
            if name is not None and value is not None:
                keywords[text(name)] = value
        elif child.type not in ("list_splat", "dictionary_splat", "comment"):
            positional.append(child)
    return positional, keywords


def _message_argument(positional: list[Node], keywords: dict[str, Node]) -> Node | None:
    if positional:
        return positional[0]
    return next((keywords[k] for k in _MESSAGE_KEYWORDS if k in keywords), None)


def _dict_arguments(node: Node) -> dict[str, str]:
    """``{"key": expr}`` → key → expression text, for ``%(key)s`` holes."""
    out: dict[str, str] = {}
    for pair in node.named_children:
        key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
        if pair.type == "pair" and key is not None and value is not None:
            decoded = _literal_string(key)
            if decoded is not None:
                out[decoded] = text(value)
    return out


def _last_name(node: Node) -> str:
    """``self._log`` → ``_log``; ``logging.getLogger(x)`` → ``getLogger``."""
    if node.type == "call":
        return _last_name(node.child_by_field_name("function") or node)
    if node.type == "attribute":
        return text(node.child_by_field_name("attribute"))
    return text(node)


def _is_class_call(node: Node) -> bool:
    function = node.child_by_field_name("function")
    return function is not None and function.type in ("identifier", "attribute") and (
        _last_name(function)[:1].isupper()
    )


def _is_builtin_exception(name: str) -> bool:
    value = getattr(builtins, name, None)
    return isinstance(value, type) and issubclass(value, BaseException)


def _symbol(node: Node) -> str | None:
    """Enclosing classes and functions, outermost first: ``Store.open``; None at module level."""
    names = [
        text(a.child_by_field_name("name"))
        for a in ancestors(node)
        if a.type in ("function_definition", "class_definition")
    ]
    return ".".join(reversed(names)) or None


# --- messages --------------------------------------------------------------------------


def _read(node: Node | None, file: _File, depth: int = 0) -> _Message | None:
    """The message an expression prints, when source says what it is."""
    if node is None or depth > _MAX_DEPTH:
        return None
    kind = node.type
    if kind == "parenthesized_expression":
        return _read(_unwrap(node), file, depth + 1) if node.named_child_count == 1 else None
    if kind == "string":
        return _string(node)
    if kind == "concatenated_string":
        return _joined([_string(part) for part in node.named_children])
    if kind == "binary_operator":
        return _binary(node, file, depth)
    if kind == "call":
        return _format_call(node, file, depth)
    if kind == "identifier":
        return _variable(node, file, depth)
    return None


def _joined(messages: list[_Message | None]) -> _Message | None:
    """Messages printed one after another (implicit concatenation, ``+``, ``+=``)."""
    if not messages or any(m is None for m in messages):
        return None
    present = [m for m in messages if m is not None]
    literals = [m.literal for m in present]
    literal = "".join(lit for lit in literals if lit is not None)
    return _Message(
        "".join(m.written for m in present),
        merge_literals([p for m in present for p in m.parts]),
        literal if all(lit is not None for lit in literals) else None,
    )


def _binary(node: Node, file: _File, depth: int) -> _Message | None:
    operator = text(node.child_by_field_name("operator"))
    if operator == "%":
        left = _read(node.child_by_field_name("left"), file, depth + 1)
        right = _unwrap(node.child_by_field_name("right"))
        if left is None or left.literal is None or right is None:
            return None
        if right.type == "dictionary":
            parts = parse_percent_format(left.literal, kwargs=_dict_arguments(right))
        elif right.type == "tuple":
            parts = parse_percent_format(left.literal, [text(a) for a in right.named_children])
        else:
            parts = parse_percent_format(left.literal, [text(right)])
        return _Message(left.literal, parts)
    if operator == "+":
        return _concatenation(node, file, depth)
    return None


def _unwrap(node: Node | None) -> Node | None:
    """``(x)`` → ``x``; a tuple keeps its parentheses' meaning."""
    while node is not None and node.type == "parenthesized_expression" and (
        node.named_child_count == 1
    ):
        node = node.named_children[0]
    return node


def _concatenation(node: Node, file: _File, depth: int) -> _Message | None:
    """``"a " + str(x) + " b"``: literal operands as text, the others as holes named after them."""
    operands = list(_plus_operands(node))
    read = [_read(op, file, depth + 1) for op in operands]
    if all(m is None for m in read):
        return None  # no text known: a + b may well be arithmetic
    pieces = zip(operands, read, strict=True)
    return _joined([m if m is not None else _operand_hole(op) for op, m in pieces])


def _plus_operands(node: Node) -> Iterator[Node]:
    if node.type == "binary_operator" and text(node.child_by_field_name("operator")) == "+":
        for side in ("left", "right"):
            child = node.child_by_field_name(side)
            if child is not None:
                yield from _plus_operands(child)
    else:
        yield node


def _operand_hole(node: Node) -> _Message:
    """A non-literal ``+`` operand: ``str(x)`` prints as the hole ``x``."""
    name = text(node)
    function = node.child_by_field_name("function") if node.type == "call" else None
    positional, keywords = _arguments(node.child_by_field_name("arguments"))
    if text(function) in ("str", "repr") and len(positional) == 1 and not keywords:
        name = text(positional[0])
    return _Message("{" + name + "}", (Hole.of(name, "{" + name + "}"),))


def _format_call(node: Node, file: _File, depth: int) -> _Message | None:
    """``"…{}…".format(a, k=b)``."""
    function = node.child_by_field_name("function")
    if function is None or function.type != "attribute":
        return None
    if text(function.child_by_field_name("attribute")) != "format":
        return None
    base = _read(function.child_by_field_name("object"), file, depth + 1)
    if base is None or base.literal is None:
        return None
    positional, keywords = _arguments(node.child_by_field_name("arguments"))
    parts = parse_brace_format(
        base.literal, [text(a) for a in positional], {k: text(v) for k, v in keywords.items()}
    )
    return _Message(base.literal, parts)


def _variable(node: Node, file: _File, depth: int) -> _Message | None:
    """A message variable: its nearest assignment above, in this function or an enclosing one."""
    assignment = _nearest_assignment(text(node), node, file)
    if assignment is None:
        return None
    value = _read(assignment.child_by_field_name("right"), file, depth + 1)
    if assignment.type == "augmented_assignment":
        before = _variable(assignment.child_by_field_name("left") or assignment, file, depth + 1)
        return _joined([before, value])
    return value


def _nearest_assignment(name: str, at: Node, file: _File) -> Node | None:
    candidates = file.assignments.get(name, [])
    for scope in _visible_scopes(at):
        above = [
            a for a in candidates
            if a.end_byte <= at.start_byte and _scope_of(a) == scope
        ]
        if above:
            return above[-1]
        if scope.type == "function_definition" and name in _parameter_names(scope):
            return None  # a parameter: its value comes from the caller
    return None


def _scope_of(node: Node) -> Node | None:
    return next((a for a in ancestors(node) if a.type in _SCOPES), None)


def _visible_scopes(node: Node) -> Iterator[Node]:
    """Scopes whose names an expression sees: its own, then enclosing functions and the module."""
    first = True
    for scope in ancestors(node):
        if scope.type in _SCOPES and (first or scope.type != "class_definition"):
            first = False
            yield scope


def _parameter_names(function: Node) -> set[str]:
    params = function.child_by_field_name("parameters")
    names: set[str] = set()
    for param in params.named_children if params is not None else ():
        if param.type == "identifier":
            names.add(text(param))
            continue
        name = param.child_by_field_name("name")
        ident = name if name is not None else next(
            (c for c in param.named_children if c.type == "identifier"), None
        )
        if ident is not None:
            names.add(text(ident))
    return names


# --- string literals -------------------------------------------------------------------


def _string(node: Node) -> _Message | None:
    """One string literal (plain, raw, triple-quoted or f-string); bytes are no message."""
    prefix = text(node.child(0)).lower().rstrip("'\"")
    if "b" in prefix:
        return None
    if "f" not in prefix:
        decoded = _literal_string(node)
        return None if decoded is None else _Message(decoded, (Literal(decoded),), decoded)
    return _fstring(node, raw="r" in prefix)


def _literal_string(node: Node) -> str | None:
    if node.type not in ("string", "concatenated_string"):
        return None
    try:
        with warnings.catch_warnings():  # invalid escapes like "\\d" warn, and stay as written
            warnings.simplefilter("ignore")
            value = ast.literal_eval("(\n" + text(node) + "\n)")
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


def _fstring(node: Node, raw: bool) -> _Message:
    """An f-string: written is the text between the quotes, each interpolation a hole."""
    start, end = node.children[0], node.children[-1]  # string_start, string_end
    source = node.text or b""
    written = source[start.end_byte - node.start_byte : end.start_byte - node.start_byte]
    parts: list[Part] = []
    for child in node.named_children:
        if child.type == "string_content":
            parts.append(Literal(_content(child, raw)))
        elif child.type == "interpolation":
            parts.extend(_interpolation(child))
    return _Message(_decode(written), merge_literals(parts))


def _content(node: Node, raw: bool) -> str:
    """A piece of f-string text with its escapes (``\\n``, ``{{``) decoded."""
    source = node.text or b""
    out: list[str] = []
    pos = node.start_byte
    for child in node.children:
        out.append(_decode(source[pos - node.start_byte : child.start_byte - node.start_byte]))
        pos = child.end_byte
        if child.type == "escape_interpolation":
            out.append(text(child)[0])
        elif child.type == "escape_sequence" and not raw:
            out.append(ast.literal_eval('"' + text(child) + '"'))
        else:
            out.append(text(child))
    out.append(_decode(source[pos - node.start_byte :]))
    return "".join(out)


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _interpolation(node: Node) -> list[Part]:
    """``{x!r:>8}`` → a hole named ``x``; ``{x=}`` also prints ``x=`` before the value."""
    expression = node.child_by_field_name("expression")
    name = text(expression)
    conversion = spec = None
    parts: list[Part] = []
    for child in node.children:
        if child.type == "type_conversion":
            conversion = text(child)[1:]
        elif child.type == "format_specifier":
            spec = text(child)[1:]
        elif child.type == "=" and child.next_sibling is not None:
            # The expression text is printed verbatim, spaces around `=` included.
            debug = (node.text or b"")[1 : child.next_sibling.start_byte - node.start_byte]
            parts.append(Literal(_decode(debug)))
    if parts and conversion is None and spec is None:
        conversion = "r"  # f"{x=}" prints repr(x) unless told otherwise
    parts.append(brace_hole(name, conversion, spec or "", text(node)))
    return parts


LANGUAGE = Language(name="python", grammar="python", extensions=(".py", ".pyi"), extract=extract)
