"""What the C and C++ modules share: string literals, printf-style calls, function symbols.

C headers (``.h``) are parsed with the C++ grammar, so every C site is also found in
C++ files; both grammars name these nodes alike (``call_expression``, ``string_literal``,
``concatenated_string``, ``function_definition``).

Printf-style calls (``CALLS`` below) and what the C library prints around them:

* ``fprintf(stderr, fmt, ...)``, ``fputs(s, stderr)``, ``dprintf(2, fmt, ...)``:
  the formatted text, a trailing newline dropped → ``log``.
* ``perror(s)``: ``s: <strerror(errno)>`` → suffix ``: (.+?)``, ``log``.
* BSD ``err``/``errx`` (``<err.h>``): ``prog: msg: <strerror>`` / ``prog: msg`` and exit
  → a prefix hole for the program name, ``exit``, severity ``fatal``; ``warn``/``warnx``
  print the same without exiting → ``warning``.
* GNU ``error(status, errnum, fmt, ...)``: ``prog: msg`` plus ``: <strerror>`` when
  ``errnum`` is not a literal 0; it exits unless ``status`` is a literal 0.
* Helpers in the style of git's ``usage.c`` whose first argument is a printf format:
  ``die``/``fatal`` (exit → ``exit``, ``fatal``), ``die_errno`` (``: <strerror>``),
  ``error``/``error_errno`` (``log``), ``warning`` (``warning``), ``panic`` (``panic``,
  ``fatal``). Their own prefix (git prints ``fatal: ``) is the project's: the site carries
  the call, composed with the repository's definition when it has one (``compose``), the
  message itself otherwise.
* ``syslog(LOG_ERR..LOG_EMERG, fmt, ...)`` → ``log``.

glibc's ``%m`` prints ``strerror(errno)``: it becomes a hole. ``PRIu64``-style macros in a
concatenated format stand for their conversion; any other macro in a concatenation is a
hole named after it (written as ``{NAME}``). gettext's ``_("…")``, ``N_``, ``Q_`` and Qt's
``tr`` are read through: the untranslated text is the one in the repository. A message
whose literal text has no letter (``"%s: %s\\n"``) says nothing about itself: no site.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tree_sitter import Node

from errdex.languages._engine.pieces import has_words
from errdex.languages._engine.strings import C_ESCAPES, Escapes
from errdex.languages._engine.strings import unescape as decode
from errdex.languages.base import Site, ancestors, line_of, text
from errdex.languages.c.defines import defined
from errdex.languages.facts import Call
from errdex.languages.logs import level_of
from errdex.records.model import ErrorType, Severity
from errdex.templates.formats import parse_printf
from errdex.templates.template import Hole, Literal, Part, Template, merge_literals

_SENTINEL = 0xE000  # private-use characters stand for macros inside a format text
_PRI = re.compile(r"PRI([diouxX])(?:8|16|32|64|MAX|PTR|LEAST\d+|FAST\d+)")
_ESCAPES = Escapes(
    {**C_ESCAPES, "a": "\a", "b": "\b", "f": "\f", "v": "\v", "?": "?", "e": "\x1b"},
    braced=False, unknown="body", long_hex=True, long_unicode=True, octal=True,
)
STRING_TYPES = ("string_literal", "concatenated_string", "raw_string_literal")


@dataclass(frozen=True)
class CString:
    """A string literal: as written, and as a format text where macros are sentinels."""

    written: str
    text: str
    macros: tuple[str, ...] = ()

    def parts(self, parsed: Sequence[Part] | None = None) -> tuple[Part, ...]:
        """The literal (or its parsed format parts) with each macro sentinel as a hole."""
        return split_sentinels(parsed if parsed is not None else (Literal(self.text),),
                               self.macros)

    def without_newline(self) -> CString:
        """Printed lines lose their trailing newline."""
        return CString(self.written.rstrip("\r\n"), self.text.rstrip("\r\n"), self.macros)


def split_sentinels(parts: Sequence[Part], macros: Sequence[str]) -> tuple[Part, ...]:
    """Literals with sentinel characters → literals and holes named after the macros."""
    if not macros:
        return merge_literals(list(parts))
    out: list[Part] = []
    for part in parts:
        if not isinstance(part, Literal):
            out.append(part)
            continue
        chunk: list[str] = []
        for ch in part.text:
            index = ord(ch) - _SENTINEL
            if 0 <= index < len(macros):
                out += [Literal("".join(chunk)), Hole.of(macros[index], macros[index])]
                chunk = []
            else:
                chunk.append(ch)
        out.append(Literal("".join(chunk)))
    return merge_literals(out)


# --- string literals ------------------------------------------------------------------


def c_string(node: Node | None) -> CString | None:
    """The value of a (possibly concatenated, raw or prefixed) string literal."""
    if node is None:
        return None
    if node.type == "raw_string_literal":
        content = next((c for c in node.named_children if c.type == "raw_string_content"), None)
        value = text(content)
        return CString(value, value)
    if node.type == "string_literal":
        glued = _glued(node)
        # ``"size %" PRIu64)`` in C++: the macro after the string is its tail
        return _joined([node, *glued]) if glued else _piece(node)
    if node.type == "identifier":  # a string macro of the file (``defines.py``)
        macro = defined(node, unescape)
        return CString(macro, macro) if macro is not None else None
    if node.type != "concatenated_string":
        return None
    return _concatenated(node)


_GETTEXT = {"_": 0, "N_": 0, "gettext": 0, "Q_": 0, "ngettext": 0, "dgettext": 1, "tr": 0}


def message_string(node: Node | None) -> CString | None:
    """A string literal, also inside gettext's ``_("…")``, ``N_``, ``Q_``/``ngettext``
    (the singular form), ``dgettext(domain, "…")`` or Qt's ``tr("…")``: the untranslated
    text is what the repository says."""
    if node is not None and node.type == "call_expression":
        function = text(node.child_by_field_name("function"))
        args = arguments(node.child_by_field_name("arguments"))
        index = _GETTEXT.get(function.rsplit("::", 1)[-1])
        return c_string(args[index]) if index is not None and len(args) > index else None
    return c_string(node)


def _glued(node: Node) -> list[Node]:
    """The macros C++'s grammar left beside a string it could not join them to: in
    ``"size %" PRIu64 " of %s"`` (a ``concatenated_string``) each ``PRIu64`` is an
    ``ERROR`` around an identifier; after the last string (``"size %" PRIu64)``) that
    ``ERROR`` is the string's next sibling, no comma between (C's grammar reads both)."""
    if node.parent is not None and node.parent.type == "concatenated_string":
        return []  # the concatenation reads its own
    out: list[Node] = []
    sibling = node.next_sibling
    while sibling is not None and _macro_error(sibling):
        out.extend(sibling.named_children)
        sibling = sibling.next_sibling
    return out


def _macro_error(node: Node) -> bool:
    """An ``ERROR`` holding only identifiers (macros the grammar could not place)."""
    return node.type == "ERROR" and node.named_child_count > 0 and all(
        c.type == "identifier" for c in node.named_children)


def _concatenated(node: Node) -> CString | None:
    children = [piece for child in node.named_children if child.type != "comment"
                for piece in (child.named_children if _macro_error(child) else [child])]
    return _joined([*children, *_glued(node)])


def _piece(node: Node) -> CString | None:
    """One string of a concatenation, read alone."""
    if node.type != "string_literal":
        return c_string(node)
    value = "".join(
        text(c) if c.type == "string_content" else unescape(text(c))
        for c in node.named_children if c.type in ("string_content", "escape_sequence")
    )
    return CString(value, value)


def _joined(children: list[Node]) -> CString | None:
    written: list[str] = []
    fmt: list[str] = []
    macros: list[str] = []
    for child in children:
        piece = _piece(child) if child.type in STRING_TYPES else None
        if piece is not None:
            written.append(piece.written)
            fmt.append(piece.text)
            continue
        if child.type != "identifier":
            return None
        name = text(child)
        written.append("{" + name + "}")
        pri = _PRI.fullmatch(name)
        if pri:
            fmt.append("ll" + pri.group(1))
        else:
            fmt.append(chr(_SENTINEL + len(macros)))
            macros.append(name)
    return CString("".join(written), "".join(fmt), tuple(macros))


def unescape(sequence: str) -> str:
    """One C escape sequence's character(s); a backslash-newline continues the line."""
    return decode(sequence, _ESCAPES) or ""


