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

The other forms, each a site or a producer here:

* a call naming its level before its format, wherever the format is (``ap_log_rerror(
  APLOG_MARK, APLOG_ERR, 0, r, fmt, …)``, ``serverLog(LL_WARNING, fmt, …)``,
  ``ngx_log_error(NGX_LOG_EMERG, log, 0, fmt)``), or in a variable the function sets from
  level constants: ``leveled_sites``;
* a macro named after its level (``LOG_WARN(cb, fmt, …)``, ``LOG_ERROR((fmt, …))``):
  ``leveled_sites``, ``parenthesized_sites``; one handing its format to a leveled call
  (``#define error(...) sshlog(…, SYSLOG_LEVEL_ERROR, NULL, __VA_ARGS__)``): ``log_macros``;
* a pointer to a logging function chosen at run time (``authlog = … ? logit : verbose``):
  ``pointer_sites``, a statement per function it may hold;
* a function logging the buffer it formatted (``packet_disconnect``): ``_forwarder``;
* a choice of formats or of argument texts: ``log_choices``, a statement per text.
"""
from __future__ import annotations

import re
from itertools import pairwise

from tree_sitter import Node

from errdex.languages.base import Site, line_of, text
from errdex.languages.c.calls import folded, formatted, macro_body
from errdex.languages.c.compose import parameters
from errdex.languages.c.family import CALLS, STRING_TYPES, arguments, c_string, function_name
from errdex.languages.c.log_choices import first_text, formats
from errdex.languages.facts import Call, Producer, Result, substitute
from errdex.languages.logs import level_of
from errdex.records.log_statements import LEVELS, LogLevel
from errdex.templates.template import Hole, Literal, Template

_CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*")
_FORMATTERS = frozenset({"snprintf", "sprintf", "xasprintf", "asprintf"})


def level_constant(name: str) -> LogLevel | None:
    """The level a constant names (``SYSLOG_LEVEL_DEBUG2`` → debug, ``LOG_ERR`` → error,
    ``NGX_LOG_DEBUG_HTTP`` → debug: the word after ``LOG``/``LEVEL`` when the last is none)."""
    if not _CONSTANT.fullmatch(name):
        return None
    words = [w.rstrip("0123456789") for w in name.split("_")]
    level = level_of(words[-1]) if words[-1] else None
    if level is None:
        level = next((level_of(after) for before, after in pairwise(words)
                      if before in ("LOG", "LEVEL", "LOGLEVEL") and after), None)
    return level


def logging_macro(name: str) -> LogLevel | None:
    """The level of a macro named after it, as loggers name theirs (``LOG_ERROR``,
    ``ZLOG_WARN``, ``SYSLOG_INFO``, ``WARN``): ``LOG`` in its name, or a level word alone.
    ``OPT__VERBOSE`` (an option) and ``MERGE_WARNING`` (a message of its own) are none."""
    bare = name.strip("_")
    return level_constant(name) if "LOG" in name or "_" not in bare else None


def _logging_function(name: str) -> LogLevel | None:
    """The level of a function named after it (``debug``, ``log_warn``, ``log_info``,
    ``noticef``): its text is what it prints when the repository does not say more."""
    return level_of(name) if name.islower() or name.startswith("_") else None


def log_wrappers(root: Node, path: str, taken: frozenset[str] = frozenset()
                 ) -> list[Producer]:
    """The file's logging functions (module docstring), as producers with their level;
    its logging macros unless named in ``taken`` (the file's reporters: two producers of
    one name in one file would tie, and composition reach neither)."""
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
            result: Result = _prefixed(prefix, fmt)
            if callee not in prefixes and callee not in defined:  # the dispatcher is in
                # another file: its producer (no path: two files' wrappers of one level are
                # one producer to a caller); one of this file prints no prefix
                result = Call(f"{callee}:{constant}", ((_prefixed("", fmt),),), method=True)
            out.append(Producer(name, (fmt,), (result,), "helper", path, line_of(node),
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
    return out + [p for p in log_macros(root, path, prefixes) if p.name not in taken]


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
            levels = next((found for a in reversed(args[:at]) if (found := _levels(a))), [])
            if not levels:
                continue
            constant, level = levels[0]
            callee = text(call.child_by_field_name("function"))
            result: Result = _prefixed(prefixes.get(callee, {}).get(constant, ("", 0))[0], fmt)
            out.append(Producer(name, named if fmt in named else (*named, fmt), (result,),
                                "helper", path, line_of(node), level=level))
            break
    return out


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
        levels = next((found for a in reversed(args[:first]) if (found := _levels(a))), [])
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


def pointer_sites(name: str, call: Node, args: list[Node], text_node: Node,
                  symbol: str | None, owner: str | None) -> list[Site] | None:
    """A call through a pointer to a variadic function chosen at run time (OpenSSH's
    ``void (*authlog)(const char *fmt, ...) = verbose;``, ``authlog = logit;`` or
    ``authlog = quiet ? debug : logit;``, then ``authlog("fmt", …)``): a candidate per
    function the pointer may hold, each composed through that function. Each alternative
    is a statement of its own, at its function's level and with its prefix (not one at the
    highest level): the line a run prints is one of them. None for any other call."""
    targets = _pointers(call).get(name)
    at = first_text(args)
    if not targets or at is None or args[at] != text_node:
        return None
    messages = tuple(m for m in formats(text_node, args[at + 1:]) if m.parts)
    passed = (*folded(args[:at]), messages)
    return [Site(Template("", ()), "log", line_of(call), symbol=symbol,
                 call=Call(target, passed, owner=owner, method=True))
            for target in targets] if messages else None


_LAST_POINTERS: list[tuple[Node, dict[str, list[str]]]] = []
_VARIADIC_POINTER = re.compile(rb"\(\s*\*\s*\w+\s*\)\s*\([^;{)]*\.\.\.\s*\)")


def _pointers(node: Node) -> dict[str, list[str]]:
    """The file's variadic function pointers → the functions assigned to them, in order."""
    root = node
    while root.parent is not None:
        root = root.parent
    if _LAST_POINTERS and _LAST_POINTERS[0][0] == root:
        return _LAST_POINTERS[0][1]
    pointers: dict[str, list[str]] = {}
    if _VARIADIC_POINTER.search(root.text or b""):
        for declarator in _of_type(root, "init_declarator"):
            name = _variadic_pointer(declarator.child_by_field_name("declarator"))
            if name is not None:
                pointers.setdefault(name, []).extend(
                    _targets(declarator.child_by_field_name("value")))
        for declaration in _of_type(root, "declaration"):
            for declarator in declaration.children_by_field_name("declarator"):
                name = _variadic_pointer(declarator)
                if name is not None:
                    pointers.setdefault(name, [])
    for assignment in _of_type(root, "assignment_expression") if pointers else ():
        left = assignment.child_by_field_name("left")
        if left is not None and text(left) in pointers:
            pointers[text(left)].extend(_targets(assignment.child_by_field_name("right")))
    found = {name: list(dict.fromkeys(targets)) for name, targets in pointers.items() if targets}
    _LAST_POINTERS[:] = [(root, found)]
    return found


