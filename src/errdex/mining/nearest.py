"""Which of several namesake producers a call reaches: one of the caller's language
family, an overload by the number of arguments passed (and their types where known), the
one nearest the caller's file."""

from __future__ import annotations

from functools import lru_cache

from errdex.languages import language_for_path
from errdex.languages.facts import Argument, Call, Producer, Result, best_typed

# Languages whose code calls each other's (C and C++ through headers, JavaScript and
# TypeScript, Java and Kotlin); any other language is a family of its own.
_FAMILY = {"cpp": "c", "typescript": "javascript", "tsx": "javascript", "kotlin": "java"}


def same_family(producer: Producer, call: Call) -> bool:
    """Whether a call can reach a producer of that file's language at all: C's ``die(…)``
    never runs a Python script's ``def die(msg)`` (a call or producer of no known file:
    any)."""
    mine, theirs = _family(call.path), _family(producer.path)
    return mine is None or theirs is None or mine == theirs


@lru_cache(maxsize=4096)
def _family(path: str) -> str | None:
    language = language_for_path(path) if path else None
    return None if language is None else _FAMILY.get(language.name, language.name)


def overload(found: list[Producer], call: Call) -> Producer | None:
    """Among overloads (one file, one owner: a class's constructors, a method's signatures,
    as C# and Java declare them), the one taking as many arguments as the call passes, else
    the fewest that take them all (the rest defaulted), else the longest (a variadic
    tail); of those taking as many, the ones the arguments are named after, then the ones
    whose parameter types the arguments' declared types are; None when they are no
    overloads or two fit as well."""
    if len({(p.path, p.owner) for p in found}) != 1:
        return None
    given = len(call.args) + len(call.keywords)
    fitting = [p for p in found if len(p.params) >= given]
    size = min(len(p.params) for p in fitting) if fitting else max(
        len(p.params) for p in found)
    best = [p for p in found if len(p.params) == size]
    if len(best) > 1:  # as many parameters each: those the arguments are named after
        best = _named_alike(best, call)
    if len(best) > 1:  # or whose parameters' types the arguments' are
        typed = best_typed([p.param_types for p in best], call.types)
        best = [p for i, p in enumerate(best) if typed is None or i in typed]
    return best[0] if len(best) == 1 else None


def typed_choice(producer: Producer, call: Call) -> set[int] | None:
    """The results (by position) of overloads merged into one producer (``(IJobDetail
    job)`` and ``(ITrigger trigger)``, each with its message) that the call's argument types
    reach; None when the types decide nothing (or the producer merges none)."""
    if not producer.result_types or len(producer.result_types) != len(producer.results):
        return None
    return best_typed(producer.result_types, call.types)


def typed_results(producer: Producer, call: Call) -> tuple[Result, ...]:
    """The results ``call`` runs: ``new X(trigger)`` only its constructor's; every result
    when the types decide nothing."""
    typed = typed_choice(producer, call)
    if typed is None:
        return producer.results
    return tuple(r for i, r in enumerate(producer.results) if i in typed)


def _named_alike(found: list[Producer], call: Call) -> list[Producer]:
    """Of overloads taking as many parameters, those whose parameters the call's arguments
    share the most names with (``Create(reader, message, null)`` reaches ``Create(Reader
    reader, string message, Exception ex)``, not ``Create(string path, …)``)."""
    names = [_name_of(argument) for argument in call.args]

    def shared(producer: Producer) -> int:
        return sum(1 for name, param in zip(names, producer.params, strict=False)
                   if name is not None and name == param)

    scores = [shared(p) for p in found]
    return [p for p, score in zip(found, scores, strict=True) if score == max(scores)]


def _name_of(argument: Argument) -> str | None:
    """The variable an argument passes (a template that is one hole), else None."""
    if len(argument) != 1 or len(argument[0].message) != 1:
        return None
    return getattr(argument[0].message[0], "name", None)


def nearest(found: list[Producer], path: str) -> Producer | None:
    """The one producer whose file is nearest the caller's (same file, then the most
    folders shared): a namesake in another package is another class (imports say which)."""
    shared = [_shared_depth(p.path, path) for p in found]
    best = max(shared)
    return found[shared.index(best)] if shared.count(best) == 1 else None


def _shared_depth(a: str, b: str) -> int:
    if a == b:
        return 1 << 16  # the same file beats any folder
    depth = 0
    for x, y in zip(a.split("/")[:-1], b.split("/")[:-1], strict=False):
        if x != y:
            break
        depth += 1
    return depth
