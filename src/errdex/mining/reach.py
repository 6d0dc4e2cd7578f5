"""Which producers a call can reach at all, from how its callee is written: ``self.x()``
its own class's methods, ``Owner.x()`` a class, a function or ``Owner``'s method, a bare
``x()`` a class, a function or a method of its class (``errdex.mining.producers`` picks
among those that fit)."""

from __future__ import annotations

from errdex.languages.facts import Call, Producer


def super_method(callee: str) -> str | None:
    """``super()._format_error`` / ``super.describe`` → the base's method it calls."""
    for lead in ("super().", "super.", "super()->"):
        if callee.startswith(lead):
            name = callee[len(lead):]
            return name if name.isidentifier() else None
    return None


SELF = frozenset({"self", "this", "cls", "$this", "static", "Self"})


def through_self(call: Call) -> bool:
    """``self.x()``, ``this.x()``, ``$this->x()``: a method of the caller's own class."""
    return call.callee.split(".", 1)[0].split("->", 1)[0] in SELF


def inherits(call: Call) -> bool:
    """A call through ``self``/``this``: it may reach a method of a base class."""
    return call.owner is not None and through_self(call)


def on_an_object(call: Call) -> bool:
    """``self._src.parse_error(…)``, ``parser.fail(…)``: a method of some object whose class
    the facts do not know (its receiver names no class, and is not ``self`` itself)."""
    head, dot, _ = call.callee.replace("->", ".").replace("::", ".").rpartition(".")
    if not dot or head in SELF or call.constructs:
        return False
    receiver = head.rsplit(".", 1)[-1]
    return receiver[:1].islower() or receiver[:1] == "_"


def fits(producer: Producer, call: Call) -> bool:
    """Whether a call can reach a producer at all: ``self.x()`` only its own class's
    methods, ``Owner.x()`` / ``module.x()`` a class, a function or ``Owner``'s method, a
    bare ``x()`` a class, a function or a method of the class it is written in."""
    method = producer.owner is not None and not producer.is_class
    if through_self(call):
        return producer.owner == call.owner
    qualifier = call.qualifier()
    if qualifier is not None:
        return not method or producer.owner == qualifier
    return not method or producer.owner == call.owner
