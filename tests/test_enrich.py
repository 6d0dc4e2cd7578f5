"""Static enrichment end to end: fixture repositories with docs and tests, mined by errdex.mine."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import get_args

import pytest
from tree_sitter_language_pack import get_parser

import errdex
from errdex.enrich import enrich_store
from errdex.enrich.taxonomy import FAMILIES, markdown
from errdex.records.model import EXPLANATION_FIELDS, HandlingStrategy, Record, RecordExtras
from errdex.store.sqlite import SQLiteStore
from tests.conftest import GitRepo

FIXTURES = Path(__file__).parent / "fixtures" / "enrich"
DOCS = Path(__file__).parent.parent / "docs" / "taxonomy.md"
FAMILY_NAMES = {f.name for f in FAMILIES}
# How the test itself checks that a snippet parses: statements inside a function.
WRAP = {"python": "{}", "javascript": "{}", "rust": "fn check() {{\n{}\n}}"}
ITEM_WRAP = {"python": "{}", "javascript": "{}", "rust": "{}"}


def _mine(make_repo: Callable[..., GitRepo], store: SQLiteStore, name: str) -> dict[str, tuple[
        Record, RecordExtras]]:
    repo = make_repo()
    shutil.copytree(FIXTURES / name, repo.root, dirs_exist_ok=True)
    repo.commit("fixture")
    errdex.mine(repo.root, db=store)
    return {s.record.error_message: (s.record, s.extras) for s in store.records()}


def _parses(language: str, code: str, wrapper: str) -> bool:
    tree = get_parser(language).parse(wrapper.format(code).encode())  # type: ignore[arg-type]
    return not tree.root_node.has_error


def _check_common(record: Record, extras: RecordExtras, language: str) -> None:
    assert record.handling_strategy in get_args(HandlingStrategy)
    assert record.background_tag in FAMILY_NAMES
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", tag) for tag in record.tags)
    if record.validation_code:
        assert _parses(language, record.validation_code, WRAP[language])
    if record.try_catch_pattern:
        assert _parses(language, record.try_catch_pattern, WRAP[language])
    if record.type_guard:
        assert _parses(language, record.type_guard, ITEM_WRAP[language])
    assert extras.evidence is not None


def test_taxonomy_is_one_documented_kebab_case_list() -> None:
    names = [f.name for f in FAMILIES]
    assert 90 <= len(names) <= 110
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", n) for n in names)
    assert names[-1] == "other"
    assert {"unsupported-dtype", "invalid-argument", "not-found", "timeout", "index-out-of-range",
            "shape-mismatch", "not-implemented", "parse-error", "permission-denied",
            "connection-error", "config-missing", "version-mismatch"} <= set(names)
    assert {f.strategy for f in FAMILIES} - {None} <= set(get_args(HandlingStrategy))
    assert DOCS.read_text(encoding="utf-8") == markdown()


def test_python_fields_cite_docstring_guard_and_test(make_repo, store) -> None:
    records = _mine(make_repo, store, "python")
    record, extras = records["order must be 'C' or 'F', got {order!r}"]
    _check_common(record, extras, "python")
    doc = record.documentation or ""
    assert "`Shape.reshape` (src/shapes/core.py:12)" in doc
    assert 'If ``order`` is not "C" or "F".' in doc  # the docstring's Raises entry
    assert '`order not in ("C", "F")`' in doc  # the guard
    assert "`test_reshape_rejects_unknown_order` (tests/test_core.py:6)" in (
        record.trigger_scenarios or "")
    assert 'Shape().reshape((2, 3), order="Z")' in (record.trigger_scenarios or "")
    assert any('`order in ("C", "F")`' in s for s in record.solutions)
    assert record.example_fix is not None and 'Shape().reshape((2, 3), order="Z")' in (
        record.example_fix)
    assert record.handling_strategy == "validation"
    assert record.type_guard is not None and 'return order in ("C", "F")' in record.type_guard
    assert record.try_catch_pattern is not None and "except ValueError" in record.try_catch_pattern
    assert extras.quality_flags == []
    assert [t.name for t in extras.evidence.tests] == ["test_reshape_rejects_unknown_order"]


def test_thin_record_is_flagged_not_padded(make_repo, store) -> None:
    record, extras = _mine(make_repo, store, "python")["x"]  # raise NotImplementedError("x")
    _check_common(record, extras, "python")
    assert {"no-doc", "no-guard", "no-test", "no-trigger", "generic-message"} <= set(
        extras.quality_flags)
    assert record.trigger_scenarios is None
    assert record.common_situations is None
    assert record.example_fix is None
    assert record.validation_code is None and record.type_guard is None
    assert record.prevention_tips == []
    assert record.background_tag == "not-implemented"  # from the class name, not invented


def test_rust_fields_cite_panics_section_and_should_panic(make_repo, store) -> None:
    records = _mine(make_repo, store, "rust")
    record, extras = records["chunk size must be positive"]
    _check_common(record, extras, "rust")
    assert "Panics if `size` is zero." in (record.documentation or "")
    assert "the assertion `size > 0` fails" in (record.documentation or "")
    assert "`zero_chunk_size_panics` (tests/sum.rs:5)" in (record.trigger_scenarios or "")
    assert record.type_guard == (
        "/// True when chunked_sum does not fail with: chunk size must be positive\n"
        "fn can_chunked_sum(size: usize) -> bool {\n    size > 0\n}")
    assert "catch_unwind" in (record.try_catch_pattern or "")
    width, width_extras = records["width: unsupported dtype {:?}"]
    _check_common(width, width_extras, "rust")
    assert width.background_tag == "unsupported-dtype"
    assert width.handling_strategy == "unsupported"
    assert "DType::F32, DType::F64" in width.solutions[0]
    assert "matches!(dtype, DType::F32 | DType::F64)" in (width.type_guard or "")
    level, level_extras = records["level {level} is above 9"]
    assert "`level_too_high` (tests/sum.rs:11)" in (level.trigger_scenarios or "")
    assert level.validation_code is None  # `level` is a local: no caller-side check to write
    assert "no-doc" in level_extras.quality_flags


def test_javascript_fields_cite_jsdoc_and_jest(make_repo, store) -> None:
    records = _mine(make_repo, store, "js")
    record, extras = records["port out of range: ${port}"]
    _check_common(record, extras, "javascript")
    assert '@throws for RangeError: "if the port is outside 1..65535"' in (
        record.documentation or "")
    assert "`parsePort > rejects ports above 65535` (test/parse.test.js:5)" in (
        record.trigger_scenarios or "")
    assert "err instanceof RangeError && /^port out of range: (.+?)$/s.test(err.message)" in (
        record.try_catch_pattern or "")
    assert 'parsePort("70000")' in (record.try_catch_pattern or "")


def test_enrich_none_leaves_explanations_empty(make_repo, store) -> None:
    repo = make_repo()
    shutil.copytree(FIXTURES / "python", repo.root, dirs_exist_ok=True)
    repo.commit("fixture")
    errdex.mine(repo.root, db=store, enrich="none")
    for stored in store.records():
        assert all(stored.record.model_dump()[f] in (None, []) for f in EXPLANATION_FIELDS)
        assert stored.extras.evidence is None and stored.extras.quality_flags == []


@pytest.mark.parametrize("relink", [False, True])
def test_enrich_store_reruns_from_stored_evidence(make_repo, store, relink) -> None:
    repo = make_repo()
    shutil.copytree(FIXTURES / "python", repo.root, dirs_exist_ok=True)
    repo.commit("fixture")
    errdex.mine(repo.root, db=store)
    before = {s.record.id: s.record.model_dump() for s in store.records()}
    assert enrich_store(store, root=repo.root if relink else None) == len(before)
    after = {s.record.id: s.record.model_dump() for s in store.records()}
    assert after == before  # deterministic: the same evidence gives the same text


@pytest.mark.parametrize(("code", "name", "found"), [
    ("size < 0", "size", True),
    ("self.size < 0", "size", False),  # a member, not the parameter
    ("$size < 0", "size", False),
    ("sizes < 0", "size", False),
    ("size_of(x) < 0", "size", False),
    ("x.size < 0 || size > 9", "size", True),  # the second one stands on its own
    ("é < 0", "é", True),
    ("aé < 0", "é", False),  # a Unicode letter is a word character
    ("", "x", False),
])
def test_a_type_guard_uses_the_parameters_its_condition_names(code, name, found):
    from errdex.enrich.code import mentions
    assert mentions(code, name) is found


def test_parameter_mentions_are_found_as_the_regular_expression_finds_them():
    """Text search, no expression compiled per name: the same answers as ``re`` on random
    text holding word characters, Unicode digits, ``.``, ``$`` and separators."""
    import random
    import re

    from errdex.enrich.code import mentions
    alphabet = [*"ab_.$ (x1éZ-", "\u0663", "\u216b", "\u00b2", "\u2028"]
    pick = random.Random(7)
    for _ in range(20000):
        code = "".join(pick.choice(alphabet) for _ in range(pick.randint(0, 9)))
        name = "".join(pick.choice(alphabet) for _ in range(pick.randint(0, 3)))
        expected = re.search(rf"(?<![\w.$]){re.escape(name)}\b", code) is not None
        assert mentions(code, name) is expected, (code, name)
