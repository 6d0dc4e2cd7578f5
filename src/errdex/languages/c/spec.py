"""C sites: messages printed to stderr by the C library and by project error helpers.

Every site is a call by name; ``family`` says which calls count and what the C library
prints around their message (``perror``'s ``: <strerror>``, ``err``'s ``prog: `` prefix).
``abort()`` is no site: its text is the runtime's own. A failed ``assert`` prints its
condition as written, and the string it may hold (``asserts``): a ``panic`` site. An
``fprintf(stderr, …)`` followed by ``exit(1)`` stays a ``log`` site: the statements are
not tied together, and the message is what matters for lookup.

A project's own reporters decorate what they are given (git's ``die`` prints ``fatal: ``,
a parser's ``yyerror`` its line): a ``die``/``error``/``warning`` site carries its call, and
a call passing text to any other function (``yyerror("syntax error")``) is a candidate;
composition across the repository (``compose``, ``calls``) gives them the reporter's text
when the repository defines it, the candidates nothing otherwise.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import Captures, FileIndex, LanguageSpec, language
from errdex.languages._engine.evidence import EvidenceRules
from errdex.languages._engine.message import Message
from errdex.languages.base import FileSites, Site, text
from errdex.languages.c.asserts import assert_sites
from errdex.languages.c.calls import file_scope, helper_site, rewritten
from errdex.languages.c.compose import producers
from errdex.languages.c.conditionals import unconditioned
from errdex.languages.c.family import arguments, c_string, c_symbol, call_site, unsure
from errdex.languages.c.glib import glib_sites
from errdex.languages.c.log_choices import choice_call, with_choices
from errdex.languages.c.log_sites import leveled_sites, parenthesized_sites, pointer_sites
from errdex.languages.c.logs import log_wrappers
from errdex.languages.c.snippets import C_SNIPPETS
from errdex.languages.c.xmacros import xmacro_site
from errdex.languages.facts import Composer, Producer


def _call_site(captured: Captures, file: FileIndex) -> Site | None:
    """A printf-style C library or project helper call (``c.family.CALLS``)."""
    call = captured["call"][0]
    return call_site(text(captured["call.name"][0]), call, arguments(captured["call.args"][0]),
                     c_symbol, file_scope(file, call))


def _helper_site(captured: Captures, file: FileIndex) -> Site | list[Site] | None:
    """A call passing text to a function that may be one of the repository's reporters;
    one naming a level before its format (``logs.leveled_sites``): a log site per level."""
    call, text_node = captured["helper"][0], captured["helper.text"][0]
    args = arguments(call.child_by_field_name("arguments"))
    name = text(captured["helper.name"][0])
    symbol, owner = c_symbol(call), file_scope(file, call)
    return (leveled_sites(name, call, args, text_node, symbol, owner)
            or pointer_sites(name, call, args, text_node, symbol, owner)
            or choice_call(name, call, args, text_node, symbol, owner)
            or with_choices(helper_site(captured, file, c_symbol), args, text_node))


def _log_macro_site(captured: Captures, file: FileIndex) -> list[Site] | None:
    """``LOG_ERROR(("fmt", …))``: a logging macro given its format in parentheses."""
    call = captured["logmacro"][0]
    return parenthesized_sites(text(captured["logmacro.name"][0]), call,
                               captured["logmacro.inner"][0], c_symbol(call))


def _assert_site(captured: Captures, file: FileIndex) -> list[Site] | None:
    """``assert(cond && "message")``, ``assert(cond)`` (``asserts``)."""
    return assert_sites(captured, c_symbol)


def _glib_site(captured: Captures, file: FileIndex) -> list[Site] | None:
    """``g_return_if_fail(cond)``, ``g_assert(cond)`` (``glib``)."""
    return glib_sites(captured, c_symbol)


_REPORTERS = producers("c")


def _producers(root: Node, source: bytes, path: str) -> list[Producer]:
    """The file's reporters (``compose``) and logging functions with their level (``logs``)."""
    found = _REPORTERS.producers(root, source, path)
    logging = log_wrappers(root, path)
    leveled = {p.name for p in logging if p.level}
    # a reporter that is one of the file's logging functions or macros is that one, with its
    # level and format (``fatal_r(r, ...)`` also reads as a macro returning ``ssh_err(r)``;
    # two producers of one name in one file would tie: composition reach neither)
    return [p for p in found if p.name not in leveled] + logging


def _string(node: Node) -> Message | None:
    """A string literal's text, its macros as holes (for the file's text sites)."""
    found = c_string(node)
    return None if found is None else Message(found.written, found.parts(), found.text)


SPEC = LanguageSpec(
    strings={"string_literal": _string, "concatenated_string": _string},
    name="c", grammar="c", extensions=(".c",), query=Path(__file__).with_name("queries.scm"),
    handlers=(("call", _call_site), ("helper", _helper_site), ("logmacro", _log_macro_site),
              ("assert", _assert_site), ("glib", _glib_site), ("xmacro", xmacro_site)),
    new_index=FileIndex, skip=unsure,
    function_types=frozenset({"function_definition"}),
    evidence=EvidenceRules(frozenset({"function_definition"})), snippets=C_SNIPPETS,
    compose=Composer(producers=_producers, triggers=(*_REPORTERS.triggers, b"va_list")),
)
_ENGINE = language(SPEC)


def _extract(source: bytes) -> FileSites:
    """The engine's sites, read with conditional directives inside an expression blanked
    (``conditionals``: same lines, same bytes)."""
    return _ENGINE.extract(rewritten(unconditioned(source), source))


LANGUAGE = replace(_ENGINE, extract=_extract)
extract = LANGUAGE.extract
