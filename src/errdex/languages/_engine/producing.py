"""What one function of the repository produces: its returns as a factory's, else what its
statements throw or log as a helper's.

The composers of C# and PHP read a function alike: skip one that neither returns an error
or text nor names a word of one (most functions), keep the returns of a factory without
parameters only where they give a call text of its own, and read the statements of one
that returns nothing composed as a helper's. Only the grammar's readers differ.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

from tree_sitter import Node

from errdex.languages.facts import Call, Result, has_text


def builds_nothing(function: Node, returns_one: bool, words: Collection[bytes]) -> bool:
    """Whether ``function`` neither returns an error or text (``returns_one``) nor holds
    one of ``words`` (a string, ``throw``, a logger's method): no producer, read no further."""
    body = (function.child_by_field_name("body") or function).text or b""
    return not returns_one and not any(word in body for word in words)


def factory_or_helper(returned: Iterable[Result], params: tuple[str, ...],
                      helper: Callable[[], Iterable[Result]]) -> tuple[list[Result], str]:
    """A function's results and its role: what it returns, as a factory's (one without
    parameters only calls it gives text: ``NoElements() => new E("…")``); else, with
    parameters, what ``helper`` reads from its statements, as a helper's."""
    results = list(returned)
    if not params:
        results = [r for r in results if isinstance(r, Call) and any(
            has_text(t) for arg in r.args for t in arg)]
    if results or not params:
        return results, "factory"
    return list(helper()), "helper"
