"""Counting work instead of timing it: lines of errdex code a call executes.

A count does not depend on the machine or its load, so a test can assert how
work grows with the input (linear, not quadratic) without a clock. Work done
inside C (a regex, ``str.find``) counts as the one line that called it; inputs
that could make such a call slow are covered by hypothesis deadlines instead.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any
from unittest import mock

import errdex
from errdex.lookup import index as index_module
from errdex.lookup import similarity as similarity_module
from errdex.templates.template import CompiledPattern

_PACKAGE = str(Path(errdex.__file__).resolve().parent)


def python_steps(function: Callable[..., Any], *args: Any) -> int:
    """How many lines of errdex's own code ``function(*args)`` executes."""
    count = 0

    def local(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def calls(frame: FrameType, event: str, arg: object) -> Any:
        if event == "call" and frame.f_code.co_filename.startswith(_PACKAGE):
            return local
        return None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        function(*args)
    finally:
        sys.settrace(previous)
    return count


def grows_linearly(work: Callable[[int], int], size: int, *, factor: int = 4) -> tuple[int, int]:
    """(work at ``size``, work at ``factor`` × ``size``); linear work grows about ``factor``-fold.

    Callers assert ``large <= (factor + 1) * small + slack``: quadratic work would grow
    ``factor``² times.
    """
    return work(size), work(factor * size)


def within_deadline(seconds: float) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Hypothesis settings for a test run once per case under a generous per-case deadline.

    Used for inputs whose cost sits inside C calls (regexes) that ``python_steps``
    cannot see: a super-linear regex on a megabyte takes hours, far past the deadline.
    """
    from datetime import timedelta

    from hypothesis import HealthCheck, settings

    return settings(max_examples=1, deadline=timedelta(seconds=seconds), database=None,
                    suppress_health_check=list(HealthCheck))


@dataclass
class LookupWork:
    """What lookups did while ``counting_lookup_work`` was open."""

    verified: int = 0  # candidate patterns checked against a message
    re2_runs: int = 0  # patterns run on RE2
    re2_bytes: int = 0  # text RE2 was given, in bytes
    python_regexes: list[str] = field(default_factory=list)  # patterns Python's re compiled
    scored: list[tuple[int, int]] = field(default_factory=list)  # lengths given to the scorer


@contextmanager
def counting_lookup_work() -> Iterator[LookupWork]:
    """Count verifications, RE2 runs, similarity scores and Python regex compilations."""
    work = LookupWork()
    verify, fullmatch = index_module.verify, CompiledPattern.fullmatch
    compile_python = re._compile  # type: ignore[attr-defined]
    indel = similarity_module.Indel

    def counted_verify(pattern: str, message: str, *args: Any) -> Any:
        work.verified += 1
        return verify(pattern, message, *args)

    def counted_fullmatch(self: CompiledPattern, text: str | bytes) -> Any:
        work.re2_runs += 1
        work.re2_bytes += len(text if isinstance(text, bytes) else text.encode("utf-8", "replace"))
        return fullmatch(self, text)

    def counted_compile(pattern: Any, flags: Any) -> Any:
        if isinstance(pattern, str):
            work.python_regexes.append(pattern)
        return compile_python(pattern, flags)

    class CountedIndel:
        @staticmethod
        def normalized_similarity(a: str, b: str, **kwargs: Any) -> float:
            work.scored.append((len(a), len(b)))
            return float(indel.normalized_similarity(a, b, **kwargs))

    with mock.patch.object(index_module, "verify", counted_verify), \
            mock.patch.object(CompiledPattern, "fullmatch", counted_fullmatch), \
            mock.patch.object(re, "_compile", counted_compile), \
            mock.patch.object(similarity_module, "Indel", CountedIndel):
        yield work


def case_ids(cases: list[tuple[str, object, int]]) -> list[str]:
    """The names of ``(name, make, full size)`` cases, as pytest ids."""
    return [name for name, _, _ in cases]


def assert_linear(function: Callable[[str], Any], make: Callable[[int], str], size: int,
                  *, slack: int = 0) -> None:
    """4x the input must cost at most about 5x the work (quadratic would be 16x)."""
    small, large = (python_steps(function, make(n)) for n in (size, 4 * size))
    assert large <= 5 * small + slack, (small, large)
