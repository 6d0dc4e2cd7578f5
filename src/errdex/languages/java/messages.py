"""Reading Java message expressions: literals, ``+``, ``String.format``, message variables.

``spec.py`` decides what is a site; this module says what text an expression prints.
Messages are read from string literals and text blocks (``strings.py``), ``+``
concatenations (each non-literal operand a hole named after it, written ``{x}``),
``String.format`` / ``.formatted`` (printf dialect ``java``), ``MessageFormat.format``,
and a local variable or ``final`` field holding one of those (``scopes.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from errdex.languages._engine import Captures, FileIndex, Message, joined, operand_hole
from errdex.languages._engine.reader import MessageTable, Reader
from errdex.languages._jvm.libraries import (
    literal_message,
    message_format,
    printf_message,
    simple_name,
    string_concatenation,
)
from errdex.languages.base import text
from errdex.languages.java.scopes import CLASS_TYPES, is_constant, nearest_assignment, scope_of
from errdex.languages.java.strings import decode_java_string

GUAVA_OWNERS = frozenset({"Preconditions", "Verify"})


@dataclass
class JavaFile(FileIndex):
    """A Java file's index: its message variables (by the engine) and static imports:
    ``imports`` maps a statically imported method to its class, ``static_wildcards``
    holds the classes imported with ``.*``."""

    static_wildcards: set[str] = field(default_factory=set)

    def owner(self, method: str) -> str | None:
        """The class a bare call ``method(..)`` was statically imported from."""
        if method in self.imports:
            return self.imports[method]
        return next((o for o in sorted(self.static_wildcards) if o in GUAVA_OWNERS), None)


def index_import(caps: Captures, file: JavaFile) -> None:
    """``import static a.b.Preconditions.checkArgument;`` (or ``.*``)."""
    if "import" not in caps:
        return
    name = text(caps["import.name"][0])
    if "import.all" in caps:
        file.static_wildcards.add(simple_name(name))
    else:
        owner, _, method = name.rpartition(".")
        file.imports[method] = simple_name(owner)


def arguments(args: Node | None) -> list[Node]:
    """A call's argument expressions, comments left out."""
    return [c for c in args.named_children if c.type not in ("comment", "line_comment",
                                                              "block_comment")] if args else []


def read(node: Node | None, file: JavaFile, depth: int = 0) -> Message | None:
    """The message an expression prints, when source says what it is."""
    return Reader(_TABLE, file).read(node, depth)


def _concatenation(reader: Reader[JavaFile], node: Node, depth: int) -> Message | None:
    """``"bad " + x``: each ``+`` joins its two sides (``1 + 2 + "x"`` adds first)."""
    if text(node.child_by_field_name("operator")) != "+":
        return None
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None:
        return None
    return string_concatenation(left, right, lambda n: reader.read(n, depth + 1), _operand)


def _operand(node: Node) -> Message:
    """A concatenated operand that is no known string: a char or int literal, or a hole."""
    if node.type == "character_literal":
        value = decode_java_string('"' + text(node)[1:-1] + '"')
        if value is not None:
            return literal_message(value)
    if node.type == "decimal_integer_literal" and text(node).isdigit():
        return literal_message(text(node))
    name = text(node)
    if node.type == "method_invocation" and name.startswith("String.valueOf("):
        args = arguments(node.child_by_field_name("arguments"))
        name = text(args[0]) if len(args) == 1 else name
    elif node.type == "parenthesized_expression":
        name = name[1:-1].strip()
    return operand_hole(name)


def _format_call(reader: Reader[JavaFile], node: Node, depth: int) -> Message | None:
    """``String.format(..)``, ``"…".formatted(..)``, ``MessageFormat.format(..)``."""
    name = text(node.child_by_field_name("name"))
    receiver = node.child_by_field_name("object")
    args = arguments(node.child_by_field_name("arguments"))
    owner = simple_name(text(receiver)) if receiver is not None else None
    if name == "format" and owner in ("String", None):
        return _format_arguments(reader, args, depth)
    if name == "formatted" and receiver is not None:
        return printf_message(reader.read(receiver, depth + 1), [text(a) for a in args])
    if name == "format" and owner == "MessageFormat" and args:
        return message_format(reader.read(args[0], depth + 1), [text(a) for a in args[1:]])
    return None


def format_arguments(args: list[Node], file: JavaFile) -> Message | None:
    """``(Locale?, format, args…)`` as ``String.format`` and ``printf`` take them."""
    return _format_arguments(Reader(_TABLE, file), args, 0)


def _format_arguments(reader: Reader[JavaFile], args: list[Node], depth: int) -> Message | None:
    base = reader.read(args[0], depth + 1) if args else None
    if base is None and len(args) > 1:  # String.format(Locale.ROOT, "…", …)
        args = args[1:]
        base = reader.read(args[0], depth + 1)
    return printf_message(base, [text(a) for a in args[1:]])


def _variable(reader: Reader[JavaFile], node: Node, depth: int) -> Message | None:
    """A local assigned a message above, or a ``final`` field (constant) of an enclosing class."""
    assignment = nearest_assignment(text(node), node, reader.file.assignments.get(text(node), []))
    if assignment is None:
        return None
    value = assignment.child_by_field_name("value") or assignment.child_by_field_name("right")
    message = reader.read(value, depth + 1)
    if text(assignment.child_by_field_name("operator")) == "+=":
        before = _variable(reader, assignment.child_by_field_name("left") or assignment, depth + 1)
        return joined([before, message or (operand_hole(text(value)) if value else None)])
    return message


def _qualified_constant(reader: Reader[JavaFile], node: Node, depth: int) -> Message | None:
    """``Messages.NOT_READY``: a constant of a class declared in this file."""
    owner = text(node.child_by_field_name("object")).rsplit(".", 1)[-1]
    for declarator in reader.file.assignments.get(text(node.child_by_field_name("field")), []):
        body = scope_of(declarator)
        declaration = body.parent if body is not None else None
        if (
            declaration is not None and declaration.type in CLASS_TYPES
            and text(declaration.child_by_field_name("name")) == owner
            and is_constant(declarator)
        ):
            return reader.read(declarator.child_by_field_name("value"), depth + 1)
    return None


_TABLE: MessageTable[JavaFile] = MessageTable(
    strings={"string_literal": lambda node: _literal(decode_java_string(text(node)))},
    wrappers=frozenset({"parenthesized_expression"}),
    rules={"binary_expression": _concatenation, "method_invocation": _format_call,
           "identifier": _variable, "field_access": _qualified_constant},
)


def _literal(value: str | None) -> Message | None:
    return None if value is None else literal_message(value)

# The string literal decoders, for the text sites of a file (``LanguageSpec.strings``).
STRINGS = _TABLE.strings
