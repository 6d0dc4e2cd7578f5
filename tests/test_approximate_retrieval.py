"""Approximate retrieval: a site in the index is found for a paste of an older wording of its
message, whichever word changed, even when a wrapper template matches the paste fully."""

from __future__ import annotations

import json
import re

import pytest

import errdex
from errdex.lookup import index as index_module
from errdex.lookup.retrieval import QUERY_CHARS, Retrieval, normalize, within
from errdex.records.model import Record
from tests.conftest import SEED_RECORD

# Templates as written today ({} a hole); the file each record sits in names it.
TEMPLATES = {
    "params.py": "Invalid parameter {} for field {}",
    "handlers.py": "no handler registered for {}",
    "names_inline.py": "Expected a name at line {}. See https://docs.example.com/troubleshooting",
    "connect.py": "Unable to connect to {} after {} attempts",
    "options.py": "unknown option '{}' given to the build command",
    "config.py": "could not open the configuration file {}",
    "wrapper.py": "Error: {}",
    "quota.py": "Error: disk quota exceeded for user {}",
    "cache.py": "cache entry {} expired before it was read",
    "schema.py": "column {} of table {} has an unsupported type {}",
    "retry.py": "gave up after {} retries while waiting for the lock on {}",
    "tokens.py": "unexpected token {} in expression, expected one of {}",
    "upload.py": "the uploaded file exceeds the maximum size of {} bytes",
}

# (paste of an older or hand-mangled wording, the file whose record it must find first)
OLD_WORDINGS = [
    # the rarest word is the one that changed (a typo fixed since)
    ("Invalid paramter 'x' for field width", "params.py"),
    ("no handler registerd for ping", "handlers.py"),
    ("cache entry k1 expird before it was read", "cache.py"),
    ("the uploaded file exceeds the maximum size of 1024 byte", "upload.py"),
    # words added or dropped since
    ("no handler registered ping", "handlers.py"),
    ("column id of table users has unsupported type uuid", "schema.py"),
    ("gave up after 3 retries waiting for lock on db.lock", "retry.py"),
    # the newer version appends text
    ("Expected a name at line 3", "names_inline.py"),
    # re-capitalised, re-quoted
    ("unable to Connect To db.example after 3 Attempts", "connect.py"),
    ('unknown option "verbose" given to the build command', "options.py"),
    ("UNEXPECTED TOKEN ')' IN EXPRESSION, EXPECTED ONE OF ']'", "tokens.py"),
    # a prefix added since, or printed by the runtime around it
    ("fatal: could not open configuration file /etc/app.toml", "config.py"),
    # a short wrapper matches the paste fully: the close specific template still wins
    ("Error: could not open the config file /etc/app.toml", "config.py"),
    ("Error: Unable to connect to db.example after 3 attempt", "connect.py"),
]


def _pattern(template: str) -> str:
    return "(.+?)".join(re.escape(part) for part in template.split("{}"))


@pytest.fixture
def index(store):
    seed = json.loads(SEED_RECORD.read_text(encoding="utf-8"))["record"]
    store.upsert([(Record.model_validate(dict(
        seed, id=f"{n:016x}", slug=f"t-{n}", filePath=path, lineNumber=10 + n,
        errorMessage=template, messagePattern=_pattern(template), errorClass=None,
    )), None) for n, (path, template) in enumerate(TEMPLATES.items())])
    return errdex.open_index(store)


@pytest.mark.parametrize(("paste", "path"), OLD_WORDINGS, ids=[p for p, _ in OLD_WORDINGS])
def test_an_old_wording_finds_the_site_first(index, paste, path):
    matches = index.explain(paste)
    assert matches, "explain returned nothing"
    best = matches[0]
    assert best.record.file_path == path, [(m.record.file_path, m.reason) for m in matches]
    assert best.approximate and re.match(r"approximate: \d+% similar", best.reason)


