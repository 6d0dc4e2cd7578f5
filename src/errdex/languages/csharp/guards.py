"""C# argument guards of the base library (.NET 7 and later) that throw for the caller:

    ArgumentException.ThrowIfNullOrEmpty(name);
    ArgumentOutOfRangeException.ThrowIfNegative(count);
    ArgumentOutOfRangeException.ThrowIfGreaterThan(count, max);
    ObjectDisposedException.ThrowIf(disposed, this);

The message is the runtime's own (its resource texts), the parameter named after the
expression passed (``CallerArgumentExpression``): ``count ('-1') must be a non-negative
value. (Parameter 'count')`` then ``Actual value was -1.`` on a line of its own.
``ThrowIfNullOrEmpty`` throws ``ArgumentNullException`` for null and ``ArgumentException``
for an empty string: a record for each.
"""

from __future__ import annotations

from tree_sitter import Node

from errdex.languages.base import Site, line_of, text
from errdex.languages.csharp.messages import NEWLINE, hole
from errdex.templates.template import Literal, Part, Template, merge_literals

# ArgumentOutOfRangeException.<method> → what the value must be (``{0} ('{1}') must …``);
# a ``'{2}'`` in it is the second argument.
_RANGES = {
    "ThrowIfNegative": "must be a non-negative value.",
    "ThrowIfNegativeOrZero": "must be a non-negative and non-zero value.",
    "ThrowIfZero": "must be a non-zero value.",
    "ThrowIfGreaterThan": "must be less than or equal to '{2}'.",
    "ThrowIfGreaterThanOrEqual": "must be less than '{2}'.",
    "ThrowIfLessThan": "must be greater than or equal to '{2}'.",
    "ThrowIfLessThanOrEqual": "must be greater than '{2}'.",
    "ThrowIfEqual": "must not be equal to '{2}'.",
    "ThrowIfNotEqual": "must be equal to '{2}'.",
}
_EMPTY = {
    "ThrowIfNullOrEmpty": "The value cannot be an empty string.",
    "ThrowIfNullOrWhiteSpace": (
        "The value cannot be an empty string or composed entirely of whitespace."),
}
NULL_MESSAGE = "Value cannot be null."
DISPOSED_MESSAGE = "Cannot access a disposed object."
GUARDS = frozenset({*_RANGES, *_EMPTY, "ThrowIfNull", "ThrowIf"})


def guard_sites(node: Node, receiver: str, method: str, args: list[Node],
                symbol: str | None) -> list[Site]:
    """The records a guard call makes (module docstring); none for anything else."""
    short = receiver.rsplit(".", 1)[-1]
    if not args:
        return []
    name = text(args[0])
    param = (Literal(f" (Parameter '{name}')"),)
    line = line_of(node)
    null = Site(_plain(NULL_MESSAGE, param), "exception", line, "ArgumentNullException",
                symbol=symbol)
    if short == "ArgumentNullException" and method == "ThrowIfNull":
        return [null]
    if short == "ArgumentException" and method in _EMPTY:
        return [null, Site(_plain(_EMPTY[method], param), "exception", line,
                           "ArgumentException", symbol=symbol)]
    if short == "ArgumentOutOfRangeException" and method in _RANGES:
        return [_range(name, _RANGES[method], args, line, symbol)]
    if short == "ObjectDisposedException" and method == "ThrowIf" and len(args) == 2:
        shown = hole(args[1])  # ``this``: the instance's full type name
        suffix = (NEWLINE, Literal("Object name: '"), shown, Literal("'."))
        return [Site(_plain(DISPOSED_MESSAGE, suffix), "exception", line,
                     "ObjectDisposedException", symbol=symbol)]
    return []


def _plain(message: str, suffix: tuple[Part, ...]) -> Template:
    return Template(message, (Literal(message),)).with_wrapper(suffix=suffix)


def _range(name: str, rule: str, args: list[Node], line: int, symbol: str | None) -> Site:
    """``count ('-1') must be …`` then `` (Parameter 'count')`` and ``Actual value was -1.``"""
    value = hole(args[0])
    head, marker, tail = rule.partition("{2}")
    parts: list[Part] = [Literal(f"{name} ('"), value, Literal("') " + head)]
    if marker:
        parts += [hole(args[1]) if len(args) > 1 else Literal(marker), Literal(tail)]
    suffix = (Literal(f" (Parameter '{name}')"), NEWLINE, Literal("Actual value was "), value,
              Literal("."))
    written = f"{name} ('{{{value.name}}}') " + rule.replace("{2}", "{" + (
        text(args[1]) if len(args) > 1 else "2") + "}")
    template = Template(written, merge_literals(parts)).with_wrapper(suffix=suffix)
    return Site(template, "exception", line, "ArgumentOutOfRangeException", symbol=symbol)
