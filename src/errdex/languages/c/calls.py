"""C calls to a project's reporters: arguments as a reporter receives them, and the
candidate sites of calls that pass text (``yyerror("syntax error")``) which composition
keeps when the repository defines the callee as a reporter (``compose``). A function named
for errors that is given its text (``set_error("no such key %s", k)``, ``luaL_error(L,
"…")``), or an error made from a string a call formats
(``jv_invalid_with_msg(jv_string_fmt("…", …))``), prints that text when the repository
defines no reporter of that name (``Call.makes_error``).

A reporter gets its printf format folded with the arguments it consumes (``die("cannot
open %s", path)`` passes one template, ``cannot open <path>``); the arguments before the
format each as they are; a ``va_list`` ends them. Also what reading a reporter's body
needs: pointers into a buffer, calls under a condition or on a failing path, macro bodies.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from tree_sitter import Node

from errdex.languages._engine import Captures
from errdex.languages._engine.pieces import has_words
from errdex.languages.base import Site, ancestors, line_of, parser_for, text
from errdex.languages.c.family import (
    CALLS,
    STRING_TYPES,
    arguments,
    function_name,
    message_string,
    printf_parts,
)
from errdex.languages.facts import Call, Producer, substitute, unknown
from errdex.records.model import ErrorType
from errdex.templates.template import Literal, Template, merge_literals

_VA_LISTS = ("ap", "args", "params", "vl", "va", "argp")


@dataclass
class Reading:
    """What a reporter body has filled and printed so far, as it is read call by call."""

    params: tuple[str, ...]
    known: dict[str, Producer]
    buffers: dict[str, Template] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    printed: list[Template] = field(default_factory=list)
    guarded: list[Template] = field(default_factory=list)  # printed under an ``if``
    forwarded: list[Call] = field(default_factory=list)
    streams: set[str] = field(default_factory=set)  # what prints to stderr: ``stderr``, ``2``…
    pointers: dict[str, str] = field(default_factory=dict)  # local function pointers' targets


def folded(args: list[Node], reading: Reading | None = None) -> list[tuple[Template, ...]]:
    """A call's arguments as a reporter sees them: those before the format each as is, the
    format with the arguments it consumes as one template (``va_list`` ones dropped)."""
    out: list[tuple[Template, ...]] = []
    for i, arg in enumerate(args):
        if message_string(arg) is not None:
            made = joined(arg, args[i + 1:], reading) or formatted(arg, args[i + 1:], reading)
            if made is not None:
                out.append((made,))
            break
        if reading is not None and text(arg) in _VA_LISTS:
            break
        read = value(arg, reading)
        out.append((read if read is not None else unknown(text(arg)),))
    return out


_CONVERSION = re.compile(r"%[-+ #0-9.*hlLqjzt]*[a-zA-Z]")


def joined(first: Node, rest: list[Node], reading: Reading | None) -> Template | None:
    """Texts and values given one after the other, to be printed joined (``TORCH_CHECK(ok,
    "expected ", n, " dims, got ", m)``, ``LOG_ERROR("lucky number ", n)``): a text with no
    printf conversion followed by arguments of which another is a text; None otherwise (a
    format and what it formats)."""
    found = message_string(first)
    if found is None or _CONVERSION.search(found.text.replace("%%", "")) or not any(
            message_string(a) is not None for a in rest):
        return None
    pieces = [value(a, reading) or unknown(text(a)) for a in (first, *rest)]
    return Template("".join(t.written for t in pieces),
                    merge_literals([p for t in pieces for p in t.parts]))


def formatted(fmt: Node, rest: list[Node], reading: Reading | None) -> Template | None:
    found = message_string(fmt)
    if found is None:
        return value(fmt, reading)
    found = found.without_newline()
    template = Template(found.written, printf_parts(found, [text(a) for a in rest]))
    return substitute(template, reading.buffers) if reading is not None else template


def value(node: Node, reading: Reading | None) -> Template | None:
    """A string, char or number argument's text; a buffer's; else a hole named after it."""
    found = message_string(node)
    if found is not None:
        return Template(found.written, found.parts())
    name = text(node)
    if node.type == "char_literal":
        value = name[1:-1].replace("\\n", "\n").replace("\\t", "\t")
        return Template(value, merge_literals([Literal(value)]))
    if node.type == "number_literal":
        return Template(name, (Literal(name),))
    if reading is not None and name in reading.buffers:
        return reading.buffers[name]
    if node.type == "call_expression" and text(node.child_by_field_name("function")) in (
            "_", "N_", "gettext"):
        return None
    return unknown(name)


# Calls that pass text but report nothing themselves: not worth a candidate.
_NOT_REPORTERS = re.compile(
    r"^(?:v?[sfd]?n?printf|str\w*|mem\w*|f?open\w*|[gs]etenv|f?puts|v?[sf]?scanf|system|exec\w*"
    r"|popen|dl\w+|access|l?stat|unlink|mkdir|rmdir|chdir|rename|remove|assert|static_assert"
    r"|_|N_|Q_|gettext|n?gettext|dgettext|tr|sizeof|fwrite|write|x?strdup|setlocale|getopt\w*"
    r"|TEXT|_T|L|QStringLiteral|QLatin1String|defined)$")
# C++ helpers named for throwing what they are given (``MYLIB_FAIL("…")``, ``fail("…")``)
_THROWS = re.compile(r"(?i)throw|raise|fail")
_CODE = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")


_LAST: list[tuple[object, str]] = []  # the file index last asked, and its file's token


def file_scope(file: object, node: Node) -> str:
    """A token naming the file ``node`` is in: the owner of its ``static`` reporters and of
    its calls, so a ``static`` function is reached from its own file only (``compose``)."""
    if _LAST and _LAST[0][0] is file:
        return _LAST[0][1]
    root = node
    while root.parent is not None:
        root = root.parent
    token = scope_of(root.text or b"")
    token = _REWRITTEN.get(token, token)
    _LAST[:] = [(file, token)]
    return token


def scope_of(source: bytes) -> str:
    return f"<file {zlib.crc32(source):08x}>"


_REWRITTEN: dict[str, str] = {}


def rewritten(read: bytes | None, source: bytes) -> bytes:
    """What sites are read from: ``read``, a rewriting of ``source`` on the same lines
    (directives or macros blanked), when there is one. Its sites keep ``source``'s file
    scope: the file's reporters are read from ``source`` itself (``compose``)."""
    _REWRITTEN.clear()
    if read is None:
        return source
    _REWRITTEN[scope_of(read)] = scope_of(source)
    return read


