"""glog's (and Abseil logging's) ``CHECK`` macros, worded as they print when they fail.
Abseil's own names (``ABSL_CHECK``, ``ABSL_CHECK_EQ``, ``ABSL_LOG(ERROR)``) print the same.

``CHECK(cond) << "msg"`` logs at FATAL ``Check failed: cond msg`` (the condition as
written, whitespace collapsed, then what is streamed); ``CHECK_EQ(a, b)`` (``_NE``,
``_LT``, ``_LE``, ``_GT``, ``_GE``) ``Check failed: a == b (1 vs. 2) msg``; ``PCHECK``
adds the ``errno`` text (``: No such file or directory [2]``). ``DCHECK*`` is the same in
debug builds. A bare pointer check (``CHECK(p)``) says nothing, as for ``assert``.
``LOG``'s variants (``LOG_IF(ERROR, c)``, ``PLOG(ERROR)``, ``LOG_EVERY_N``, ``DLOG``) log what
is streamed at the level they name (``PLOG`` adds the ``errno`` text).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from errdex.languages._engine.message import Message
from errdex.languages._engine.pieces import has_words
from errdex.languages.base import Site, line_of, text
from errdex.languages.c.asserts import says_nothing
from errdex.languages.c.family import arguments
from errdex.languages.cpp.calls import cpp_symbol
from errdex.records.log_statements import LogLevel
from errdex.templates.template import Hole, Literal, Part, Template, merge_literals

CHECKS = re.compile(r"(?:ABSL_)?(?:D|P)?CHECK(?:_(?:EQ|NE|LT|LE|GT|GE))?")
_OPERATORS = {"EQ": "==", "NE": "!=", "LT": "<", "LE": "<=", "GT": ">", "GE": ">="}
_SPACE = re.compile(r"\s+")


def check_site(call: Node, at: Node, streamed: list[Message]) -> Site | None:
    """The site of a failed ``CHECK`` call ``call`` at statement ``at``, given what is
    streamed after it (module docstring); None for another call or a bare pointer check."""
    name = text(call.child_by_field_name("function"))
    args = arguments(call.child_by_field_name("arguments"))
    if not CHECKS.fullmatch(name) or not args:
        return None
    said = [_SPACE.sub(" ", text(a)).strip() for a in args]
    name = name.removeprefix("ABSL_")
    operator = _OPERATORS.get(name.rsplit("_", 1)[-1]) if "_" in name else None
    parts: list[Part]
    if operator is not None and len(args) == 2:
        head = f"Check failed: {said[0]} {operator} {said[1]} "
        parts = [Literal(head + "("), Hole(said[0], "{" + said[0] + "}"), Literal(" vs. "),
                 Hole(said[1], "{" + said[1] + "}"), Literal(") ")]
        written = head + "(… vs. …) "
    elif operator is None and len(args) == 1 and not says_nothing(said[0]):
        written = f"Check failed: {said[0]} "
        parts = [Literal(written)]
    else:
        return None
    for piece in streamed:
        parts += piece.parts
        written += piece.written
    if name.startswith("P"):  # the errno text, glog's ``: <strerror> [<errno>]``
        parts += [Literal(": "), Hole("errno", "{strerror(errno)}"), Literal(" ["),
                  Hole.of("errno", "%d", "int"), Literal("]")]
        written += ": {strerror(errno)} [{errno}]"
    merged = list(merge_literals(parts))
    if merged and isinstance(merged[-1], Literal):  # a trailing blank is lost in a paste
        merged[-1] = Literal(merged[-1].text.rstrip())
    return Site(Template(written.rstrip(), tuple(merged)), "panic", line_of(at),
                severity="fatal", symbol=cpp_symbol(at))


def streamed_check(node: Node, operands: list[Node],
                   piece: Callable[[Node, Node], Message]) -> Site | None:
    """``CHECK(cond) << "msg" << v``: the check's site with what is streamed; a leveled
    variant of ``LOG`` (``logged``); None when the chain starts at neither."""
    head = operands[0]
    if head.type != "call_expression":
        return None
    streamed = [piece(op, node) for op in operands[1:]]
    return check_site(head, node, streamed) or logged(head, node, streamed)


# glog's ``LOG`` variants naming their level first: ``PLOG`` adds the errno text
_LOGS = re.compile(r"(?:google::)?(?:ABSL_)?(?:D|P|DP)?LOG(?:_IF|_EVERY_N|_FIRST_N|_IF_EVERY_N"
                   r"|_EVERY_T)?")
_LEVELS: dict[str, LogLevel] = {"ERROR": "error", "FATAL": "fatal", "DFATAL": "error",
                                "WARNING": "warning", "INFO": "info"}


def logged(call: Node, at: Node, streamed: list[Message]) -> Site | None:
    """``LOG_IF(ERROR, cond) << "msg"``, ``PLOG(ERROR) << "msg"``, ``LOG_EVERY_N(WARNING,
    10) << …``: a log site of what is streamed at the level named first (``PLOG``: then
    ``: <strerror> [<errno>]``); plain ``LOG(level)`` is the stream site's own. None for
    another call."""
    name = text(call.child_by_field_name("function"))
    args = arguments(call.child_by_field_name("arguments"))
    if not _LOGS.fullmatch(name) or name.rsplit("::", 1)[-1] in ("LOG", "ABSL_LOG") or not args:
        return None
    level = _LEVELS.get(text(args[0]).rsplit("::", 1)[-1].removeprefix("GLOG_"))
    parts: list[Part] = [p for found in streamed for p in found.parts]
    if level is None or not has_words(parts):
        return None
    written = "".join(found.written for found in streamed)
    if "PLOG" in name:
        parts += [Literal(": "), Hole("errno", "{strerror(errno)}"), Literal(" ["),
                  Hole.of("errno", "%d", "int"), Literal("]")]
        written += ": {strerror(errno)} [{errno}]"
    return Site(Template(written, merge_literals(parts)), "log", line_of(at),
                symbol=cpp_symbol(at), level=level)


def streamed_into(call: Node) -> bool:
    """Whether ``call`` is the left end of a ``<<`` chain (the chain's site reads it)."""
    above = call.parent
    return above is not None and above.type == "binary_expression" and text(
        above.child_by_field_name("operator")) == "<<" and above.child_by_field_name(
        "left") == call
