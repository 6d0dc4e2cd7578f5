"""Which ``EvidenceRules`` a language has: the ones its spec declares
(``languages/<lang>/``); none for a language errdex does not know."""

from __future__ import annotations

from errdex.languages import spec_for
from errdex.languages._engine.evidence import EvidenceRules


def rules_for(language: str) -> EvidenceRules:
    """The evidence rules of a language (empty ones for a language errdex does not know)."""
    spec = spec_for(language)
    if spec is not None and spec.evidence.functions:
        return spec.evidence
    return EvidenceRules()
