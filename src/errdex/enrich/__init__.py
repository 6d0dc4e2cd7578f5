"""The enrichment stage: explanation fields from evidence.

``static`` (the default for ``errdex mine``) writes them deterministically from
the evidence stored with each record; see ``static.py`` for the quality flags it
raises instead of padding thin records. ``taxonomy.py`` holds the one family list
behind ``backgroundTag`` (documented in ``docs/taxonomy.md``).

The optional LLM rewrite (``llm.py``) runs on stored records: ``llm_bundle`` compacts
each record's evidence, ``llm_prompt`` writes a batch of bundles as tagged lines,
``llm_client`` speaks Chat Completions, ``llm_verify`` checks every answered field
against the evidence and ``llm_cache`` keeps answers by model, prompt and evidence.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from errdex.enrich.static import enrich_record, enrichment_inputs
from errdex.evidence.link import link_tests
from errdex.evidence.tests import Expectation, expectations
from errdex.records.evidence import Evidence
from errdex.records.model import Record, RecordExtras, assign, attribute, empty_explanation

if TYPE_CHECKING:
    from errdex.enrich.stored import RecordStore

EnrichMode = Literal["static", "none"]

__all__ = ["EnrichMode", "enrich_pairs", "enrich_store", "enrichment_inputs",
           "link_repository_tests"]


def enrich_pairs(pairs: Iterable[tuple[Record, RecordExtras]]) -> int:
    """Static enrichment of each record from its ``extras.evidence``; how many were enriched."""
    count = 0
    for record, extras in pairs:
        evidence = extras.evidence or Evidence(symbol=extras.enclosing_symbol)
        extras.evidence = evidence
        assign(record, {attribute(key): value for key, value in empty_explanation().items()})
        enrich_record(record, extras, evidence)
        count += 1
    return count


def link_repository_tests(
    pairs: list[tuple[Record, Evidence]], tests: Iterable[tuple[str, str, str, bytes]],
    inline: Iterable[Expectation] = (),
) -> int:
    """Read every test file (path, language, grammar, bytes) and link its expectations, and
    those already read from product files' inline tests."""
    found: list[Expectation] = list(inline)
    for path, language, grammar, data in tests:
        try:
            found.extend(expectations(path, language, grammar, data))
        except (ValueError, RecursionError):  # an odd file must not stop a mine
            continue
    for _, evidence in pairs:
        evidence.tests.clear()
    return link_tests(pairs, found)


def enrich_store(
    store: RecordStore, repo: str | None = None, root: str | Path | None = None
) -> int:
    """Re-run static enrichment over stored records (of ``repo``, or all), from their stored
    evidence; with ``root`` (the repository checkout), re-link its tests first."""
    from errdex.languages import language_for_path
    from errdex.repo.git import load_tree, read_blobs

    stored = list(store.records(repo))
    pairs = [(s.record, s.extras) for s in stored]
    for _, extras in pairs:
        extras.evidence = extras.evidence or Evidence(symbol=extras.enclosing_symbol)
    if root is not None:
        tree = load_tree(root, classify=language_for_path)
        with_evidence = [(r, e.evidence) for r, e in pairs if e.evidence is not None]
        tests = ((f.path, f.language.name, f.language.grammar, data)
                 for f, data in read_blobs(tree.root, tree.tests))
        link_repository_tests(with_evidence, tests)
    count = enrich_pairs(pairs)
    store.upsert(pairs)
    return count
