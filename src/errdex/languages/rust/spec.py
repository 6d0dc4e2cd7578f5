"""Rust error sites: panicking macros, ``.expect``, anyhow/eyre, thiserror, ``Err(...)``, logs.

What is a site (``errorType``):

* ``panic``: ``panic!`` ``unreachable!`` ``unimplemented!`` ``todo!`` (also path-qualified,
  ``std::panic!``), ``assert!``/``assert_eq!``/``assert_ne!`` and their ``debug_`` forms
  when they carry a message (``assert!(a == b, "…")`` too), a bare ``assert!(cond)`` /
  ``debug_assert!(cond)`` (it panics with ``assertion failed: cond``, the condition as
  the compiler prints its tokens: rustfmt's spacing), and ``.expect(msg)`` where
  ``msg`` is a literal, ``&format!(…)`` or ``format!(…).as_str()``.
* ``panic`` too: a call statement passing text (``fail("no store configured");``) when the
  callee is a helper of the repository's that panics with it (``compose.py``).
* A message that prints an UPPER_SNAKE string constant (``panic!("{}", error::MSG)``,
  ``"{MSG}"`` in a format string, ``Err(MSG)``, ``.expect(MSG)``, a constructor's
  ``error::MSG``) gets the constant's text when mining ends, wherever in the repository
  it is defined (``constants.py``); a constant passed as it is that no string
  constant defines is no site.
* ``error``: ``bail!`` ``anyhow!`` ``eyre!`` ``format_err!`` ``ensure!(cond, "...")``,
  thiserror ``#[error("...")]`` on an enum variant or a struct, and ``Err`` of a string
  literal, ``format!`` or a literal converted to ``String`` (``.to_string()``, ``.into()``,
  ``.to_owned()``, ``String::from``). ``Err(anyhow!(..))`` is one site: the macro's.
  Also messages attached to a ``Result``/``Option`` by method: anyhow's ``.context(msg)``
  and ``.with_context(|| msg)``, eyre's ``.wrap_err``/``.wrap_err_with``, and
  ``.ok_or(msg)``/``.ok_or_else(|| msg)``/``.map_err(|_| msg)`` when ``msg`` is a string.
  anyhow prints the context as the error's message and the cause after it
  (``{:#}``: ``msg: cause``; ``{:?}``: ``msg`` then ``Caused by:``), so the pattern is
  ``msg``. And error constructors given a message: ``T::new/custom/msg/other/from/
  new_spanned(…, msg)`` when ``T``'s name ends in ``Error`` or the call is ``Err``'s
  payload, and serde's ``T::custom(msg)`` for any ``T`` (``format_args!`` reads like
  ``format!``). ``errorClass`` is the type path as written, or the ``ErrorKind`` given
  to ``io::Error::new(kind, msg)`` (whose Display is just ``msg``).
* ``log``: ``error!`` (``log``, ``tracing``, also path-qualified) and ``eprintln!``. The
  message is the first argument that is a lone string literal — tracing's
  ``field = value``, ``?debug`` and ``%display`` fields and log's ``target: ".."`` come
  before it and are printed apart from it (tracing-subscriber prints ``LEVEL target:
  msg field=value``; env_logger ``[.. ERROR target] msg``), so the pattern is the
  message alone.

What is not a site, and why:

* Messageless ``panic!()`` ``todo!()`` ``unreachable!()`` ``unimplemented!()`` and
  ``assert_eq!(a, b)``: the message is the runtime's fixed text, the same at every such
  site.
* ``std::process::exit(code)``: it prints nothing.
* Log lines, context and constructor messages with no literal text (``error!("{}", e)``):
  their pattern would match any line.
* ``#[error(transparent)]``: it forwards another error's message.
* Code in ``#[cfg(test)]`` items and ``#[test]`` functions: tests, not product errors.
* Anything tree-sitter recovered around (under an ERROR node): its meaning is unsure.
* Sites inside another macro's arguments in a function body (``tokio::select! { .. }``):
  tree-sitter keeps macro arguments as unparsed token trees, and what an expression
  macro does with them is its own. Macros invoked where items go (``cfg_rt! { impl … }``,
  nested up to three deep) are different: their bodies are items, parsed and mined as
  such (their symbols lose the modules around the macro: ``deep``, not ``inner::deep``).
  So are ``macro_rules!`` transcribers (serde's ``declare_error_trait!`` writes the
  ``de::Error`` trait and its ``invalid type: …`` messages): repetitions ``$( … )*`` are
  left out and ``$name`` read as ``name``, which is as near to the expansion as source
  says.

The message ``written`` is the decoded string literal with its placeholders as written;
the runtime text Rust adds around it (``not yet implemented: ``, the ``assert_eq!``
left/right lines, ``.expect``'s ``: <error>``) goes into the template's wrapper, so the
pattern matches what a user actually sees.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from tree_sitter import Node

from errdex.languages._engine import FileIndex, LanguageSpec, Message, constant, language
from errdex.languages.base import (
    Site,
    inside_error,
    line_of,
    text,
)
from errdex.languages.logs import level_of
from errdex.languages.rust import calls as composed
from errdex.languages.rust.compose import COMPOSER
from errdex.languages.rust.constants import CONSTANTS, constant_template, is_bare_reference
from errdex.languages.rust.evidence import EVIDENCE
from errdex.languages.rust.pastes import PASTES
from errdex.languages.rust.snippets import SNIPPETS
from errdex.languages.rust.syntax import (
    COMMENTS,
    attribute_target,
    format_string_template,
    function_symbol,
    group_text,
    in_test_code,
    qualified,
    split_token_tree,
    string_value,
    thiserror_class,
    tree_has_errors,
)
from errdex.records.model import ErrorType
from errdex.templates.template import Hole, Literal, Part, Template, literal_template

_MACRO_DEPTH = 3  # item macros inside item macros (``cfg_net! { cfg_rt! { … } }``)


@dataclass(frozen=True)
class _Macro:
    """How one macro turns its arguments into a message."""

    error_type: ErrorType
    format_index: int  # which comma-separated argument is the format string
    prefix: str = ""  # runtime text printed before the message
    compare: str | None = None  # ``==``/``!=`` for assert_eq!/assert_ne!


_MACROS: dict[str, _Macro] = {
    "panic": _Macro("panic", 0),
    "unreachable": _Macro("panic", 0, "internal error: entered unreachable code: "),
    "todo": _Macro("panic", 0, "not yet implemented: "),
    "unimplemented": _Macro("panic", 0, "not implemented: "),
    "assert": _Macro("panic", 1),
    "debug_assert": _Macro("panic", 1),
    "assert_eq": _Macro("panic", 2, compare="=="),
    "debug_assert_eq": _Macro("panic", 2, compare="=="),
    "assert_ne": _Macro("panic", 2, compare="!="),
    "debug_assert_ne": _Macro("panic", 2, compare="!="),
    "bail": _Macro("error", 0),
    "anyhow": _Macro("error", 0),
    "eyre": _Macro("error", 0),
    "format_err": _Macro("error", 0),
    "ensure": _Macro("error", 1),
    "error": _Macro("log", -1),  # log::error!, tracing::error!: the first lone literal
    # and every other level of log/tracing (``languages.logs``): below warning, scan only
    "warn": _Macro("log", -1), "info": _Macro("log", -1), "debug": _Macro("log", -1),
    "trace": _Macro("log", -1),
    "eprintln": _Macro("log", 0),
}
# Assertions whose message, when they have none, is their condition (``assertion failed:
# cond``): site-specific text. A bare ``panic!()``/``todo!()`` prints the same words
# everywhere and is not a site.
_BARE_ASSERTS = frozenset({"assert", "debug_assert"})

# `.expect` prints `msg: <error Debug>` for a Result and just `msg` for an Option.
_EXPECT_SUFFIX: tuple[Part, ...] = (Hole("error", ": {:?}", optional_lead=": "),)
# Conversions that turn a literal or `format!` into the `Err` payload without changing it.
_CONVERSIONS = ("to_string", "into", "to_owned", "as_str", "as_ref")
_FORMAT_MACROS = ("format", "format_args")
# Methods that attach a message to a Result/Option, and the kind of site they make.
_METHODS: dict[str, ErrorType] = {
    "expect": "panic", "context": "error", "with_context": "error", "wrap_err": "error",
    "wrap_err_with": "error", "ok_or": "error", "ok_or_else": "error", "map_err": "error",
}
# Types whose constructors wrap a message without being an error of their own.
_WRAPPERS = frozenset({"String", "Box", "Cow", "Arc", "Rc", "Some", "Ok", "Vec", "PathBuf"})



def _skip(node: Node) -> bool:
    # ``in_test_code`` first: it learns the node's tree, whose errors (mostly none) it tells
    return in_test_code(node) or (tree_has_errors() and inside_error(node))


def _macro_bodies(root: Node, source: bytes) -> list[tuple[bytes, int]]:
    """The sites inside the item macros ``root`` holds (``cfg_rt! { … }``) are read too:
    tree-sitter keeps their bodies as unparsed tokens, so each body is parsed as the
    items it is (a ``macro_rules!`` transcriber as near as source says), its sites'
    lines shifted to where the body stands in the file."""
    found = []
    for body in _item_macro_bodies(root):
        inner = source[body.start_byte + 1:body.end_byte - 1]
        if body.parent is not None and body.parent.type == "macro_rule":
            inner = _expanded(inner)
        found.append((inner, body.start_point[0]))
    return found


def _item_macro_bodies(root: Node) -> list[Node]:
    """The ``{ … }`` token trees of macros invoked where items go (a file, a module, an
    ``impl`` block), outside test code."""
    bodies = []
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.named_children:
            if child.type in ("mod_item", "impl_item", "trait_item", "declaration_list"):
                stack.append(child)
            elif child.type == "macro_invocation" and not in_test_code(child):
                tree = next((c for c in child.named_children if c.type == "token_tree"), None)
                if tree is not None and text(tree).startswith("{"):
                    bodies.append(tree)
            elif child.type == "macro_definition" and not in_test_code(child):
                rights = [r.child_by_field_name("right") for r in child.named_children
                          if r.type == "macro_rule"]
                bodies.extend(r for r in rights if r is not None and text(r).startswith("{"))
    return bodies


# every byte a space but a line break (text left out keeps its lines)
_BLANKED = bytes(0x0A if b == 0x0A else 0x20 for b in range(256))


def _expanded(body: bytes) -> bytes:
    """A ``macro_rules!`` transcriber as the items it writes, as near as source says:
    repetitions ``$( … )sep*`` left out (they repeat what their arguments give), ``$name``
    and ``$crate`` as plain names. Removed text becomes spaces, so lines stay put."""
    out = bytearray(body)
    index = out.find(b"$")  # from one ``$`` to the next: the bytes between stay as they are
    while index >= 0:
        if out[index:index + 2] == b"$(":
            depth, end = 0, index + 1
            while end < len(out):
                if out[end] == 0x28:  # (
                    depth += 1
                elif out[end] == 0x29:  # )
                    depth -= 1
                if depth == 0:
                    break
                end += 1
            end += 1  # past ")"; then an optional one-token separator and the operator
            operator = next((at for at in range(end, min(end + 3, len(out)))
                             if out[at] in b"*+?"), None)
            if operator is not None:
                end = operator + 1
            stop = min(end, len(out))
            out[index:stop] = out[index:stop].translate(_BLANKED)
            index = end
        else:
            out[index] = ord(" ")
            index += 1
        index = out.find(b"$", index)
    return bytes(out)


# --- handlers, one per query pattern ----------------------------------------------------


def _macro_site(captured: dict[str, list[Node]], _file: FileIndex) -> Site | None:
    macro = _MACROS.get(text(captured["macro.name"][0]))
    if macro is None:
        return None
    node = captured["macro"][0]
    args = split_token_tree(captured["macro.args"][0])
    index = macro.format_index if macro.format_index >= 0 else _first_literal(args)
    template = format_string_template(args, index)
    if template is None and text(captured["macro.name"][0]) in _BARE_ASSERTS and len(args) == 1:
        template = _assertion(args[0])
    if template is None or (macro.error_type == "log" and not _has_text(template)):
        return None
    name = text(captured["macro.name"][0])
    return Site(
        template=_macro_wrapper(template, macro, args),
        error_type=macro.error_type,
        line=line_of(node),
        symbol=function_symbol(node),
        level=level_of(name) if macro.error_type == "log" else None,
    )


def _method_site(captured: dict[str, list[Node]], _file: FileIndex) -> Site | None:
    """``.expect(msg)``, ``.context(msg)``, ``.with_context(|| msg)``, ``.ok_or(msg)`` …"""
    method = captured["method.name"][0]
    error_type = _METHODS[text(method)]
    arguments = [c for c in captured["method.args"][0].named_children if c.type not in COMMENTS]
    if len(arguments) != 1:
        return None
    template = _payload(arguments[0])
    if template is None and error_type != "panic":  # `.ok_or_else(|| not_found(k))`
        return composed.candidate(arguments[0], method, from_err=False)
    if template is None or (error_type != "panic" and not _has_text(template)
                            and not is_bare_reference(template)):
        return None
    if error_type == "panic":
        template = template.with_wrapper(suffix=_EXPECT_SUFFIX)
    node = captured["method"][0]
    return Site(template, error_type, line_of(method), symbol=function_symbol(node))


def _constructor_site(captured: dict[str, list[Node]], _file: FileIndex) -> Site | None:
    """``io::Error::new(kind, msg)``, ``de::Error::custom(msg)``, ``Err(MyError::new(msg))``."""
    node = captured["ctor"][0]
    type_path = text(captured["ctor.type"][0])
    function = text(captured["ctor.name"][0])
    type_name = type_path.rpartition("::")[2]
    in_err = _is_err_payload(node)
    if not (type_name.endswith("Error") or function == "custom" or in_err):
        return None
    if not type_name[:1].isupper() or type_name in _WRAPPERS:
        return None  # a module path (`fs::read(..)`) or a wrapper (`String::from`), no error
    arguments = [c for c in captured["ctor.args"][0].named_children if c.type not in COMMENTS]
    messages = [t for t in map(_payload, arguments) if t is not None]
    # `MyError::new(path)` may be a factory of the repository's (``compose.py``).
    call = composed.call_of(node, composed.owner_of(node)) if function not in (
        "custom", "from") and not (messages and is_bare_reference(messages[0])) else None
    if call is not None and not messages:
        return Site(Template("", ()), "error", line_of(node), type_path,
                    symbol=function_symbol(node), call=call)
    if len(messages) != 1 or not (_has_text(messages[0]) or is_bare_reference(messages[0])):
        return None
    kind = next((text(a) for a in arguments if "ErrorKind::" in text(a)), None)
    if kind is None and function == "other" and type_path.endswith("io::Error"):
        kind = "io::ErrorKind::Other"
    return Site(messages[0], "error", line_of(node), kind or type_path,
                symbol=function_symbol(node), call=call)


def _err_site(captured: dict[str, list[Node]], _file: FileIndex) -> Site | None:
    template = _payload(captured["err.value"][0])
    node = captured["err"][0]
    if template is None:  # `Err(StoreError::NotFound { key })`: composed, or no site
        return composed.candidate(captured["err.value"][0], node, from_err=True)
    return Site(template, "error", line_of(node), symbol=function_symbol(node))


def _thiserror_site(captured: dict[str, list[Node]], _file: FileIndex) -> Site | None:
    node = captured["thiserror"][0]
    target = attribute_target(node)
    if target is None:
        return None
    error_class = thiserror_class(target)
    if error_class is None:
        return None
    args = split_token_tree(captured["thiserror.args"][0])
    template = format_string_template(args, 0)
    if template is None:  # `#[error(transparent)]`, `#[error(fmt = ..)]`
        return None
    type_name = error_class.partition("::")[0]
    return Site(
        template=_fields_by_index(template),
        error_type="error",
        line=line_of(node),
        error_class=error_class,
        symbol=qualified(node, [type_name]),
    )




# --- messages -------------------------------------------------------------------------


def _macro_wrapper(template: Template, macro: _Macro, args: list[list[Node]]) -> Template:
    """The template with the text Rust's panic machinery prints around the message."""
    if macro.compare is None:
        return template.with_wrapper(prefix=(Literal(macro.prefix),) if macro.prefix else ())
    left, right = (group_text(args[0]), group_text(args[1]))
    return template.with_wrapper(
        prefix=(Literal(f"assertion `left {macro.compare} right` failed: "),),
        suffix=(
            Literal("\n  left: "),
            Hole.of(left, "{:?}"),
            Literal("\n right: "),
            Hole.of(right, "{:?}"),
        ),
    )