def helper_site(captured: Captures, file: object, symbol: Callable[[Node], str | None],
                throws: bool = False,
                reader: Callable[[Node], tuple[Template, ...]] | None = None) -> Site | None:
    """The candidate site of a ``helper`` match (``helper_call``), or of the error its text is
    made into (``_error_value``); ``throws``: the language throws, and a helper named so is an
    exception site."""
    call = captured["helper"][0]
    if call.parent is not None and call.parent.type == "throw_statement":
        return None  # the throw's own site
    args = arguments(call.child_by_field_name("arguments"))
    name = text(captured["helper.name"][0])
    text_node = captured["helper.text"][0]
    if text_node.type == "qualified_identifier":  # a constant handed to a throwing helper
        return Site(Template("", ()), "exception", line_of(call), symbol=symbol(call),
                    call=Call(name, ((unknown(text(text_node)),),), owner=_owner_of(call),
                              method=True)) if throws and _THROWS.search(name) else None
    if text_node.type == "binary_expression":  # ``fail("bad token " + tok)``, C++: ``reader``
        return _joined_site(call, name, args, text_node, file, symbol, reader)
    # a C++ method calls its class's methods by their bare name; a C function its file's
    owner = (_sibling_owner(call, name) if throws else None) or file_scope(file, call)
    first = bool(args) and args[0] == text_node
    outer = _error_value(call) if first and _MAKES_TEXT.search(name) else None
    if outer is not None:
        # ``jv_invalid_with_msg(jv_string_fmt("Cannot index %s", …))``: the error is made
        # from the text this call formats; it prints that text unless the repository's
        # definition of the outer call says more
        message = formatted(text_node, args[1:], None)
        if message is None or not has_words(message.parts):
            return None
        return Site(Template("", ()), "error", line_of(outer), symbol=symbol(outer),
                    call=Call(text(outer.child_by_field_name("function")), ((message,),),
                              owner=owner, method=True, makes_error=True))
    written = error_buffer(name, args, text_node)
    if written is not None:
        return Site(written, "error", line_of(call), symbol=symbol(call))
    found = helper_call(name, args, text_node)
    if found is None:
        return None
    made, code = found
    # ``set_error("no such key %s", key)``, ``luaL_error(L, "bad %s", k)``: an error made
    # from the text it is given (its first argument that has words)
    made = replace(made, owner=owner, makes_error=makes_error(name))
    if owner != file_scope(file, call):  # a method of its class: an argument a parameter
        made = replace(made, args=tuple((value(a, None) or unknown(text(a)),) for a in args))
    kind: ErrorType = "exception" if throws and _THROWS.search(name) else "log"
    raised = host_class(args[:args.index(text_node)]) if made.makes_error else None
    return Site(Template("", ()), "exception" if raised else kind, line_of(call), raised,
                error_code=code, symbol=symbol(call), call=made)


