"""A C project's own logging functions, every form a code base writes them in: the level
a call logs at, and the prefix its logger prints per level.

OpenSSH-style logging is a family of one-line wrappers (``error(fmt, ...)`` does
``do_log(LEVEL_ERROR, fmt, args)``) around one dispatcher whose ``switch`` picks the text
it prints before the message (``case LEVEL_ERROR: txt = "error";`` then
``snprintf(buf, n, "%s: %s", txt, fmt)``). Read per file, no name lists: a wrapper is a
function taking a format and ``...`` (or a ``va_list``) that passes the format to a call
naming a level constant (``*_ERROR``, ``LOG_INFO``, ``DEBUG2``: ``languages.logs``); its
producer prints the dispatcher's prefix for that constant and the format, and carries the
level, so composition gives every call site its text and mining routes it by level.

The other forms: producers here for a macro handing its format to a leveled call
(``#define error(...) sshlog(…, SYSLOG_LEVEL_ERROR, NULL, __VA_ARGS__)``: ``log_macros``,
headers too) and a function logging the buffer it formatted (``packet_disconnect``:
``_forwarder``); the call sites that name their level (an argument before the format, a
level variable, a logging macro's name, a pointer chosen at run time) are
``errdex.languages.c.log_sites``, a choice of formats or texts ``log_choices``.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from errdex.languages.base import line_of, text
from errdex.languages.c.calls import formatted, macro_body
from errdex.languages.c.compose import parameters
from errdex.languages.c.family import CALLS, STRING_TYPES, arguments, c_string, function_name
from errdex.languages.c.log_choices import first_text
from errdex.languages.c.log_sites import level_constant, levels_of, of_type
from errdex.languages.facts import Call, Producer, Result, substitute
from errdex.templates.template import Hole, Literal, Template

_FORMATTERS = frozenset({"snprintf", "sprintf", "xasprintf", "asprintf"})


def log_wrappers(root: Node, path: str) -> list[Producer]:
    """The file's logging functions and macros (module docstring), as producers with their
    level (the caller drops its reporters of the same names: two producers of one name in
    one file would tie, and composition reach neither)."""
    # every form takes a format's arguments (``...`` or a ``va_list``): only those are read
    defined = _functions(root)
    functions = {name: node for name, node in defined.items() if parameters(node)[1]}
    prefixes = {name: found for name, node in functions.items()
                if (found := _prefixes(node))}
    out: list[Producer] = []
    for name, node in functions.items():
        params, variadic = parameters(node)
        body = node.child_by_field_name("body")
        if not variadic or not params or body is None:
            continue
        fmt = params[-1]
        for call in _calls(body):
            args = arguments(call.child_by_field_name("arguments"))
            names = [text(a) for a in args]
            if fmt not in names:
                continue
            constant = next((n for n in names if level_constant(n)), None)
            level = level_constant(constant) if constant else None
            if level is None:
                continue
            callee = text(call.child_by_field_name("function"))
            prefix = prefixes.get(callee, {}).get(constant or "", ("", 0))[0]
            told = _error_text(args[names.index(constant or "") + 1:names.index(fmt)])
            result: Result = _told(_prefixed(prefix, fmt), told)
            if callee not in prefixes and callee not in defined:  # the dispatcher is in
                # another file: its producer (no path: two files' wrappers of one level are
                # one producer to a caller); one of this file prints no prefix
                result = Call(f"{callee}:{constant}", ((_told(_prefixed("", fmt), told),),),
                              method=True)
            # every parameter, the format last: a caller's arguments bind by position
            # (``event_sock_err(1, -1, "%s: socketpair", __func__)``: not the 1)
            out.append(Producer(name, params, (result,), "helper", path, line_of(node),
                                level=level))
            break
    for name, node in functions.items():  # ``do_log2(level, fmt, ...)``: passes both on
        target = _passes_level(node, prefixes)
        if target is not None and name not in prefixes:
            prefixes[name] = prefixes[target]
    for name, found in prefixes.items():  # each level of a dispatcher (at its case line)
        out += [Producer(f"{name}:{constant}", ("fmt",), (_prefixed(prefix, "fmt"),),
                         "helper", path, line, level=level_constant(constant))
                for constant, (prefix, line) in found.items()]
    made = {p.name for p in out}
    out += [p for name, node in functions.items() if name not in made
            and (p := _forwarder(name, node, path)) is not None]
    return out + log_macros(root, path, prefixes)


def log_macros(root: Node, path: str, prefixes: dict[str, dict[str, tuple[str, int]]]
               ) -> list[Producer]:
    """``#define error(...) sshlog(__FILE__, __func__, __LINE__, 0, SYSLOG_LEVEL_ERROR, NULL,
    __VA_ARGS__)``, ``#define WARN(fmt, ...) emit(LOG_WARNING, fmt, ##__VA_ARGS__)``: a macro
    handing its format (its last named parameter, or the first of ``__VA_ARGS__``) to a call
    naming a level constant before it is a producer at that level printing the format, with
    the prefix of the file's dispatcher for that constant when it has one."""
    out: list[Producer] = []
    for node in _macros(root):
        read = macro_body(node, "c")
        if read is None or not read[2]:
            continue
        name, params, _, block = read
        named = tuple(p for p in params if p != "__VA_ARGS__")
        for call in _calls(block):
            args = arguments(call.child_by_field_name("arguments"))
            names = [text(a) for a in args]
            if "__VA_ARGS__" not in names:
                continue
            at = names.index("__VA_ARGS__")
            fmt = "fmt"
            if named and at and names[at - 1] == named[-1]:
                at, fmt = at - 1, named[-1]
            where = next(((i, found) for i in reversed(range(at))
                          if (found := levels_of(args[i]))), None)
            if where is None:
                continue
            constant, level = where[1][0]
            callee = text(call.child_by_field_name("function"))
            printed = _prefixed(prefixes.get(callee, {}).get(constant, ("", 0))[0], fmt)
            suffix = _suffix(args[where[0] + 1:at], named)
            if suffix is not None:
                printed = Template(f"{printed.written}: {{{suffix}}}",
                                   (*printed.parts, Literal(": "), Hole.of(suffix, "%s")))
            result: Result = printed
            out.append(Producer(name, named if fmt in named else (*named, fmt), (result,),
                                "helper", path, line_of(node), level=level))
            break
    return out


