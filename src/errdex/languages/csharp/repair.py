"""C# source the grammar reads whole: two forms tree-sitter's C# grammar fails on, rewritten
byte for byte (same length, same lines) when a file does not parse.

One ERROR node can swallow a whole class (every site in it lost), and two forms real code
uses often do that:

* ``async`` as a variable: code that shares one body between its sync and async methods
  passes ``bool async`` (``if (async) await …``, ``Read(async: true, …)``); the grammar
  reads ``async`` as the modifier only. Where the token is followed by what only a value
  is (``)``, ``,``, ``;``, ``?``, ``:``, ``&&``, ``==``…) it becomes ``asyn_``.
* ``#if`` inside a declaration or an expression (``#if INTERNAL internal #else public
  #endif class X``, a branch per framework in a collection initializer or a method
  chain): each such ``#if`` that an error overlaps keeps its first branch only, the
  directives and the other branches blanked (one build's source, as a compiler sees it).

A repair is kept only when it leaves fewer bytes in error than the source had. A site the
source's own tree still held on a line the repair blanked (``#else throw new …`` after
the branch kept) stays a site: ``read_repaired`` adds it to the repaired file's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace

from tree_sitter import Node

from errdex.languages.base import FileSites, parse

_ASYNC_VALUE = re.compile(rb"(?<![\w@.])async(?=\s*(?:[),;?\]}]|:(?!:)|&&|\|\||[=!]=))")
_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|elif|else|endif)\b", re.MULTILINE)


# The last file repaired, by identity: its sites and its producers read the same repair
# (each repair parses the file again), as ``base.parse`` keeps the last trees.
_LAST_REPAIRED: list[tuple[bytes, tuple[bytes, Node]]] = []


def repaired(source: bytes, root: Node) -> tuple[bytes, Node]:
    """``source`` and its tree, or a repaired copy and its tree when that parses better."""
    if not root.has_error:
        return source, root
    if _LAST_REPAIRED and _LAST_REPAIRED[0][0] is source:
        return _LAST_REPAIRED[0][1]
    best = _repair(source, root)
    _LAST_REPAIRED[:] = [(source, best)]
    return best


def _repair(source: bytes, root: Node) -> tuple[bytes, Node]:
    spoiled = _error_bytes(root)
    best = (source, root)
    fixed = _async_values(source)
    if fixed is not source:
        tree = parse("csharp", fixed).root_node
        if (errors := _error_bytes(tree)) < spoiled:
            best, spoiled = (fixed, tree), errors
    if best[1].has_error and b"#if" in source:
        fixed = _first_branches(best[0], _error_spans(best[1]))
        if fixed is not best[0]:
            tree = parse("csharp", fixed).root_node
            if _error_bytes(tree) < spoiled:
                best = (fixed, tree)
    return best


def read_repaired(extract: Callable[[bytes], FileSites], source: bytes) -> FileSites:
    """The sites ``extract`` finds in the repaired file, with those of the source's own
    tree on the lines the repair blanked (module docstring)."""
    fixed = repaired(source, parse("csharp", source).root_node)[0]
    if fixed is source:
        return extract(source)
    blanked = {i for i, (was, now) in enumerate(
        zip(source.split(b"\n"), fixed.split(b"\n"), strict=True), 1)
        if not now.strip() and was.strip()}
    before = extract(source) if blanked else None
    found = extract(fixed)  # the last read: its literals and index are the ones kept
    if before is None:
        return found
    sites = [*found.sites, *(s for s in before.sites if s.line in blanked)]
    candidates = [*found.candidates, *(s for s in before.candidates if s.line in blanked)]
    return replace(found, sites=sorted(sites, key=lambda site: site.line),
                   candidates=candidates)


def _async_values(source: bytes) -> bytes:
    """``async`` used as a value renamed (``asyn_``), outside string literals."""
    if b"async" not in source:
        return source
    out = bytearray(source)
    for match in _ASYNC_VALUE.finditer(source):
        line = source[source.rfind(b"\n", 0, match.start()) + 1 : match.start()]
        if line.count(b'"') % 2 == 0 and b"//" not in line:
            out[match.end() - 1 : match.end()] = b"_"
    return bytes(out) if out != source else source


def _first_branches(source: bytes, errors: list[tuple[int, int]]) -> bytes:
    """Each outermost ``#if … #endif`` an error overlaps down to its first branch."""
    out = bytearray(source)
    changed = False
    for start, end in _groups(source):
        if not any(s < end and start < e for s, e in errors):
            continue
        changed = True
        first: list[bool] = []  # per open ``#if``: still in its first branch
        for line_start, line_end, directive in _lines(source, start, end):
            if directive == b"if":
                first.append(True)
            elif directive in (b"elif", b"else") and first:
                first[-1] = False
            elif directive == b"endif" and first:
                first.pop()
            if directive is not None or not all(first):
                out[line_start:line_end] = b" " * (line_end - line_start)
    return bytes(out) if changed else source


def _groups(source: bytes) -> Iterator[tuple[int, int]]:
    """The byte spans of the outermost ``#if … #endif`` groups."""
    depth, start = 0, 0
    for match in _DIRECTIVE.finditer(source):
        kind = match.group(1)
        if kind == b"if":
            if depth == 0:
                start = match.start()
            depth += 1
        elif kind == b"endif" and depth > 0:
            depth -= 1
            if depth == 0:
                yield start, _line_end(source, match.end())


def _lines(source: bytes, start: int, end: int) -> Iterator[tuple[int, int, bytes | None]]:
    """Each line of ``source[start:end]`` (its span, newline left out) and its directive."""
    at = start
    while at < end:
        stop = _line_end(source, at)
        directive = _DIRECTIVE.match(source, at, stop)
        yield at, stop, directive.group(1) if directive is not None else None
        at = stop + 1


def _line_end(source: bytes, at: int) -> int:
    stop = source.find(b"\n", at)
    return len(source) if stop < 0 else stop


def _error_spans(root: Node) -> list[tuple[int, int]]:
    """The byte spans of the tree's ERROR and missing nodes."""
    spans: list[tuple[int, int]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            spans.append((node.start_byte, max(node.end_byte, node.start_byte + 1)))
        else:
            stack.extend(c for c in node.children if c.has_error or c.is_missing)
    return spans


def _error_bytes(root: Node) -> int:
    return sum(end - start for start, end in _error_spans(root))
