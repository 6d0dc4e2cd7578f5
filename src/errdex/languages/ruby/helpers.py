"""Ruby factories and helpers: methods whose result, or what they raise or log, is an error
message built from their parameters.

* a factory: its value, or a ``return``, is ``X.new(…)`` (``new(…)`` in a class method is
  its own class): ``def self.not_found(key) NotFound.new("no such #{key}") end``;
* a helper: it raises (``def fail!(msg) raise ConfigError, "config: #{msg}" end``), the
  ``raise`` a statement of its own or under one guard, or it logs (``warn "[DEPRECATION]
  #{what}"``, ``logger.error``, ``$stderr.puts``);
* a message builder: it returns text (``def undefined_message(name) "no task #{name}"
  end``); raising its value raises a ``RuntimeError``.
"""

from __future__ import annotations

from tree_sitter import Node

from errdex.languages._engine import FileIndex
from errdex.languages._engine.calls import names_a_logger
from errdex.languages.base import ancestors, line_of, text
from errdex.languages.facts import FORMAT, Call, Producer, Result, has_text, parameter
from errdex.languages.ruby.calls import (
    CLASS_NODES,
    Read,
    argument,
    call_of,
    last,
    owner_name,
    raise_call,
    split_arguments,
    values,
)
from errdex.templates.template import Template

# Words in the name of a method without parameters that returns a message.
_MESSAGE_WORDS = ("message", "msg", "text", "descr", "reason", "error", "warning", "hint")


def parameters(method: Node, read: Read) -> tuple[tuple[str, ...], dict[str, Template]]:
    """Parameter names (splats and blocks left out) and the defaults that are text."""
    names: list[str] = []
    defaults: dict[str, Template] = {}
    params = method.child_by_field_name("parameters")
    for param in params.named_children if params is not None else ():
        if param.type == "identifier":
            names.append(text(param))
        elif param.type in ("optional_parameter", "keyword_parameter"):
            name = text(param.child_by_field_name("name"))
            names.append(name)
            value = read(param.child_by_field_name("value"), FileIndex())
            if value is not None and has_text(Template(value.written, value.parts)):
                defaults[name] = Template(value.written, value.parts)
    return tuple(names), defaults


def function(node: Node, path: str, file: FileIndex, read: Read, inner: list[Node]
             ) -> Producer | None:
    """A factory (its value or a ``return`` is ``X.new(…)``), a helper (it raises), or a
    message builder (it returns text: ``def not_found_message(key) "no such #{key}" end``).
    ``inner`` are the method's own ``return``s and raise or log calls, in source order."""
    params, defaults = parameters(node, read)
    owner = owner_name(node)
    calls: list[Call] = []
    role = "factory"
    returns = [n for n in inner if n.type == "return"]
    inner_calls = [n for n in inner if n.type == "call"]
    for value in values(node, returns):
        made = _constructed(value, node, owner, file, read)
        if made is not None:
            calls.append(made)
    formatted: list[Result] = []
    raised_class: str | None = None
    for raised in inner_calls:
        if text(raised.child_by_field_name("method")) in ("raise", "fail") and (
                raised.child_by_field_name("receiver") is None) and _guarded(raised, node):
            fmt = formatted_raise(raised, params, file, read)
            if fmt is not None:
                formatted.append(fmt[0])
                raised_class = raised_class or fmt[1]
                role = "helper"
                continue
            made = raise_call(raised, file, read)
            if made is not None:
                calls.append(made)
                role = "helper"
    if formatted and not calls:  # ``raise X, message % [a, b]``: the callers' formats
        return Producer(text(node.child_by_field_name("name")), params, tuple(formatted[:16]),
                        role, path, line_of(node), owner=owner,
                        defaults=tuple(defaults.items()), error_class=raised_class)
    results: list[Result] = [  # a method is no producer
        Call(c.callee, c.args, c.keywords, c.owner, path) for c in calls
        if last(c.callee)[:1].isupper() and (_uses(c, set(params)) or (
            role == "factory" and _error_named(c.callee)))]
    if not results and not calls:
        logged = _logged(node, params, file, read, inner_calls)
        results = list(logged or _texts(node, params, file, read, returns))
        role = "helper" if logged else role
    if not results:
        return None
    # ``raise message_for(key)`` raises the text: a RuntimeError (``raise X, …`` keeps X).
    texts = role != "helper" and any(isinstance(r, Template) for r in results)
    return Producer(text(node.child_by_field_name("name")), params, tuple(results[:16]), role,
                    path, line_of(node), owner=owner, defaults=tuple(defaults.items()),
                    error_class="RuntimeError" if texts else None)