def _variadic_pointer(declarator: Node | None) -> str | None:
    """The name a ``(*name)(const char *fmt, ...)`` declarator declares, else None."""
    if declarator is None or declarator.type != "function_declarator":
        return None
    inner = declarator.child_by_field_name("declarator")
    params = declarator.child_by_field_name("parameters")
    if inner is None or params is None or inner.type != "parenthesized_declarator" or not any(
            p.type == "variadic_parameter" for p in params.named_children):
        return None
    pointer = inner.named_children[0] if inner.named_child_count == 1 else None
    if pointer is None or pointer.type != "pointer_declarator":
        return None
    name = pointer.child_by_field_name("declarator")
    return text(name) if name is not None and name.type == "identifier" else None


def _targets(value: Node | None) -> list[str]:
    """The functions an assigned value names: one, or each branch of a choice."""
    if value is None:
        return []
    while value.type == "parenthesized_expression" and value.named_child_count == 1:
        value = value.named_children[0]
    if value.type == "identifier":
        return [text(value)]
    if value.type == "conditional_expression":
        return [t for f in ("consequence", "alternative")
                for t in _targets(value.child_by_field_name(f))]
    return []


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


def leveled_sites(name: str, call: Node, args: list[Node], text_node: Node,
                  symbol: str | None, owner: str | None) -> list[Site] | None:
    """A call naming a level constant somewhere before its format, the format being its
    first text (``ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "fmt", …)``,
    ``serverLog(LL_WARNING, "fmt", …)``, ``ngx_log_error(NGX_LOG_ERR, log, 0, "fmt")``,
    ``do_log2(quiet ? LEVEL_INFO : LEVEL_ERROR, "fmt", …)``), or a macro named after its
    level (``LOG_WARN(cb, "fmt", …)``): a log site per level and per text it may print
    (``log_choices``), printing the format as it is; its call reaches the dispatcher's
    producer for that level (``name:CONSTANT``) or the macro's definition when the
    repository has one, which adds the prefix it prints. None for any other call."""
    at = first_text(args)
    if name in CALLS or at is None or args[at] != text_node:
        return None  # one site per call, at its first text
    levels = next((found for arg in reversed(args[:at]) if (found := _levels(arg))), [])
    if not levels:  # ``loglevel = SYSLOG_LEVEL_ERROR; … do_log2(loglevel, "fmt", …)``
        levels = next((found for arg in reversed(args[:at]) if arg.type == "identifier"
                       and _LEVEL_VARIABLE.search(text(arg))
                       and (found := _assigned_levels(call, text(arg)))), [])
    named = (logging_macro(name) or _logging_function(name)) if not levels else None
    messages = [m for m in formats(text_node, args[at + 1:]) if m.parts] if (
        levels or named) else []
    line = line_of(call)
    if named is not None:  # the macro's own definition, if the repository has one, says more
        made = Call(name, (*folded(args[:at]), tuple(messages)), owner=owner, method=True)
        return [Site(m, "log", line, symbol=symbol, level=named, call=made)
                for m in messages] or None
    return [Site(m, "log", line, symbol=symbol, level=level,
                 call=Call(f"{name}:{constant}", ((m,),), owner=owner, method=True))
            for constant, level in levels for m in messages] or None