# --- printf-style calls -----------------------------------------------------------------


def printf_parts(fmt: CString, args: Sequence[str]) -> tuple[Part, ...]:
    """A C format with its arguments: typed holes, ``%m`` and macros as holes."""
    marked, macros = _mark_strerror(fmt)
    marked, macros, args = _mark_objects(marked, macros, args)
    return split_sentinels(parse_printf(marked, args, dialect="c"), macros)


_SPEC = re.compile(r"%%|%[-+ #0-9.hlLqjzt]*[a-zA-Z]")


def _mark_objects(marked: str, macros: tuple[str, ...], args: Sequence[str]
                  ) -> tuple[str, tuple[str, ...], Sequence[str]]:
    """Python's ``PyUnicode_FromFormat`` (``PyErr_Format``): ``%R``, ``%U``, ``%V`` print an
    object (no C conversion is written so) → a hole named after its argument, which the
    other conversions then do not take."""
    if "%" not in marked or not any(c in marked for c in "RUV"):
        return marked, macros, args
    out: list[str] = []
    named, rest = list(macros), list(args)
    at, taken = 0, 0
    for index, found in enumerate(m for m in _SPEC.finditer(marked) if m.group() != "%%"):
        if found.group()[-1] not in "RUV":
            continue
        out.append(marked[at:found.start()] + chr(_SENTINEL + len(named)))
        position = index - taken
        named.append(rest.pop(position) if position < len(rest) else "object")
        taken += 1
        at = found.end()
    return "".join(out) + marked[at:], tuple(named), rest