def _assertion(condition: list[Node]) -> Template:
    """``assert!(cond)`` without a message panics with ``assertion failed: cond``, the
    condition as the compiler prints its tokens (the source's, whitespace collapsed)."""
    return literal_template("assertion failed: " + " ".join(group_text(condition).split()))


def _fields_by_index(template: Template) -> Template:
    """thiserror's ``{0}`` names tuple field 0, not the first extra argument."""
    message = tuple(
        dataclasses.replace(part, name=_explicit_index(part.spec) or part.name)
        if isinstance(part, Hole)
        else part
        for part in template.message
    )
    return Template(template.written, message, template.prefix, template.suffix)


def _explicit_index(spec: str) -> str | None:
    argument = spec[1:-1].partition(":")[0].strip()
    return argument if argument.isdigit() else None


def _payload(value: Node) -> Template | None:
    """The message a value carries: a string, ``format!``/``format_args!``, a conversion of
    one (``.to_string()``, ``&``, ``.as_str()``), or a closure returning one; else None."""
    value = _strip_conversion(value)
    if value.type == "reference_expression":
        inner = value.child_by_field_name("value")
        return _payload(inner) if inner is not None else None
    if value.type == "closure_expression":
        body = value.child_by_field_name("body")
        return _payload(body) if body is not None else None
    if value.type == "block":
        last = [c for c in value.named_children if c.type not in COMMENTS]
        return _payload(last[-1]) if len(last) == 1 else None
    if value.type == "macro_invocation":
        name = value.child_by_field_name("macro")
        if name is not None and name.type == "scoped_identifier":
            name = name.child_by_field_name("name")
        tree = next((c for c in value.named_children if c.type == "token_tree"), None)
        if text(name) not in _FORMAT_MACROS or tree is None:
            return None  # anyhow!/eyre! are sites of their own
        return format_string_template(split_token_tree(tree), 0)
    message = string_value(value)
    if message is not None:
        return literal_template(message)
    if value.type in ("identifier", "scoped_identifier"):
        return constant_template(text(value))  # resolved across files when mining ends
    return None