_LEVEL_VARIABLE = re.compile(r"(?i)level|lvl|prio|severity")


def _assigned_levels(call: Node, variable: str) -> list[tuple[str, LogLevel]]:
    """The level constants the function around ``call`` gives ``variable`` (initialised or
    assigned, a choice too), each once: a statement per level the call may log at."""
    function = call.parent
    while function is not None and function.type != "function_definition":
        function = function.parent
    if function is None:
        return []
    found: dict[str, LogLevel] = {}
    for node in _of_type(function, "init_declarator"):
        if text(node.child_by_field_name("declarator")) == variable and (
                value := node.child_by_field_name("value")) is not None:
            found.update(_levels(value))
    for node in _of_type(function, "assignment_expression"):
        if text(node.child_by_field_name("left")) == variable and (
                value := node.child_by_field_name("right")) is not None:
            found.update(_levels(value))
    return sorted(found.items(), key=lambda item: LEVELS.index(item[1]))


def parenthesized_sites(name: str, call: Node, inner: Node, symbol: str | None
                        ) -> list[Site] | None:
    """``LOG_ERROR(("no port in %s", host))``, ``LOG_WARN((LOGCALLBACK(zh), "fmt", …))``: a
    logging macro named after its level, handed its format and arguments as one
    parenthesized list (ZooKeeper's C client): a log site at that level per text it prints."""
    level = logging_macro(name)
    listed = _comma_list(inner.named_children[0]) if inner.named_child_count == 1 else []
    at = first_text(listed)
    if level is None or at is None:
        return None
    return [Site(m, "log", line_of(call), symbol=symbol, level=level)
            for m in formats(listed[at], listed[at + 1:]) if m.parts] or None


def _comma_list(node: Node) -> list[Node]:
    """The operands of ``a, b, c`` in order (one node when it is no comma expression)."""
    out: list[Node] = []
    while node.type == "comma_expression":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            break
        out.append(left)
        node = right
    return [*out, node]


def _levels(arg: Node) -> list[tuple[str, LogLevel]]:
    """The level constants an argument names: one (``LL_WARNING``), a choice of them
    (``server ? LEVEL_INFO : LEVEL_ERROR``), or one among flags (``APLOG_NOERRNO|APLOG_ERR``)."""
    while arg.type == "parenthesized_expression" and arg.named_child_count == 1:
        arg = arg.named_children[0]
    if arg.type == "identifier":
        level = level_constant(text(arg))
        return [(text(arg), level)] if level is not None else []
    if arg.type == "conditional_expression":
        fields = ("consequence", "alternative")
    elif arg.type == "binary_expression" and text(arg.child_by_field_name("operator")) == "|":
        fields = ("left", "right")
    else:
        return []
    return [found for f in fields if (part := arg.child_by_field_name(f)) is not None
            for found in _levels(part)]


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
    for case in _of_type(body, "case_statement"):
        value = case.child_by_field_name("value")
        if value is None or value.type != "identifier":
            continue
        cases.setdefault(text(value), line_of(case))
        for assignment in _of_type(case, "assignment_expression"):
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


def _of_type(node: Node, kind: str) -> list[Node]:
    out: list[Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == kind:
            out.append(current)
        stack.extend(current.named_children)
    return out


__all__ = ["level_constant", "leveled_sites", "log_macros", "log_wrappers", "logging_macro",
           "parenthesized_sites", "pointer_sites"]
