"""Calls that join the text of their arguments into one string.

``absl::StrCat("bad port ", port)`` and a project's ``concat``/``StrCat`` print their
arguments one after the other; so does folly's conversion to a string,
``folly::to<std::string>("Invalid IP address '", str, "'")``, the way folly and the projects
built on it word most of their exception messages.
"""

from __future__ import annotations

import re

JOINS = frozenset({"concat", "StrCat", "str_concat", "Concat", "strcat_str", "cat"})
_TO_STRING = re.compile(r"(?:folly::)?to\s*<\s*(?:std::)?(?:string|fbstring)\s*>")


def converts(name: str) -> bool:
    """Whether ``name`` is folly's ``to<std::string>`` (``to<string>``, ``to<fbstring>``)."""
    return _TO_STRING.fullmatch(name.removeprefix("::")) is not None


def joins(name: str) -> bool:
    """Whether a call of ``name`` joins its arguments (``JOINS`` by its last name,
    ``absl::StrCat``, folly's ``to<std::string>``)."""
    last = name.replace("->", ".").replace("::", ".").rsplit(".", 1)[-1]
    return last in JOINS or converts(name)
