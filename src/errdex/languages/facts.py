"""Facts for composing messages across a repository: producers and the calls that use them.

Most libraries do not write a message at the statement that raises it. The text lives in
an exception class (``class NotFound(StoreError): def __init__(self, key):
super().__init__(f"no such item: {key}")``), in a factory (``raise self._bad_option(…)``)
or in a helper that decorates what it is given. A file alone cannot say what such a site
prints, so each language reads two kinds of facts per file, and mining composes them once
every file is read (``errdex.mining.compose``):

* a ``Producer``: a class or function whose result prints a template of its parameters
  (holes named after them), or passes them on to another producer (a ``Call``: the
  constructor's ``super(…)``, the factory's ``return Error(…)``);
* a ``Call``: what a site (or a producer) hands to a producer, each argument read as the
  templates it can print (a lone hole named after the expression when source does not say).

The languages differ in how they declare classes and build strings, not in how
composition works: only the reading of these facts is per language (``Composer``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from tree_sitter import Node

from errdex.templates.template import Hole, Literal, Part, Template, merge_literals

# What a producer is to the message, as the record's ``templateSources`` names it.
Role = str  # "class message" | "class decoration" | "factory" | "helper" | "message" |
# "constant" | "table" | "field" (what ``self.<name>`` holds once constructed) |
# "attribute" (a class attribute: what ``self.<name>`` is when no field says)

# One argument: the templates it can print (alternatives), in source order.
Argument = tuple[Template, ...]


@dataclass(frozen=True)
class Call:
    """A call to a producer: its name as written, its arguments' templates, where it is.

    ``owner`` is the class the call is written in (``self._bad_option`` and ``super`` are
    looked up there), ``path`` the file. ``method``: the language says it calls a function
    or method, never a class, whatever its case (C#'s ``Errors.Create(…)``, Go's
    ``NewError(…)``): reaching no producer, it prints nothing known (not its first argument).
    """

    callee: str
    args: tuple[Argument, ...] = ()
    keywords: tuple[tuple[str, Argument], ...] = ()
    owner: str | None = None
    path: str = ""
    method: bool = False
    # The language knows the call makes an error that prints its first argument when no
    # producer says otherwise, whatever the callee's case (Python's
    # ``raise self._undefined_exception(msg)``: an attribute holding an error class).
    makes_error: bool = False
    # Arguments that are calls to producers themselves (``raise ValidationError(
    # self._format_error(value))``): each hole of that name prints what the call composes.
    nested: tuple[tuple[str, Call], ...] = ()
    # Each argument's declared type where the caller's code says it (a string literal, a
    # parameter or local declared with its type), else None; empty when the language
    # reads none. Overloads taking as many parameters are told apart by it.
    types: tuple[str | None, ...] = ()

    @property
    def constructs(self) -> bool:
        """``new X(…)``: the class ``X`` is made, never a function or helper named after it."""
        return self.callee.startswith("new ")

    def named(self) -> str:
        """The callee's last name: ``self._bad_option`` → ``_bad_option``; ``new X<T>`` → ``X``."""
        name = self.callee.removeprefix("new ").split("<", 1)[0].split("(", 1)[0]
        for separator in ("::", "->", "\\"):
            name = name.replace(separator, ".")
        return name.rsplit(".", 1)[-1].strip()

    def qualifier(self) -> str | None:
        """``ParseError::create`` → ``ParseError``; ``self.x`` / a bare name → None."""
        name = self.callee.removeprefix("new ").split("<", 1)[0]
        for separator in ("::", "->", "\\"):
            name = name.replace(separator, ".")
        head, dot, _ = name.rpartition(".")
        if not dot or head in ("self", "this", "cls", "super", "Self", "static", "$this"):
            return None
        return head.rsplit(".", 1)[-1]


# What a producer's result prints: a template of its parameters, or what another gives.
Result = Template | Call

# Templates one site, or one composed text, may spell out (branches, joins, overloads):
# past it the rest are cut and counted, so no form multiplies records without bound.
MAX_ALTERNATIVES = 16

