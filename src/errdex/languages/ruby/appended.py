"""A message a method builds with ``<<`` or ``+=``: ``msg = "…".dup; msg << "…" if c``.

Ruby code with frozen string literals starts a mutable text (``"…".dup``, ``+"…"``,
``String.new("…")``) and appends to it, some parts only under a condition (thor's
``handle_argument_error``)::

    msg = "ERROR: \\"#{basename} #{name}\\" was called with ".dup
    msg << "no arguments"               if     args.empty?
    msg << "arguments " << args.inspect unless args.empty?
    raise InvocationError, msg

Each way the text can end up is one alternative: an append under ``if``/``unless`` (a
modifier, or a block without ``else``) is there or not, the clauses of one ``if``/``case``
append one or the other, and an appended ``if`` expression is one per branch. The fullest
texts come first. A text changed any other way (in a loop or block, ``concat``, ``gsub!``,
assigned again) is not read: what it prints is not known from source.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace

from tree_sitter import Node

from errdex.languages._engine import FileIndex
from errdex.languages._engine.files import enclosing
from errdex.languages.base import ancestors, text
from errdex.languages.facts import MAX_ALTERNATIVES, Argument
from errdex.templates.template import Hole, Literal, Template, merge_literals

# What one appended value prints, one template per branch (``calls.argument``).
Each = Callable[[Node], Argument]

_METHODS = frozenset({"method", "singleton_method", "class", "module", "program"})
_LOOPS = frozenset({"while", "until", "for", "do_block", "block", "while_modifier",
                    "until_modifier", "lambda"})
_CONDITIONS = frozenset({"if_modifier", "unless_modifier"})
_CLAUSES = frozenset({"if", "unless", "case"})
_STATEMENTS = frozenset({"body_statement", "then", "else", "elsif", "when", "program"})
_MUTATORS = frozenset({"concat", "prepend", "insert", "replace", "clear", "squeeze!"})
# Method calls that give a string's own text back (a mutable copy of a literal).
COPIES = frozenset({"dup", "+@", "itself", "freeze", "clone"})


def mutable_text(node: Node | None) -> Node | None:
    """The text a mutable copy is made of: ``"…".dup`` / ``+"…"`` / ``String.new("…")`` /
    a plain string; None for anything else."""
    if node is None:
        return None
    if node.type in ("string", "chained_string"):
        return node
    if node.type == "unary" and text(node.child_by_field_name("operator")) == "+":
        return mutable_text(node.child_by_field_name("operand"))
    if node.type != "call":
        return None
    method = text(node.child_by_field_name("method"))
    receiver = node.child_by_field_name("receiver")
    if method in COPIES and receiver is not None:
        return mutable_text(receiver)
    args = node.child_by_field_name("arguments")
    given = [c for c in args.named_children if c.type != "comment"] if args is not None else []
    if method == "new" and text(receiver) == "String" and len(given) == 1:
        return mutable_text(given[0])
    return None


def appended(node: Node, file: FileIndex, each: Each) -> list[Template] | None:
    """The texts the variable ``node`` can hold where it is used, when the method starts it
    from a string and appends to it with ``<<`` (module docstring): none when it is changed
    in a way source does not spell out; None when it is no text built so."""
    node = _uncopied(node)
    if node.type != "identifier":
        return None
    name = text(node)
    scope = next((a for a in ancestors(node) if a.type in _METHODS), None)
    above = [a for a in file.assignments.get(name, []) if a.type == "assignment"
             and a.end_byte <= node.start_byte and enclosing(a, _METHODS) == scope]
    start = above[-1] if above else None  # where the text starts (``+=`` adds to it)
    if scope is None or start is None:
        return None
    initial = mutable_text(start.child_by_field_name("right"))
    if initial is None:
        return None
    appends = _appends(name, scope, start.end_byte, node.start_byte)
    if appends is None:
        return []  # changed in a way source does not spell out
    if not appends:
        return None
    choices: list[list[list[Node]]] = []  # per piece, in source order: its choices
    clauses: dict[int, tuple[int, Node, dict[int, list[Node]]]] = {}
    present: dict[int, Template] = {}  # pieces there exactly when their value is
    for statement, values in appends:
        holder = statement.parent
        if holder is not None and holder.type in _CONDITIONS:
            guarded = _when_given(holder, values, each)
            if guarded is not None:
                present[len(choices)] = guarded
            choices.append([values, []])
            continue
        branching = _branching(holder, scope)
        if branching is False:
            return []  # nested conditions, a loop or a block: not known from source
        if branching is None or branching is True:
            choices.append([values])
            continue
        top, clause = branching
        if top.id not in clauses:
            clauses[top.id] = (len(choices), top, {})
            choices.append([])
        clauses[top.id][2].setdefault(clause.id, []).extend(values)
    for index, top, chosen in clauses.values():
        choices[index] = list(chosen.values())
        if not _exhaustive(top) or len(chosen) < _clause_count(top):
            choices[index].append([])  # no clause appends: the text as it was
    out = [each(initial)]
    for index, piece in enumerate(choices):
        out.append((present[index],) if index in present else tuple(
            t for values in piece for t in _sequence(values, each)))
    return _product(out)


def _when_given(modifier: Node, values: list[Node], each: Each) -> Template | None:
    """``s += ": #{reason}" if reason``: the words before the value printed only with it (a
    hole's optional lead), so a caller that passes a reason never reads the bare text."""
    condition = modifier.child_by_field_name("condition")
    if modifier.type != "if_modifier" or condition is None or len(values) != 1:
        return None
    found = each(values[0])
    if len(found) != 1 or len(found[0].parts) != 2:
        return None
    lead, hole = found[0].parts
    if not isinstance(lead, Literal) or not isinstance(hole, Hole) or (
            hole.name != text(condition) or hole.optional_lead is not None):
        return None
    return Template(found[0].written, (replace(hole, spec=lead.text + hole.spec,
                                               optional_lead=lead.text),))


def _appends(name: str, scope: Node, start: int, end: int
             ) -> list[tuple[Node, list[Node]]] | None:
    """Each ``name << a << b`` statement between ``start`` and ``end`` with its values;
    None when the text is changed some other way there."""
    found: list[tuple[Node, list[Node]]] = []
    stack = [scope]
    while stack:
        node = stack.pop()
        if node.end_byte <= start or node.start_byte >= end:
            continue
        if node is not scope and node.type in ("method", "singleton_method", "class",
                                               "module"):
            continue
        if node.start_byte >= start:
            if _adds(node, name):  # ``name += …``: a new text, the same words as ``<<``
                if node.parent is None or node.parent.type not in (*_STATEMENTS, *_CONDITIONS):
                    return None
                right = node.child_by_field_name("right")
                if right is None:
                    return None
                found.append((node, [right]))
                continue
            if node.type == "binary" and text(node.child_by_field_name("operator")) == "<<":
                chain = _chain(node)
                if chain is not None and text(chain[0]) == name:
                    if node.parent is not None and (node.parent.type == "binary" and text(
                            node.parent.child_by_field_name("operator")) == "<<"):
                        pass  # the outer link of the chain holds it
                    elif node.parent is None or node.parent.type not in (
                            *_STATEMENTS, *_CONDITIONS):
                        return None  # the append's value used in an expression
                    else:
                        found.append((node, chain[1:]))
                    continue
            if _mutates(node, name):
                return None
        stack.extend(node.named_children)
    return sorted(found, key=lambda f: f[0].start_byte)


def _uncopied(node: Node) -> Node:
    """``message.freeze`` / ``message.dup`` → ``message``: the same text."""
    while node.type == "call" and text(node.child_by_field_name("method")) in COPIES and (
            receiver := node.child_by_field_name("receiver")) is not None and not (
            node.child_by_field_name("arguments")):
        node = receiver
    return node


def _adds(node: Node, name: str) -> bool:
    left = node.child_by_field_name("left") if node.type == "operator_assignment" else None
    operator = node.child_by_field_name("operator") if left is not None else None
    return left is not None and text(left) == name and text(operator) == "+="


def _chain(node: Node) -> list[Node] | None:
    """``a << b << c`` → ``[a, b, c]``."""
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None:
        return None
    if left.type == "binary" and text(left.child_by_field_name("operator")) == "<<":
        head = _chain(left)
        return None if head is None else [*head, right]
    return [left, right]


def _mutates(node: Node, name: str) -> bool:
    """``name = …``/``name += …`` again, or ``name.concat(…)``/``name.gsub!(…)``."""
    if node.type in ("assignment", "operator_assignment"):
        left = node.child_by_field_name("left")
        return left is not None and text(left) == name
    if node.type == "call":
        receiver, method = node.child_by_field_name("receiver"), text(
            node.child_by_field_name("method"))
        return receiver is not None and text(receiver) == name and (
            method in _MUTATORS or method.endswith("!"))
    return False


def _branching(holder: Node | None, scope: Node) -> tuple[Node, Node] | bool | None:
    """Where a statement sits: straight in the method (None), in one clause of an
    ``if``/``unless``/``case`` written straight in the method ((that node, the clause)), or
    anywhere else (False)."""
    path: list[Node] = []
    node = holder
    while node is not None and node != scope:
        if node.type in _LOOPS:
            return False
        path.append(node)
        node = node.parent
    tops = [n for n in path if n.type in _CLAUSES or n.type in _CONDITIONS]
    if not tops:
        return None
    if len(tops) > 1:
        return False
    top = tops[0]
    if top.type in _CONDITIONS:
        return False
    clause = next((n for n in path if n.parent == top or (
        n.parent is not None and n.parent.type == "elsif" and n.parent.parent == top)), None)
    return (top, clause) if clause is not None else False


def _clause_count(top: Node) -> int:
    return sum(1 for c in top.named_children if c.type in ("then", "else", "elsif", "when"))


def _exhaustive(top: Node) -> bool:
    """Whether some clause of the ``if``/``case`` always runs (it has an ``else``)."""
    return any(c.type == "else" for c in top.named_children) or any(
        c.type == "elsif" and _exhaustive(c) for c in top.named_children)


def _sequence(values: list[Node], each: Each) -> Argument:
    """The values appended one after another, one template per way their branches go."""
    return tuple(_product([each(value) for value in values])) if values else (
        Template("", ()),)


def _product(pieces: list[Argument]) -> list[Template]:
    """Every combination of one choice per piece, fullest first, at most MAX_ALTERNATIVES."""
    out: list[Template] = []
    for combo in itertools.islice(itertools.product(*pieces), MAX_ALTERNATIVES * 4):
        out.append(Template("".join(t.written for t in combo),
                            merge_literals([p for t in combo for p in t.parts])))
    out.sort(key=lambda t: -len(t.written))
    unique = {t.normalized(): t for t in out}
    return list(unique.values())[:MAX_ALTERNATIVES]