def _error_text(between: list[Node]) -> str | None:
    """The error's text a logging function hands its dispatcher between the level and the
    format (libevent's ``event_warn`` passes ``strerror(errno)``, ``event_sock_warn``
    ``evutil_socket_error_to_string(err)``): a call whose name says error, printed after
    the message as ``: <text>`` as ``perror`` does. None for a flag, ``NULL`` or a name."""
    for arg in between:
        if arg.type == "call_expression" and "err" in text(
                arg.child_by_field_name("function")).lower():
            return text(arg)
    return None


def _told(printed: Template, told: str | None) -> Template:
    """``printed`` and then ``: <told>`` when the dispatcher is given an error's text."""
    if told is None:
        return printed
    return Template(f"{printed.written}: {{{told}}}",
                    (*printed.parts, Literal(": "), Hole.of(told, "%s")))


def _suffix(between: list[Node], params: tuple[str, ...]) -> str | None:
    """The text a logging macro hands its dispatcher after the level, computed from one of
    its own parameters (OpenSSH's ``#define error_r(r, ...) sshlog(…, SYSLOG_LEVEL_ERROR,
    ssh_err(r), __VA_ARGS__)``): printed after the message as ``: <text>``, the way
    ``perror``, ``err`` and such dispatchers append an error's text. None when no argument
    there is a call on a parameter (``NULL``, a flag)."""
    for arg in between:
        if arg.type != "call_expression":
            continue
        inner = arguments(arg.child_by_field_name("arguments"))
        if any(text(a) in params for a in inner):
            return text(arg)
    return None


def _macros(root: Node) -> list[Node]:
    """The file's function-like macros: at its top level or in conditional blocks there
    (not searched for inside functions, where no logging macro is defined)."""
    out: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.named_children:
            if child.type == "preproc_function_def":
                out.append(child)
            elif child.type.startswith("preproc_") or child.type in (
                    "linkage_specification", "declaration_list"):
                stack.append(child)
    return sorted(out, key=lambda n: n.start_byte)


_FILLERS = {"vsnprintf": 2, "vsprintf": 1, "vasprintf": 1, "xvasprintf": 1}
# The C library's printers and string functions: a buffer handed to them is no log call
# (``compose`` reads what they print on stderr).


# The C library's printers and string functions: a buffer handed to them is no log call
# (``compose`` reads what they print on stderr).
_LIBRARY = re.compile(r"^(?:v?[sfd]?n?printf|v?as?printf|f?puts|str\w*|mem\w*|write|send\w*)$")


