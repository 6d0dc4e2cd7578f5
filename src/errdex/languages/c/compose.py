"""C producers: functions and macros that print a message they are given, decorated.

Projects rarely call ``fprintf(stderr, …)`` at each error: they call their own reporter
(git's ``die("cannot open %s", path)`` prints ``fatal: cannot open …``, a parser's
``yyerror("syntax error")`` prints ``line 3: syntax error``, GLFW's
``_glfwInputError(GLFW_INVALID_ENUM, "Invalid hint 0x%08X", hint)`` hands its text to the
error callback). Read here, per file, for composition across the repository:

* a reporter function: what its body prints on stderr (``fprintf(stderr, …)``,
  ``vfprintf(stderr, fmt, ap)``, ``fputs``, ``write(2, buf, …)``), in order, with buffers
  filled from its parameters followed (``vsnprintf(msg, n, fmt, ap)``, ``strcpy``,
  ``memcpy``) and calls to the file's other reporters inlined (``vreportf("fatal: ", err,
  ap)``); a buffer handed to an error callback is what it reports. A reporter that only
  hands its format on to another reporter by name (``vdie(fmt, ap)``) is a call to it;
* a macro: ``#define BUG(fmt, ...) die("BUG: " fmt, ##__VA_ARGS__)`` or one that prints
  itself, read as a function whose body is the macro's.

A site calls a reporter with the printf format folded with the arguments it consumes
(``die("cannot open %s", path)`` passes one template, ``cannot open <path>``), so a
reporter's parameters are those up to its format (``va_list``/``...`` dropped).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tree_sitter import Node

from errdex.languages._engine import Captures
from errdex.languages.base import Site, line_of, parse, text
from errdex.languages.c.family import (
    CALLS,
    STRING_TYPES,
    arguments,
    function_name,
    message_string,
    printf_parts,
)
from errdex.languages.facts import Call, Composer, Producer, Result, has_text, substitute, unknown
from errdex.templates.template import Literal, Part, Template, merge_literals

# A function whose name says it reports (a call forwarding a format to it is a report).
REPORTERISH = re.compile(r"(?i)err|die|fatal|warn|fail|panic|report|complain|bail|abort|bug")
_CALLBACK = re.compile(r"(?i)callback|handler|hook|_cb$|^cb$|fn$")
_STDERR = ("stderr", "2", "STDERR_FILENO", "std::stderr", "fileno(stderr)")
# Writers of a buffer: the destination, the format (or source) index, whether they append.
_BUFFERS: dict[str, tuple[int, bool, bool]] = {
    # name: (source index, printf-style, appends)
    "vsnprintf": (2, True, False), "vsprintf": (1, True, False),
    "snprintf": (2, True, False), "sprintf": (1, True, False),
    "strcpy": (1, False, False), "strncpy": (1, False, False), "strlcpy": (1, False, False),
    "memcpy": (1, False, False), "strcat": (1, False, True), "strncat": (1, False, True),
    "strlcat": (1, False, True), "strbuf_vaddf": (1, True, True), "strbuf_addf": (1, True, True),
    "strbuf_addstr": (1, False, True),
}
_MAX_PASSES = 3


@dataclass
class _Body:
    """What a function body prints, as it is read statement by statement."""

    params: tuple[str, ...]
    known: dict[str, Producer]
    buffers: dict[str, Template] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    printed: list[Template] = field(default_factory=list)
    guarded: list[Template] = field(default_factory=list)  # printed under an ``if``
    forwarded: list[Call] = field(default_factory=list)
    sources: list[Producer] = field(default_factory=list)


def producers(grammar: str) -> Composer:
    """The C reporters of a file parsed with ``grammar`` (C, or C++ for headers)."""

    def read(root: Node, source: bytes, path: str) -> list[Producer]:
        return reporters(root, path, grammar)

    return Composer(producers=read, triggers=(b"stderr", b"#define", b"printf", b"(2,"))


def reporters(root: Node, path: str, grammar: str) -> list[Producer]:
    """The file's reporter functions and macros (``producers``)."""
    functions, macros, pointers = _definitions(root)
    known: dict[str, Producer] = {}
    for _ in range(_MAX_PASSES):  # reporters calling reporters defined later in the file
        before = dict(known)
        for node in functions:
            made = _function(node, path, known)
            if made is not None:
                known[made.name] = made
        for name, target, line in pointers:  # ``static report_fn die_routine = die_builtin;``
            if target in known and name not in known:
                known[name] = Producer(name, known[target].params, known[target].results,
                                       "helper", path, line)
        if known == before:
            break
    for node in macros:
        made = _macro(node, path, grammar, known)
        if made is not None:
            known[made.name] = made
    return list(known.values())


