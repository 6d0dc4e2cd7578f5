"""Reading Python message expressions: literals, f-strings, ``%``, ``.format``, ``+``, variables.

A message is read only when its text is known from source: string literals,
f-strings, ``%`` and ``str.format`` with a literal format string, ``+``
concatenations that contain a literal, gettext wrappers around any of those
(``_("…")``, ``gettext_lazy("…")``: the English text is the message), a
variable assigned one of those earlier in the function, and ``self.attr`` /
``cls.attr`` assigned one of those in the enclosing class body (DRF and Django keep
messages there: ``invalid_page_message = _("Invalid page.")``). Anything else
(``raise X(e)``) says nothing about the message. Shared by ``spec.py`` (raise,
log, warn, exit) and ``web.py`` (HTTP errors).
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator

from tree_sitter import Node

from errdex.languages._engine import FileIndex, Message, joined, operand_hole
from errdex.languages._engine.reader import MessageTable, Reader
from errdex.languages.base import ancestors, text
from errdex.languages.python.joins import list_join
from errdex.templates.formats import brace_hole, parse_brace_format, parse_percent_format
from errdex.templates.template import Literal, Part, merge_literals

MESSAGE_KEYWORDS = ("message", "msg", "detail", "description")
_SCOPES = frozenset({"function_definition", "class_definition", "module"})
_MAX_DEPTH = 12  # message variables that refer to message variables; stops cycles
# gettext and friends return their (English) argument; pgettext's first argument is context.
_GETTEXT = frozenset({
    "_", "gettext", "gettext_lazy", "ugettext", "ugettext_lazy", "gettext_noop", "_lazy",
    "lazy_gettext", "N_", "_LI", "_LW", "_LE", "_LC",  # oslo.i18n's log-level markers
})
_GETTEXT_CONTEXT = frozenset({"pgettext", "pgettext_lazy"})
# Plural forms: how many leading arguments (a context) come before singular and plural.
_NGETTEXT = {"ngettext": 0, "ungettext": 0, "ngettext_lazy": 0, "npgettext": 1,
             "npgettext_lazy": 1}


# --- arguments and names ---------------------------------------------------------------


def arguments(args: Node | None) -> tuple[list[Node], dict[str, Node]]:
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


def message_argument(positional: list[Node], keywords: dict[str, Node]) -> Node | None:
    if positional:
        return positional[0]
    return next((keywords[k] for k in MESSAGE_KEYWORDS if k in keywords), None)


def dict_arguments(node: Node) -> dict[str, str]:
    """``{"key": expr}`` → key → expression text, for ``%(key)s`` holes."""
    return {key: text(value) for key, value in dict_items(node).items()}


def dict_items(node: Node) -> dict[str, Node]:
    """``{"key": expr}`` → key → value node, for keys that are plain strings."""
    out: dict[str, Node] = {}
    for pair in node.named_children:
        key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
        if pair.type == "pair" and key is not None and value is not None:
            decoded = literal_string(key)
            if decoded is not None:
                out[decoded] = value
    return out


def last_name(node: Node) -> str:
    """``self._log`` → ``_log``; ``logging.getLogger(x)`` → ``getLogger``."""
    if node.type == "call":
        return last_name(node.child_by_field_name("function") or node)
    if node.type == "attribute":
        return text(node.child_by_field_name("attribute"))
    return text(node)


def is_class_call(node: Node) -> bool:
    function = node.child_by_field_name("function")
    return function is not None and function.type in ("identifier", "attribute") and (
        last_name(function)[:1].isupper()
    )


def symbol_of(node: Node) -> str | None:
    """Enclosing classes and functions, outermost first: ``Store.open``; None at module level."""
    names = [
        text(a.child_by_field_name("name"))
        for a in ancestors(node)
        if a.type in ("function_definition", "class_definition")
    ]
    return ".".join(reversed(names)) or None


def unwrap(node: Node | None) -> Node | None:
    """``(x)`` → ``x`` (a comment inside the parentheses aside); a tuple keeps its
    parentheses' meaning."""
    while node is not None and node.type == "parenthesized_expression":
        inner = [c for c in node.named_children if c.type != "comment"]
        if len(inner) != 1:
            break
        node = inner[0]
    return node


# --- messages --------------------------------------------------------------------------


def read(node: Node | None, file: FileIndex, depth: int = 0) -> Message | None:
    """The message an expression prints, when source says what it is."""
    return Reader(_TABLE, file).read(node, depth)


