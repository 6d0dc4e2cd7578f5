"""Assertions as sites: what a failed ``assert`` prints is the condition as written.

The C library's ``assert(expr)`` prints ``#expr``, the condition's source text with its
whitespace collapsed (glibc: ``prog: file.c:7: func: Assertion `expr' failed.``; musl,
MSVC and macOS write ``Assertion failed: expr`` with the place after). So:

* ``assert(cond)``: one ``panic`` site (severity ``fatal``) whose pattern holds every C
  library's wording (``_failed``) around the condition; ``assert(0)`` says nothing but its
  place, nor does a bare name or field path (``assert(ctx)``, ``assert(!ctx->current)``,
  written alike in every function of a file): no site.
* A project's ``…ASSERT…`` macro given one condition (``IM_ASSERT(cond)``): the same
  site, as most such macros expand to ``assert`` (one that prints its own way leaves a
  record no paste matches).
* ``assert(cond && "message")``, ``IM_ASSERT(!"message")``: the string is what a reader
  pastes (a project's handler may print it alone), a site of its own beside the one
  above; a macro given its message as a later argument (``MY_ASSERT(cond, "message")``)
  prints it in its own way (the message's site), or expands to an ``assert`` of both
  (``assert((cond) && msg)``): a site whose pattern holds the condition and the
  message's literal in the C libraries' wordings (``_expanded``).

``static_assert`` fails at compile time, and a test framework's ``ASSERT_EQ`` prints its own
report: never a site.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from errdex.languages._engine import Captures
from errdex.languages._engine.message import Message
from errdex.languages._engine.pieces import has_words
from errdex.languages.base import Site, line_of, text
from errdex.languages.c.family import STRING_TYPES, arguments, c_string
from errdex.templates.template import Hole, Literal, Template

NAMES = re.compile(r"assert|[A-Z][A-Z0-9_]*ASSERT[A-Z0-9_]*")
# a message argument that is no string, read as what it prints (C++'s ``<<`` chains)
Streamed = Callable[[list[Node], Node], Message | None]
# test frameworks' checks (``ASSERT_EQ(a, "b")``) and compile-time ones print their own way
_NOT_ASSERTS = re.compile(r"^ASSERT_|TEST|EXPECT|STATIC")
_SPACE = re.compile(r"\s+")
# a bare name or field path (``ctx``, ``ctx->current``, ``!p``): written in every function
# of a file alike, its text says nothing of where it failed (``window != NULL`` names what
# a caller passed wrong: a frame of the paste tells which function)
_BARE = re.compile(r"!?\(?[A-Za-z_][\w.\->\[\]]*\)?")


def assert_sites(captured: Captures, symbol: Callable[[Node], str | None], *,
                 later: bool = True, streamed: Streamed | None = None) -> list[Site] | None:
    """The sites of one assertion (module docstring); None when it says nothing. ``later``:
    read a message given after the condition (C++ reads its error macros elsewhere);
    ``streamed``: C++'s reading of one that is no string (``"found " << kind``)."""
    call = captured["assert"][0]
    name = text(captured["assert.name"][0])
    args = arguments(captured["assert.args"][0])
    if not NAMES.fullmatch(name) or _NOT_ASSERTS.search(name) or not args:
        return None
    strings = [s for s in _strings_in(args[0]) if has_words((Literal(s[1]),))]
    if not strings and len(args) > 1:  # ``MY_ASSERT(cond, "message")``
        given = [found for a in args[1:2] if (found := _string(a)) is not None
                 and has_words((Literal(found[1]),))]
        if given and name != "assert":
            said = [Template(*_said(given))] if later else []
            if _may_assert(call, name):
                said.append(_expanded(_SPACE.sub(" ", text(args[0])).strip(), given[0][0]))
            return [_site(t, call, symbol) for t in said] or None
        told = streamed(args[1:], call) if streamed and later and not given else None
        if told is not None and name != "assert" and has_words(told.parts):
            return [_site(Template(told.written, told.parts), call, symbol)]
    templates = [Template(*_said(strings))] if strings else []
    condition = _SPACE.sub(" ", text(args[0])).strip()
    if len(args) == 1 and (strings or not says_nothing(condition)):
        templates.append(_failed(condition))
    return [_site(t, call, symbol) for t in templates] or None


