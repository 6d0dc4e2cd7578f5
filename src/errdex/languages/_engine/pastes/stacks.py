"""Indented ``at …`` frame lines: Java, .NET and Node print them alike, and differ inside."""

from __future__ import annotations

import re

from errdex.languages._engine.pastes.common import Lines

_JVM_WHERE = re.compile(
    r"[\w$.\-]+\.(?:java|kt|kts|scala|groovy|clj)(?::\d+)?|Native Method|Unknown Source"
)


def frame_style(line: str) -> str | None:
    """Which runtime printed an indented ``at …`` line: "jvm", "dotnet", "node", or None.

    Java: ``at a.B.m(B.java:42)``; .NET: ``at A.B.M(String s) in /x.cs:line 4``
    or ``at A.B.M()``; Node: ``at fn (/x.js:1:2)`` or ``at /x.js:1:2``.
    """
    if not line[:1].isspace():
        return None
    body = line.strip()
    if not body.startswith("at "):
        return None
    body = body[3:]
    if ":line " in body:
        return "dotnet"
    call, paren, args = body.partition("(")
    if not paren or call.endswith(" ") or " " in call.strip():
        return "node"  # "fn (/x.js:1:2)", "async fn (…)", "new Foo (…)"
    args = args.partition(")")[0]
    if _JVM_WHERE.fullmatch(args):
        return "jvm"
    return "dotnet" if not args or " " in args else None


def first_frame_style(lines: Lines, j: int) -> str | None:
    """The ``frame_style`` of the first ``at`` line from line ``j`` on, before a blank line.

    It tells whose a lone ``Class: msg`` line is (Java, .NET or Node) by the
    stack after its message. Computed for all lines at once, backwards, on
    first use: asking line by line would read a message's lines again for
    every line of it.
    """
    if j >= len(lines):
        return None
    if lines.frame_style_cache is None:
        styles: list[str | None] = [None] * len(lines)
        following: str | None = None
        for k in range(len(lines) - 1, -1, -1):
            line = lines[k]
            if not line or line.isspace():
                following = None
            elif line[0].isspace():
                following = frame_style(line) or following
            styles[k] = following
        lines.frame_style_cache = styles
    return lines.frame_style_cache[j]
