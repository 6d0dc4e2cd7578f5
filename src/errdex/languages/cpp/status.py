"""Errors returned as status values: ``return absl::InvalidArgumentError(absl::StrCat("port
", port, " is negative"));``, ``absl::Status(absl::StatusCode::kNotFound, msg)``,
``grpc::Status(grpc::StatusCode::NOT_FOUND, msg)``.

Nothing is thrown: the status travels back to a caller that prints it (Abseil's
``ToString()``: ``INVALID_ARGUMENT: port -1 is negative``; the code before the message is
the paste's to strip, as a log prefix). The site is an ``error`` whose class is the
factory or status type written, its template the message the call is given; a status
given no worded message (``absl::OkStatus()``, a variable from elsewhere) is no site.

LevelDB's and RocksDB's statuses are made by static factories of a class named for them
(``Status::Corruption("bad block handle")``, ``IOStatus::NotSupported(msg)``,
``Status::InvalidArgument(dbname, "does not exist")``), returned, assigned or handed on:
``ToString()`` prints ``Corruption: bad block handle``, a second message after ``": "``
(``Invalid argument: /db: does not exist``). A factory of Arrow's kind concatenates what it
is given (``Status::Invalid("expected ", n, " columns")``): three or more arguments, or a
first text ending in a space, are printed one after another. A leading sub-code
(``Status::TimedOut(Status::SubCode::kLockTimeout)``) prints a wording of the library's.
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
from errdex.languages.facts import unknown
from errdex.templates.template import Literal, Template, merge_literals

# ``absl::NotFoundError``: a factory of one code; ``absl::Status``/``grpc::Status``: given one
FACTORY = re.compile(r"(?:::)?absl::[A-Z][A-Za-z]*Error")
_STATUS = re.compile(r"(?:::)?(?:absl|grpc)::Status")
# ``Status::Corruption``, ``IOStatus::IOError``, ``rocksdb::Status::NotFound``
_CODED = re.compile(r"(?:::)?(?:\w+::)*[A-Za-z]*Status::(?!OK$)[A-Z][A-Za-z0-9]*")
_ENUMERATOR = re.compile(r"(?:\w+::)*k[A-Z]\w*")


def status_site(name: str, args_node: Node, call: Node,
                read: Callable[[Node, Node], Message | None]) -> Site | None:
    """The site of a status made with its message at ``call`` (module docstring); ``read``
    says what an argument prints at a node."""
    args = arguments(args_node)
    if FACTORY.fullmatch(name):
        message = read(args[0], call) if args else None
    elif _STATUS.fullmatch(name) and len(args) >= 2 and "StatusCode::" in text(args[0]) and (
            text(args[0]).rsplit("::", 1)[-1].lstrip("k").upper() != "OK"):
        message = read(args[1], call)
    elif _CODED.fullmatch(name):
        message = coded_message(args, lambda node: read(node, call))
    else:
        return None
    if message is None or not has_words(message.parts):
        return None
    return Site(Template(message.written, message.parts), "error", line_of(call),
                name.removeprefix("::"), symbol=cpp_symbol(call))


def coded_message(args: list[Node], read: Callable[[Node], Message | None]
                  ) -> Message | None:
    """What a LevelDB-style factory's status says: its messages joined by ``": "`` (two at
    most), or Arrow's pieces one after another (module docstring); None with no text."""
    while args and _ENUMERATOR.fullmatch(text(args[0])):
        args = args[1:]  # a sub-code: ``Status::NotFound(SubCode::kPathNotFound, msg)``
    pieces = [read(a) for a in args]
    if not args or all(p is None for p in pieces):
        return None
    known = [p if p is not None else _hole(a) for a, p in zip(args, pieces, strict=True)]
    first = known[0].written
    if len(known) == 2 and first[-1:].strip() and not first.endswith(":") and (
            known[1].written[:1].strip()):
        known = [known[0], Message(": ", (Literal(": "),)), known[1]]
    return Message("".join(m.written for m in known),
                   merge_literals([p for m in known for p in m.parts]))


def _hole(node: Node) -> Message:
    """A value printed as it is (``dbname_``): a hole named after it."""
    hole = unknown(text(node))
    return Message(hole.written, hole.parts)


def status_handler(read: Callable[[Node, Node], Message | None]) -> Handler[FileIndex]:
    """The handler of a ``status`` capture, reading messages with ``read``."""
    def handle(captured: Captures, file: FileIndex) -> Site | None:
        return status_site(text(captured["status.name"][0]), captured["status.args"][0],
                           captured["status"][0], read)
    return handle
