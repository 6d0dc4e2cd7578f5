"""A message built in a variable and handed to an object that raises it later.

Some libraries prepare an error's text where they know its parts and give it to an
object that raises it when it is used (pydantic's mocks of a model not fully defined)::

    undefined_message = f"`{cls.__name__}` is not fully defined; define {name} first."
    cls.validator = MockValidator(undefined_message, code="class-not-fully-defined")

The raise (``raise UserError(self._error_message)``) says nothing of the text, so the
assignment is where it is written: a site there, whose class the source does not say.
Only a variable named for a message, assigned once in its function a text of three words
or more, and used only as an argument to classes that are not errors (an error class
made from it is raised or returned, and read there).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from errdex.languages._engine import Captures, FileIndex
from errdex.languages.base import Site, ancestors, line_of, text
from errdex.languages.python.messages import read, symbol_of, unwrap
from errdex.templates.template import Literal, Template

_NAMED = re.compile(r"(?:^|_)(?:message|msg)$")
_TEXTS = frozenset({"string", "concatenated_string"})
_ERRORISH = re.compile(r"(?:Error|Exception|Warning|Exit)$")
_NESTED = frozenset({"function_definition", "class_definition", "lambda"})
_MIN_WORDS = 3


def held_site(caps: Captures, file: FileIndex) -> Site | None:
    """The site of a message variable handed only to objects that hold it; None else."""
    if "assign" not in caps:
        return None
    name = text(caps["assign.name"][0])
    if not _NAMED.search(name):
        return None
    node, value = caps["assign"][0], unwrap(caps["assign.value"][0])
    if value is None or value.type not in _TEXTS:
        return None
    function = next((a for a in ancestors(node) if a.type in _NESTED), None)
    if function is None or function.type != "function_definition":
        return None
    if sum(1 for a in file.assignments.get(name, []) if _within(a, function)) != 1:
        return None  # changed later, or set in branches: read at the raise, if any
    message = read(value, file)
    words = " ".join(p.text for p in message.parts if isinstance(p, Literal)) if message else ""
    if message is None or len(re.findall(r"[A-Za-z]{2,}", words)) < _MIN_WORDS:
        return None
    uses = [n for n in _identifiers(function, name) if n.start_byte >= node.end_byte]
    if not uses or not all(_held(use) for use in uses):
        return None
    return Site(Template(message.written, message.parts), "exception", line_of(node), None,
                symbol=symbol_of(node))


def _within(node: Node, function: Node) -> bool:
    return next((a for a in ancestors(node) if a.type in _NESTED), None) == function


def _identifiers(function: Node, name: str) -> list[Node]:
    """The uses of ``name`` in the function, closures' included."""
    out: list[Node] = []
    stack = [function.child_by_field_name("body")]
    encoded = name.encode()
    while stack:
        node = stack.pop()
        if node is None or encoded not in (node.text or b""):
            continue
        if node.type == "identifier":
            if text(node) == name:
                out.append(node)
            continue
        stack.extend(node.named_children)
    return out


def _held(use: Node) -> bool:
    """Whether a use passes the text to a class that is not an error (``Mock(msg, …)``)."""
    parent = use.parent
    if parent is not None and parent.type == "keyword_argument":
        parent = parent.parent
    call = parent.parent if parent is not None and parent.type == "argument_list" else None
    function = call.child_by_field_name("function") if call is not None else None
    if function is None or function.type not in ("identifier", "attribute"):
        return False
    called = text(function).rsplit(".", 1)[-1]
    return called[:1].isupper() and not _ERRORISH.search(called)