# An extension's error made with its host language's exception class
# (``PyErr_SetString(PyExc_ValueError, "…")``, ``rb_raise(rb_eArgError, "…")``): the
# interpreter prints that class's name before the message (``ValueError: …``).
_HOST_CLASS = re.compile(r"PyExc_(\w+)|rb_e(\w+)")
_RUBY_NAMES = {"ArgError": "ArgumentError", "NoMemError": "NoMemoryError",
               "ZeroDivError": "ZeroDivisionError"}


def host_class(before: list[Node]) -> str | None:
    """The host language's exception class an argument before the text names, as the
    interpreter prints it; None when none does."""
    for arg in before:
        found = _HOST_CLASS.fullmatch(text(arg)) if arg.type == "identifier" else None
        if found is not None:
            python, ruby = found.groups()
            return python or _RUBY_NAMES.get(ruby, ruby)
    return None


def _owner_of(node: Node) -> str | None:
    """The class of the method a C++ call is made in (``Scanner::Pop`` → ``Scanner``), whose
    own methods it calls by their bare name."""
    for above in ancestors(node):
        if above.type in ("class_specifier", "struct_specifier"):
            return text(above.child_by_field_name("name")) or None
        full = (function_name(above) or "") if above.type == "function_definition" else ""
        if "::" in full:  # defined out of its class
            return full.rsplit("::", 1)[0].rsplit("::", 1)[-1]
    return None


def _joined_site(call: Node, name: str, args: list[Node], text_node: Node, file: object,
                 symbol: Callable[[Node], str | None],
                 reader: Callable[[Node], tuple[Template, ...]] | None) -> Site | None:
    """A candidate for a text joined with ``+`` handed to a function named for throwing (its
    first such argument); its class's method when the class has one of that name."""
    first = next((a for a in args if a.type == "binary_expression"), None)
    shown = reader(text_node) if reader is not None and first == text_node and (
        _THROWS.search(name)) else ()
    if not shown:
        return None
    given = tuple(shown if a == text_node else (unknown(text(a)),) for a in args)
    owner = _sibling_owner(call, name) or file_scope(file, call)
    return Site(Template("", ()), "exception", line_of(call), symbol=symbol(call),
                call=Call(name, given, owner=owner, method=True))


def _sibling_owner(node: Node, name: str) -> str | None:
    """The class a call is written in, when that class declares a method ``name``
    (``void Tab() { ThrowReadError("…"); }`` beside ``void ThrowReadError(…)``); else None
    (the call may reach a static function of the file)."""
    above = next((a for a in ancestors(node)
                  if a.type in ("class_specifier", "struct_specifier")), None)
    body = above.child_by_field_name("body") if above is not None else None
    if above is None or body is None or name not in _methods(body):
        return None
    return text(above.child_by_field_name("name")) or None


# The class body last read (its node and where it lies in its file), and its method names.
_METHODS: list[tuple[tuple[int, int, int], set[str]]] = []


def _methods(body: Node) -> set[str]:
    """The names of the methods a class body declares or defines (read once a class)."""
    key = (body.id, body.start_byte, body.end_byte)
    if _METHODS and _METHODS[0][0] == key:
        return _METHODS[0][1]
    names: set[str] = set()
    for child in body.named_children:
        declarator = child.child_by_field_name("declarator")
        while declarator is not None and declarator.type != "function_declarator":
            declarator = declarator.child_by_field_name("declarator")
        if declarator is not None:
            names.add(text(declarator.child_by_field_name("declarator")))
    _METHODS[:] = [(key, names)]
    return names


# Writers of a buffer: where their text (or format) is, and whether it is a format.
_WRITERS = {"snprintf": (2, True), "sprintf": (1, True), "asprintf": (1, True),
            "strbuf_addf": (1, True), "strcpy": (1, False), "strncpy": (1, False),
            "strlcpy": (1, False)}
# A buffer named for the error it holds (``err``, ``errbuf``, ``ctx->errstr``).
_ERROR_BUFFER = re.compile(r"(?i)(?:^|->|\.)(?:err|error|errbuf|err_buf|errmsg|err_msg|errstr"
                           r"|error_msg|error_buf|errorbuf|error_message|ebuf)$")


