"""Reading Kotlin message expressions: string templates, ``+``, ``format``, message ``val``s,
the arguments a call passes and the branches an argument may print (for composition).

``spec.py`` decides what is a site; this module says what text an expression prints.
Messages are read from string templates (``strings.py``: ``$name`` and ``${expr}`` become
holes named after the expression), ``+`` concatenations, ``String.format``/``"…".format(..)``
(printf dialect ``java``), ``MessageFormat.format``, ``.trimIndent()``/``.trimMargin()``,
and ``val``s (or a local ``var`` above) holding one of those.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from errdex.languages._engine import FileIndex, Message, joined, operand_hole
from errdex.languages._engine.reader import MessageTable, Reader
from errdex.languages._jvm.compose import capped, format_holes, renamed, unparenthesized
from errdex.languages._jvm.libraries import (
    literal_message,
    message_format,
    printf_message,
    string_concatenation,
    visible_assignment,
)
from errdex.languages.base import ancestors, text
from errdex.languages.facts import has_text, unknown
from errdex.languages.kotlin.strings import kotlin_string, map_text, trim_indent, trim_margin
from errdex.templates.template import Hole, Literal, Template, merge_literals

FUNCTION_TYPES = frozenset({
    "function_declaration", "lambda_literal", "anonymous_initializer", "secondary_constructor",
    "getter", "setter", "anonymous_function",
})
TYPE_TYPES = frozenset({"class_declaration", "object_declaration", "companion_object"})
BODY_TYPES = frozenset({"class_body", "enum_class_body", "source_file"})


def arguments(value_arguments: Node) -> list[Node]:
    """The expression of each value argument (``name = value`` gives ``value``)."""
    return [
        arg.named_children[-1] for arg in value_arguments.named_children
        if arg.type == "value_argument" and arg.named_child_count
    ]


def name_of(node: Node) -> str | None:
    """The declared name of a class, object, companion or function."""
    kind = "simple_identifier" if node.type == "function_declaration" else "type_identifier"
    child = next((c for c in node.named_children if c.type == kind), None)
    if child is None:
        return "Companion" if node.type == "companion_object" else None
    return text(child)


def read(node: Node | None, file: FileIndex, depth: int = 0) -> Message | None:
    """The message an expression prints, when source says what it is."""
    return Reader(_TABLE, file).read(node, depth)


def _concatenation(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``"bad " + x``: ``String.plus`` joins text; other operands are holes named after them."""
    if text(node.children[1]) != "+":
        return None
    left, right = node.named_children[0], node.named_children[-1]
    return string_concatenation(left, right, lambda n: reader.read(n, depth + 1), _operand)


def _operand(node: Node) -> Message:
    if node.type == "integer_literal" and text(node).isdigit():
        return literal_message(text(node))
    name = text(node)[1:-1].strip() if node.type == "parenthesized_expression" else text(node)
    return operand_hole(name)


