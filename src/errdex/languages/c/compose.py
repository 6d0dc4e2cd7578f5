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
from dataclasses import replace

from tree_sitter import Node

from errdex.languages._engine.walk import nodes_from
from errdex.languages.base import line_of, text
from errdex.languages.c.calls import (
    Reading,
    aliases_of,
    declared_name,
    failing,
    folded,
    formatted,
    guarded,
    macro_body,
    scope_of,
    value,
)
from errdex.languages.c.family import CALLS, arguments, function_name, parameter_list
from errdex.languages.facts import (
    Call,
    Composer,
    Producer,
    Result,
    has_text,
    substitute,
    unknown,
)
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
_MAX_PASSES = 6


def producers(grammar: str) -> Composer:
    """The C reporters of a file parsed with ``grammar`` (C, or C++ for headers)."""

    def read(root: Node, source: bytes, path: str) -> list[Producer]:
        found = reporters(root, path, grammar, scope_of(source))
        return found + defines(root, path) if grammar == "c" else found  # C++ reads its own

    return Composer(producers=read, triggers=(b"stderr", b"#define", b"printf", b"(2,"))


def reporters(root: Node, path: str, grammar: str, scope: str | None = None) -> list[Producer]:
    """The file's reporter functions and macros (``producers``); a ``static`` one is owned by
    the file's ``scope`` (``calls.file_scope``): no other file's call reaches it."""
    functions, macros, pointers, statics = _definitions(root)
    getters = {name: target for node in functions if (found := _getter(node)) is not None
               for name, target in (found,)}
    known: dict[str, Producer] = {}
    for _ in range(_MAX_PASSES):  # reporters calling reporters defined later in the file
        before = dict(known)
        for node in functions:
            made = _function(node, path, known, getters)
            if made is not None:
                known[made.name] = made
        for name, target, line in pointers:  # ``static report_fn die_routine = die_builtin;``
            if target in known:
                known[name] = Producer(name, known[target].params, known[target].results,
                                       "helper", path, line)
        if known == before:
            break
    for _ in range(_MAX_PASSES):  # macros built on macros (``DISPLAYLEVEL`` on ``DISPLAY``)
        before = dict(known)
        for node in sorted(macros, key=lambda n: n.start_byte):
            made = _macro(node, path, grammar, known)
            if made is not None:
                known[made.name] = made
        if known == before:
            break
    local = {function_name(n) for n in functions if _static(n)} | {
        name for name, _, _ in pointers if name in statics}
    return placed([replace(p, owner=scope) if p.name in local and scope else p
                   for p in known.values()], path)


def placed(found: list[Producer], path: str) -> list[Producer]:
    """Producers whose calls say the file they are written in (what they can reach)."""
    return [replace(p, results=tuple(replace(r, path=path) if isinstance(r, Call) and not r.path
                                     else r for r in p.results)) for p in found]


def _static(node: Node) -> bool:
    return any(c.type == "storage_class_specifier" and text(c) == "static"
               for c in node.children)


def _definitions(root: Node) -> tuple[
        list[Node], list[Node], list[tuple[str, str, int]], set[str]]:
    """Free function definitions, function-like macros (not inside classes), function
    pointers set to a function by name, and which of those pointers are ``static``."""
    functions: list[Node] = []
    macros: list[Node] = []
    pointers: list[tuple[str, str, int]] = []
    statics: set[str] = set()
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
            name = declared_name(node.child_by_field_name("declarator"))
            if value is not None and value.type == "identifier" and name:
                pointers.append((name, text(value), line_of(node)))
                if node.parent is not None and _static(node.parent):
                    statics.add(name)
            continue
        if node.type in ("class_specifier", "struct_specifier", "compound_statement",
                         "field_declaration_list"):
            continue
        stack.extend(node.named_children)
    functions.sort(key=lambda n: n.start_byte)
    macros.sort(key=lambda n: n.start_byte)
    return functions, macros, pointers, statics


# --- functions -----------------------------------------------------------------------------


def parameters(definition: Node) -> tuple[tuple[str, ...], bool]:
    """A function's parameter names up to its format (``va_list`` ones dropped), and
    whether it takes a format's arguments (``...`` or a ``va_list``)."""
    params = parameter_list(definition)
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
        name = declared_name(param.child_by_field_name("declarator"))
        if name:
            names.append(name)
    return tuple(names), variadic


def _getter(node: Node) -> tuple[str, str] | None:
    """``report_fn get_die_message_routine(void) { return die_message_routine; }``."""
    body = node.child_by_field_name("body")
    statements = body.named_children if body is not None else []
    if len(statements) != 1 or statements[0].type != "return_statement" or not (
            statements[0].named_children) or statements[0].named_children[0].type != "identifier":
        return None
    name = function_name(node)
    return (name, text(statements[0].named_children[0])) if name else None


