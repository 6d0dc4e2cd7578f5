"""What Swift prints for an enum error value with no description of its own: its case.

``print(error)``, ``String(describing: error)`` and ``dump`` show an enum value as its case
and associated values (``responseFailed(reason: Net.NetError.Reason.badStatus(code: 404))``)
unless the type conforms to ``CustomStringConvertible``/``CustomDebugStringConvertible``;
a ``LocalizedError``'s ``errorDescription`` is only its ``localizedDescription``, so users
paste both. The runtime's form:

* a case without values is its name; with values, ``name(label: value, value)``, older
  runtimes leaving the labels out (``badStatus(404)``);
* a value that is itself an enum is printed qualified by module and types
  (``Net.NetError.Reason.badStatus``), the outermost value not; the module is a hole.

Each case of an error enum, or of an enum nested in an error type (the reason a case
carries), is a producer of this text, its values the parameters; as a value inside
another (``.badStatus(code: s)``, ``Reason.badStatus(…)``) it is the qualified form,
a producer of owner ``IMPLICIT`` reached as ``.badStatus``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from errdex.languages.base import ancestors, line_of, text
from errdex.languages.facts import Producer
from errdex.templates.template import Hole, Literal, Part, Template, merge_literals

# The owner of a case reached as ``.case(…)``: the callee ``.case`` qualifies with "".
IMPLICIT = ""
_DESCRIBED = ("CustomStringConvertible", "CustomDebugStringConvertible")
MODULE = Hole("module", "{module}", "any", r"[A-Za-z_]\w*")


def case_values(entry_data: Node | None) -> list[str | None]:
    """The labels of a case's associated values in order (None where unlabelled)."""
    out: list[str | None] = []
    label: str | None = None
    pending = False
    for child in entry_data.children if entry_data is not None else ():
        if child.type == "simple_identifier":
            label = text(child)
        elif child.type == ":":
            continue
        elif child.type in (",", ")"):
            if pending:
                out.append(label)
            label, pending = None, False
        elif child.type != "(":
            pending = True
    return out


def template(case: str, labels: list[str | None], params: tuple[str, ...],
             qualified: str | None = None) -> Template:
    """The printed form of ``case`` with its values (module docstring); as a value inside
    another, ``qualified`` by its type's full name after the module's."""
    name = f".{qualified}.{case}" if qualified else case
    parts: list[Part] = [MODULE, Literal(name)] if qualified else [Literal(case)]
    written = [MODULE.spec + name if qualified else case]
    if labels:
        parts.append(Literal("("))
        written.append("(")
        for i, (label, param) in enumerate(zip(labels, params, strict=True)):
            if i:
                parts.append(Literal(", "))
                written.append(", ")
            if label is not None and label != "_":
                parts.append(Hole(f"{label}:", f"{label}: ", "any",
                                  f"(?:{re.escape(label)}: )?"))
                written.append(f"{label}: ")
            parts.append(Hole.of(param, "{" + param + "}"))
            written.append("{" + param + "}")
        parts.append(Literal(")"))
        written.append(")")
    return Template("".join(written), merge_literals(parts))


def reflected(entries: list[Node], error_types: set[str], described: set[str], path: str,
              type_name: Callable[[Node], str]) -> list[Producer]:
    """The printed form of each case of the file's error enums and the enums nested in an
    error type (not ``described`` ones), as the type's producer and an ``IMPLICIT`` one."""
    out: list[Producer] = []
    for entry in entries:
        enum = next((a for a in ancestors(entry) if a.type == "class_declaration"), None)
        full = type_name(enum) if enum is not None else ""
        if enum is None or full in described:
            continue
        outer = [type_name(a) for a in ancestors(entry) if a.type == "class_declaration"]
        if not any(name in error_types for name in outer):
            continue
        labels = case_values(entry.child_by_field_name("data_contents"))
        params = tuple(label if label and label != "_" and label.isidentifier() else f"_{i}"
                       for i, label in enumerate(labels))
        for name in entry.children_by_field_name("name"):
            case = text(name)
            for owner, made in ((full.rsplit(".", 1)[-1], template(case, labels, params)),
                                (IMPLICIT, template(case, labels, params, full))):
                out.append(Producer(case, params, (made,), "class message", path,
                                    line_of(entry), owner=owner, error_class=f"{full}.{case}"))
    return out


def describes_itself(node: Node) -> bool:
    """A type (or extension) conforming to a protocol that prints its own description."""
    return any(text(c) in _DESCRIBED for c in node.named_children
               if c.type == "inheritance_specifier")