def _logged(node: Node, params: tuple[str, ...], file: FileIndex, read: Read,
            inner_calls: list[Node]) -> list[Template]:
    """What a log helper prints of its parameters: ``warn "[DEPRECATION] #{what}"``,
    ``logger.error("sync: #{msg}")``, ``$stderr.puts …`` (``def deprecate(what)``)."""
    out: list[Template] = []
    for call in inner_calls:
        method = text(call.child_by_field_name("method"))
        receiver = call.child_by_field_name("receiver")
        name = text(receiver) if receiver is not None else ""
        if not (method == "warn" and name in ("", "Kernel")) and not (
                method in ("error", "fatal", "warn") and names_a_logger(name.rsplit(".", 1)[-1])
        ) and not (method == "puts" and name in ("$stderr", "STDERR")):
            continue
        positional, _ = split_arguments(call.child_by_field_name("arguments"))
        if not positional or not _guarded(call, node):
            continue
        out.extend(t for t in argument(positional[0], file, read)
                   if has_text(t) and any(h.name in params for h in t.holes))
    return out


def _guarded(raised: Node, method: Node) -> bool:
    """Whether a ``raise`` is what the method is for: a statement of its own or under one
    guard (``raise X, "…" unless ok``), not deep in a rescue, loop or block of a method that
    raises on the way (``open_rest``'s JSON error)."""
    guards = 0
    for ancestor in ancestors(raised):
        if ancestor == method:
            return guards <= 1
        if ancestor.type in ("rescue", "ensure", "begin", "block", "do_block", "while",
                             "until", "for", "lambda", "case"):
            return False
        guards += ancestor.type in ("if", "unless", "elsif", "conditional")
    return False


def _texts(node: Node, params: tuple[str, ...], file: FileIndex, read: Read,
           returns: list[Node]) -> list[Template]:
    """The messages a method returns: text, built from its parameters when it has some, or
    named as a message when it has none (``default_message``, not any ``name``)."""
    name = text(node.child_by_field_name("name")).lower()
    if not params and not any(w in name for w in _MESSAGE_WORDS):
        return []
    out: list[Template] = []
    for value in values(node, returns):
        if value.type not in ("string", "chained_string", "binary", "call", "conditional",
                              "if", "case", "identifier"):
            continue
        for template in argument(value, file, read):
            if has_text(template) and (not params or any(h.name in params
                                                         for h in template.holes)):
                out.append(template)
    return out


def _constructed(value: Node, method: Node, owner: str | None, file: FileIndex, read: Read
                 ) -> Call | None:
    """``X.new(…)`` (``new(…)`` in a class method: its class)."""
    if value.type != "call" or text(value.child_by_field_name("method")) != "new":
        return None
    receiver = value.child_by_field_name("receiver")
    if receiver is None and method.type == "singleton_method" and owner is not None:
        callee = owner
    elif receiver is not None and receiver.type in CLASS_NODES:
        callee = text(receiver)
    else:
        return None
    return call_of(callee, value.child_by_field_name("arguments"), file, value, read)


def formatted_raise(raised: Node, params: tuple[str, ...], file: FileIndex, read: Read
                    ) -> tuple[Call, str | None] | None:
    """``raise X, message % [name, value]`` (or ``X.new(message % …)``, ``format(message,
    …)``) where ``message`` is a parameter: the text each caller passes, formatted with
    those values (a ``FORMAT`` call composition applies once the text is known), and the
    class raised."""
    positional, _ = split_arguments(raised.child_by_field_name("arguments"))
    if len(positional) == 2 and positional[0].type in CLASS_NODES:
        error_class: str | None = text(positional[0])
        message = positional[1]
    elif len(positional) == 1 and positional[0].type == "call" and text(
            positional[0].child_by_field_name("method")) == "new":
        receiver = positional[0].child_by_field_name("receiver")
        given, _ = split_arguments(positional[0].child_by_field_name("arguments"))
        if receiver is None or receiver.type not in CLASS_NODES or len(given) != 1:
            return None
        error_class, message = text(receiver), given[0]
    else:
        return None
    found = _format_of(message)
    if found is None or text(found[0]) not in params:
        return None
    fmt, values = found
    args = tuple(argument(v, file, read) for v in values)
    return Call(FORMAT, ((parameter(text(fmt)),), *args), owner=owner_name(raised),
                method=True), error_class


def _format_of(node: Node) -> tuple[Node, list[Node]] | None:
    """``fmt % [a, b]`` / ``fmt % a`` / ``format(fmt, a, b)``: the format and its values."""
    if node.type == "binary" and text(node.child_by_field_name("operator")) == "%":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or left.type != "identifier" or right.type == "hash":
            return None
        items = [c for c in right.named_children if c.type != "comment"] if (
            right.type == "array") else [right]
        return left, items
    if node.type == "call" and node.child_by_field_name("receiver") is None and text(
            node.child_by_field_name("method")) in ("format", "sprintf"):
        given, keywords = split_arguments(node.child_by_field_name("arguments"))
        if given and given[0].type == "identifier" and not keywords:
            return given[0], given[1:]
    return None


def _error_named(callee: str) -> bool:
    """``UnknownKeysError``: a factory returning one makes an error whatever it passes
    (``def unexpected_keys(keys) UnknownKeysError.new(keys - known) end``)."""
    return last(callee).endswith(("Error", "Exception"))


def _uses(call: Call, params: set[str]) -> bool:
    """Whether a call's arguments print one of the parameters."""
    arguments_ = [*call.args, *(a for _, a in call.keywords)]
    return any(h.name in params for a in arguments_ for t in a for h in t.holes)
