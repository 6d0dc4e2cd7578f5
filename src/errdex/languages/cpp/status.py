"""Errors returned as status values: ``return absl::InvalidArgumentError(absl::StrCat("port
", port, " is negative"));``, ``absl::Status(absl::StatusCode::kNotFound, msg)``,
``grpc::Status(grpc::StatusCode::NOT_FOUND, msg)``.

Nothing is thrown: the status travels back to a caller that prints it (Abseil's
``ToString()``: ``INVALID_ARGUMENT: port -1 is negative``; the code before the message is
the paste's to strip, as a log prefix). The site is an ``error`` whose class is the
factory or status type written, its template the message the call is given; a status
given no worded message (``absl::OkStatus()``, a variable from elsewhere) is no site.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from errdex.languages._engine import Captures, FileIndex, Handler
from errdex.languages._engine.message import Message
from errdex.languages._engine.pieces import has_words
from errdex.languages.base import Site, line_of, text
from errdex.languages.c.family import arguments
from errdex.languages.cpp.calls import cpp_symbol
from errdex.templates.template import Template

# ``absl::NotFoundError``: a factory of one code; ``absl::Status``/``grpc::Status``: given one
FACTORY = re.compile(r"(?:::)?absl::[A-Z][A-Za-z]*Error")
_STATUS = re.compile(r"(?:::)?(?:absl|grpc)::Status")


def status_site(name: str, args_node: Node, call: Node,
                read: Callable[[Node, Node], Message | None]) -> Site | None:
    """The site of a status made with its message at ``call`` (module docstring); ``read``
    says what an argument prints at a node."""
    args = arguments(args_node)
    if FACTORY.fullmatch(name):
        given = args[0] if args else None
    elif _STATUS.fullmatch(name) and len(args) >= 2 and "StatusCode::" in text(args[0]) and (
            text(args[0]).rsplit("::", 1)[-1].lstrip("k").upper() != "OK"):
        given = args[1]
    else:
        return None
    message = read(given, call) if given is not None else None
    if message is None or not has_words(message.parts):
        return None
    return Site(Template(message.written, message.parts), "error", line_of(call),
                name.removeprefix("::"), symbol=cpp_symbol(call))


def status_handler(read: Callable[[Node, Node], Message | None]) -> Handler[FileIndex]:
    """The handler of a ``status`` capture, reading messages with ``read``."""
    def handle(captured: Captures, file: FileIndex) -> Site | None:
        return status_site(text(captured["status.name"][0]), captured["status.args"][0],
                           captured["status"][0], read)
    return handle
