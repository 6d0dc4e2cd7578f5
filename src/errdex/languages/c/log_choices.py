"""The texts a C log call may print when its format or an argument is a choice of literals.

``logit(quiet ? "closed %s" : "Closed %s", who)`` prints one of two formats, and
``logit("%s for %s", ok ? "Accepted" : "Failed", who)`` one of two messages: each is a
template of its own (as a raise with a choice of messages has a record per branch), so a
line maps to the branch that wrote it and the branches group apart. Arguments that are a
choice are spelled out while the alternatives stay few (``MAX_CHOICES``); past that an
argument stays a hole, as it was.
"""

from __future__ import annotations

from tree_sitter import Node

from errdex.languages.base import text
from errdex.languages.c.calls import formatted
from errdex.languages.c.family import STRING_TYPES, message_string
from errdex.languages.facts import substitute
from errdex.templates.template import Template

MAX_CHOICES = 8


def is_choice(node: Node) -> bool:
    """Whether ``node`` is a choice between literal texts (``c ? "a" : "b"``, nested too)."""
    return len(_branches(node)) > 1


def formats(fmt: Node, rest: list[Node]) -> list[Template]:
    """Each template a call with format ``fmt`` and arguments ``rest`` may print (one when
    nothing is a choice); an argument that is a choice of literals is spelled out."""
    out: dict[str, Template] = {}
    for branch in _branches(fmt):
        made = formatted(branch, rest, None)
        if made is None:
            continue
        for variant in _spelled(made, rest):
            out.setdefault(variant.written, variant)
    return list(out.values())[:MAX_CHOICES]


def _spelled(template: Template, rest: list[Node]) -> list[Template]:
    variants = [template]
    names = {p.name for p in template.holes}
    for arg in rest:
        options = [found for branch in _branches(arg)
                   if (found := message_string(branch)) is not None]
        if len(options) < 2 or text(arg) not in names or (
                len(variants) * len(options) > MAX_CHOICES):
            continue
        bound = [Template(o.written, o.parts()) for o in options]
        variants = [substitute(v, {text(arg): b}) for v in variants for b in bound]
    return variants


def _branches(node: Node) -> list[Node]:
    """The literal texts a choice picks from, else ``[node]``."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type != "conditional_expression":
        return [node]
    found = [node.child_by_field_name(f) for f in ("consequence", "alternative")]
    out = [b for f in found if f is not None for b in _branches(f)]
    if len(out) < 2 or any(b.type not in STRING_TYPES for b in out):
        return [node]
    return out


__all__ = ["MAX_CHOICES", "formats", "is_choice"]
