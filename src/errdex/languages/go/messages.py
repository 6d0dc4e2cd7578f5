"""Reading Go message expressions: string literals, ``+``, fmt verbs, Sprint rules, constants.

``spec.py`` decides what is a site; this module says what text an expression prints.
A message is read only when its text is known from source: string literals (escapes
decoded, ``strings.py``), constants and variables assigned one earlier in an enclosing
block, ``+`` concatenations with at least one known operand, ``fmt.Sprintf``/``Errorf``
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

from dataclasses import dataclass, field

from tree_sitter import Node

from errdex.languages._engine import Captures, FileIndex, Message, joined
from errdex.languages._engine.message import NodeKey
from errdex.languages._engine.reader import MessageTable
from errdex.languages._engine.reader import Reader as EngineReader
from errdex.languages.base import ancestors, text
from errdex.languages.go.strings import STRING_TYPES, string_value
from errdex.templates.formats import parse_printf
from errdex.templates.template import Hole, HoleKind, Literal, Part, merge_literals

_NUMBERS = ("int_literal", "float_literal", "imaginary_literal", "rune_literal", "true", "false")
SCOPE_TYPES = ("block", "source_file")
FUNCTION_TYPES = ("function_declaration", "method_declaration", "func_literal")

# Calls read as error values, by (receiver, function): how their message is formed.
_PRINTF_ERRORS = {("fmt", "Errorf"), ("errors", "Errorf"), ("errors", "Newf"),
                  ("xerrors", "Errorf"), ("pkgerrors", "Errorf")}
_WRAPPERS = {"Wrap": False, "Wrapf": True, "WithMessage": False, "WithMessagef": True}


@dataclass
class GoFile(FileIndex):
    """A Go file's index: its single-name constants and variables (``assignments``, by the
    engine), every name assigned anywhere (``assigned``: one assigned twice has no single
    message), and what the site handlers record for the file's end (``finish``): the node
    each site stands at and the constructor calls an outer message has read."""

    assigned: dict[str, list[Node]] = field(default_factory=dict)
    at: dict[int, Node] = field(default_factory=dict)  # id(site) → its node
    consumed: set[NodeKey] = field(default_factory=set)
    reader: Reader = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.reader = Reader(self)


def index_assigned(caps: Captures, file: GoFile) -> None:
    """The spec's index hook: every ``@assigned`` name, by name."""
    for node in caps.get("assigned", []):
        file.assigned.setdefault(text(node), []).append(node)


def key(node: Node) -> NodeKey:
    return (node.start_byte, node.end_byte)


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


class Reader(EngineReader[GoFile]):
    """The engine's reader (string literals, ``+`` chains, parentheses) with what Go adds:
    fmt's printing rules, error constructors, and names resolved to their one value."""

    def __init__(self, file: GoFile) -> None:
        super().__init__(_TABLE, file)

    def variable(self, node: Node, depth: int) -> Message | None:
        """A constant or a variable assigned once, in a block ``node`` sees."""
        resolved = self.read(self._resolve(node), depth + 1)
        if resolved is None or resolved.kind != "string":
            return None  # `panic(ErrX)` repeats a sentinel, it is no message of its own
        return Message(resolved.written, merge_literals(resolved.printed), resolved.literal)

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

    def call(self, call: Node, depth: int) -> Message | None:
        """``fmt.Sprintf``/``Sprint``/``Sprintln``, or an error constructor's message."""
        receiver, name, args = call_parts(call)
        if receiver == "fmt" and name == "Sprintf":
            return self.printf(args, 0, depth)
        if receiver == "fmt" and name in ("Sprint", "Sprintln"):
            return self.sprint(args, name == "Sprintln", depth)
        message = self.error_value(call, depth)
        if message is None:
            return None
        return Message(message.written, merge_literals(message.printed), None, "error",
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

    # --- names ---------------------------------------------------------------------------

    def _resolve(self, use: Node) -> Node | None:
        """The value of the nearest declaration of a name visible at ``use``."""
        visible = {key(a) for a in ancestors(use)}
        best: tuple[int, int, Node, Node] | None = None
        for declaration in self.file.assignments.get(text(use), []):
            scope = next((a for a in ancestors(declaration) if a.type in SCOPE_TYPES), None)
            if scope is None or key(scope) not in visible:
                continue
            if scope.type != "source_file" and declaration.end_byte > use.start_byte:
                continue
            if _is_parameter(text(use), use, scope):
                continue
            rank = (scope.start_byte, declaration.start_byte, declaration, scope)
            if best is None or rank[:2] > best[:2]:
                best = rank
        if best is None or self._reassigned(text(use), best[2], best[3]):
            return None  # unknown, or its value depends on the path taken
        return _value(best[2])

    def _reassigned(self, name: str, declaration: Node, scope: Node) -> bool:
        """Whether a variable is assigned anywhere in its scope besides its declaration."""
        if declaration.type == "const_spec":
            return False
        return any(
            scope.start_byte <= node.start_byte < scope.end_byte
            and not declaration.start_byte <= node.start_byte < declaration.end_byte
            for node in self.file.assigned.get(name, [])
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
        if function.type not in FUNCTION_TYPES:
            continue
        for params in (function.child_by_field_name("parameters"),
                       function.child_by_field_name("receiver")):
            for param in params.named_children if params is not None else ():
                if name in (text(n) for n in param.children_by_field_name("name")):
                    return True
    return False


def _value(declaration: Node) -> Node | None:
    """The one value a single-name ``const``/``var``/``:=``/``=`` gives its name."""
    values = declaration.child_by_field_name(
        "value" if declaration.type in ("const_spec", "var_spec") else "right")
    found = [v for v in values.named_children if v.type != "comment"] if values else []
    return found[0] if len(found) == 1 else None


def _never_string(*messages: Message) -> bool:
    """Whether Sprint knows none of these operands is a string (then it spaces them)."""
    return all(m.kind in ("number", "error") for m in messages)


def _literal(node: Node) -> Message | None:
    value = string_value(node)
    return Message(value, (Literal(value),), value) if value is not None else None


_TABLE: MessageTable[GoFile] = MessageTable(
    strings={kind: _literal for kind in STRING_TYPES},
    binary="binary_expression",
    wrappers=frozenset({"parenthesized_expression"}),
    variables=frozenset({"identifier"}),
    rules={"call_expression": lambda reader, node, depth: reader.file.reader.call(node, depth)},
    hole=hole_message,
)

# The string literal decoders, for the text sites of a file (``LanguageSpec.strings``).
STRINGS = _TABLE.strings
