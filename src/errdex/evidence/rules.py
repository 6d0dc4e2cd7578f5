"""Which ``EvidenceRules`` a language has: its spec's, else the entry below.

The entries here are for languages whose folder does not yet declare its rules on its
spec; each moves to ``languages/<lang>/`` (as Python's, Rust's, JavaScript's, Go's, Java's
and Kotlin's have),
and this table empties.
"""

from __future__ import annotations

from errdex.languages import spec_for
from errdex.languages._engine.evidence import EvidenceRules


def rules_for(language: str) -> EvidenceRules:
    """The evidence rules of a language (empty ones for a language errdex does not know)."""
    spec = spec_for(language)
    if spec is not None and spec.evidence.functions:
        return spec.evidence
    return _NOT_IN_SPECS.get(language, EvidenceRules())


_NOT_IN_SPECS: dict[str, EvidenceRules] = {
    "csharp": EvidenceRules(frozenset({"method_declaration", "constructor_declaration",
                                       "local_function_statement"})),
    "ruby": EvidenceRules(frozenset({"method", "singleton_method"})),
    "php": EvidenceRules(frozenset({"function_definition", "method_declaration"})),
    "swift": EvidenceRules(frozenset({"function_declaration", "init_declaration"})),
    "c": EvidenceRules(frozenset({"function_definition"})),
    "cpp": EvidenceRules(frozenset({"function_definition"})),
}