def error_buffer(name: str, args: list[Node], text_node: Node) -> Template | None:
    """The message a function writes into a buffer named for an error, for its caller to
    print (``snprintf(err, errlen, "cannot open '%s'", path); return -1;``): the message is
    built here and printed elsewhere, decorated or not; None for any other call."""
    found = _WRITERS.get(name)
    if found is None or len(args) <= found[0] or args[found[0]] != text_node or (
            not _ERROR_BUFFER.search(text(args[0]).lstrip("&*"))):
        return None
    index, printf = found
    made = formatted(text_node, args[index + 1:], None) if printf else value(text_node, None)
    return made if made is not None and has_words(made.parts) else None


# Words of a function name that say it makes or reports an error from the text it is given
# (``set_error``, ``luaL_error``, ``jv_invalid_with_msg``, ``PyErr_Format``).
_ERROR_WORDS = frozenset({"error", "err", "errorf", "invalid", "exception", "fail", "failure",
                          "raise", "throw"})
# A function making a string from a format or a literal (``jv_string_fmt``, ``g_strdup_printf``)
_MAKES_TEXT = re.compile(r"(?i)fmt|format|printf|string|^str|_str$")
_CAMEL_BREAK = re.compile(r"([a-z0-9])([A-Z])")
_THROWN = re.compile(r"THROW(?:_EXCEPTION)?$")


def makes_error(name: str) -> bool:
    """Whether a function's name says it makes or reports an error from its text; a word
    may end in printf's ``f`` (``failf``, ``warnx_errorf``: the text is a format)."""
    words = _CAMEL_BREAK.sub(r"\1_\2", name).lower().split("_")
    return any(w in _ERROR_WORDS or (w.endswith("f") and w[:-1] in _ERROR_WORDS)
               for w in words)


def _error_value(call: Node) -> Node | None:
    """The call an argument ``call`` is handed to, when that one's name says it makes an error."""
    holder = call.parent
    outer = holder.parent if holder is not None and holder.type == "argument_list" else None
    if outer is None or outer.type != "call_expression":
        return None
    function = outer.child_by_field_name("function")
    if function is None or function.type != "identifier" or not makes_error(text(function)) or (
            makes_error(text(call.child_by_field_name("function")))):
        return None
    above = outer.parent
    if above is not None and above.type == "argument_list" and above.parent is not None:
        above = above.parent  # ``FMT_THROW(format_error(…))``
    if above is not None and (above.type == "throw_statement" or (
            above.type == "call_expression" and _THROWN.search(
                text(above.child_by_field_name("function"))))):
        return None  # the throw's own site reads it
    return outer


def helper_call(name: str, args: list[Node], text_arg: Node) -> tuple[Call, str | None] | None:
    """``yyerror("syntax error")``, ``_glfwInputError(GLFW_INVALID_ENUM, "bad %d", x)``: the
    call a reporter of the repository may print (a candidate; composition drops it unless
    ``name`` is a reporter), and the error code named before the text (``GLFW_…``)."""
    if name in CALLS or _NOT_REPORTERS.match(name) or any(text(a) == "stdout" for a in args):
        return None
    first = next((a for a in args if a.type in STRING_TYPES), None)
    if first is None or first != text_arg:
        return None  # one candidate per call, at its first text
    found = message_string(first)
    if found is None or not any(c.isalpha() for c in found.text):
        return None
    before = args[:args.index(first)]
    code = next((text(a) for a in before if a.type == "identifier" and _CODE.match(text(a))),
                None)
    return Call(name, tuple(folded(args)), method=True), code  # a function, never a class


# --- reporter bodies ----------------------------------------------------------------------


def aliases_of(body: Node) -> dict[str, str]:
    """Pointers into a buffer: ``p = msg + len`` makes a write through ``p`` an append."""
    out: dict[str, str] = {}
    stack = [body]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type == "assignment_expression":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        elif node.type == "init_declarator":
            left, right = node.child_by_field_name("declarator"), node.child_by_field_name(
                "value")
        else:
            continue
        if left is None or right is None or right.type != "binary_expression":
            continue
        base = right.child_by_field_name("left")
        if base is not None and base.type == "identifier" and text(
                right.child_by_field_name("operator")) == "+":
            out[declared_name(left) or text(left)] = text(base)
    return out


_ENDS = frozenset({"abort", "exit", "_exit", "BUG", "assert"})


