"""Every language fixture yields exactly its reviewed golden sites."""

from __future__ import annotations

import json
import os

import pytest

from tests.golden import FIXTURES, fixture_files, golden_path, render_golden

UPDATE = os.environ.get("ERRDEX_UPDATE_GOLDEN") == "1"
FILES = [p for p in fixture_files() if golden_path(p).exists() or UPDATE]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_matches_golden(path):
    rendered = render_golden(path)
    golden = golden_path(path)
    if UPDATE:
        golden.write_text(rendered, encoding="utf-8")
    expected = json.loads(golden.read_text(encoding="utf-8"))
    assert json.loads(rendered) == expected


def test_every_registered_language_has_a_golden_fixture():
    from errdex.languages import LANGUAGES

    covered = {
        p.parent.name for p in fixture_files() if golden_path(p).exists()
    } | {"python", "rust"}  # python and rust keep their golden tables in their own tests
    assert set(LANGUAGES) <= covered, f"no golden fixture for {set(LANGUAGES) - covered}"
