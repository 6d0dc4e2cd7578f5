"""Qt's logging and assertions, worded as Qt prints them.

* ``qWarning("cannot open %s", name)`` (and ``qFatal``, ``qCritical``, ``qInfo``,
  ``qDebug``): a printf format, a log site at the function's level (``qFatal`` aborts).
* ``qWarning() << "cannot open" << name;``: a ``QDebug`` stream puts one space after each
  item it is given (the last one dropped): the items joined by a space, a value a hole (a
  ``QString`` is printed quoted; the hole takes the quotes).
* ``Q_ASSERT(cond)``: ``ASSERT: "cond" in file f.cpp, line 12``; ``Q_ASSERT_X(cond,
  "where", "what")``: ``ASSERT failure in where: "what", file f.cpp, line 12`` (``qFatal``).

The default message handler prints the message alone (a category's name before it for
``qCWarning``, not read here).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from errdex.languages._engine.message import Message
from errdex.languages._engine.pieces import has_words
from errdex.languages.base import Site, line_of, text
from errdex.languages.c.asserts import says_nothing
from errdex.languages.c.family import STRING_TYPES, arguments, c_string
from errdex.languages.cpp.calls import cpp_symbol
from errdex.records.log_statements import LogLevel
from errdex.templates.template import Hole, Literal, Part, Template, merge_literals

LEVELS: dict[str, LogLevel] = {"qFatal": "fatal", "qCritical": "error", "qWarning": "warning",
                               "qInfo": "info", "qDebug": "debug"}
ASSERTS = ("Q_ASSERT", "Q_ASSERT_X")
_SPACE = re.compile(r"\s+")
_FILE = (Literal(", file "), Hole("file", "{file}", regex=".*?"), Literal(", line "),
         Hole.of("line", "%d", "int"))


def qt_log_site(name: str, call: Node, args: list[Node],
                formatted: Callable[[Node, list[Node]], Message | None]) -> Site | None:
    """``qWarning("fmt", …)``: a log site at its level; ``formatted`` reads a printf format
    with its arguments. None for a call given no worded format."""
    level = LEVELS.get(name)
    if level is None or not args or args[0].type not in STRING_TYPES:
        return None
    message = formatted(args[0], args[1:])
    if message is None or not has_words(message.parts):
        return None
    return _log(Template(message.written, message.parts), call, level)


def qt_stream_site(node: Node, operands: list[Node],
                   piece: Callable[[Node, Node], Message]) -> Site | None:
    """``qWarning() << "a" << x``: the items joined by one space (module docstring); None
    unless the chain starts at a Qt logging call given nothing."""
    head = operands[0]
    if head.type != "call_expression" or arguments(head.child_by_field_name("arguments")):
        return None
    level = LEVELS.get(text(head.child_by_field_name("function")))
    if level is None:
        return None
    parts: list[Part] = []
    written: list[str] = []
    for operand in operands[1:]:
        found = piece(operand, node)
        if not found.parts:
            continue
        if parts:
            parts.append(Literal(" "))
        parts += found.parts
        written.append(found.written)
    if not has_words(parts):
        return None
    return _log(Template(" ".join(written), merge_literals(parts)), node, level)


def qt_assert_template(name: str, args: list[Node]) -> Template | None:
    """What a failed ``Q_ASSERT``/``Q_ASSERT_X`` prints (module docstring); None for
    another name or a ``Q_ASSERT_X`` whose texts are not literals."""
    if name == "Q_ASSERT" and len(args) == 1:
        condition = _SPACE.sub(" ", text(args[0])).strip()
        if says_nothing(condition):
            return None
        said = f'ASSERT: "{condition}" in file '
        return Template(f'ASSERT: "{condition}"', (Literal(said), *_FILE[1:]))
    if name != "Q_ASSERT_X" or len(args) != 3:
        return None
    where, what = (c_string(a) if a.type in STRING_TYPES else None for a in args[1:])
    if where is None or what is None:
        return None
    said = f'ASSERT failure in {where.text}: "{what.text}"'
    return Template(said, (Literal(said), *_FILE))


def _log(template: Template, node: Node, level: LogLevel) -> Site:
    """A log site at ``level`` (its severity follows from it at warning and above)."""
    return Site(template, "log", line_of(node), symbol=cpp_symbol(node), level=level)


def qt_assert_sites(name: str, args: list[Node], call: Node) -> list[Site] | None:
    """The site of a failed ``Q_ASSERT``/``Q_ASSERT_X`` (``qt_assert_template``)."""
    template = qt_assert_template(name, args)
    return None if template is None else [Site(
        template, "panic", line_of(call), severity="fatal", symbol=cpp_symbol(call))]