def _percent(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``"…%s…" % args``: printf-style holes named after the arguments."""
    left = reader.read(node.child_by_field_name("left"), depth + 1)
    right = unwrap(node.child_by_field_name("right"))
    if left is None or left.literal is None or right is None:
        return None
    if right.type == "dictionary":
        parts = parse_percent_format(left.literal, kwargs=dict_arguments(right))
    elif right.type == "tuple":
        parts = parse_percent_format(left.literal, [text(a) for a in right.named_children])
    else:
        parts = parse_percent_format(left.literal, [text(right)])
    return Message(left.literal, parts)


def _operand_hole(node: Node) -> Message:
    """A non-literal ``+`` operand: ``str(x)`` prints as the hole ``x``."""
    name = text(node)
    function = node.child_by_field_name("function") if node.type == "call" else None
    positional, keywords = arguments(node.child_by_field_name("arguments"))
    if text(function) in ("str", "repr") and len(positional) == 1 and not keywords:
        name = text(positional[0])
    return operand_hole(name)


def _call(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    return (_gettext(node, reader.file, depth) or _format_call(node, reader.file, depth)
            or _list_join(node, reader.file, depth))


def _list_join(node: Node, file: FileIndex, depth: int) -> Message | None:
    """``" ".join(parts)`` of a list the function builds: its fullest text."""
    if depth >= _MAX_DEPTH:
        return None
    found = list_join(node, file, lambda n, f: read(n, f, depth + 1))
    return found[0] if found else None


def _concatenated(node: Node) -> Message | None:
    """``"a" "b"``; comments (a trailing lint marker, say) sit between the parts."""
    return joined([_string(part) for part in node.named_children if part.type == "string"])


def _gettext(node: Node, file: FileIndex, depth: int) -> Message | None:
    """``_("…")``, ``gettext_lazy("…")``, ``pgettext("ctx", "…")``: the untranslated text."""
    function = node.child_by_field_name("function")
    if function is None or function.type not in ("identifier", "attribute"):
        return None
    name = last_name(function)
    positional, keywords = arguments(node.child_by_field_name("arguments"))
    if keywords:
        return None
    if name in _GETTEXT and len(positional) == 1:
        return read(positional[0], file, depth + 1)
    if name in _GETTEXT_CONTEXT and len(positional) == 2:
        return read(positional[1], file, depth + 1)
    if name in _NGETTEXT and len(positional) == _NGETTEXT[name] + 3:  # the singular
        return read(positional[_NGETTEXT[name]], file, depth + 1)
    return None


def _format_call(node: Node, file: FileIndex, depth: int) -> Message | None:
    """``"…{}…".format(a, k=b)``."""
    function = node.child_by_field_name("function")
    if function is None or function.type != "attribute":
        return None
    if text(function.child_by_field_name("attribute")) != "format":
        return None
    base = read(function.child_by_field_name("object"), file, depth + 1)
    if base is None or base.literal is None:
        return None
    positional, keywords = arguments(node.child_by_field_name("arguments"))
    parts = parse_brace_format(
        base.literal, [text(a) for a in positional], {k: text(v) for k, v in keywords.items()}
    )
    return Message(base.literal, parts)


def read_alternatives(node: Node | None, file: FileIndex) -> list[Message]:
    """The messages an argument can print: one, or one per branch when it is a variable
    the clauses of one ``if`` assign differently (requests' ``http_error_msg`` is a
    ``Client Error`` in one branch and a ``Server Error`` in the other), or one per way a
    list joined into it can be built (``" ".join(message)``)."""
    joined_list = list_join(node, file, read)
    if joined_list:
        return joined_list
    if node is not None and node.type == "identifier":
        nearest = _nearest_assignment(text(node), node, file)
        branch = _clause(nearest) if nearest is not None else None
        if nearest is not None and nearest.type == "assignment" and branch is not None:
            chosen = [nearest]
            for other in file.assignments.get(text(node), []):
                where = _clause(other)
                if (other is not nearest and other.type == "assignment"
                        and other.end_byte <= node.start_byte and where is not None
                        and where[0] == branch[0] and where[1] != branch[1]):
                    chosen.append(other)
            found = [read(a.child_by_field_name("right"), file)
                     for a in sorted(chosen, key=lambda a: a.start_byte)]
            messages = [m for m in found if m is not None and _has_text(m)]
            if len(messages) > 1:
                return messages
    plural = _plural_forms(node, file)
    if plural:
        return plural
    message = read(node, file)
    return [message] if message is not None else []


def _plural_forms(node: Node | None, file: FileIndex) -> list[Message]:
    """``ngettext("…argument…", "…arguments…", n)`` (optionally ``.format(…)``-ed): the
    singular and the plural text, each a message of its own."""
    call, formatted = unwrap(node), None
    if call is not None and call.type == "call":
        function = call.child_by_field_name("function")
        if function is not None and function.type == "attribute" and text(
                function.child_by_field_name("attribute")) == "format":
            formatted, call = call, unwrap(function.child_by_field_name("object"))
    forms = _ngettext_forms(call, file) if call is not None else None
    if not forms:
        return []
    if formatted is None:
        return forms
    positional, keywords = arguments(formatted.child_by_field_name("arguments"))
    return [Message(form.literal, parse_brace_format(
        form.literal, [text(a) for a in positional], {k: text(v) for k, v in keywords.items()}))
        for form in forms if form.literal is not None]


def _ngettext_forms(node: Node, file: FileIndex) -> list[Message] | None:
    function = node.child_by_field_name("function") if node.type == "call" else None
    if function is None or function.type not in ("identifier", "attribute"):
        return None
    positional, _ = arguments(node.child_by_field_name("arguments"))
    skip = _NGETTEXT.get(last_name(function))
    if skip is None or len(positional) != skip + 3:
        return None
    forms = [read(positional[skip], file), read(positional[skip + 1], file)]
    return [f for f in forms if f is not None] or None


def _clause(node: Node) -> tuple[Node, Node] | None:
    """The ``if`` statement and the clause (its body, an ``elif``, the ``else``) a node is
    directly in; None outside any."""
    child = node
    for parent in ancestors(node):
        if parent.type in _SCOPES:
            return None
        if parent.type == "if_statement":
            return parent, child
        child = parent
    return None


def _has_text(message: Message) -> bool:
    return any(isinstance(p, Literal) and p.text.strip() for p in message.parts)


def _class_attribute(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``self.invalid_message`` → the ``invalid_message = "…"`` in the enclosing class body.

    A subclass may override the attribute; the message read is this class's own.
    """
    owner = node.child_by_field_name("object")
    if text(owner) not in ("self", "cls"):
        return None
    name = text(node.child_by_field_name("attribute"))
    cls = next((a for a in ancestors(node) if a.type == "class_definition"), None)
    found = [a for a in reader.file.assignments.get(name, []) if _scope_of(a) == cls]
    if cls is None or not found or found[-1].type != "assignment":
        return None
    return reader.read(found[-1].child_by_field_name("right"), depth + 1)


def _resolve(file: FileIndex, at: Node) -> Node | None:
    return _nearest_assignment(text(at), at, file)


def _nearest_assignment(name: str, at: Node, file: FileIndex) -> Node | None:
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


def _commented(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``(f"…" "…"  # type: ignore)``: what the one expression beside a comment prints."""
    inner = unwrap(node)
    return reader.read(inner, depth + 1) if inner is not None and inner is not node else None


_TABLE: MessageTable[FileIndex] = MessageTable(
    strings={"string": lambda node: _string(node), "concatenated_string": _concatenated},
    binary="binary_operator",
    operators={"%": _percent},
    wrappers=frozenset({"parenthesized_expression"}),
    variables=frozenset({"identifier"}),
    augmented=frozenset({"augmented_assignment"}),
    rules={"call": _call, "attribute": _class_attribute, "parenthesized_expression": _commented},
    resolve=_resolve,
    hole=_operand_hole,
    unwrap_operands=False,
    max_depth=_MAX_DEPTH,
)


# --- string literals -------------------------------------------------------------------


def _string(node: Node) -> Message | None:
    """One string literal (plain, raw, triple-quoted or f-string); bytes are no message."""
    prefix = text(node.child(0)).lower().rstrip("'\"")
    if "b" in prefix:
        return None
    if "f" not in prefix:
        decoded = literal_string(node)
        return None if decoded is None else Message(decoded, (Literal(decoded),), decoded)
    return _fstring(node, raw="r" in prefix)


def literal_string(node: Node) -> str | None:
    """The value of a plain (non-f) string literal or implicit concatenation of them."""
    if node.type not in ("string", "concatenated_string"):
        return None
    try:
        with warnings.catch_warnings():  # invalid escapes like "\\d" warn, and stay as written
            warnings.simplefilter("ignore")
            value = ast.literal_eval("(\n" + text(node) + "\n)")
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


def _fstring(node: Node, raw: bool) -> Message:
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
    return Message(_decode(written), merge_literals(parts))


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

# The string literal decoders, for the text sites of a file (``LanguageSpec.strings``).
STRINGS = _TABLE.strings