# The callee of a text formatted at run time (``self.error.format(input=value)``): the
# first argument is the text (known once composition spells it out), the rest what the
# language's ``Composer.format`` fills in.
FORMAT = "<format>"

# A language's run-time formatting: the template with the holes its text spells filled.
Formatter = Callable[[Template, tuple[Argument, ...], tuple[tuple[str, Argument], ...]],
                     list[Template]]


@dataclass(frozen=True)
class Producer:
    """A class or function whose result's message is known from source, given its arguments.

    ``results`` are the alternatives (branches); holes named after ``params`` are filled
    with what a call passes. A class with no results of its own takes its first base's
    (``bases``); a class none of whose bases is a producer prints its first argument.
    ``error_class`` is the class a factory's result is (the record's ``errorClass``).
    """

    name: str
    params: tuple[str, ...]
    results: tuple[Result, ...]
    role: Role
    path: str
    line: int
    owner: str | None = None
    bases: tuple[str, ...] = ()
    is_class: bool = False
    error_class: str | None = None
    defaults: tuple[tuple[str, Template], ...] = ()
    # What a class sets besides its message (``code = "E_AUTH"``, ``status_code = 404``):
    # the record's ``errorCode`` and ``httpStatus`` at every site that raises it.
    error_code: str | None = None
    http_status: int | None = None
    # The parameter a class keeps as its code (``self.code = code``): a site's text for it.
    error_code_from: str | None = None
    # A logging function's level (``errdex.languages.logs``): what its callers' records are
    # (a severity at warning and above; below, scan-only log statements).
    level: str | None = None
    # The parameters' declared types (None where not written), and for a class whose
    # constructors taking as many parameters are merged, each result's constructor's: a
    # call whose arguments' types are known reaches only the overloads they fit.
    param_types: tuple[str | None, ...] = ()
    result_types: tuple[tuple[str | None, ...], ...] = ()


@dataclass(frozen=True)
class Composer:
    """A language's reading of composition facts.

    ``producers(root, source, path)`` reads a parsed file's producers; ``triggers`` are
    byte strings one of which a file defining a producer holds (empty: every file);
    ``format`` applies a ``FORMAT`` call once its text is known.
    """

    producers: Callable[[Node, bytes, str], list[Producer]]
    triggers: tuple[bytes, ...] = ()
    format: Formatter | None = None

    def may_define(self, source: bytes) -> bool:
        return not self.triggers or any(t in source for t in self.triggers)


def type_fit(params: tuple[str | None, ...], given: tuple[str | None, ...]) -> int | None:
    """How well a call's argument types fit an overload's parameter types: two for each
    that is the same type, one for each named as its kind (``IOperableTrigger`` for
    ``ITrigger``, ``IOException`` for ``Exception``: the type hierarchy is not read), None
    when one is another type (unknown on either side, or a parameter taking any
    ``object``, fits without counting)."""
    fit = 0
    for param, arg in zip(params, given, strict=False):
        if param is None or arg is None or param == "object":
            continue
        if param == arg:
            fit += 2
        elif arg.endswith(_kind(param)):
            fit += 1
        else:
            return None
    return fit


def _kind(type_name: str) -> str:
    """``ITrigger`` → ``Trigger``: an interface's name without its ``I``."""
    return type_name[1:] if len(type_name) > 2 and type_name[0] == "I" and (
        type_name[1].isupper()) else type_name


def best_typed(choices: Sequence[tuple[str | None, ...]], given: tuple[str | None, ...]
               ) -> set[int] | None:
    """The positions of the choices a call's argument types fit best; None when the types
    decide nothing (none known, or none of the choices fits: then every one stays)."""
    if not any(given):
        return None
    fits = [type_fit(c, given) for c in choices]
    best = max((f for f in fits if f is not None), default=None)
    if not best:
        return None
    return {i for i, f in enumerate(fits) if f == best}


def unknown(expression: str) -> Template:
    """An argument source does not spell: one hole named after the expression."""
    spec = "{" + expression + "}"
    return Template(spec, (Hole.of(expression, spec),))


