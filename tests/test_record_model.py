"""The record model is exactly the seed's format, and its JSON Schema is committed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from pydantic import ValidationError

from errdex.records.model import (
    DatasetLine,
    Record,
    json_keys,
    json_schema,
    record_json,
    slugify,
    source_window,
)
from tests.conftest import SEED_RECORD

SCHEMA_FILE = Path(__file__).resolve().parents[1] / "schema" / "dataset-line.schema.json"


def seed() -> dict:
    return json.loads(SEED_RECORD.read_text(encoding="utf-8"))


def test_model_has_exactly_the_seed_fields_in_order():
    assert json_keys(Record) == list(seed()["record"])
    assert len(Record.model_fields) == 32


def test_attributes_are_snake_case_and_json_keeps_the_seeds_keys():
    """Python reads ``record.file_path``; JSON, exports and the schema keep ``filePath``."""
    data = seed()["record"]
    record = Record.model_validate(data)
    assert (record.file_path, record.line_number) == (data["filePath"], data["lineNumber"])
    assert record.github_url == data["githubUrl"]
    assert all("_" not in key for key in record.model_dump())
    assert record.model_dump(mode="json") == data
    assert json.loads(record_json(record)) == data
    by_name = Record.model_validate(
        {name: data[key] for name, key in zip(Record.model_fields, json_keys(Record), strict=True)}
    )
    assert by_name == record
    assert "file_path" not in json.dumps(json_schema())


def test_seed_validates_against_committed_schema():
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(seed())


def test_committed_schema_is_generated_from_model():
    committed = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert committed == json_schema(), "run 'make schema' and commit schema/"


def test_schema_rejects_a_wrong_type():
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    bad = seed()
    bad["record"]["lineNumber"] = "243"
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(bad))
    assert errors


def test_seed_round_trips_byte_identical():
    line = DatasetLine.model_validate(seed())
    original = json.dumps(seed()["record"], ensure_ascii=False, separators=(",", ":"))
    assert record_json(line.record) == original


def test_slug_rules():
    assert slugify("deform_conv2d_backward: unsupported dtype ") == (
        "deform-conv2d-backward-unsupported-dtype"
    )
    assert slugify("  --  ", fallback="ValueError") == "valueerror"
    long = slugify("word " * 40)
    assert len(long) <= 80 and not long.endswith("-")


def test_source_window_clips_to_file():
    lines = [f"line {n}" for n in range(1, 31)]
    text, start, end = source_window(lines, 5)
    assert (start, end) == (1, 23)
    assert text.split("\n")[0] == "line 1" and text.split("\n")[-1] == "line 23"
    _, start, end = source_window(lines, 29)
    assert (start, end) == (11, 30)


def test_trusted_record_equals_model_construct():
    from errdex.records.model import trusted_record

    data = seed()["record"]
    fast, slow = trusted_record(dict(data)), Record.model_construct(**dict(data))
    assert fast == slow and fast.model_dump() == slow.model_dump()
    assert record_json(fast) == record_json(Record.model_validate(data))
    fast.slug = "changed"
    assert fast.slug == "changed"


def test_trusted_record_reads_any_key_order_and_keeps_records_apart():
    """The attributes are cached by key order: another order, or a record read after a first
    one of the same order, is still its own record with its own values."""
    from errdex.records.model import trusted_record

    data = seed()["record"]
    first = trusted_record(dict(data))
    reordered = dict(reversed(list(data.items())))
    second = trusted_record({**reordered, "slug": "other-slug"})
    assert second.slug == "other-slug" and first.slug == data["slug"]
    assert second.file_path == first.file_path == data["filePath"]
    assert second.model_dump() == {**first.model_dump(), "slug": "other-slug"}
    first.slug = "changed"
    assert trusted_record(dict(data)).slug == data["slug"]


def test_schema_and_model_refuse_hostile_values():
    """The committed schema (for other consumers) and the model agree on the bounds."""
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    for field, value in [
        ("lineNumber", 10**20), ("sourceCodeStart", 0), ("schemaVersion", 999),
        ("schemaVersion", 1), ("githubUrl", "javascript:alert(1)"),
        ("githubUrl", "http://github.com/a/b"), ("githubUrl", "data:text/html,x"),
        ("repo", ""), ("slug", ""), ("slug", "Not A Slug"), ("slug", "trailing-"),
    ]:
        bad = seed()
        bad["record"][field] = value
        assert list(validator.iter_errors(bad)), (field, value)
        with pytest.raises(ValidationError):
            Record.model_validate(bad["record"])
    for field, value in [("githubUrl", None), ("schemaVersion", 3), ("slug", "a-2")]:
        good = seed()
        good["record"][field] = value
        validator.validate(good)
        Record.model_validate(good["record"])


def test_slugs_always_fit_the_slug_pattern():
    """Mining builds records through the model, so every slug it makes must pass it."""
    from errdex.records.model import SLUG_PATTERN

    for text, fallback in [("", "x" * 79 + "-y"), ("--", "A::B" * 30), ("é", "é"),
                           ("x" * 200, "e"), ("a  b", "e")]:
        assert re.fullmatch(SLUG_PATTERN, slugify(text, fallback)), (text, fallback)