def failing(call: Node, body: Node) -> bool:
    """Whether a call is in a block (inside the body) that aborts, exits or returns under a
    condition: the reporter's own failure. A macro's ``do { …; exit(1); } while (0)`` is
    its whole body, what it reports, and so is its bare ``{ …; exit(1); }``."""
    node = call.parent
    while node is not None and node != body and node.type != "compound_statement":
        node = node.parent
    if node is None or node == body or node.parent == body or (
            node.parent is not None and node.parent.type == "do_statement"):
        return False
    for statement in node.named_children:
        if statement.type == "return_statement":
            return True
        inner = statement.named_children[0] if statement.named_children else None
        if statement.type == "expression_statement" and inner is not None and (
                inner.type == "call_expression") and text(
                inner.child_by_field_name("function")) in _ENDS:
            return True
    return False


def guarded(call: Node, body: Node, params: tuple[str, ...] = ()) -> bool:
    """Whether a call runs only under a condition of the body (an error path of its own).

    A comparison of one of ``params`` (a macro's) that the call does not print is the
    caller's choice, not a failure of the body: the verbosity a macro is handed (``#define
    DISPLAYLEVEL(l, ...) if (g_level >= l) { DISPLAY(__VA_ARGS__); }``)."""
    child, node = call, call.parent
    while node is not None and node != body:
        condition = node.child_by_field_name("condition")
        if node.type in ("if_statement", "switch_statement", "conditional_expression",
                         "while_statement", "for_statement") and condition != child and not (
                node.type == "if_statement" and _chosen(condition, call, params)):
            return True  # in a branch or loop body, not the condition that chooses it
        child, node = node, node.parent
    return False


def _chosen(condition: Node | None, call: Node, params: tuple[str, ...]) -> bool:
    """Whether ``condition`` compares a parameter (a level) that ``call`` does not hand on
    with something else: ``g_level >= l``."""
    while condition is not None and condition.type in ("parenthesized_expression",
                                                       "condition_clause"):
        condition = condition.named_children[0] if condition.named_children else None
    if condition is None or condition.type != "binary_expression" or text(
            condition.child_by_field_name("operator")) not in ("<", "<=", ">", ">="):
        return False
    handed = {text(n) for n in _identifiers(call)}
    sides = (condition.child_by_field_name("left"), condition.child_by_field_name("right"))
    return any(side is not None and side.type == "identifier" and text(side) in params
               and text(side) not in handed for side in sides)


def _identifiers(node: Node) -> list[Node]:
    stack, out = [node], []
    while stack:
        node = stack.pop()
        if node.type == "identifier":
            out.append(node)
        stack.extend(node.named_children)
    return out


def macro_body(node: Node, grammar: str) -> tuple[str, tuple[str, ...], bool, Node] | None:
    """A function-like macro's name, parameters, whether it is variadic, and its body parsed
    as a function's block (None when it does not parse as statements)."""
    name = text(node.child_by_field_name("name"))
    params_node = node.child_by_field_name("parameters")
    value = text(node.child_by_field_name("value"))
    if not name or params_node is None or not value or "#" in value.replace("##", ""):
        return None
    params = tuple(text(p) for p in params_node.named_children if p.type == "identifier")
    variadic = "..." in text(params_node)
    if variadic and not params:  # ``#define BUG(...) BUG_fl(__FILE__, __LINE__, __VA_ARGS__)``
        params = ("__VA_ARGS__",)
    if not params:
        return None
    body = value.replace("\\\n", "\n").replace("##__VA_ARGS__", "__VA_ARGS__")
    wrapped = f"void m(void) {{\n{body};\n}}\n".encode()
    tree = parser_for(grammar).parse(wrapped)  # not ``parse``: the file's tree stays cached
    if tree.root_node.has_error:  # C++ reads no ``"BUG: " fmt`` concatenation; C does
        tree = parser_for("c").parse(wrapped)
    if tree.root_node.has_error:
        return None
    definition = tree.root_node.named_children[0] if tree.root_node.named_children else None
    block = definition.child_by_field_name("body") if definition is not None else None
    return None if block is None else (name, params, variadic, block)


def declared_name(node: Node | None) -> str | None:
    """The name a declarator declares (``*p``, ``msg[4096]``, ``(*fn)(…)``)."""
    while node is not None and node.type not in ("identifier", "field_identifier"):
        node = node.child_by_field_name("declarator") or (
            node.named_children[-1] if node.named_children else None)
    return text(node) if node is not None else None