def _mark_strerror(fmt: CString) -> tuple[str, tuple[str, ...]]:
    """glibc's ``%m`` (not ``%%m``) → a sentinel for a ``strerror(errno)`` hole."""
    out: list[str] = []
    macros = list(fmt.macros)
    i = 0
    while i < len(fmt.text):
        pair = fmt.text[i : i + 2]
        if pair == "%%":
            out.append(pair)
            i += 2
        elif pair == "%m":
            out.append(chr(_SENTINEL + len(macros)))
            macros.append("strerror(errno)")
            i += 2
        else:
            out.append(fmt.text[i])
            i += 1
    return "".join(out), tuple(macros)


@dataclass(frozen=True)
class _Call:
    """How one printf-style function prints: where its format is, what wraps it."""

    error_type: ErrorType
    severity: Severity = "error"
    format_index: int = 0
    program: bool = False  # ``prog: `` before the message
    strerror: bool = False  # ``: <strerror>`` after it


CALLS: dict[str, _Call] = {
    "fprintf": _Call("log", format_index=1),
    "fputs": _Call("log"),
    "dprintf": _Call("log", format_index=1),
    "perror": _Call("log", strerror=True),
    "err": _Call("exit", "fatal", 1, program=True, strerror=True),
    "errx": _Call("exit", "fatal", 1, program=True),
    "warn": _Call("warning", "warning", program=True, strerror=True),
    "warnx": _Call("warning", "warning", program=True),
    "die": _Call("exit", "fatal"),
    "fatal": _Call("exit", "fatal"),
    "die_errno": _Call("exit", "fatal", strerror=True),
    "error": _Call("log"),
    "error_errno": _Call("log", strerror=True),
    "warning": _Call("warning", "warning"),
    "panic": _Call("panic", "fatal"),
    "syslog": _Call("log", format_index=1),
}
_STDERR = ("stderr", "2", "STDERR_FILENO")
_OWN = frozenset({"die", "fatal", "error", "warning", "panic"})  # a project's, not libc's
_PROGRAM: tuple[Part, ...] = (Hole.of("program", "prog"), Literal(": "))
_STRERROR: tuple[Part, ...] = (Literal(": "), Hole.of("strerror(errno)", "%m"))


def call_site(
    name: str, call: Node, args: list[Node], symbol: Callable[[Node], str | None],
    owner: str | None = None,
) -> Site | None:
    """The site of a printf-style C library or helper call; None when it prints no message."""
    name = name.removeprefix("::").removeprefix("std::")
    spec = CALLS.get(name)
    if spec is None:
        return None
    if name == "error" and len(args) >= 3 and message_string(args[0]) is None:
        spec = _gnu_error(args)
    if not _right_stream(name, args):
        return None
    if len(args) <= spec.format_index:
        return None
    fmt = message_string(args[spec.format_index])
    if fmt is None:
        return _constant_site(name, spec, call, args[spec.format_index], symbol, owner)
    rest = [text(a) for a in args[spec.format_index + 1 :]]
    fmt = fmt.without_newline()
    message = fmt.parts() if name in ("fputs", "perror") else printf_parts(fmt, rest)
    if not has_words(message):
        printed = args[spec.format_index + 1] if fmt.text == "%s" and rest else None
        return _constant_site(name, spec, call, printed, symbol, owner)
    bare = Template(fmt.written, message)
    template = bare.with_wrapper(
        _PROGRAM if spec.program else (), _STRERROR if spec.strerror else ()
    )
    # The project's own ``die``/``error`` may prefix it (``fatal: ``): composed when the
    # repository defines it (``c.compose``), the message itself otherwise.
    composed = (Call(name, ((bare,),), owner=owner, method=True)
                if name in _OWN and spec.format_index == 0 else None)
    level = level_of(text(args[0]).split("|")[0].strip()) if name == "syslog" else None
    return Site(template, spec.error_type, line_of(call), severity=spec.severity,
                symbol=symbol(call), call=composed, level=level)


