"""What a command-line framework shows for its errors: ``format_message()``.

Click (and every command line built on it) prints a usage error as ``Error: `` and the
exception's ``format_message()``, not ``str(exc)``; ``MissingParameter`` builds that text
from local variables set in branches::

    if param_type == "argument":
        missing = _("Missing argument")
    else:
        missing = _("Missing option")
    param_hint = f" {param_hint}" if param_hint else ""
    return f"{missing}{param_hint}."

Each value a returned template's local variables can take (the clauses of one ``if``, a
ternary's two sides) is an alternative, at most ``MAX_ALTERNATIVES`` in all, the fullest
first; they are the class's messages beside what ``__str__`` prints.
"""

from __future__ import annotations

import itertools

from tree_sitter import Node

from errdex.languages._engine import FileIndex
from errdex.languages.base import text
from errdex.languages.facts import MAX_ALTERNATIVES, substitute
from errdex.languages.python.reading import SCOPES, argument, returns
from errdex.templates.template import Hole, Literal, Template

SHOWN = ("format_message",)


def shown_messages(method: Node, file: FileIndex) -> list[Template]:
    """The texts a display method returns, its local variables spelled out."""
    out: list[Template] = []
    for node in returns(method):
        for template in argument(node, file):
            for expanded in _expanded(template, node, file):
                if _says(expanded) and expanded not in out:
                    out.append(expanded)
    return out[:MAX_ALTERNATIVES]


def _expanded(template: Template, returned: Node, file: FileIndex) -> list[Template]:
    """``template`` once per choice of what its holes naming local variables hold."""
    names = {h.name for h in template.holes if h.name and h.name.isidentifier()}
    choices: list[list[tuple[str, Template]]] = []
    for use in _identifiers(returned, names):
        if file.nearest(use, SCOPES) is None:
            continue  # a parameter or a name from elsewhere: a hole
        values = [v for v in argument(use, file) if not _same_hole(v, text(use))]
        if values:
            choices.append([(text(use), v) for v in values])
    if not choices:
        return [template]
    return [substitute(template, dict(combo))
            for combo in itertools.islice(itertools.product(*choices), MAX_ALTERNATIVES)]


def _same_hole(template: Template, name: str) -> bool:
    parts = template.parts
    return len(parts) == 1 and isinstance(parts[0], Hole) and parts[0].name == name


def _identifiers(node: Node, names: set[str]) -> list[Node]:
    """The first use of each name in the returned expression."""
    found: dict[str, Node] = {}
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "identifier":
            name = text(current)
            if name in names and name not in found:
                found[name] = current
            continue
        stack.extend(reversed(current.named_children))
    return list(found.values())


def _says(template: Template) -> bool:
    """Literal words, not only the punctuation between holes."""
    return any(isinstance(p, Literal) and sum(c.isalpha() for c in p.text) >= 3
               for p in template.parts)
