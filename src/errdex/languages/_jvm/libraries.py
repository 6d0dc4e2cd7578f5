"""What the JVM's libraries print, shared by the Java and Kotlin specs.

Both languages run on the JVM and call the same libraries, so the rules for what
those libraries print live here once: Guava's ``%s``-only ``lenientFormat``, SLF4J's
trailing-Throwable rule, ``String.format`` and ``MessageFormat``, a gRPC ``Status``'s
``CODE: description``, and the ``+`` of a ``String`` (text only when one operand is).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from tree_sitter import Node

from errdex.languages._engine import Message
from errdex.languages._engine.files import enclosing
from errdex.languages._engine.pieces import concatenation
from errdex.languages._engine.snippets import words
from errdex.languages.base import ancestors
from errdex.records.model import ErrorType
from errdex.templates.formats import parse_message_format, parse_printf, parse_slf4j
from errdex.templates.template import Hole, Literal, Part, Template, merge_literals


def literal_message(value: str) -> Message:
    """One known string (an empty one has no parts)."""
    return Message(value, merge_literals([Literal(value)]), value)


def string_concatenation(
    left: Node, right: Node, read: Callable[[Node], Message | None],
    operand: Callable[[Node], Message],
) -> Message | None:
    """``"bad " + x``: a ``+`` with a known String operand joins text, the other operand a
    hole named after it; None when neither is known or no literal text is left (a left
    ``a + b`` with no string in it may be numeric addition: ``1 + 2 + "x"``)."""
    message = concatenation((left, right), read, operand)
    if message is None or not any(isinstance(p, Literal) for p in message.parts):
        return None
    return message


def printf_message(base: Message | None, args: Sequence[str]) -> Message | None:
    """``String.format(base, args…)`` (printf dialect ``java``): only a known string formats."""
    if base is None or base.literal is None:
        return None
    return Message(base.literal, parse_printf(base.literal, list(args), dialect="java"))


def message_format(base: Message | None, args: Sequence[str]) -> Message | None:
    """``MessageFormat.format(base, args…)``: ``{0}`` takes the first argument."""
    if base is None or base.literal is None:
        return None
    return Message(base.literal, parse_message_format(base.literal, list(args)))


def visible_assignment(
    name: str, at: Node, candidates: list[Node], functions: frozenset[str],
    bodies: frozenset[str], parameters: Callable[[Node], set[str]],
    is_constant: Callable[[Node], bool],
) -> Node | None:
    """The assignment (in source order among ``candidates``) a name at ``at`` reads: the
    last one above it in its function or an enclosing one, unless a parameter of that
    name comes first (then the value is the caller's); else the last constant field of
    an enclosing class body, wherever in the body it stands."""
    if not candidates:  # most names read have none (parameters): nothing to walk up for
        return None
    scopes = functions | bodies
    for scope in ancestors(at):
        if scope.type in functions:
            above = [a for a in candidates
                     if a.end_byte <= at.start_byte and enclosing(a, scopes) == scope]
            if above:
                return above[-1]
            if name in parameters(scope):
                return None
        elif scope.type in bodies:
            fields = [a for a in candidates if enclosing(a, scopes) == scope and is_constant(a)]
            if fields:
                return fields[-1]
    return None


# The Java standard library names a code field may use (Kotlin calls the same classes).
JAVA_LIBRARY = words("""
    Objects requireNonNull Exception RuntimeException IllegalArgumentException
    IllegalStateException NullPointerException IndexOutOfBoundsException IOException
    UnsupportedOperationException String Integer Long Double Boolean List Map Set Optional
    System out println getMessage equals isEmpty size length""")

_STATUS_EXCEPTIONS = {"asRuntimeException": "StatusRuntimeException",
                      "asException": "StatusException"}


def grpc_status(
    code: str, message: Message, then: str
) -> tuple[Template, ErrorType, str | None]:
    """``Status.NOT_FOUND.withDescription(msg)`` prints ``NOT_FOUND: msg``; followed by
    ``.asRuntimeException()`` (``then``) it is thrown as a ``StatusRuntimeException``."""
    error_class = _STATUS_EXCEPTIONS.get(then)
    template = message.template().with_wrapper((Literal(code + ": "),))
    return template, "exception" if error_class else "error", error_class


# --- Guava lenientFormat ----------------------------------------------------------------


def parse_guava(template: str, args: Sequence[str]) -> tuple[Part, ...]:
    """Guava ``Preconditions``/``Verify``: each ``%s`` takes the next argument, nothing else
    is a placeholder; arguments left over are printed as `` [a, b]`` after the message."""
    parts: list[Part] = []
    pos = 0
    index = 0
    while index < len(args):
        found = template.find("%s", pos)
        if found == -1:
            break
        parts += [Literal(template[pos:found]), Hole.of(args[index], "%s")]
        pos = found + 2
        index += 1
    parts.append(Literal(template[pos:]))
    if index < len(args):
        parts.append(Literal(" ["))
        for i, name in enumerate(args[index:]):
            parts += [Literal(", ") if i else Literal(""), Hole.of(name, "%s")]
        parts.append(Literal("]"))
    return merge_literals(parts)


def guava_message(message: Message, args: Sequence[str]) -> Message | None:
    """A Guava check's message: formatted only when arguments follow the template."""
    if not args:
        return message
    if message.literal is None:
        return None
    return Message(message.literal, parse_guava(message.literal, args))


# --- SLF4J / Log4j ------------------------------------------------------------------------

_THROWABLE_NAMES = frozenset({
    "e", "ex", "exc", "t", "th", "tr", "err", "error", "cause", "throwable", "exception",
    "ioe", "ie", "re", "npe", "iae", "ise",
})


def looks_like_throwable(expression: str) -> bool:
    """Whether a logger's last argument is (by its name) the exception to log with a trace.

    SLF4J and Log4j 2 print a trailing Throwable as a stack trace, not as a placeholder value.
    """
    last = expression.rsplit(".", 1)[-1].strip()
    if last.startswith("new ") or last.endswith(")"):
        name = re.sub(r"^new\s+|\(.*$", "", last, flags=re.S)
        return name.endswith(("Exception", "Error"))
    lowered = last.lower()
    return lowered in _THROWABLE_NAMES or lowered.endswith(("exception", "error", "ex"))


def slf4j_message(
    message: Message, args: Sequence[str], last_is_throwable: bool | None = None
) -> Message | None:
    """``log.error("a {} b", x, e)``: ``{}`` take the arguments, a trailing Throwable does not.

    Without arguments the text is printed as it is. A ``{}`` left without a value prints
    ``{}`` in SLF4J but the Throwable itself in Log4j 2, so it stays an unnamed hole.
    """
    if not args:
        return message
    values = list(args)
    if last_is_throwable or (last_is_throwable is None and looks_like_throwable(values[-1])):
        values.pop()
    if message.literal is None:
        # ``"failed for " + id`` / ``"failed for $id"`` with only the Throwable after it (or
        # no ``{}`` for the values to fill): printed as it is
        placeholders = any(isinstance(p, Literal) and "{}" in p.text for p in message.parts)
        return None if values and placeholders else message
    return Message(message.literal, parse_slf4j(message.literal, values))


def simple_name(type_text: str) -> str:
    """``java.io.IOException`` → ``IOException``; ``Foo<T>`` → ``Foo``."""
    base = type_text.split("<", 1)[0].strip()
    return base.rsplit(".", 1)[-1].strip()


def is_exception_name(name: str) -> bool:
    """A class name that says it is a Throwable (``IOException``, ``AssertionError``)."""
    return name[:1].isupper() and name.endswith(("Exception", "Error", "Throwable"))