def _local_pointers(body: Node, getters: dict[str, str]) -> dict[str, str]:
    """``report_fn fn = get_die_message_routine();``: what a local function pointer calls."""
    out: dict[str, str] = {}
    stack = [body]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type != "init_declarator":
            continue
        value = node.child_by_field_name("value")
        name = declared_name(node.child_by_field_name("declarator"))
        if value is not None and value.type == "call_expression" and name and not arguments(
                value.child_by_field_name("arguments")):
            target = getters.get(text(value.child_by_field_name("function")))
            if target is not None:
                out[name] = target
    return out


def _function(node: Node, path: str, known: dict[str, Producer],
              getters: dict[str, str]) -> Producer | None:
    name = function_name(node)
    body = node.child_by_field_name("body")
    if not name or body is None or "::" in name:
        return None
    params, variadic = parameters(node)
    if not params:
        return None
    others = {k: v for k, v in known.items() if k != name}
    return _producer(name, params, variadic, body, path, line_of(node), others,
                     _file_params(node), _local_pointers(body, getters))


def _file_params(definition: Node) -> set[str]:
    """``FILE *f`` parameters: a reporter printing to ``f`` prints to what it is given."""
    params = parameter_list(definition)
    return {name for p in (params.named_children if params is not None else ())
            if p.type == "parameter_declaration" and text(p.child_by_field_name("type")) == "FILE"
            and (name := declared_name(p.child_by_field_name("declarator")))}


def _producer(name: str, params: tuple[str, ...], variadic: bool, body: Node, path: str,
              line: int, known: dict[str, Producer], files: set[str] | None = None,
              pointers: dict[str, str] | None = None, macro: bool = False) -> Producer | None:
    streams = {*_STDERR, *(files or ()), *(f"fileno({f})" for f in files or ())}
    reading = Reading(params, known, aliases=aliases_of(body), streams=streams,
                      pointers=pointers or {})
    for call in _calls(body):
        if failing(call, body):
            continue  # the reporter's own error path (``if (too long) { fprintf…; abort(); }``)
        _statement(call, reading, guarded(call, body, params if macro else ()))
    names = set(params)
    # what it prints under a condition counts when that is all it prints, in one place
    # (``if (callback) callback(code, description);``)
    printed = reading.printed or (reading.guarded if len(reading.guarded) == 1 else [])
    if printed:
        template = _chomped(_joined(printed))
        shown = {h.name for h in template.holes}
        if shown & names and (has_text(template) or variadic) and (
                not macro or has_text(template) or shown <= names):
            # a macro printing only what it is given and others' values (``{LOG::LEVEL}``)
            # is no reporter: its callers' text would be read with a stranger's hole
            return Producer(name, params, (template,), "helper", path, line)
        return None
    # a variadic reporter forwards its format (``vdie(fmt, ap)``), not a detail of its own
    # failure (``BUG("for key '%s' …", key)``)
    handed = {params[-1]} if variadic else names
    results: list[Result] = [c for c in reading.forwarded if _passes(c, handed)]
    if not results:
        return None
    return Producer(name, params, tuple(results[:1]), "helper", path, line)


def _passes(call: Call, names: set[str]) -> bool:
    return any(h.name in names for arg in call.args for t in arg for h in t.holes)


def _calls(body: Node) -> list[Node]:
    """The calls of a body in source order (nested calls after their callers' heads)."""
    return [n for n in nodes_from(body, ("function_definition", "lambda_expression"))
            if n.type == "call_expression"]


def _statement(call: Node, reading: Reading, guarded: bool) -> None:
    """One call of a reporter's body: a buffer filled, a text printed, a report forwarded
    (not under a condition: ``if (len < 0) die("unable to format message: %s", fmt)`` is
    how ``xsnprintf`` fails, not what it reports)."""
    out = reading.guarded if guarded else reading.printed
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
    inlined = reading.known.get(reading.pointers.get(name, name))
    if inlined is not None and inlined.results and isinstance(inlined.results[0], Template):
        if guarded:
            return  # another reporter called under a condition: a failure of this one
        out.append(substitute(inlined.results[0], _bound(inlined.params, args, reading)))
        return
    if function is not None and (function.type != "identifier" or _CALLBACK.search(name)):
        buffered = [reading.buffers[text(a)] for a in args if text(a) in reading.buffers]
        handed = [unknown(text(a)) for a in args if text(a) == reading.params[-1:][0]]
        if buffered or handed:  # an error callback handed the buffer, or the format
            out.append((buffered or handed)[0])
        return
    if (REPORTERISH.search(name) or name in CALLS) and not guarded:
        reading.forwarded.append(Call(name, tuple(folded(args, reading)), method=True))


def _bound(params: tuple[str, ...], args: list[Node], reading: Reading) -> dict[str, Template]:
    """A known reporter's parameters bound to a call's arguments, one by one; its last takes
    the format with the arguments after it (``vreportf(_("warning: "), warn, params)``)."""
    bound: dict[str, Template] = {}
    for i, (param, arg) in enumerate(zip(params, args, strict=False)):
        last = i == len(params) - 1
        made = formatted(arg, args[i + 1:], reading) if last else value(arg, reading)
        if made is not None:
            bound[param] = made
    return bound