def test_an_old_wording_of_a_message_a_later_release_appended_a_line_to(store):
    """The issue's case: ``Expected a name at line 3`` before the newer version added
    ``\nSee https://docs…``; found alone, behind a wrapper and behind a class prefix."""
    seed = json.loads(SEED_RECORD.read_text(encoding="utf-8"))["record"]
    templates = {"names.py": "Expected a name at line {}\nSee https://docs.example.com/help",
                 "wrapper.py": "Error: {}"}
    store.upsert([(Record.model_validate(dict(
        seed, id=f"{n:016x}", slug=f"t-{n}", filePath=path, errorMessage=template,
        messagePattern=_pattern(template), errorClass=None)), None)
        for n, (path, template) in enumerate(templates.items())])
    index = errdex.open_index(store)
    for paste in ("Expected a name at line 3", "Error: Expected a name at line 3",
                  "SyntaxError: Expected a name at line 3"):
        best = index.explain(paste)[0]
        assert (best.record.file_path, best.approximate) == ("names.py", True), paste


def test_an_exact_full_match_of_a_specific_template_stays_first(index):
    best = index.explain("Error: disk quota exceeded for user alice")[0]
    assert (best.record.file_path, best.approximate) == ("quota.py", False)
    best = index.explain("Invalid parameter 'x' for field width")[0]
    assert (best.record.file_path, best.approximate) == ("params.py", False)
    assert list(best.bound.values()) == ["'x'", "width"]


def test_the_wrapper_still_answers_a_message_no_template_is_close_to(index):
    matches = index.explain("Error: out of memory")
    assert matches[0].record.file_path == "wrapper.py"
    assert not matches[0].approximate


def test_unrelated_text_finds_nothing(index):
    assert index.explain("the quick brown fox jumps over the lazy dog") == []


def test_user_text_is_never_query_syntax(index):
    for paste in ('NEAR("no" handler, 2) OR registered*', '"unbalanced " quote', "col:x ^y AND",
                  "handler\x00 registerd {}"):
        index.explain(paste)  # no FTS5 syntax error, whatever the paste holds
    found = index.explain('no "handler" registerd for* ping')
    assert found and found[0].record.file_path == "handlers.py"


def test_a_huge_paste_is_searched_on_a_bounded_prefix(index, monkeypatch):
    reads: list[str] = []
    search = Retrieval.search

    def counted(self, message, limit):
        reads.append(message)
        return search(self, message, limit)

    monkeypatch.setattr(Retrieval, "search", counted)
    paste = "no handler registerd for ping " + " ".join(f"w{n}x" for n in range(100_000))
    index.explain(paste)
    assert reads  # the retrieval ran, on a prefix only (QUERY_CHARS)
    assert normalize(reads[0][:QUERY_CHARS]).startswith("no handler registerd")


def test_the_retrieval_is_saved_with_the_index_snapshot(index, store, monkeypatch):
    def no_rebuild(*args, **kwargs):
        raise AssertionError("rebuilt although the snapshot holds it")

    monkeypatch.setattr(Retrieval, "build", no_rebuild)
    again = errdex.open_index(store)
    assert again.explain("no handler registerd for ping")[0].record.file_path == "handlers.py"


def test_retrieval_ranks_by_shared_rare_terms():
    retrieval = Retrieval.build([(1, "no handler registered for "), (2, "handler crashed "),
                                 (3, "registered users only "), (4, "nothing in common ")])
    found = retrieval.search("no handler registerd for ping", 3)
    assert found[0] == 1 and 4 not in found
    assert Retrieval(*retrieval.dump()).search("no handler registerd", 1) == [1]
    assert Retrieval.build([]).search("anything", 5) == []


def test_within_finds_a_template_inside_a_longer_text_but_not_a_short_one_anywhere():
    long = normalize("Expected a name at line . See https://docs.example.com/troubleshooting")
    assert within("expected a name at line 3", long) > 0.85
    assert within("error: ", "error: the disk is full and nothing can be written") == 0.0


def test_snapshot_format_was_bumped_for_the_saved_retrieval():
    assert index_module.SNAPSHOT_FORMAT >= 7