def substitute(template: Template, bindings: dict[str, Template]) -> Template:
    """``template`` with each hole named after a parameter replaced by its argument's parts
    (the wrapper the runtime prints around the message kept)."""
    parts: list[Part] = []
    written: list[str] = []
    for part in template.message:
        if isinstance(part, Hole) and part.name and (keyed := _KEYED.fullmatch(part.name)):
            key = bindings.get(keyed.group(2))
            if key is not None and not key.holes:  # the table entry the caller names
                part = replace(part, name=f"{keyed.group(1)}[{key.written!r}]")
        bound = bindings.get(part.name) if isinstance(part, Hole) and part.name else None
        if bound is not None and isinstance(part, Hole) and _quotes(part) and not bound.holes:
            bound = None  # repr of a literal (``{key!r}``, ``{:?}``): quoted, kept a hole
        if bound is not None and isinstance(part, Hole) and len(bound.parts) == 1 and isinstance(
                bound.parts[0], Hole) and part.name:  # a parameter for a field: renamed
            name = bound.parts[0].name or part.name
            lead = part.optional_lead if part.optional_lead and part.spec.startswith(
                part.optional_lead) else ""  # the words before it are no name of it
            spec = lead + _renamed(part.spec[len(lead):], part.name, name)
            parts.append(replace(part, name=name, spec=spec))
            written.append(spec)
        elif bound is None:
            parts.append(part)
            written.append(part.text if isinstance(part, Literal) else part.spec)
        elif isinstance(part, Hole) and _python_repr(part) and any(
                isinstance(p, Literal) for p in bound.parts):
            # ``{context!r}`` given a text with holes: its repr, quotes around it
            parts.extend((Literal("'"), *bound.parts, Literal("'")))
            written.append(f"'{bound.written}'")
        else:
            given = part.optional_lead if isinstance(part, Hole) else None
            says = any(not isinstance(p, Literal) or p.text for p in bound.parts)
            before = given if given and says else ""  # only before a value that says something
            parts.extend((Literal(before), *bound.parts) if before else bound.parts)
            written.append(before + bound.written)
    return Template("".join(written), merge_literals(parts), template.prefix, template.suffix)


def bind(result: Result, bindings: dict[str, Template]) -> Result:
    """A result with its parameter holes filled: the template's, or the call's arguments'."""
    if isinstance(result, Template):
        return substitute(result, bindings)
    return bind_call(result, bindings)


def bind_call(call: Call, bindings: dict[str, Template]) -> Call:
    """A call with its arguments' parameter holes filled, and its nested calls' (a nested
    call hands on the same parameters: ``Describe(info, path, message)``)."""
    return replace(  # every other field of the call (owner, method, …) kept as it is
        call,
        args=tuple(tuple(substitute(t, bindings) for t in arg) for arg in call.args),
        keywords=tuple((k, tuple(substitute(t, bindings) for t in arg))
                       for k, arg in call.keywords),
        nested=tuple((name, bind_call(inner, bindings)) for name, inner in call.nested),
    )


def parameter(name: str) -> Template:
    """A hole that prints a parameter: what a field set from it (``self.key = key``) prints."""
    return unknown(name)


def _renamed(spec: str, old: str, new: str) -> str:
    """A placeholder's name replaced: once, as a whole name (``{Err.Error()}`` keeps its
    ``Error``; a printf conversion such as ``%s`` names nothing, whatever ``old`` is)."""
    if spec.startswith("%") and "(" not in spec:
        return spec
    # a search of the text, not a pattern per name: a repository's names are too many
    # for ``re``'s cache, and compiling them cost more than the rest of binding
    at = spec.find(old)
    while at >= 0:
        end = at + len(old)
        if not (at and _word(spec[at - 1], ".")) and not (end < len(spec) and _word(spec[end])):
            return spec[:at] + new + spec[end:]
        at = spec.find(old, at + 1)
    return spec


def _word(char: str, also: str = "") -> bool:
    """Whether ``char`` is one ``re``'s ``\\w`` matches (or one of ``also``)."""
    return char.isalnum() or char == "_" or char in also