def _buffer(name: str, args: list[Node], reading: Reading) -> None:
    index, printf, appends = _BUFFERS[name]
    if len(args) <= index:
        return
    target = text(args[0]).lstrip("&")
    base = reading.aliases.get(target, target)
    offset = args[0].type == "binary_expression" or base != target
    if args[0].type == "binary_expression":
        left = args[0].child_by_field_name("left")
        base = reading.aliases.get(text(left), text(left))
    written = (formatted(args[index], args[index + 1:], reading) if printf
               else value(args[index], reading))
    if written is None:
        return
    previous = reading.buffers.get(base)
    if previous is not None and (appends or offset):
        reading.buffers[base] = _joined([previous, written])
    elif previous is None or not previous.holes or written.holes:
        reading.buffers[base] = written


def _printed(name: str, args: list[Node], reading: Reading) -> Template | None:
    """What a call prints on stderr, or None when it prints nothing there."""
    first = text(args[0]) if args else ""
    streams = reading.streams
    if name in ("fprintf", "dprintf") and first in streams and len(args) > 1:
        return formatted(args[1], args[2:], reading)
    if name in ("vfprintf", "vdprintf") and first in streams and len(args) > 1:
        return value(args[1], reading)
    if name in ("fputs", "fputc", "putc") and len(args) == 2 and text(args[1]) in streams:
        return value(args[0], reading)
    if name in ("write", "write_in_full", "xwrite", "write_or_die") and first in streams and (
            len(args) > 1):
        return value(args[1], reading)
    if name in ("vsyslog", "syslog") and len(args) > 1:
        return (value(args[1], reading) if name == "vsyslog"
                else formatted(args[1], args[2:], reading))
    return None


def _joined(templates: list[Template]) -> Template:
    parts: list[Part] = [p for t in templates for p in t.parts]
    return Template("".join(t.written for t in templates), merge_literals(parts))


def _chomped(template: Template) -> Template:
    parts = list(template.parts)
    if parts and isinstance(parts[-1], Literal):
        parts[-1] = Literal(parts[-1].text.rstrip("\r\n"))
    return Template(template.written.rstrip("\r\n").removesuffix("\\n"), merge_literals(parts))


# --- constants ---------------------------------------------------------------------------


def defines(root: Node, path: str) -> list[Producer]:
    """``#define ERR_NOMEM "out of memory"`` at the file's top level: a string constant a
    site may print (``die(ERR_NOMEM)``)."""
    out: list[Producer] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in ("function_definition", "compound_statement"):
            continue
        stack.extend(node.named_children)
        if node.type != "preproc_def":
            continue
        name = text(node.child_by_field_name("name"))
        value = text(node.child_by_field_name("value")).strip()
        literal = value[1:-1] if len(value) > 1 and value[0] == value[-1] == '"' else ""
        if name and any(c.isalpha() for c in literal) and not set('"%\\') & set(literal):
            out.append(Producer(name, (), (Template(literal, (Literal(literal),)),), "constant",
                                path, line_of(node)))
    return out


# --- macros ------------------------------------------------------------------------------


def _macro(node: Node, path: str, grammar: str, known: dict[str, Producer]) -> Producer | None:
    """``#define BUG(fmt, ...) die("BUG: " fmt, ##__VA_ARGS__)``, read as a function."""
    read = macro_body(node, grammar)
    if read is None:
        return None
    name, params, variadic, block = read
    others = {k: v for k, v in known.items() if k != name}
    made = None
    if variadic and "__VA_ARGS__" not in params and _formats_rest(block, params):
        # what it prints with its ``...`` as the format; a call it hands that on to is not
        # read so (``Write(LEVEL, Construct(__VA_ARGS__))``: no format of the macro's)
        made = _producer(name, (*params, "__VA_ARGS__"), variadic, block, path, line_of(node),
                         others, macro=True)
        made = made if made is not None and isinstance(made.results[0], Template) else None
    made = made or _producer(name, params, variadic, block, path, line_of(node), others,
                             macro=True)
    if made is not None and any(isinstance(r, Call) and r.named() == name for r in made.results):
        return None  # ``#define error(...) (error(__VA_ARGS__), const_error())``: the function's
    return made


def _formats_rest(block: Node, params: tuple[str, ...]) -> bool:
    """Whether a variadic macro's format is the first of its ``...``, not a named parameter:
    ``#define DISPLAYLEVEL(l, ...) DISPLAY(__VA_ARGS__)`` (not ``fprintf(stderr, fmt,
    __VA_ARGS__)``), so a call's format and its arguments fill ``__VA_ARGS__``."""
    body = text(block)
    return "__VA_ARGS__" in body and not re.search(
        rf"\b{re.escape(params[-1])}\s*(?:,\s*)?__VA_ARGS__", body)