def _is_err_payload(node: Node) -> bool:
    """Whether ``node`` is the argument of ``Err(…)``."""
    arguments = node.parent
    call = arguments.parent if arguments is not None else None
    return (
        call is not None and call.type == "call_expression"
        and text(call.child_by_field_name("function")) == "Err"
    )


def _first_literal(args: list[list[Node]]) -> int:
    """Index of the first argument that is a lone string literal (a log macro's message)."""
    for index, group in enumerate(args):
        if len(group) == 1 and string_value(group[0]) is not None:
            return index
    return len(args)


def _has_text(template: Template) -> bool:
    return any(isinstance(p, Literal) and p.text.strip() for p in template.message)


def _strip_conversion(value: Node) -> Node:
    """``"m".to_string()``, ``"m".into()``, ``String::from("m")`` → the ``"m"`` node."""
    while value.type == "call_expression":
        function = value.child_by_field_name("function")
        arguments = value.child_by_field_name("arguments")
        if function is None or arguments is None:
            break
        inner = [c for c in arguments.named_children if c.type not in COMMENTS]
        if function.type == "field_expression" and not inner:
            field = function.child_by_field_name("field")
            receiver = function.child_by_field_name("value")
            if text(field) not in _CONVERSIONS or receiver is None:
                break
            value = receiver
        elif text(function) == "String::from" and len(inner) == 1:
            value = inner[0]
        else:
            break
    return value


