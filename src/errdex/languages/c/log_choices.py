"""The texts a C log call may print when its format or an argument is a choice of literals.

``logit(quiet ? "closed %s" : "Closed %s", who)`` prints one of two formats, and
``logit("%s for %s", ok ? "Accepted" : "Failed", who)`` one of two messages: each is a
template of its own (as a raise with a choice of messages has a record per branch), so a
line maps to the branch that wrote it and the branches group apart. Arguments that are a
choice are spelled out while the alternatives stay few (``MAX_CHOICES``); past that an
argument stays a hole, as it was.
"""

from __future__ import annotations

from dataclasses import replace

from tree_sitter import Node

from errdex.languages.base import Site, line_of, text
from errdex.languages.c.calls import folded, formatted, makes_error
from errdex.languages.c.family import CALLS, STRING_TYPES, message_string
from errdex.languages.facts import Call, substitute
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


def first_text(args: list[Node]) -> int | None:
    """The index of a call's format: its first literal text, or choice of texts."""
    return next((i for i, a in enumerate(args) if a.type in STRING_TYPES or is_choice(a)), None)


def choice_call(name: str, call: Node, args: list[Node], text_node: Node,
                symbol: str | None, owner: str | None) -> list[Site] | None:
    """A call whose first text is a choice (``logit(quiet ? "a %s" : "b %s", x)``): a
    candidate passing each text, composed through the repository's function of that name
    as a plain call is (``calls.helper_site``). None for any other call."""
    at = first_text(args)
    if name in CALLS or at is None or args[at] != text_node or not is_choice(text_node):
        return None
    messages = [m for m in formats(text_node, args[at + 1:]) if m.parts]
    if len(messages) < 2:
        return None
    made = Call(name, (*folded(args[:at]), tuple(messages)), owner=owner, method=True,
                makes_error=makes_error(name))
    return [Site(Template("", ()), "log", line_of(call), symbol=symbol, call=made)]


def with_choices(site: Site | None, args: list[Node], text_node: Node) -> Site | None:
    """A candidate (``calls.helper_site``) whose format is followed by a choice of texts
    (``logit("%s for %s", ok ? "Accepted" : "Failed", u)``) passing each text it prints."""
    at = first_text(args)
    if site is None or site.call is None or not site.call.args or at is None or (
            args[at] != text_node) or not any(is_choice(a) for a in args[at + 1:]):
        return site
    plain = site.call.args[-1]
    messages = formats(text_node, args[at + 1:])
    if len(plain) != 1 or len(messages) < 2 or plain[0].written != text_node_written(
            text_node, args[at + 1:]):
        return site
    return replace(site, call=replace(site.call, args=(*site.call.args[:-1], tuple(messages))))


def text_node_written(fmt: Node, rest: list[Node]) -> str | None:
    """What ``formatted`` writes for a format (to tell a call's format argument)."""
    made = formatted(fmt, rest, None)
    return made.written if made is not None else None


__all__ = ["MAX_CHOICES", "choice_call", "first_text", "formats", "is_choice", "with_choices"]
