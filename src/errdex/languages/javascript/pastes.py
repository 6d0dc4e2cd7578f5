"""Node.js and browser JavaScript errors: stacks, ``Uncaught``, ``[Error: msg]``, preambles.

Node prints an uncaught error after a preamble (``/app/x.js:10``, the source
line, a ``^`` caret); the preamble's location is used only when the error has
no ``at`` frames (``throw "oops"``). ``node:internal/process/promises`` is
Node's own rethrow site, never a frame. An ``UnhandledPromiseRejection``'s
message is the rejection's reason, the text the user's code wrote.
"""

from __future__ import annotations

import re

from errdex.languages._engine.pastes import PasteReader, Pastes
from errdex.languages._engine.pastes.common import (
    Found,
    Frame,
    Lines,
    is_camel,
    one,
    split_class,
    split_location,
)
from errdex.languages._engine.pastes.stacks import first_frame_style, frame_style

_PREAMBLE = re.compile(r"(?P<file>\S+):(?P<line>\d+)")
_CARET = re.compile(r"\s*\^+\s*")
_QUERY = re.compile(r"\?[^/?]*\Z")  # webpack's "x.js?" / "x.js?abc1" in dev-server frames
_CODED = re.compile(r"(?P<class>[A-Za-z_$][\w$]*) \[(?P<code>[A-Z][A-Z0-9_]*)\](?:: |$)")
_UNCAUGHT = re.compile(r"Uncaught (?:\(in promise\) )?")
_PROPERTY_CODE = re.compile(r"\s+code: '(?P<code>[^'\n]*)',?")
_REASON = re.compile(r'.* The promise rejected with the reason "(?P<reason>.*)"\.')
_PROPERTIES_LIMIT = 50


def _js_class(name: str) -> bool:
    """``TypeError``, ``AxiosError``, ``Error``, ``DOMException``: one CamelCase identifier."""
    return is_camel(name) and name.replace("$", "").isidentifier()


def node_trace(lines: Lines, i: int) -> Found | None:
    """An uncaught JS error, with its preamble, ``at`` frames and ``{ code: … }`` properties."""
    line = lines[i]
    start, preamble = i, None
    match = _PREAMBLE.fullmatch(line) if line[-1:].isdigit() else None
    if match and i + 2 < len(lines) and _CARET.fullmatch(lines[i + 2]):
        preamble = Frame(match.group("file"), int(match.group("line")))
        if preamble.file.startswith("node:"):
            preamble = None
        i += 3
        while i < len(lines) and not lines[i].strip():
            i += 1
        if i >= len(lines):
            return None
        line = lines[i]
    header = _header(line, lines, i, preamble is not None or start != i)
    if header is None:
        return None
    error_class, first, code = header
    parts = [first]
    j = i + 1
    bracketed = line.startswith("[")  # "[Error: msg]" holds all of its message
    while not bracketed and j < len(lines) and lines[j].strip() and frame_style(lines[j]) is None:
        if lines[j].startswith("(Use `node "):
            break
        parts.append(lines[j])
        j += 1
    frames, code_found, j = _frames(lines, j, opened=line.rstrip().endswith("] {"))
    if not frames and preamble is not None:
        frames = [preamble]
    message = "\n".join(parts).rstrip()
    reason = _REASON.fullmatch(message) if error_class == "UnhandledPromiseRejection" else None
    if reason:
        message = reason.group("reason")
    return one(lines.event(start, j, message, error_class, "node", frames, code or code_found), j)


# Older Node prints an unhandled rejection as a process warning before the error itself.
_PROCESS_WARNING = re.compile(r"\(node:\d+\) (?:Unhandled\w*|PromiseRejectionHandled)Warning: ")


def _header(
    line: str, lines: Lines, i: int, after_preamble: bool
) -> tuple[str | None, str, str | None] | None:
    """(class, message's first line, code) of an error line Node or a browser printed."""
    warned = _PROCESS_WARNING.match(line)
    if warned:  # (node:1234) UnhandledPromiseRejectionWarning: Error: msg — the error follows
        line = line[warned.end() :]
    if line.startswith("Uncaught "):
        prefix = _UNCAUGHT.match(line)
        rest = line[prefix.end() :] if prefix else line
        split = split_class(rest, _js_class)  # "Uncaught exception in …" is prose
        return (*split, None) if split else None
    if line.startswith("[") and line.endswith(("]", "] {")):
        inner = line.rstrip().removesuffix(" {").removeprefix("[").removesuffix("]")
        split = split_class(inner, _js_class)
        return (*split, None) if split else None
    coded = _CODED.match(line)
    if coded and _js_class(coded.group("class")):
        return coded.group("class"), line[coded.end() :], coded.group("code")
    follows = first_frame_style(lines, i + 1) == "node"
    split = split_class(line, _js_class) if follows or after_preamble else None
    if split and follows:
        return (*split, None)
    if after_preamble and line.strip():
        return (*split, None) if split else (None, line.strip(), None)  # throw "oops"
    return None


def node_frame(line: str) -> Frame | None:
    """The location of an ``at fn (file:line:col)`` / ``at file:line:col`` line, if it has one
    (``at Array.forEach (<anonymous>)`` has none); a line cut short before its ``)``
    (``at Cluster.send (/app/cluster.js:404:20``) still names its function."""
    body = line.strip()[3:].removeprefix("async ").removesuffix(" {")
    if body.endswith(")"):
        function, _, where = body[:-1].rpartition(" (")
    elif " (" in body and ")" not in body.partition(" (")[2]:
        function, _, where = body.rpartition(" (")
    else:
        function, where = "", body
    location = split_location(where.strip().removeprefix("file://"))
    if location is None:
        return None
    # a bundler's dev URL may end in a query: "xhr.js?:95:14"
    return Frame(_QUERY.sub("", location.file), location.line, function.strip() or None)


def _frames(lines: Lines, j: int, *, opened: bool) -> tuple[list[Frame], str | None, int]:
    """``at fn (file:l:c)`` / ``at file:l:c`` frames, then a ``{ code: 'X' }`` block if any.

    ``opened``: the header ended in `` {`` (``[Error: msg] {``), so the block follows it.
    """
    frames: list[Frame] = []
    code = None
    while j < len(lines) and frame_style(lines[j]) == "node":
        opened = lines[j].rstrip().endswith(" {")
        frame = node_frame(lines[j])
        if frame is not None:
            frames.append(frame)
        j += 1
    if opened:
        for k in range(j, min(j + _PROPERTIES_LIMIT, len(lines))):
            property_code = _PROPERTY_CODE.fullmatch(lines[k])
            if property_code:
                code = code or property_code.group("code")
            if lines[k].strip() == "}":
                return frames, code, k + 1
    return frames, code, j


PASTES = Pastes((PasteReader(100, node_trace),))