def _definitions(root: Node) -> tuple[list[Node], list[Node], list[tuple[str, str, int]]]:
    """Free function definitions, function-like macros (not inside classes) and function
    pointers set to a function by name."""
    functions: list[Node] = []
    macros: list[Node] = []
    pointers: list[tuple[str, str, int]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "function_definition":
            functions.append(node)
            continue
        if node.type == "preproc_function_def":
            macros.append(node)
            continue
        if node.type == "init_declarator":
            value = node.child_by_field_name("value")
            name = _declared_name(node.child_by_field_name("declarator"))
            if value is not None and value.type == "identifier" and name:
                pointers.append((name, text(value), line_of(node)))
            continue
        if node.type in ("class_specifier", "struct_specifier", "compound_statement",
                         "field_declaration_list"):
            continue
        stack.extend(node.named_children)
    functions.sort(key=lambda n: n.start_byte)
    macros.sort(key=lambda n: n.start_byte)
    return functions, macros, pointers


# --- functions -----------------------------------------------------------------------------


def parameters(definition: Node) -> tuple[tuple[str, ...], bool]:
    """A function's parameter names up to its format (``va_list`` ones dropped), and
    whether it takes a format's arguments (``...`` or a ``va_list``)."""
    declarator = definition.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    names: list[str] = []
    variadic = False
    for param in params.named_children if params is not None else ():
        if param.type == "variadic_parameter" or text(param) == "...":
            variadic = True
            continue
        if param.type != "parameter_declaration":
            continue
        if "va_list" in text(param.child_by_field_name("type")):
            variadic = True
            continue
        name = _declared_name(param.child_by_field_name("declarator"))
        if name:
            names.append(name)
    return tuple(names), variadic


def _declared_name(node: Node | None) -> str | None:
    while node is not None and node.type not in ("identifier", "field_identifier"):
        node = node.child_by_field_name("declarator") or (
            node.named_children[-1] if node.named_children else None)
    return text(node) if node is not None else None


def _function(node: Node, path: str, known: dict[str, Producer]) -> Producer | None:
    name = function_name(node)
    body = node.child_by_field_name("body")
    if not name or body is None or "::" in name:
        return None
    params, variadic = parameters(node)
    if not params:
        return None
    others = {k: v for k, v in known.items() if k != name}
    return _producer(name, params, variadic, body, path, line_of(node), others)


def _producer(name: str, params: tuple[str, ...], variadic: bool, body: Node, path: str,
              line: int, known: dict[str, Producer]) -> Producer | None:
    reading = _Body(params, known, aliases=_aliases(body))
    for call in _calls(body):
        _statement(call, reading, reading.guarded if _guarded(call, body) else reading.printed)
    names = set(params)
    printed = reading.printed or reading.guarded
    if printed:
        template = _chomped(_joined(printed))
        shown = {h.name for h in template.holes}
        if shown & names and (has_text(template) or variadic):
            return Producer(name, params, (template,), "helper", path, line)
        return None
    results: list[Result] = [c for c in reading.forwarded if _passes(c, names)]
    if not results:
        return None
    return Producer(name, params, tuple(results[:1]), "helper", path, line)


def _passes(call: Call, names: set[str]) -> bool:
    return any(h.name in names for arg in call.args for t in arg for h in t.holes)


def _calls(body: Node) -> list[Node]:
    """The calls of a body in source order (nested calls after their callers' heads)."""
    out: list[Node] = []
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type == "call_expression":
            out.append(node)
        if node.type not in ("function_definition", "lambda_expression"):
            stack.extend(reversed(node.named_children))
    return out


def _statement(call: Node, reading: _Body, out: list[Template]) -> None:
    """One call of a reporter's body: a buffer filled, a text printed, a report forwarded."""
    function = call.child_by_field_name("function")
    name = text(function).removeprefix("::").removeprefix("std::")
    args = arguments(call.child_by_field_name("arguments"))
    if name in _BUFFERS and args:
        _buffer(name, args, reading)
        return
    printed = _printed(name, args, reading)
    if printed is not None:
        out.append(printed)
        return
    inlined = reading.known.get(name)
    if inlined is not None and inlined.results and isinstance(inlined.results[0], Template):
        given = folded(args, reading)
        bindings = {p: given[i][0] for i, p in enumerate(inlined.params) if i < len(given)}
        out.append(substitute(inlined.results[0], bindings))
        return
    if function is not None and (function.type != "identifier" or _CALLBACK.search(name)):
        buffered = [reading.buffers[text(a)] for a in args if text(a) in reading.buffers]
        if buffered:  # an error callback handed the buffer
            out.append(buffered[0])
        return
    if REPORTERISH.search(name) or name in CALLS:
        reading.forwarded.append(Call(name, tuple(folded(args, reading))))


def _buffer(name: str, args: list[Node], reading: _Body) -> None:
    index, formatted, appends = _BUFFERS[name]
    if len(args) <= index:
        return
    target = text(args[0]).lstrip("&")
    base = reading.aliases.get(target, target)
    offset = args[0].type == "binary_expression" or base != target
    if args[0].type == "binary_expression":
        left = args[0].child_by_field_name("left")
        base = reading.aliases.get(text(left), text(left))
    value = (_formatted(args[index], args[index + 1:], reading) if formatted
             else _value(args[index], reading))
    if value is None:
        return
    previous = reading.buffers.get(base)
    if previous is not None and (appends or offset):
        reading.buffers[base] = _joined([previous, value])
    elif previous is None or not previous.holes or value.holes:
        reading.buffers[base] = value


def _aliases(body: Node) -> dict[str, str]:
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
            out[_declared_name(left) or text(left)] = text(base)
    return out


def _guarded(call: Node, body: Node) -> bool:
    """Whether a call runs only under a condition of the body (an error path of its own)."""
    node = call.parent
    while node is not None and node != body:
        if node.type in ("if_statement", "switch_statement", "conditional_expression",
                         "while_statement", "for_statement"):
            return True
        node = node.parent
    return False


def _printed(name: str, args: list[Node], reading: _Body) -> Template | None:
    """What a call prints on stderr, or None when it prints nothing there."""
    first = text(args[0]) if args else ""
    if name in ("fprintf", "dprintf") and first in _STDERR and len(args) > 1:
        return _formatted(args[1], args[2:], reading)
    if name in ("vfprintf", "vdprintf") and first in _STDERR and len(args) > 1:
        return _value(args[1], reading)
    if name in ("fputs", "fputc", "putc") and len(args) == 2 and text(args[1]) in _STDERR:
        return _value(args[0], reading)
    if name in ("write", "write_in_full", "xwrite", "write_or_die") and first in _STDERR and (
            len(args) > 1):
        return _value(args[1], reading)
    if name in ("vsyslog", "syslog") and len(args) > 1:
        return (_value(args[1], reading) if name == "vsyslog"
                else _formatted(args[1], args[2:], reading))
    return None


# --- values ------------------------------------------------------------------------------


def folded(args: list[Node], reading: _Body | None = None) -> list[tuple[Template, ...]]:
    """A call's arguments as a reporter sees them: those before the format each as is, the
    format with the arguments it consumes as one template (``va_list`` ones dropped)."""
    out: list[tuple[Template, ...]] = []
    for i, arg in enumerate(args):
        if message_string(arg) is not None:
            formatted = _formatted(arg, args[i + 1:], reading)
            if formatted is not None:
                out.append((formatted,))
            break
        if reading is not None and text(arg) in ("ap", "args", "params", "vl", "va", "argp"):
            break
        value = _value(arg, reading)
        out.append((value if value is not None else unknown(text(arg)),))
    return out


def _formatted(fmt: Node, rest: list[Node], reading: _Body | None) -> Template | None:
    found = message_string(fmt)
    if found is None:
        value = _value(fmt, reading)
        return value
    found = found.without_newline()
    template = Template(found.written, printf_parts(found, [text(a) for a in rest]))
    return substitute(template, reading.buffers) if reading is not None else template


def _value(node: Node, reading: _Body | None) -> Template | None:
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


def _joined(templates: list[Template]) -> Template:
    parts: list[Part] = [p for t in templates for p in t.parts]
    return Template("".join(t.written for t in templates), merge_literals(parts))


def _chomped(template: Template) -> Template:
    parts = list(template.parts)
    if parts and isinstance(parts[-1], Literal):
        parts[-1] = Literal(parts[-1].text.rstrip("\r\n"))
    return Template(template.written.rstrip("\r\n").removesuffix("\\n"), merge_literals(parts))


# --- macros ------------------------------------------------------------------------------


def _macro(node: Node, path: str, grammar: str, known: dict[str, Producer]) -> Producer | None:
    """``#define BUG(fmt, ...) die("BUG: " fmt, ##__VA_ARGS__)``, read as a function."""
    name = text(node.child_by_field_name("name"))
    params_node = node.child_by_field_name("parameters")
    value = text(node.child_by_field_name("value"))
    if not name or params_node is None or not value or "#" in value.replace("##", ""):
        return None
    params = tuple(text(p) for p in params_node.named_children if p.type == "identifier")
    variadic = "..." in text(params_node)
    if not params:
        return None
    body = value.replace("\\\n", "\n").replace("##__VA_ARGS__", "__VA_ARGS__")
    tree = parse(grammar, f"void m(void) {{\n{body};\n}}\n".encode())
    if tree.root_node.has_error:
        return None
    definition = tree.root_node.named_children[0] if tree.root_node.named_children else None
    block = definition.child_by_field_name("body") if definition is not None else None
    if block is None:
        return None
    others = {k: v for k, v in known.items() if k != name}
    made = _producer(name, params, variadic, block, path, line_of(node), others)
    if made is None or any(isinstance(r, Call) for r in made.results):
        return made
    return made


STRINGS = STRING_TYPES


# --- sites -------------------------------------------------------------------------------

# Calls that pass text but report nothing themselves: not worth a candidate.
_NOT_REPORTERS = re.compile(
    r"^(?:v?[sfd]?n?printf|str\w*|mem\w*|f?open\w*|[gs]etenv|f?puts|v?[sf]?scanf|system|exec\w*"
    r"|popen|dl\w+|access|l?stat|unlink|mkdir|rmdir|chdir|rename|remove|assert|static_assert"
    r"|_|N_|Q_|gettext|n?gettext|dgettext|tr|sizeof|fwrite|write|x?strdup|setlocale|getopt\w*"
    r"|[A-Z_]*THROW\w*|TEXT|_T|L|QStringLiteral|QLatin1String|defined)$")
_CODE = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")


def helper_site(captured: Captures, symbol: Callable[[Node], str | None]) -> Site | None:
    """The candidate site of a ``helper`` match (``helper_call``)."""
    call = captured["helper"][0]
    if call.parent is not None and call.parent.type == "throw_statement":
        return None  # the throw's own site
    args = arguments(captured["helper"][0].child_by_field_name("arguments"))
    name = text(captured["helper.name"][0])
    found = helper_call(name, args, captured["helper.text"][0])
    if found is None:
        return None
    made, code = found
    return Site(Template("", ()), "log", line_of(call), error_code=code, symbol=symbol(call),
                call=made)


def helper_call(name: str, args: list[Node], text_arg: Node) -> tuple[Call, str | None] | None:
    """``yyerror("syntax error")``, ``_glfwInputError(GLFW_INVALID_ENUM, "bad %d", x)``: the
    call a reporter of the repository may print (a candidate; composition drops it unless
    ``name`` is a reporter), and the error code named before the text (``GLFW_…``)."""
    if name in CALLS or _NOT_REPORTERS.match(name):
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
    return Call(name, tuple(folded(args))), code
