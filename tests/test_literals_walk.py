"""A file's literals come from the site query's own walk when the sites were just read:
the same (line, text) list as a query of their own, in every language tried."""

from __future__ import annotations

import pytest

from errdex.languages import LANGUAGES, spec_for
from errdex.languages._engine import literals
from errdex.languages._engine.literals import file_literals

SOURCES = {
    "rust": b'''
fn load(path: &str) -> Result<(), String> {
    let hint = "check the path and try again";
    if path.is_empty() { return Err(format!("no file given at {}", path)); }
    panic!("configuration file could not be read");
}
''',
    "python": b'''
"""A module docstring, which is documentation and not output."""
def load(path):
    note = "check the path and try again"
    raise ValueError(f"no file given at {path} for loading")
''',
    "javascript": b'''
function load(path) {
  const hint = "check the path and try again";
  throw new Error(`no file given at ${path} for loading`);
}
''',
    "go": b'''
package main
import "errors"
func load() error {
    hint := "check the path and try again"
    return errors.New("no file given here for loading")
}
''',
}


@pytest.mark.parametrize("language", sorted(SOURCES))
def test_walk_and_own_query_agree(language: str) -> None:
    spec = spec_for(language)
    assert spec is not None
    source = SOURCES[language]
    literals._KEPT.clear()
    alone = file_literals(spec, source)  # a query of their own
    assert alone, "the fixture has worded literals"
    LANGUAGES[language].extract(source)
    assert literals._kept(source) is not None  # the site query's walk kept them
    assert file_literals(spec, source) == alone
    assert literals._kept(source) is None  # used once


def test_other_bytes_do_not_take_kept_literals() -> None:
    spec = spec_for("rust")
    assert spec is not None
    LANGUAGES["rust"].extract(SOURCES["rust"])
    other = SOURCES["rust"].replace(b"configuration file", b"settings document")
    assert any("settings document" in text for _, text in file_literals(spec, other))