_CONSTANT = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")


def _constant_site(name: str, spec: _Call, call: Node, printed: Node | None,
                   symbol: Callable[[Node], str | None], owner: str | None) -> Site | None:
    """``die(ERR_NOMEM)``, ``fprintf(stderr, "%s\\n", ERR_BUSY)``: a candidate printing a
    string constant (``#define ERR_NOMEM "out of memory"``), through the project's own
    reporter when it defines one; composition spells the constant out, or drops the site."""
    if printed is None or printed.type != "identifier" or not _CONSTANT.fullmatch(text(printed)):
        return None
    constant = text(printed)
    if name in _OWN and spec.format_index == 0:
        shown = Template("{" + constant + "}", (Hole.of(constant, "{" + constant + "}"),))
        made = Call(name, ((shown,),), owner=owner, method=True, makes_error=True)
    else:
        made = Call(constant, owner=owner, method=True)
    return Site(Template("", ()), spec.error_type, line_of(call), severity=spec.severity,
                symbol=symbol(call), call=made)


def _gnu_error(args: list[Node]) -> _Call:
    """GNU ``error(status, errnum, fmt, ...)``: exits unless status is 0."""
    exits = text(args[0]) != "0"
    return _Call("exit" if exits else "log", "fatal" if exits else "error", 2, program=True,
                 strerror=text(args[1]) != "0")


def _right_stream(name: str, args: list[Node]) -> bool:
    """``fprintf``/``fputs``/``dprintf`` count only on stderr; ``syslog`` only at error level."""
    if name == "fprintf" or name == "dprintf":
        return bool(args) and text(args[0]).removeprefix("std::") in _STDERR
    if name == "fputs":
        return len(args) == 2 and text(args[1]).removeprefix("std::") in _STDERR
    if name == "syslog":  # at every level (``LOG_INFO`` too): ``languages.logs``
        return bool(args) and level_of(text(args[0]).split("|")[0].strip()) is not None
    return True


def arguments(args: Node | None) -> list[Node]:
    """The argument expressions of an ``argument_list`` (comments dropped, and the macros
    C++'s grammar left after a string, which are the string's: ``_glued``)."""
    if args is None:
        return []
    return [c for c in args.named_children if c.type != "comment" and not (
        _macro_error(c) and c.prev_sibling is not None and (
            c.prev_sibling.type in STRING_TYPES or _macro_error(c.prev_sibling)))]


# --- symbols ----------------------------------------------------------------------------


def function_declarator(definition: Node) -> Node | None:
    """The ``function_declarator`` of a definition, below the pointer and reference
    declarators of what it returns (``char *name(int n)``): its name and parameters."""
    declarator = definition.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    return declarator


def parameter_list(definition: Node) -> Node | None:
    """A function definition's ``parameter_list``."""
    declarator = function_declarator(definition)
    return declarator.child_by_field_name("parameters") if declarator is not None else None


def function_name(definition: Node) -> str | None:
    """The declared name of a ``function_definition``: ``open``, ``Store::open``, ``~Store``."""
    declarator = function_declarator(definition)
    if declarator is None:
        return None
    name = declarator.child_by_field_name("declarator")
    return text(name) or None


def unsure(node: Node) -> bool:
    """Whether tree-sitter recovered around a node within its own function (an ``ERROR``
    between it and its definition), or outside any function. A header whose macros the
    grammar cannot read (``NLOHMANN_JSON_NAMESPACE_BEGIN``, ``IMGUI_API``) puts every
    definition under one ``ERROR``: the definitions themselves parsed, and their statements
    are read rather than the whole file dropped."""
    for above in ancestors(node):
        if above.type == "ERROR":
            return True
        if above.type == "function_definition":
            return False
    return False


def c_symbol(node: Node) -> str | None:
    """The C function around a node."""
    definition = next((a for a in ancestors(node) if a.type == "function_definition"), None)
    return function_name(definition) if definition is not None else None
