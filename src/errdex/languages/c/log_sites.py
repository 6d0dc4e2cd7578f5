"""Where a C log call names its level: the call sites of a project's logging functions.

Read per call, no definition needed: a level constant anywhere before the format
(``ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, fmt, …)``, ``serverLog(LL_WARNING, fmt,
…)``), a variable the function sets from such constants, the enclosing call's constant
(``ereport(ERROR, (errmsg(fmt, …)))``), the name of a logging macro or function
(``LOG_WARN(cb, fmt, …)``, ``LOG_ERROR((fmt, …))``, ``log_debug(fmt, …)``), or a pointer
to a logging function chosen at run time (a statement per function it may hold). The
producers of the logging functions themselves are ``errdex.languages.c.logs``.
"""

from __future__ import annotations

import re
from itertools import pairwise

from tree_sitter import Node

from errdex.languages.base import Site, line_of, text
from errdex.languages.c.calls import folded
from errdex.languages.c.family import CALLS, arguments
from errdex.languages.c.log_choices import first_text, formats
from errdex.languages.facts import Call
from errdex.languages.logs import level_of
from errdex.records.log_statements import LEVELS, LogLevel
from errdex.templates.template import Literal, Template

_CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*")


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


# GLib's logging macros (``g_critical("fmt", …)`` prints ``** (prog:1234): CRITICAL **: …``
# and the format; ``g_error`` aborts): levels GLib's names do not spell as ours.
_GLIB: dict[str, LogLevel] = {"g_error": "fatal", "g_critical": "error", "g_warning": "warning",
                              "g_warning_once": "warning", "g_message": "info",
                              "g_info": "info", "g_debug": "debug"}


def _logging_function(name: str) -> LogLevel | None:
    """The level of a function named after it (``debug``, ``log_warn``, ``log_info``,
    ``noticef``, GLib's ``g_critical``): its text is what it prints when the repository
    does not say more."""
    if name in _GLIB:
        return _GLIB[name]
    return level_of(name) if name.islower() or name.startswith("_") else None


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
        for declarator in of_type(root, "init_declarator"):
            name = _variadic_pointer(declarator.child_by_field_name("declarator"))
            if name is not None:
                pointers.setdefault(name, []).extend(
                    _targets(declarator.child_by_field_name("value")))
        for declaration in of_type(root, "declaration"):
            for declarator in declaration.children_by_field_name("declarator"):
                name = _variadic_pointer(declarator)
                if name is not None:
                    pointers.setdefault(name, [])
    for assignment in of_type(root, "assignment_expression") if pointers else ():
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
    levels = next((found for arg in reversed(args[:at]) if (found := levels_of(arg))), [])
    if not levels:  # ``loglevel = SYSLOG_LEVEL_ERROR; … do_log2(loglevel, "fmt", …)``
        levels = next((found for arg in reversed(args[:at]) if arg.type == "identifier"
                       and _LEVEL_VARIABLE.search(text(arg))
                       and (found := _assigned_levels(call, text(arg)))), [])
    statement = call
    if not levels:  # ``ereport(ERROR, (errcode(…), errmsg("fmt", …)))``: at ``ereport``
        levels, statement = _enclosing_levels(call)
    named = (logging_macro(name) or _logging_function(name)) if not levels else None
    messages = [m for m in formats(text_node, args[at + 1:]) if _worded(m)] if (
        levels or named) else []
    line = line_of(statement)
    if named is not None:  # the macro's own definition, if the repository has one, says more
        made = Call(name, (*folded(args[:at]), tuple(messages)), owner=owner, method=True)
        return [Site(m, "log", line, symbol=symbol, level=named, call=made)
                for m in messages] or None
    return [Site(m, "log", line, symbol=symbol, level=level,
                 call=Call(f"{name}:{constant}", ((m,),), owner=owner, method=True))
            for constant, level in levels for m in messages] or None


def _worded(message: Template) -> bool:
    """A message with words of its own (not ``"%s"``, which any line would match)."""
    return any(isinstance(p, Literal) and any(c.isalpha() for c in p.text)
               for p in message.parts)


def _enclosing_levels(call: Node) -> tuple[list[tuple[str, LogLevel]], Node]:
    """The level a call's enclosing call names before it when that call has no text of its
    own (PostgreSQL's ``ereport(ERROR, (errcode(…), errmsg("fmt", …)))`` logs ``errmsg``'s),
    and that enclosing call (the statement); none, and ``call``, otherwise."""
    node = call.parent
    while node is not None and node.type in ("comma_expression", "parenthesized_expression"):
        node = node.parent
    outer = node.parent if node is not None and node.type == "argument_list" else None
    if node is None or outer is None or outer.type != "call_expression":
        return [], call
    args = arguments(node)
    inside = next((i for i, a in enumerate(args)
                   if a.start_byte <= call.start_byte and call.end_byte <= a.end_byte), None)
    if inside is None or first_text(args) is not None:
        return [], call
    found = next((found for a in reversed(args[:inside]) if (found := levels_of(a))), [])
    return found, outer if found else call


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
    for node in of_type(function, "init_declarator"):
        if text(node.child_by_field_name("declarator")) == variable and (
                value := node.child_by_field_name("value")) is not None:
            found.update(levels_of(value))
    for node in of_type(function, "assignment_expression"):
        if text(node.child_by_field_name("left")) == variable and (
                value := node.child_by_field_name("right")) is not None:
            found.update(levels_of(value))
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


def levels_of(arg: Node) -> list[tuple[str, LogLevel]]:
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
            for found in levels_of(part)]


def of_type(node: Node, kind: str) -> list[Node]:
    out: list[Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == kind:
            out.append(current)
        stack.extend(current.named_children)
    return out


__all__ = ["level_constant", "leveled_sites", "levels_of", "logging_macro", "of_type",
           "parenthesized_sites", "pointer_sites"]
