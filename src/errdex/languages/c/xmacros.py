"""Error tables written as X-macros: ``#define UV_ERRNO_MAP(XX) XX(E2BIG, "argument list too
long") XX(EACCES, "permission denied") …``, expanded elsewhere into a ``strerror``-style
switch (``case UV_ ## name: return msg;``) or an array of texts.

The texts live in the macro's body, which the parser keeps as raw text: neither a site nor
a literal lookup could find them. Each entry handing a name and a string of two words or
more to the parameter of a macro named for errors (``ERR``, ``STATUS``, ``FAIL``, ``MSG``…)
is an ``error`` site at its line, its code the name; what a program prints around it
(``uv_listen: address already in use``) is the caller's.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from errdex.languages._engine import Captures
from errdex.languages._engine.pieces import has_words
from errdex.languages.base import Site, text
from errdex.languages.c.family import unescape
from errdex.templates.template import Literal, Template

_STRING = r'"((?:[^"\\\n]|\\.)*)"'
_ESCAPE = re.compile(r"\\(?:[0-7]{1,3}|x[0-9A-Fa-f]+|.)")
MIN_ENTRIES = 2  # one call is no table
# a table of errors is named so (``UV_ERRNO_MAP``, ``HTTP_ERRNO_MAP``, ``FOREACH_STATUS``),
# not one of colours or options; an entry says two words at least ("permission denied")
_ERRORISH = re.compile(r"(?i)err|status|fail|exception|diag|msg|message|reason")
_WORD = re.compile(r"[A-Za-z]{2,}")


def table_sites(node: Node) -> list[Site] | None:
    """The entries of an X-macro table ``node`` (a ``#define`` of one parameter) as sites;
    None when it is not one."""
    params = node.child_by_field_name("parameters")
    body = node.child_by_field_name("value")
    names = [text(p) for p in params.named_children] if params is not None else []
    if len(names) != 1 or body is None or not _ERRORISH.search(text(
            node.child_by_field_name("name"))):
        return None
    entry = re.compile(rf"\b{re.escape(names[0])}\(\s*([A-Za-z_]\w*)\s*,\s*{_STRING}\s*[,)]")
    raw = text(body)
    first = body.start_point[0] + 1
    sites = []
    for found in entry.finditer(raw):
        value = _ESCAPE.sub(lambda m: unescape(m.group(0)), found.group(2))
        parts = (Literal(value),)
        if not has_words(parts) or len(_WORD.findall(value)) < 2:
            continue
        line = first + raw.count("\n", 0, found.start())
        sites.append(Site(Template(found.group(2), parts), "error", line,
                          error_code=found.group(1), symbol=text(node.child_by_field_name(
                              "name"))))
    return sites if len(sites) >= MIN_ENTRIES else None


def xmacro_site(captured: Captures, file: object) -> list[Site] | None:
    """The handler of an ``xmacro`` capture (C's and C++'s queries)."""
    return table_sites(captured["xmacro"][0])
