"""Reading Java message expressions: literals, ``+``, ``String.format``, message variables,
and the branches an argument may print (``alternatives``, for composition).

``spec.py`` decides what is a site; this module says what text an expression prints.
Messages are read from string literals and text blocks (``strings.py``), ``+``
concatenations (each non-literal operand a hole named after it, written ``{x}``),
``String.format`` / ``.formatted`` (printf dialect ``java``), ``MessageFormat.format``,
and a local variable or ``final`` field holding one of those (``scopes.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from tree_sitter import Node

from errdex.languages._engine import Captures, FileIndex, Message, joined, operand_hole
from errdex.languages._engine.reader import MessageTable, Reader
from errdex.languages._jvm.compose import (
    capped,
    every_alternative,
    format_holes,
    unparenthesized,
)
from errdex.languages._jvm.libraries import (
    literal_message,
    message_format,
    printf_message,
    simple_name,
    string_concatenation,
)
from errdex.languages.base import text
from errdex.languages.facts import unknown
from errdex.languages.java.scopes import (
    CLASS_TYPES,
    FUNCTION_TYPES,
    declared_string,
    is_constant,
    nearest_assignment,
    scope_of,
)
from errdex.languages.java.strings import decode_java_string
from errdex.templates.template import Hole, Literal, Template

GUAVA_OWNERS = frozenset({"Preconditions", "Verify"})


@dataclass
class JavaFile(FileIndex):
    """A Java file's index: its message variables (by the engine) and static imports:
    ``imports`` maps a statically imported method to its class, ``static_wildcards``
    holds the classes imported with ``.*``."""

    static_wildcards: set[str] = field(default_factory=set)
    # what ``read`` found for a node (a site's argument is read by the site, its producer
    # call and composition): by node, the file's index being read-only once filled
    read_memo: dict[tuple[int, int, int], Message | None] = field(
        default_factory=dict, repr=False, compare=False)
    alternatives_memo: dict[tuple[int, int, int], tuple[Template, ...]] = field(
        default_factory=dict, repr=False, compare=False)
    # the file's logger variables → their logger name (``logs.logger_names``), read at the
    # first log site: each site reading them again copied and hashed the whole file
    loggers: dict[str, str] | None = field(default=None, repr=False, compare=False)

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
    if node is None or depth:
        return Reader(_TABLE, file).read(node, depth)
    key = (node.id, node.start_byte, node.end_byte)
    if key not in file.read_memo:
        file.read_memo[key] = Reader(_TABLE, file).read(node, depth)
    return file.read_memo[key]


def _concatenation(reader: Reader[JavaFile], node: Node, depth: int) -> Message | None:
    """``"bad " + x``: each ``+`` joins its two sides (``1 + 2 + "x"`` adds first)."""
    if text(node.child_by_field_name("operator")) != "+":
        return None
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None:
        return None
    known = string_concatenation(left, right, lambda n: reader.read(n, depth + 1), _operand)
    if known is None and (declared_string(left) or declared_string(right)):
        # ``message + locationString()``: a String parameter makes it text, not a sum
        return joined([reader.read(n, depth + 1) or _operand(n) for n in (left, right)])
    return known


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
    if name == "toString" and not args and receiver is not None and receiver.type == "identifier":
        return _string_builder(reader, receiver, depth)
    if name == "join" and owner == "String" and len(args) > 2:
        return _joined(reader, args, depth)
    return None


def _joined(reader: Reader[JavaFile], args: list[Node], depth: int) -> Message | None:
    """``String.join("\n", a, b, …)``: the elements with the delimiter between them (a
    single element is an array or a list: how many it holds, source does not say)."""
    delimiter = reader.read(args[0], depth + 1)
    if delimiter is None or any(isinstance(p, Hole) for p in delimiter.parts):
        return None
    pieces: list[Message | None] = []
    for i, element in enumerate(args[1:]):
        if i:
            pieces.append(delimiter)
        pieces.append(reader.read(element, depth + 1) or _operand(element))
    return joined(pieces)


def _string_builder(reader: Reader[JavaFile], used: Node, depth: int) -> Message | None:
    """``StringBuilder sb = new StringBuilder("bad "); sb.append(id).append("!");`` then
    ``sb.toString()``: the texts appended in order, when every statement between the
    declaration and the use that names ``sb`` only appends to it."""
    name = text(used)
    declared = nearest_assignment(name, used, reader.file.assignments.get(name, []))
    if declared is None:
        return None
    value = declared.child_by_field_name("value")
    if value is None or value.type != "object_creation_expression" or simple_name(
            text(value.child_by_field_name("type"))) not in ("StringBuilder", "StringBuffer"):
        return None
    statement = declared.parent
    block = statement.parent if statement is not None else None
    if block is None or not (block.start_byte <= used.start_byte < block.end_byte):
        return None
    pieces: list[Message | None] = [reader.read(a, depth + 1) or _operand(a) for a in arguments(
        value.child_by_field_name("arguments")) if a.type != "decimal_integer_literal"]
    for sibling in block.named_children:
        if sibling.start_byte <= declared.start_byte or sibling.end_byte > used.start_byte:
            continue  # the declaration, the statement using it and those after
        if name.encode() not in (sibling.text or b""):
            continue
        appended = _appends(sibling, name)
        if appended is None and pieces and pieces[-1] is REPEATED and _trims(sibling, name):
            continue  # ``sb.setLength(sb.length() - 2)``: the loop's last separator
        if appended is None and sibling.type in _REPEATED and _appends_only(sibling, name):
            if not pieces or pieces[-1] is not REPEATED:
                pieces.append(REPEATED)
            continue
        if appended is None:
            return None  # ``sb`` used some other way: unknown text
        pieces += [reader.read(a, depth + 1) or _operand(a) for a in appended]
    if REPEATED in pieces and not any(isinstance(p, Literal) and p.text.strip()
                                      for m in pieces if m is not None for p in m.parts):
        return None  # only what loops appended: nothing known
    return joined(pieces) if pieces else None


# What a loop or a branch appends to a builder: any text, over any number of lines, or none.
REPEATED = Message("{…}", (Hole(None, "{…}", "any", r"[\s\S]*?"),))
_REPEATED = frozenset({
    "for_statement", "enhanced_for_statement", "while_statement", "do_statement",
    "if_statement", "switch_expression", "switch_statement",
})


def _appends_only(statement: Node, name: str) -> bool:
    """Whether every use of ``name`` in a loop or branch is an ``append`` on it (not a new
    builder assigned to it, nor an ``insert``/``reverse``)."""
    stack = [statement]
    while stack:
        node = stack.pop()
        if node.type == "identifier" and text(node) == name:
            parent = node.parent
            if parent is None or parent.type != "method_invocation" or parent.child_by_field_name(
                    "object") != node or text(parent.child_by_field_name("name")) not in (
                    "append", "length"):
                return False
        stack.extend(node.named_children)
    return True


def _trims(statement: Node, name: str) -> bool:
    """``sb.setLength(sb.length() - n)`` / ``sb.deleteCharAt(sb.length() - 1)``."""
    call = statement.named_children[0] if statement.type == "expression_statement" and (
        statement.named_children) else None
    return call is not None and call.type == "method_invocation" and text(
        call.child_by_field_name("object")) == name and text(
        call.child_by_field_name("name")) in ("setLength", "deleteCharAt", "delete")


def _appends(statement: Node, name: str) -> list[Node] | None:
    """``sb.append(a).append(b);`` → [a, b]; None for any other statement."""
    call = statement.named_children[0] if statement.type == "expression_statement" and (
        statement.named_children) else None
    out: list[Node] = []
    while call is not None and call.type == "method_invocation":
        args = arguments(call.child_by_field_name("arguments"))
        if text(call.child_by_field_name("name")) != "append" or len(args) != 1:
            return None
        out.insert(0, args[0])
        call = call.child_by_field_name("object")
    return out if call is not None and call.type == "identifier" and text(call) == name else None


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

# --- branches: what an argument may print, one template per branch ---------------------


def alternatives(node: Node | None, file: JavaFile, depth: int = 0) -> list[Template]:
    """The templates an expression prints, one per branch (a ternary, a ``switch``
    expression, a local assigned in several branches); empty when source does not say."""
    if node is None or depth:
        return _alternatives(node, file, depth)
    key = (node.id, node.start_byte, node.end_byte)
    if key not in file.alternatives_memo:
        file.alternatives_memo[key] = tuple(_alternatives(node, file, depth))
    return list(file.alternatives_memo[key])


def _alternatives(node: Node | None, file: JavaFile, depth: int) -> list[Template]:
    node = unparenthesized(node)
    if node is None or depth > 4:
        return []
    if node.type == "ternary_expression":
        return list(capped([*alternatives(node.child_by_field_name("consequence"), file,
                                          depth + 1),
                            *alternatives(node.child_by_field_name("alternative"), file,
                                          depth + 1)]))
    if node.type == "switch_expression":
        return list(capped([t for arm in _switch_values(node)
                            for t in alternatives(arm, file, depth + 1)]))
    message = read(node, file)
    if message is None and node.type == "method_invocation":
        passed = _format_parameter(node)
        if passed is not None:  # ``String.format(format, args)``: what the caller formats
            return [unknown(passed)]
    if node.type == "identifier":
        branches = _branches(node, file, depth)
        if len(branches) > 1:
            return branches
        assigned = nearest_assignment(text(node), node, file.assignments.get(text(node), []))
        if message is None and assigned is not None:  # ``String msg = c ? "a" : "b";``
            return alternatives(assigned.child_by_field_name("value")
                                or assigned.child_by_field_name("right"), file, depth + 1)
    return [format_holes(message.template())] if message is not None else []


def _format_parameter(node: Node) -> str | None:
    """``String.format(format, args)`` / ``MessageFormat.format(pattern, args)`` /
    ``format.formatted(args)`` of a variable: its name."""
    name = text(node.child_by_field_name("name"))
    receiver = node.child_by_field_name("object")
    args = [a for a in arguments(node.child_by_field_name("arguments"))
            if not text(a).startswith("Locale.")]
    if name == "formatted" and receiver is not None and receiver.type == "identifier":
        return text(receiver)
    if name == "format" and text(receiver) in ("String", "MessageFormat") and args and (
            args[0].type == "identifier"):
        return text(args[0])
    return None


def _switch_values(node: Node) -> Iterator[Node]:
    body = node.child_by_field_name("body")
    for rule in body.named_children if body is not None else ():
        if rule.type == "switch_rule" and rule.named_children:
            value = rule.named_children[-1]
            if value.type == "expression_statement" and value.named_children:
                value = value.named_children[0]
            if value.type not in ("block", "throw_statement"):
                yield value


def _branches(node: Node, file: JavaFile, depth: int) -> list[Template]:
    """A local assigned in several branches above its use (``if (c) msg = "a"; else msg =
    "b";``): each assignment's text, when every one is known."""
    function = next((a for a in _ancestors(node) if a.type in FUNCTION_TYPES), None)
    if function is None:
        return []
    mine = [a for a in file.assignments.get(text(node), []) if a.end_byte <= node.start_byte
            and next((f for f in _ancestors(a) if f.type in FUNCTION_TYPES), None) == function]
    if any(text(a.child_by_field_name("operator")) == "+=" for a in mine):
        return []
    declaration = _declaration(node, function)
    if declaration is None:
        return []
    assigned = ([declaration] if declaration.child_by_field_name("value") is not None else []) + [
        a for a in mine if a.type == "assignment_expression"
        and a.start_byte > declaration.end_byte]
    if len(assigned) < 2:
        return []
    return every_alternative(assigned, lambda a: alternatives(
        a.child_by_field_name("value") or a.child_by_field_name("right"), file, depth + 1))


def _declaration(node: Node, function: Node) -> Node | None:
    """The declarator of the local a name reads: in a block around it, above it."""
    name = text(node)
    for block in _ancestors(node):
        if block == function:
            return None
        found = [d for c in block.named_children if c.type == "local_variable_declaration"
                 and c.end_byte <= node.start_byte for d in c.children_by_field_name("declarator")
                 if text(d.child_by_field_name("name")) == name]
        if found:
            return found[-1]
    return None


def _ancestors(node: Node) -> Iterator[Node]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent



# The string literal decoders, for the text sites of a file (``LanguageSpec.strings``).
STRINGS = _TABLE.strings
