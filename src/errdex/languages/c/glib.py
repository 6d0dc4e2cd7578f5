"""GLib's checks as sites: what ``g_return_if_fail`` and ``g_assert`` print is GLib's own
wording around the condition as written and the function it is in.

GLib (checked against GLib 2.74, a C program built with gcc) prints:

* ``g_return_if_fail(cond)`` / ``g_return_val_if_fail(cond, v)`` that fail: a critical
  ``func: assertion 'cond' failed`` (``** (prog:1234): CRITICAL **: 12:00:00.000: `` before
  it), and the function returns: a ``log`` site at level ``error``. ``func`` is
  ``G_STRFUNC``, C's ``__func__``: each such site's text names its function, so checks
  written alike in every function (``w != NULL``) are told apart by their text;
* ``g_assert(cond)``: ``ERROR:file.c:21:func: assertion failed: (cond)`` and an abort;
  ``g_assert_not_reached()``: ``ERROR:file.c:21:func: code should not be reached``. A
  ``panic`` site whose pattern opens with GLib's place (``ERROR:file:line:``, ``Bail out!``
  before it in a test) as a hole.

The condition is the macro's ``#expr``: its source text with whitespace collapsed. GLib's
logging calls (``g_critical("fmt", …)``) are log sites by name (``log_sites``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from errdex.languages._engine import Captures
from errdex.languages.base import Site, line_of, text
from errdex.languages.c.family import arguments
from errdex.templates.template import Hole, Literal, Template

CHECKS = ("g_return_if_fail", "g_return_val_if_fail", "g_assert", "g_assert_not_reached")
_SPACE = re.compile(r"\s+")


def glib_sites(captured: Captures, symbol: Callable[[Node], str | None]) -> list[Site] | None:
    """The site of one GLib check (module docstring); None outside a function."""
    call = captured["glib"][0]
    name = text(captured["glib.name"][0])
    args = arguments(captured["glib.args"][0])
    function = symbol(call)
    if name not in CHECKS or not function:
        return None
    if name == "g_assert_not_reached":
        return [_panic(f"{function}: code should not be reached", call, function)]
    if not args:
        return None
    condition = _SPACE.sub(" ", text(args[0])).strip()
    if name == "g_assert":
        return [_panic(f"{function}: assertion failed: ({condition})", call, function)]
    said = f"{function}: assertion '{condition}' failed"
    return [Site(Template(said, (Literal(said),)), "log", line_of(call), severity="error",
                 symbol=function, level="error")]


def _panic(said: str, call: Node, function: str) -> Site:
    """An abort after GLib's place (``ERROR:file.c:21:``), held by a leading hole."""
    template = Template(said, (
        Hole("place", "{place}", regex=".*?"), Literal(said)))
    return Site(template, "panic", line_of(call), severity="fatal", symbol=function)