def _text_call(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``String.format(..)``, ``"…".format(..)``, ``.trimIndent()``, ``.trimMargin()``,
    ``buildString { append(..) }``."""
    callee, suffix = node.named_children[0], node.named_children[-1]
    if callee.type == "simple_identifier" and text(callee) == "buildString":
        return _build_string(reader, node, depth)
    if callee.type != "navigation_expression" or suffix.type != "call_suffix":
        return None
    receiver, method = callee.named_children[0], text(callee.named_children[-1])[1:]
    value_arguments = next((c for c in suffix.named_children if c.type == "value_arguments"), None)
    args = arguments(value_arguments) if value_arguments is not None else []
    if method == "format" and text(receiver) in ("String", "java.lang.String") and args:
        if len(args) > 1 and reader.read(args[0], depth + 1) is None:
            args = args[1:]  # String.format(Locale.ROOT, "…", …)
        return printf_message(reader.read(args[0], depth + 1), [text(a) for a in args[1:]])
    if method == "format" and text(receiver) == "MessageFormat" and args:
        return message_format(reader.read(args[0], depth + 1), [text(a) for a in args[1:]])
    base = reader.read(receiver, depth + 1)
    if method == "format":
        return printf_message(base, [text(a) for a in args])
    if base is not None and method == "trimIndent" and not args:
        return map_text(base, trim_indent)
    if base is not None and method == "trimMargin":
        margin = reader.read(args[0], depth + 1) if args else literal_message("|")
        if margin is not None and margin.literal:
            prefix = margin.literal
            return map_text(base, lambda value: trim_margin(value, prefix))
    return None


def _string(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """A string template, each ``$name`` / ``${name}`` that reads a ``val`` holding text
    (``"…\n$unknownKeysHint"``) spelled out as a bare ``name`` argument would be."""
    message = kotlin_string(node)
    if message.literal is not None:
        return message
    spelled: dict[str, Message] = {}
    for child in node.named_children:
        name = _interpolated_name(child)
        if name is None or name in spelled:
            continue
        assignment = assignment_of(child, reader.file, name)
        value = reader.read(assignment.named_children[-1], depth + 1) if assignment else None
        if value is not None and value.has_text():
            spelled[name] = value
    if not spelled:
        return message
    parts = [q for p in message.parts for q in (
        spelled[p.name].parts if isinstance(p, Hole) and p.name in spelled else (p,))]
    merged = merge_literals(parts)
    literal = "".join(p.text for p in merged if isinstance(p, Literal)) if all(
        isinstance(p, Literal) for p in merged) else None
    written = message.written
    for name, value in spelled.items():
        use = re.compile(r"\$\{" + re.escape(name) + r"\}|\$" + re.escape(name) + r"(?![\w$])")
        written = use.sub(value.written.replace("\\", "\\\\"), written)
    return Message(written, merged, literal)


def _interpolated_name(node: Node) -> str | None:
    """``$name`` or ``${name}``: the name read; None for any other part of a template."""
    if node.type == "interpolated_identifier":
        return text(node)
    if node.type == "interpolated_expression" and node.named_child_count == 1 and (
            node.named_children[0].type == "simple_identifier"):
        return text(node.named_children[0])
    return None


def _build_string(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``buildString { append("bad "); append(x); appendLine("!") }``: the appended texts in
    order (an unknown one a hole); None when the lambda does anything else."""
    suffix = node.named_children[-1]
    lam = next((c for c in suffix.named_children if c.type == "annotated_lambda"), None)
    literal = next((c for c in lam.named_children if c.type == "lambda_literal"), None) if (
        lam is not None) else None
    body = next((c for c in literal.named_children if c.type == "statements"), None) if (
        literal is not None) else None
    if body is None:
        return None
    pieces: list[Message | None] = []
    for statement in body.named_children:
        found = callee_of(statement)
        if _repeated(statement, found):  # ``for (x in xs) appendLine(x)``: any lines, or none
            if not pieces or pieces[-1] is not REPEATED:
                pieces.append(REPEATED)
            continue
        if found is None or found[0] not in ("append", "appendLine", "this.append") or (
                len(found[2]) > 1 or found[3]):
            return None
        for arg in found[2]:
            pieces.append(reader.read(arg, depth + 1) or _operand(arg))
        if found[0] == "appendLine":
            pieces.append(literal_message("\n"))
    if REPEATED in pieces and not any(isinstance(p, Literal) and p.text.strip()
                                      for m in pieces if m is not None for p in m.parts):
        return None  # only what loops appended: nothing known
    return joined(pieces) if pieces else None


# What a loop or a branch appends inside ``buildString``: any text, over any number of
# lines, or none.
REPEATED = Message("{…}", (Hole(None, "{…}", "any", r"[\s\S]*?"),))
_LOOPS = frozenset({
    "for_statement", "while_statement", "do_while_statement", "if_expression",
    "when_expression",
})
_EACH = frozenset({"forEach", "forEachIndexed", "repeat", "onEach"})


def _repeated(statement: Node, found: tuple[str, Node | None, list[Node],
                                             list[tuple[str, Node]]] | None) -> bool:
    """A loop, a branch, or ``xs.forEach { … }`` / ``repeat(n) { … }`` that appends."""
    if b"append" not in (statement.text or b""):
        return False
    if statement.type in _LOOPS:
        return True
    return found is not None and found[0].rsplit(".", 1)[-1] in _EACH


def _variable(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """A ``val`` (or a local ``var`` above) holding a message in an enclosing scope."""
    assignment = assignment_of(node, reader.file)
    return reader.read(assignment.named_children[-1], depth + 1) if assignment else None


def assignment_of(node: Node, file: FileIndex, name: str | None = None) -> Node | None:
    """The ``val`` (or local ``var`` above) a name reads; its value is the last child.
    ``name`` when ``node`` only says where it is read (a template's ``${name}``)."""
    name = text(node) if name is None else name
    return visible_assignment(name, node, file.assignments.get(name, []), FUNCTION_TYPES,
                              BODY_TYPES, _parameters, _is_val)


def _qualified_constant(reader: Reader[FileIndex], node: Node, depth: int) -> Message | None:
    """``Messages.GONE``: a ``val`` of an object, or a companion's, declared in this file."""
    owner, suffix = node.named_children[0], node.named_children[-1]
    if owner.type != "simple_identifier" or suffix.type != "navigation_suffix":
        return None
    for declaration in reader.file.assignments.get(text(suffix)[1:], []):
        holder = next((a for a in ancestors(declaration) if a.type in TYPE_TYPES or
                       a.type in FUNCTION_TYPES), None)
        if holder is not None and holder.type == "companion_object":
            holder = next((a for a in ancestors(holder) if a.type in TYPE_TYPES), None)
        if holder is not None and holder.type in TYPE_TYPES and name_of(holder) == text(owner) and (
            _is_val(declaration)
        ):
            return reader.read(declaration.named_children[-1], depth + 1)
    return None


def _is_val(declaration: Node) -> bool:
    kind = next((c for c in declaration.named_children if c.type == "binding_pattern_kind"), None)
    return text(kind) == "val"


def _parameters(scope: Node) -> set[str]:
    holders = [c for c in scope.named_children
               if c.type in ("function_value_parameters", "lambda_parameters")]
    if scope.type == "setter":
        holders = [scope]  # set(value) { .. }: its parameter_with_optional_type
    names = set()
    for holder in holders:
        for param in holder.named_children:
            if param.type not in ("parameter", "variable_declaration",
                                  "parameter_with_optional_type"):
                continue
            ident = next((c for c in param.named_children if c.type == "simple_identifier"), None)
            if ident is not None:
                names.add(text(ident))
    if scope.type == "lambda_literal" and not holders:
        names.add("it")
    return names


# --- calls and branches: what a call passes, what an argument may print ---------------


def split(values: Node | None) -> tuple[list[Node], list[tuple[str, Node]]]:
    """A call's value arguments: positional expressions, and ``name = value`` ones."""
    positional: list[Node] = []
    named: list[tuple[str, Node]] = []
    for arg in values.named_children if values is not None else []:
        if arg.type != "value_argument" or not arg.named_children:
            continue
        if any(c.type == "=" for c in arg.children) and arg.named_child_count >= 2:
            named.append((text(arg.named_children[0]), arg.named_children[-1]))
        else:
            positional.append(arg.named_children[-1])
    return positional, named


def values_of(node: Node) -> Node | None:
    """The ``value_arguments`` of a call suffix, constructor invocation or delegation."""
    return next((c for c in node.named_children if c.type == "value_arguments"), None)


def callee_of(call: Node) -> tuple[str, Node | None, list[Node], list[tuple[str, Node]]] | None:
    """``Errors.create(a, b)`` → (``Errors.create``, the receiver, positional and named
    arguments)."""
    if call.type != "call_expression" or call.named_child_count < 2:
        return None
    head, suffix = call.named_children[0], call.named_children[-1]
    args, named = split(values_of(suffix))
    if head.type == "simple_identifier":
        return text(head), None, args, named
    if head.type == "navigation_expression" and head.named_child_count == 2:
        receiver, name = head.named_children
        return f"{text(receiver)}.{text(name)[1:].strip()}", receiver, args, named
    return None


def alternatives(node: Node | None, file: FileIndex, depth: int = 0) -> list[Template]:
    """The templates an expression prints, one per branch of an ``if``/``when`` (directly
    or in the ``val`` a name reads); empty when source does not say."""
    node = unparenthesized(node)
    if node is None or depth > 4:
        return []
    if node.type in ("if_expression", "when_expression"):
        bodies = [c for c in _branch_bodies(node)]
        found = [alternatives(_value(b), file, depth + 1) for b in bodies]
        return list(capped([t for f in found for t in f]))
    if node.type == "elvis_expression" and node.named_child_count >= 2:
        sides = (node.named_children[0], node.named_children[-1])
        found = [alternatives(side, file, depth + 1) or [unknown(text(side))] for side in sides]
        return list(capped([t for f in found for t in f])) if any(
            has_text(t) for f in found for t in f) else []
    let = _let(node)
    if let is not None:  # ``type?.let { "Request $it parameter" }``: ``it`` is ``type``
        receiver, parameter, value = let
        return [renamed(t, {parameter: receiver}) for t in alternatives(value, file, depth + 1)]
    message = read(node, file)
    passed = _format_parameter(node) if message is None else None
    if passed is not None:  # ``format.format(*args)``: what the caller formats
        return [unknown(passed)]
    if message is None and node.type == "simple_identifier":
        assigned = assignment_of(node, file)
        if assigned is not None:
            return alternatives(assigned.named_children[-1], file, depth + 1)
    return [format_holes(message.template())] if message is not None else []


def _let(node: Node) -> tuple[str, str, Node] | None:
    """``x?.let { … }`` / ``x.let { t -> … }``: the receiver, the lambda's parameter name
    and the lambda's value."""
    found = callee_of(node)
    if found is None or found[1] is None or found[0].rsplit(".", 1)[-1] != "let" or found[2]:
        return None
    suffix = node.named_children[-1]
    lam = next((c for c in suffix.named_children if c.type == "annotated_lambda"), None)
    literal = next((c for c in lam.named_children if c.type == "lambda_literal"), None) if (
        lam is not None) else None
    if literal is None:
        return None
    declared = next((c for c in literal.named_children if c.type == "lambda_parameters"), None)
    names = [text(c) for c in declared.named_children] if declared is not None else ["it"]
    body = next((c for c in literal.named_children if c.type == "statements"), None)
    value = _value(body) if body is not None and body.named_children else None
    if len(names) != 1 or value is None:
        return None
    return text(found[1]), names[0], value


def _format_parameter(node: Node) -> str | None:
    """``format.format(*args)`` / ``String.format(format, *args)`` of a variable: its name."""
    found = callee_of(node)
    if found is None or found[1] is None or not found[0].endswith(".format"):
        return None
    receiver = text(found[1])
    if found[1].type == "simple_identifier" and receiver not in ("String", "MessageFormat"):
        return receiver
    if receiver in ("String", "MessageFormat") and found[2] and (
            found[2][0].type == "simple_identifier"):
        return text(found[2][0])
    return None


def _branch_bodies(node: Node) -> Iterator[Node]:
    if node.type == "if_expression":
        for name in ("consequence", "alternative"):
            body = node.child_by_field_name(name)
            if body is not None:
                yield body
        return
    for entry in node.named_children:
        if entry.type == "when_entry":
            yield from (c for c in entry.named_children if c.type == "control_structure_body")


def _value(body: Node) -> Node | None:
    """The value of a branch body: its expression, or a block's last statement."""
    inner = body.named_children[-1] if body.named_children else None
    if inner is not None and inner.type == "statements":
        inner = inner.named_children[-1] if inner.named_children else None
    if inner is not None and inner.type == "jump_expression":
        return None  # a branch that throws or returns prints nothing here
    return inner



def body_value(body: Node | None) -> Node | None:
    """An expression body's expression, or a block's ``return`` value."""
    if body is None or not body.named_children:
        return None
    inner = body.named_children[0]
    if inner.type != "statements":
        return inner
    for statement in inner.named_children:
        if statement.type == "jump_expression" and text(statement).startswith("return") and (
                statement.named_children):
            return statement.named_children[0]
    return None


def lambda_value(call: Node) -> Node | None:
    """The value of a call's trailing lambda (``require(c) { "…" }``)."""
    suffix = call.named_children[-1]
    lam = next((c for c in suffix.named_children if c.type == "annotated_lambda"), None)
    literal = next((c for c in lam.named_children if c.type == "lambda_literal"), None) if (
        lam is not None) else None
    body = next((c for c in literal.named_children if c.type == "statements"), None) if (
        literal is not None) else None
    return body.named_children[-1] if body is not None and body.named_children else None



_TABLE: MessageTable[FileIndex] = MessageTable(
    strings={"string_literal": kotlin_string},  # text sites: as written
    wrappers=frozenset({"parenthesized_expression"}),
    rules={"string_literal": _string, "additive_expression": _concatenation,
           "call_expression": _text_call,
           "simple_identifier": _variable, "navigation_expression": _qualified_constant},
)

# The string literal decoders, for the text sites of a file (``LanguageSpec.strings``).
STRINGS = _TABLE.strings
