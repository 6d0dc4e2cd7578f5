"""Test expectations: the repository's tests that say which error a call produces.

Read with tree-sitter from the repository's test files (``repo.skip_reason`` marks
them "test code"), one walk per file, by the language's test reader
(``EvidenceRules.tests``: Python's ``pytest.raises``, Rust's ``#[should_panic]``,
Jest's ``toThrow``, JUnit's ``assertThrows``, Go's ``err.Error() == "…"``, …).

Each becomes an ``Expectation``; ``link.py`` matches them against records.
"""

from __future__ import annotations

from dataclasses import dataclass

from errdex.evidence.rules import rules_for
from errdex.languages.base import parse
from errdex.records.evidence import TestLink


@dataclass(frozen=True)
class Expectation:
    """One test's claim: this call fails with this class / message."""

    link: TestLink

    @property
    def expected(self) -> str | None:
        return self.link.expected


def expectations(
    path: str, language: str, grammar: str, data: bytes, *, inline: bool = False
) -> list[Expectation]:
    """Every expectation found in one test file; with ``inline``, a product file's own test
    code (Rust ``#[cfg(test)]`` modules), whose other asserts are not expectations."""
    tests = rules_for(language).tests
    if tests is None or not any(m in data for m in tests.markers):
        return []
    if inline and (tests.inline_items is None
                   or not any(m in data for m in tests.inline_markers)):
        return []
    root = parse(grammar, data).root_node
    if inline and tests.inline_items is not None:
        return [Expectation(link) for item in tests.inline_items(root)
                for link in tests.read(path, item)]
    return [Expectation(link) for link in tests.read(path, root)]