def says_nothing(condition: str) -> bool:
    """Whether a condition's text says nothing of where it failed: no letters (``0``), or a
    bare name or field path written alike in every function (``ctx``, ``!p``)."""
    return not re.search(r"[A-Za-z]", condition) or bool(_BARE.fullmatch(condition))


def _said(strings: list[tuple[str, str]]) -> tuple[str, tuple[Literal]]:
    written, value = strings[0]
    return written, (Literal(value),)


def _failed(condition: str) -> Template:
    """The condition as every C library words its failure, in one pattern: glibc's
    ``prog: f.c:7: func: Assertion `cond' failed.``, musl's ``Assertion failed: cond (f.c:
    func: 7)``, MSVC's ``Assertion failed: cond, file f.c, line 7`` and macOS's ``Assertion
    failed: (cond), function func, file f.c, line 7.``"""
    return Template(f"Assertion `{condition}' failed.", (
        Hole("place", "{place}", regex=".*?"), Literal("Assertion"),
        Hole("wording", "{wording}"), Literal(condition), Hole("place", "{place}")))


_BODIES: dict[str, object] = {}  # the last file's function-like macros: read one at a time


def _may_assert(call: Node, name: str) -> bool:
    """Whether macro ``name`` may expand to an ``assert``: its definition in this file says
    ``assert`` (``ASSERT``) somewhere, or this file does not define it."""
    root = call
    while root.parent is not None:
        root = root.parent
    key = (root.id, root.start_byte, root.end_byte, root.child_count)
    if _BODIES.get("key") != key:
        _BODIES["key"] = key
        _BODIES["found"] = _macro_bodies(root)
    found = _BODIES["found"]
    assert isinstance(found, dict)
    body = found.get(name)
    return body is None or "assert" in body.lower()


def _macro_bodies(root: Node) -> dict[str, str]:
    """The file's function-like macros (top level and conditional blocks): name → body."""
    out: dict[str, str] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.named_children:
            if child.type == "preproc_function_def":
                value = child.child_by_field_name("value")
                out[text(child.child_by_field_name("name"))] = text(value) if value else ""
            elif child.type.startswith("preproc_"):
                stack.append(child)
    return out


def _expanded(condition: str, written: str) -> Template:
    """A macro given its message after the condition that expands to an ``assert`` of both
    (``#define MY_ASSERT(c, msg) assert((c) && msg)``): the failure prints the expansion,
    the condition and the message's literal as written, in that order, whatever joins them
    (``Assertion `(n > 0) && "n must be positive"' failed.``)."""
    def gap(name: str) -> Hole:
        return Hole(name, "{" + name + "}", regex=".*?")
    return Template(f'Assertion `({condition}) && "{written}"\' failed.', (
        Hole("place", "{place}", regex=".*?"), Literal("Assertion"),
        Hole("wording", "{wording}"), gap("before"), Literal(condition), gap("between"),
        Literal(f'"{written}"'), gap("after"), Hole("place", "{place}")))


def _site(template: Template, call: Node, symbol: Callable[[Node], str | None]) -> Site:
    return Site(template, "panic", line_of(call), severity="fatal", symbol=symbol(call))


def _strings_in(node: Node) -> list[tuple[str, str]]:
    """The strings a condition joins with ``&&``/``||``/``!`` (in parentheses too)."""
    if node.type in STRING_TYPES:
        found = _string(node)
        return [found] if found is not None else []
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        inner = node.named_children[0]
        return _strings_in(inner) if inner is not None else []
    if node.type == "unary_expression" and text(node.child_by_field_name("operator")) == "!":
        argument = node.child_by_field_name("argument")
        return _strings_in(argument) if argument is not None else []
    if node.type == "binary_expression" and text(
            node.child_by_field_name("operator")) in ("&&", "||"):
        return [s for side in ("left", "right")
                if (child := node.child_by_field_name(side)) is not None
                for s in _strings_in(child)]
    return []


def _string(node: Node) -> tuple[str, str] | None:
    """A string literal: as written (quotes dropped) and its value."""
    if node.type not in STRING_TYPES:
        return None
    found = c_string(node)
    return (found.written, found.text) if found is not None and found.text.strip() else None
