"""Errors whose message is streamed into them where they are thrown: ``throw
ParseError() << "unexpected token " << tok;``.

A class that collects text with ``operator<<`` (and returns it from ``what()``) prints what
the throw streams, in order: the site's template is the chain's pieces after the made error
(a string, a character, a value as a hole), its class the one made. A chain of
``boost::exception``-style tags (``<< errinfo_path(p)``) says no words: no site.

A chain starting at stderr logs what it streams: ``std::cerr``, or a function handing the
stream back (``llvm::errs()``, ``Catch::cerr()``): ``to_stderr``.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from errdex.languages._engine.message import Message
from errdex.languages._engine.pieces import has_words
from errdex.languages.base import Site, line_of, text
from errdex.languages.c.family import arguments
from errdex.languages.cpp.calls import cpp_symbol, thrown_class
from errdex.templates.template import Literal, Template, merge_literals

_ERROR_STREAMS = frozenset({"std::cerr", "cerr", "std::wcerr", "std::clog"})
# a function handing back the error stream: ``llvm::errs()``, ``Catch::cerr()``
_STREAM_GETTERS = frozenset({"errs", "cerr", "clog"})


def to_stderr(node: Node) -> bool:
    """Whether ``node`` is stderr as a stream: ``std::cerr``, or a call of no arguments to
    a function handing it back (``llvm::errs() << "error: " << msg``)."""
    if text(node) in _ERROR_STREAMS:
        return True
    function = node.child_by_field_name("function") if node.type == "call_expression" else None
    return function is not None and not arguments(node.child_by_field_name("arguments")) and (
        text(function).rsplit("::", 1)[-1] in _STREAM_GETTERS)


def shift_operands(node: Node) -> list[Node]:
    """``a << b << c`` → ``[a, b, c]``."""
    out: list[Node] = []
    while node.type == "binary_expression" and text(node.child_by_field_name("operator")) == "<<":
        right = node.child_by_field_name("right")
        if right is not None:
            out.append(right)
        node = node.child_by_field_name("left") or node
        if node is None:
            break
    out.append(node)
    return out[::-1]


def streamed_throw(node: Node, value: Node, piece: Callable[[Node, Node], Message]
                   ) -> Site | None:
    """The site of ``throw E() << "text" << v`` at ``node`` (module docstring); ``piece``
    reads what one operand prints. None for any other thrown value."""
    if value.type != "binary_expression" or text(value.child_by_field_name("operator")) != "<<":
        return None
    operands = shift_operands(value)
    made = operands[0]
    if made.type == "call_expression":
        class_node, given = made.child_by_field_name("function"), made.child_by_field_name(
            "arguments")
    elif made.type == "compound_literal_expression":
        class_node, given = made.child_by_field_name("type"), made.child_by_field_name("value")
    else:
        return None
    if class_node is None or (given is not None and arguments(given)):
        return None  # ``E("head") << more``: what the class does with its text is unknown
    template = streamed_text([piece(op, node) for op in operands[1:]])
    if template is None:
        return None
    return Site(template, "exception", line_of(node),
                thrown_class(text(class_node).removeprefix("::")), symbol=cpp_symbol(node))


def streamed_text(pieces: list[Message]) -> Template | None:
    """What a ``<<`` chain's pieces print one after another, a final line break dropped (a
    stream ended by ``"\\n"`` or ``std::endl``); None when they say no words. Throws and
    logging streams both read their chains so."""
    parts = list(merge_literals([p for found in pieces for p in found.parts]))
    if parts and isinstance(parts[-1], Literal):
        parts[-1] = Literal(parts[-1].text.rstrip("\r\n"))
    if not has_words(parts):
        return None
    written = "".join(found.written for found in pieces).rstrip("\r\n")
    return Template(written, merge_literals(parts))