# Every form above spells one of these (tests too: ``assert``, ``should_panic``).
_TRIGGERS = (
    b"panic", b"unreachable!", b"unimplemented!", b"todo!", b"assert", b"expect", b"bail!",
    b"anyhow!", b"eyre!", b"ensure!", b"#[error", b"Err(", b"format_err!", b"context",
    b"error!", b"eprintln!", b"wrap_err", b"ok_or", b"map_err", b"Error", b"custom",
    b"warn!", b"info!", b"debug!", b"trace!",
)
def _string(node: Node) -> Message | None:
    """A string literal's text (for the file's text sites); None for byte and C strings."""
    value = string_value(node)
    return None if value is None else constant(value)


SPEC: LanguageSpec[FileIndex] = LanguageSpec(
    strings={"string_literal": _string, "raw_string_literal": _string},
    name="rust", grammar="rust", extensions=(".rs",),
    query=Path(__file__).with_name("queries.scm"),
    handlers=(
        ("macro", _macro_site), ("method", _method_site), ("ctor", _constructor_site),
        ("err", _err_site), ("thiserror", _thiserror_site),
        ("helper", lambda caps, _: composed.helper_call(caps["helper"][0])),
    ),
    new_index=FileIndex, triggers=_TRIGGERS, skip=_skip,
    nested=_macro_bodies, nested_depth=_MACRO_DEPTH,
    function_types=frozenset({"function_item"}),
    scope_types=frozenset({"function_item", "closure_expression", "source_file"}),
    evidence=EVIDENCE, snippets=SNIPPETS, constants=CONSTANTS,
    pastes=PASTES, compose=COMPOSER,
)
LANGUAGE = language(SPEC)
extract = LANGUAGE.extract  # all sites of one file, in source order