def _forwarder(name: str, function: Node, path: str) -> Producer | None:
    """``packet_disconnect(fmt, ...)`` formatting into a buffer (``vsnprintf(buf, n, fmt,
    args)``) that it then logs (``logit("Disconnecting: %.100s", buf)``): a producer calling
    that logger with its text around the format, so each caller's format is printed so."""
    params, variadic = parameters(function)
    body = function.child_by_field_name("body")
    if not variadic or not params or body is None:
        return None
    fmt, buffer = params[-1], None
    for call in _calls(body):
        callee = text(call.child_by_field_name("function"))
        args = arguments(call.child_by_field_name("arguments"))
        at = _FILLERS.get(callee)
        if buffer is None:
            if at is not None and len(args) > at and text(args[at]) == fmt and args:
                buffer = text(args[0]).lstrip("&")
            continue
        first = first_text(args)
        syslog = callee in ("syslog", "syslog_r")
        if _LIBRARY.match(callee) or (callee in CALLS and not syslog) or at is not None or (
                first is None):
            continue
        if args[first].type not in STRING_TYPES or buffer not in [
                text(a) for a in args[first + 1:]]:
            continue
        shown = formatted(args[first], args[first + 1:], None)
        if shown is None:
            continue
        hole = Template("{" + fmt + "}", (Hole.of(fmt, "%s"),))
        message = substitute(shown, {buffer: hole})
        levels = next((found for a in reversed(args[:first]) if (found := levels_of(a))), [])
        if syslog and levels:  # ``syslog(LOG_ERR, "%s", buf)``: the logger itself
            return Producer(name, params, (message,), "helper", path, line_of(function),
                            level=levels[0][1])
        if levels:
            # ``serverLog(LL_WARNING, "Guru Meditation: %s", msg)`` is no forwarder: redis
            # defines such a function twice (a stderr one for its tools), and two producers
            # of one name in one folder tie: composition would reach neither
            return None
        return Producer(name, params, (Call(callee, ((message,),), path=path, method=True),),
                        "helper", path, line_of(function))
    return None


def _prefixed(prefix: str, param: str) -> Template:
    """What a logging function prints: ``prefix`` and the format it is given."""
    hole = Hole.of(param, "%s")
    return Template(prefix + "{" + param + "}", (Literal(prefix), hole) if prefix else (hole,))


def _passes_level(function: Node, prefixes: dict[str, dict[str, tuple[str, int]]]
                  ) -> str | None:
    """The dispatcher a variadic ``(level, fmt, ...)`` function hands both to, if any."""
    params, variadic = parameters(function)
    body = function.child_by_field_name("body")
    if not variadic or len(params) < 2 or body is None:
        return None
    level, fmt = params[-2:]
    for call in _calls(body):
        callee = text(call.child_by_field_name("function"))
        names = [text(a) for a in arguments(call.child_by_field_name("arguments"))]
        if callee in prefixes and level in names and fmt in names:
            return callee
    return None


def _functions(root: Node) -> dict[str, Node]:
    found: dict[str, Node] = {}
    for node in root.named_children:
        if node.type == "function_definition":
            name = function_name(node)
            if name and name.isidentifier():
                found.setdefault(name, node)
    return found


def _calls(node: Node) -> list[Node]:
    out: list[Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "call_expression":
            out.append(current)
        stack.extend(current.named_children)
    return sorted(out, key=lambda n: n.start_byte)


def _prefixes(function: Node) -> dict[str, tuple[str, int]]:
    """A dispatcher's prefix per level constant: ``case X: txt = "error";`` with a later
    ``snprintf(buf, n, "%s: %s", txt, fmt)`` → ``{X: "error: "}``."""
    params, _ = parameters(function)
    body = function.child_by_field_name("body")
    if body is None or not params:
        return {}
    assigned: dict[str, dict[str, str]] = {}  # variable → constant → literal
    cases: dict[str, int] = {}  # constant → the line of its case
    for case in of_type(body, "case_statement"):
        value = case.child_by_field_name("value")
        if value is None or value.type != "identifier":
            continue
        cases.setdefault(text(value), line_of(case))
        for assignment in of_type(case, "assignment_expression"):
            left, right = (assignment.child_by_field_name(f) for f in ("left", "right"))
            literal = c_string(right) if right is not None else None
            if left is not None and literal is not None:
                assigned.setdefault(text(left), {})[text(value)] = literal.text
    if not assigned:
        return {}
    for call in _calls(body):
        if text(call.child_by_field_name("function")) not in _FORMATTERS:
            continue
        args = arguments(call.child_by_field_name("arguments"))
        names = [text(a) for a in args]
        fmt_index = next((i for i, a in enumerate(args) if c_string(a) is not None), None)
        if fmt_index is None or not any(p in names for p in params):
            continue
        shown = c_string(args[fmt_index])
        rest = names[fmt_index + 1:]
        variable = next((v for v in rest if v in assigned), None)
        if shown is None or variable is None or shown.text.count("%s") != len(rest):
            continue
        pieces = shown.text.split("%s")
        where = rest.index(variable)
        after = next((i for i, v in enumerate(rest) if v in params), None)
        if after is None or after != where + 1:
            continue
        spelled = assigned[variable]
        return {constant: (pieces[where] + spelled[constant] + pieces[after]
                           if constant in spelled else "", line)
                for constant, line in cases.items() if level_constant(constant)}
    return {}


__all__ = ["log_macros", "log_wrappers"]
