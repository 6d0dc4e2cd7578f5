"""Reading Go message expressions: string literals, ``+``, fmt verbs, Sprint rules, constants.

``go.py`` decides what is a site; this module says what text an expression prints.
A message is read only when its text is known from source: string literals (escapes
decoded), constants and variables assigned one earlier in an enclosing block,
``+`` concatenations with at least one known operand, ``fmt.Sprintf``/``Errorf``
with a known format, ``fmt.Sprint``/``Sprintln``, and the error constructors
(``errors.New``, ``errors.Errorf``, pkg/errors ``Wrap``/``Wrapf``/``WithMessage``).

Runtime rules encoded here:

* ``fmt.Sprint(a, b)`` puts a space between operands only when neither is a string.
  Operand types are known only for literals; between two operands of unknown type the
  space is left to the lazy holes, which absorb it.
* ``fmt.Sprintln`` puts a space between every pair and a newline at the end (the site
  strips a trailing newline, since printed messages lose it).
* pkg/errors ``Wrap(err, "msg")`` prints ``msg: <err>``: a ``: (.+?)`` suffix.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tree_sitter import Node

from errdex.languages.base import ancestors, plus_operands, text
from errdex.templates.formats import parse_printf
from errdex.templates.template import Hole, HoleKind, Literal, Part, merge_literals

NodeKey = tuple[int, int]
_MAX_DEPTH = 12  # constants that refer to constants; stops cycles
_NUMBERS = ("int_literal", "float_literal", "imaginary_literal", "rune_literal", "true", "false")
_SCOPES = ("block", "source_file")
_FUNCTIONS = ("function_declaration", "method_declaration", "func_literal")

# Calls read as error values, by (receiver, function): how their message is formed.
_PRINTF_ERRORS = {("fmt", "Errorf"), ("errors", "Errorf"), ("errors", "Newf"),
                  ("xerrors", "Errorf"), ("pkgerrors", "Errorf")}
_WRAPPERS = {"Wrap": False, "Wrapf": True, "WithMessage": False, "WithMessagef": True}


def key(node: Node) -> NodeKey:
    return (node.start_byte, node.end_byte)


@dataclass(frozen=True)
class Message:
    """What an expression prints, as written and as runtime parts.

    ``literal`` is the decoded text when the message is one known string (only such a
    message can serve as a format string). ``kind`` is ``string``, ``error`` or
    ``number`` (for Sprint's spacing rule). ``calls`` are the error-constructor calls
    read into this message: they are part of the outer site, not sites of their own.
    """

    written: str
    parts: tuple[Part, ...]
    literal: str | None = None
    kind: str = "string"
    suffix: tuple[Part, ...] = ()
    calls: frozenset[NodeKey] = field(default_factory=frozenset)

    @property
    def printed(self) -> tuple[Part, ...]:
        return merge_literals((*self.parts, *self.suffix))


def joined(messages: Sequence[Message], kind: str = "string") -> Message:
    """Messages printed one after another (``+``, Sprint operands)."""
    literals = [m.literal for m in messages]
    return Message(
        "".join(m.written for m in messages),
        merge_literals([p for m in messages for p in m.printed]),
        "".join(lit for lit in literals if lit is not None)
        if all(lit is not None for lit in literals) else None,
        kind,
        calls=frozenset().union(*(m.calls for m in messages)),
    )


def hole_message(node: Node) -> Message:
    """An operand whose value is unknown: a hole named after the value it prints."""
    name, kind = _hole_name(node)
    spec = "{" + text(node) + "}"
    return Message(spec, (Hole.of(name, spec, kind),),
                   kind="number" if node.type in _NUMBERS else "unknown")


def _hole_name(node: Node) -> tuple[str, HoleKind]:
    """``err.Error()`` → ``err``; ``fmt.Sprint(n)`` → ``n``; ``strconv.Itoa(n)`` → int ``n``."""
    if node.type == "call_expression":
        receiver, name, args = call_parts(node)
        if not args and name in ("Error", "String") and receiver:
            return receiver, "any"
        if len(args) == 1 and args[0].type != "variadic_argument":
            if (receiver, name) == ("fmt", "Sprint"):
                return text(args[0]), "any"
            if (receiver, name) == ("strconv", "Itoa"):
                return text(args[0]), "int"
    return text(node), "any"


def call_parts(call: Node) -> tuple[str, str, list[Node]]:
    """``pkg.Fn(args)`` → (``pkg``, ``Fn``, argument nodes); receiver is "" for ``Fn(args)``."""
    function = call.child_by_field_name("function")
    arguments = call.child_by_field_name("arguments")
    args = [c for c in arguments.named_children if c.type != "comment"] if arguments else []
    if function is not None and function.type == "selector_expression":
        operand = function.child_by_field_name("operand")
        return text(operand), text(function.child_by_field_name("field")), args
    return "", text(function), args


def errors_package(receiver: str) -> bool:
    """``errors``, ``pkgerrors``, ``xerrors``, ``goerrors``: packages whose New/Wrap we know."""
    return receiver.lower().endswith("errors")


class Reader:
    """Reads message expressions of one file, resolving names to their string values."""

    def __init__(self, definitions: dict[str, list[tuple[Node, Node]]],
                 assigned: dict[str, list[Node]] | None = None):
        self.definitions = definitions  # name → (declaration, value) pairs
        self.assigned = assigned or {}  # name → every identifier assigned that name

    def read(self, node: Node | None, depth: int = 0) -> Message | None:
        """The message an expression prints, when source says what it is."""
        if node is None or depth > _MAX_DEPTH:
            return None
        kind = node.type
        if kind == "parenthesized_expression" and node.named_child_count == 1:
            return self.read(node.named_children[0], depth + 1)
        if kind in ("interpreted_string_literal", "raw_string_literal"):
            value = string_value(node)
            return Message(value, (Literal(value),), value) if value is not None else None
        if kind == "binary_expression" and text(node.child_by_field_name("operator")) == "+":
            return self._concatenation(node, depth)
        if kind == "identifier":
            resolved = self.read(self._resolve(node), depth + 1)
            if resolved is None or resolved.kind != "string":
                return None  # `panic(ErrX)` repeats a sentinel, it is no message of its own
            return Message(resolved.written, resolved.printed, resolved.literal)
        if kind == "call_expression":
            return self._call(node, depth)
        return None

    def operand(self, node: Node, depth: int = 0) -> Message:
        """A Sprint operand: its message, a decimal literal's digits, or a hole named after it."""
        digits = text(node)
        if node.type == "int_literal" and digits.isdigit() and (digits == "0" or digits[0] != "0"):
            return Message(digits, (Literal(digits),), digits, kind="number")
        return self.read(node, depth + 1) or hole_message(node)

    # --- formatting functions ------------------------------------------------------------

    def printf(self, args: list[Node], index: int, depth: int = 0) -> Message | None:
        """``Sprintf``-style: the format at ``args[index]``, holes named after the rest."""
        if len(args) <= index:
            return None
        fmt = self.read(args[index], depth + 1)
        if fmt is None or fmt.literal is None:
            return None
        names: list[str] = []
        for arg in args[index + 1 :]:
            if arg.type == "variadic_argument":
                break  # `args...`: the rest are unnamed
            names.append(text(arg))
        parts = _inline_literals(parse_printf(fmt.literal, names, dialect="go"), args[index + 1 :])
        return Message(fmt.literal, parts, fmt.literal, calls=fmt.calls)

    def sprint(self, args: list[Node], line: bool = False, depth: int = 0) -> Message | None:
        """``Sprint``/``Sprintln``-style operands; None unless some text is known."""
        if not args or any(a.type == "variadic_argument" for a in args):
            return None
        operands = [self.operand(a, depth) for a in args]
        if all(m.kind in ("unknown", "number") for m in operands):
            return None  # nothing written here says what is printed
        pieces: list[Message] = []
        for index, message in enumerate(operands):
            if index and (line or _never_string(operands[index - 1], message)):
                pieces.append(Message(" ", (Literal(" "),), " "))
            pieces.append(message)
        if line:
            pieces.append(Message("", (Literal("\n"),), "\n"))
        return joined(pieces)

    # --- calls ---------------------------------------------------------------------------

    def _call(self, call: Node, depth: int) -> Message | None:
        receiver, name, args = call_parts(call)
        if receiver == "fmt" and name == "Sprintf":
            return self.printf(args, 0, depth)
        if receiver == "fmt" and name in ("Sprint", "Sprintln"):
            return self.sprint(args, name == "Sprintln", depth)
        message = self.error_value(call, depth)
        if message is None:
            return None
        return Message(message.written, message.printed, None, "error",
                       calls=message.calls | {key(call)})

    def error_value(self, call: Node, depth: int = 0) -> Message | None:
        """The message of an error-constructor call (``errors.New``, ``fmt.Errorf``, Wrap)."""
        receiver, name, args = call_parts(call)
        if (receiver.rsplit(".", 1)[-1], name) in _PRINTF_ERRORS or (
            errors_package(receiver) and name in ("Errorf", "Newf")
        ):
            return self.printf(args, 0, depth)
        if not errors_package(receiver):
            return None
        if name == "New" and len(args) == 1:
            return self.read(args[0], depth + 1)
        if name in _WRAPPERS and len(args) >= 2:
            inner = self.printf(args, 1, depth) if _WRAPPERS[name] else (
                self.read(args[1], depth + 1) if len(args) == 2 else None
            )
            if inner is None:
                return None
            cause = hole_message(args[0])
            suffix = (Literal(": "), *cause.parts)
            return Message(inner.written, inner.parts, inner.literal, "error", suffix,
                           inner.calls)
        return None

    def _concatenation(self, node: Node, depth: int) -> Message | None:
        """``"open " + path + ": " + err.Error()``: known operands as text, others as holes."""
        operands = list(_plus_operands(node))
        read = [self.read(op, depth + 1) for op in operands]
        if all(m is None for m in read):
            return None  # no text known: a + b may well be arithmetic
        return joined([m if m is not None else hole_message(op)
                       for op, m in zip(operands, read, strict=True)])

    # --- names ---------------------------------------------------------------------------

    def _resolve(self, use: Node) -> Node | None:
        """The value of the nearest declaration of a name visible at ``use``."""
        visible = {key(a) for a in ancestors(use)}
        best: tuple[int, int, Node, Node, Node] | None = None
        for declaration, value in self.definitions.get(text(use), []):
            scope = next((a for a in ancestors(declaration) if a.type in _SCOPES), None)
            if scope is None or key(scope) not in visible:
                continue
            if scope.type != "source_file" and declaration.end_byte > use.start_byte:
                continue
            if _is_parameter(text(use), use, scope):
                continue
            rank = (scope.start_byte, declaration.start_byte, declaration, scope, value)
            if best is None or rank[:2] > best[:2]:
                best = rank
        if best is None or self._reassigned(text(use), best[2], best[3]):
            return None  # unknown, or its value depends on the path taken
        return best[4]

    def _reassigned(self, name: str, declaration: Node, scope: Node) -> bool:
        """Whether a variable is assigned anywhere in its scope besides its declaration."""
        if declaration.type == "const_spec":
            return False
        return any(
            scope.start_byte <= node.start_byte < scope.end_byte
            and not declaration.start_byte <= node.start_byte < declaration.end_byte
            for node in self.assigned.get(name, [])
        )


def _inline_literals(parts: tuple[Part, ...], args: list[Node]) -> tuple[Part, ...]:
    """``%s``/``%v`` of a string literal and ``%d``/``%v`` of a decimal int print known text."""
    known: dict[str, tuple[str, tuple[str, ...]]] = {}
    for arg in args:
        value = string_value(arg)
        if value is not None:
            known[text(arg)] = (value, ("%s", "%v"))
        elif arg.type == "int_literal" and text(arg).isdigit() and text(arg)[:1] != "0":
            known[text(arg)] = (text(arg), ("%d", "%v"))
    out: list[Part] = []
    for part in parts:
        if isinstance(part, Hole) and part.name in known and part.spec in known[part.name][1]:
            out.append(Literal(known[part.name][0]))
        else:
            out.append(part)
    return merge_literals(out)


def _is_parameter(name: str, use: Node, scope: Node) -> bool:
    """Whether a function between ``use`` and ``scope`` takes a parameter ``name``."""
    for function in ancestors(use):
        if function == scope:
            return False
        if function.type not in _FUNCTIONS:
            continue
        for params in (function.child_by_field_name("parameters"),
                       function.child_by_field_name("receiver")):
            for param in params.named_children if params is not None else ():
                if name in (text(n) for n in param.children_by_field_name("name")):
                    return True
    return False


def _never_string(*messages: Message) -> bool:
    """Whether Sprint knows none of these operands is a string (then it spaces them)."""
    return all(m.kind in ("number", "error") for m in messages)


def _plus_operands(node: Node) -> list[Node]:
    return plus_operands(node, "binary_expression", _unparenthesize)


def _unparenthesize(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


# --- string literals -------------------------------------------------------------------

_SIMPLE_ESCAPES = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11,
                   "\\": 92, "'": 39, '"': 34}


def string_value(node: Node) -> str | None:
    """The value of a Go string literal (escapes decoded; raw strings lose ``\\r``)."""
    if node.type == "raw_string_literal":
        return text(node)[1:-1].replace("\r", "")
    if node.type != "interpreted_string_literal":
        return None
    out = bytearray()
    for child in node.named_children:
        if child.type == "escape_sequence":
            out += _unescape(text(child))
        else:
            out += (child.text or b"")
    return out.decode("utf-8", errors="replace")


def _unescape(sequence: str) -> bytes:
    """One escape's bytes: ``\\xhh`` and ``\\ooo`` are single bytes, ``\\u`` a code point."""
    body = sequence[1:]
    try:
        if body in _SIMPLE_ESCAPES:
            return bytes([_SIMPLE_ESCAPES[body]])
        if body[:1] == "x":
            return bytes([int(body[1:3], 16)])
        if body[:1] in "uU":
            return chr(int(body[1:], 16)).encode("utf-8", errors="replace")
        if body[:1].isdigit():
            return bytes([int(body[:3], 8) & 0xFF])
    except ValueError:
        pass
    return sequence.encode("utf-8")  # not valid Go; keep as written
