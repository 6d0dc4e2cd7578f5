"""A paste of an older, shorter wording of a message (a suffix appended to the template
since: mockk's ``no answer found for: X`` before ``… among the configured answers: (…)``)
lands on the template whose text before its first hole opens it, above a template only
similar to it; a lead several templates share (a family's preamble) says nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import errdex
from errdex.lookup.retrieval import normalize, openers
from errdex.records.model import Record
from tests.conftest import SEED_RECORD

TEMPLATES = {
    "MockStub.kt": "no answer found for {} among the configured answers: ({})",
    "AnswerOpportunity.kt": "no answer provided for {}",
    "Lexer.kt": "Unexpected JSON token at offset {}: Expected quotation mark, got {}",
    "Lexer2.kt": "Unexpected JSON token at offset {}: Expected end of the array, got {}",
}


def _pattern(template: str) -> str:
    return "(.+?)".join(re.escape(part) for part in template.split("{}"))


def test_the_one_template_whose_lead_opens_the_message_is_an_opener() -> None:
    message = normalize("no answer found for: Repo(#1).load([1], [a, b])")
    leads = {1: "no answer found for ", 2: "no answer provided for ", 3: "no answer "}
    assert openers(leads, message) == {1}


def test_a_lead_of_two_words_or_cut_inside_a_word_opens_nothing() -> None:
    assert openers({1: "no answer "}, normalize("no answer found for x")) == set()
    assert openers({1: "no answer fou"}, normalize("no answer found for x")) == set()


def test_a_lead_two_templates_share_opens_nothing() -> None:
    message = normalize("Unexpected JSON token at offset 236: Encountered an unknown key 'x'.")
    leads = {1: "Unexpected JSON token at offset ", 2: "Unexpected JSON token at offset "}
    assert openers(leads, message) == set()


def test_the_older_wording_finds_the_template_it_opens_first(tmp_path: Path) -> None:
    seed = json.loads(SEED_RECORD.read_text(encoding="utf-8"))["record"]
    with errdex.open_store(tmp_path / "opening.sqlite") as store:
        store.upsert([(Record.model_validate(dict(
            seed, id=f"{n:016x}", slug=f"t-{n}", filePath=path, errorMessage=template,
            messagePattern=_pattern(template), errorClass=None)), None)
            for n, (path, template) in enumerate(TEMPLATES.items())])
        index = errdex.open_index(store)
        best = index.explain(
            "io.mockk.MockKException: no answer found for: Repo(#1).load([1], [a, b])")[0]
    assert (best.record.file_path, best.approximate) == ("MockStub.kt", True)