# ``self.error_messages[key]``: a message looked up in a table of the class by a parameter;
# once the key is known, ``self.error_messages['invalid']`` (``table_key`` reads it). A
# table of the module (``MESSAGES[code]``, ``errorMessages[code]``) is named bare.
_KEYED = re.compile(
    r"((?:(?:self|this|cls)\.)?[A-Za-z_][A-Za-z0-9_]*)\[([A-Za-z_][A-Za-z0-9_]*)\]")
_TABLE_KEY = re.compile(
    r"((?:self|this|cls)\.)?[A-Za-z_][A-Za-z0-9_]*\[(['\"])([^'\"]{1,100})\2\]")


def table_key(hole: Hole) -> str | None:
    """The key of the message table a hole prints (``self.error_messages['invalid']``)."""
    found = _TABLE_KEY.fullmatch(hole.name or "")
    return found.group(3) if found else None


def module_table(hole: Hole) -> bool:
    """Whether the table a keyed hole prints is the module's (``MESSAGES['locked']``), not
    one of the class ``self`` is."""
    found = _TABLE_KEY.fullmatch(hole.name or "")
    return found is not None and found.group(1) is None


def _python_repr(hole: Hole) -> bool:
    """``{x!r}`` / ``%r``: Python's repr, which quotes a text in single quotes."""
    return "!r" in hole.spec or hole.spec == "%r"


def _quotes(hole: Hole) -> bool:
    """Whether a hole prints its value's repr (quotes and escapes added)."""
    return "!r" in hole.spec or "?}" in hole.spec or hole.spec == "%r"


# A constant's name: UPPER_SNAKE (or one upper word of four letters or more), or the
# ``kCamelCase`` of C++ style guides, after any qualifier (``errors.MSG_NOT_FOUND``,
# ``Messages::NOT_FOUND``, ``msg::kNoFile``).
_CONSTANT = re.compile(
    r"(?:[A-Za-z_$][A-Za-z0-9_]*(?:\.|::|->))*([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]|[A-Z]{4,}[0-9]*"
    r"|k[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)")


def constant_name(hole: Hole) -> str | None:
    """The constant a hole prints as it is (``{MSG}``, ``errors.MSG_NOT_FOUND``), if any."""
    if not hole.name or _quotes(hole) or len(hole.name) > 200:
        return None
    found = _CONSTANT.fullmatch(hole.name)
    return found.group(1) if found else None


def constant_names(template: Template) -> list[str]:
    return [n for h in template.holes if (n := constant_name(h)) is not None]


def referenced_names(template: Template) -> list[str]:
    """The constants and message methods a template's holes print (composition spells
    them out once the repository is read)."""
    names = constant_names(template)
    names += [r[0] for h in template.holes if (r := message_reference(h)) is not None]
    return names


def with_constants(template: Template, texts: dict[str, str]) -> Template | None:
    """The template with each hole that prints a known constant replaced by its text;
    None when none is known."""
    bindings = {h.name: Template(texts[n], (Literal(texts[n]),)) for h in template.holes
                if h.name and (n := constant_name(h)) is not None and n in texts}
    return substitute(template, bindings) if bindings else None


# ``self.message``, ``self._message()``, ``this.describe()``, ``message()``: a hole printing
# what a method (or property) of the caller's class, or a function, returns.
_REFERENCE = re.compile(
    r"(?:(?:self|this|cls|\$this)(?:\.|->))?([A-Za-z_][A-Za-z0-9_]*)(\(\))?")


def message_reference(hole: Hole) -> tuple[str, bool] | None:
    """``(name, through self)`` of the message method a hole prints, if it names one:
    ``self.x`` / ``this.x()`` / ``x()`` (a bare ``x`` is a variable, not a call)."""
    if not hole.name or _quotes(hole) or len(hole.name) > 200:
        return None
    found = _REFERENCE.fullmatch(hole.name)
    if found is None:
        return None
    through_self = "." in hole.name or "->" in hole.name
    if not through_self and not found.group(2):
        return None
    return found.group(1), through_self


def has_text(template: Template) -> bool:
    """Whether a template says something: some literal with a letter or digit in it."""
    return any(isinstance(p, Literal) and any(c.isalnum() for c in p.text)
               for p in template.parts)

